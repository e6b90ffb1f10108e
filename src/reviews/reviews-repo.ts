import { sql, type ExpressionBuilder } from 'kysely';
import type { DatabaseHandle, Executor } from '../core/db/index.js';
import type { Database, ReviewRow, ReviewStatus } from '../core/db/schema.js';
import { newId } from '../core/ids.js';
import {
  claimJobs,
  finishLeased,
  releaseLeases as releaseJobLeases,
  renewLeases as renewJobLeases,
  type JobFilter,
  type QueueTable,
} from '../core/job-queue.js';
import { statusPredicate } from '../events/events-repo.js';
import { judgedProjects } from '../submissions/judged-projects-repo.js';
import { enqueueWebhookEvent } from '../webhooks/webhook-events.js';

/**
 * Queries of the review queue. The `reviews` rows are a queue of the core job queue
 * (core/job-queue.ts claims, finishes and renews their leases): a model review
 * is `queued` (due at next_attempt_at) → `running` (leased to one worker until lease_expires_at) →
 * `succeeded` | `failed`, or back to `queued` for a retry. Every transition that finishes a lease is
 * conditioned on `lease_owner = me AND status = 'running'`, so a worker that lost its lease (paused
 * past the expiry while another took over) can never overwrite the other's result.
 */

const INSERT_CHUNK = 500;

/** Events whose effective status is judging and whose AI reviews have not been started yet. */
export async function findEventsDueForJudging(db: Executor, now: string): Promise<string[]> {
  const rows = await db
    .selectFrom('events')
    .select('id')
    .where((eb) => statusPredicate(eb, 'judging', now))
    .where('judging_started_at', 'is', null)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The exactly-once side effect of entering judging. Claims the event by setting judging_started_at
 * where it is still null (only one process can change that row) and, in the same transaction,
 * queues one review per submitted project of an approved registration × model of the event.
 * Returns the number of reviews queued, or null when another process (or an earlier run) had
 * already claimed the event or it is not in judging (any more).
 */
export async function startJudging(db: Executor, eventId: string, now: string): Promise<number | null> {
  const run = async (tx: Executor): Promise<number | null> => {
    const claim = await tx
      .updateTable('events')
      .set({ judging_started_at: now })
      .where('id', '=', eventId)
      .where('judging_started_at', 'is', null)
      .where((eb) => statusPredicate(eb, 'judging', now))
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) !== 1) return null;
    await enqueueWebhookEvent(tx, { type: 'judging.started', eventId, data: { event_id: eventId, judging_started_at: now }, at: now });
    const event = await tx.selectFrom('events').select('models').where('id', '=', eventId).executeTakeFirstOrThrow();
    const models = JSON.parse(event.models) as string[];
    if (models.length === 0) return 0;
    const projects = await judgedProjects(tx, eventId).select('projects.id').orderBy('projects.first_submitted_at').orderBy('projects.id').execute();
    const rows = projects.flatMap((p) =>
      models.map((m) => ({
        id: newId('rev'),
        event_id: eventId,
        project_id: p.id,
        reviewer_kind: 'model' as const,
        reviewer: m,
        group_key: m,
        status: 'queued' as const,
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      })),
    );
    let inserted = 0;
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const res = await tx
        .insertInto('reviews')
        .values(rows.slice(i, i + INSERT_CHUNK))
        .onConflict((oc) => oc.columns(['project_id', 'reviewer']).doNothing())
        .executeTakeFirst();
      inserted += Number(res.numInsertedOrUpdatedRows ?? 0);
    }
    return inserted;
  };
  if ('isTransaction' in db && db.isTransaction) return run(db);
  return db.transaction().execute(run);
}

/** The review queue as the core job queue reads it: expired leases are taken over first, then queued reviews in next_attempt_at order. */
export const REVIEW_QUEUE: QueueTable = { table: 'reviews', first: 'expired' };

/**
 * Leases up to `limit` claimable model reviews of one provider to `owner` and counts the attempt
 * (core/job-queue.ts claimJobs: one atomic statement per kind, never more than `limit` rows).
 * `takeOver: false` skips expired leases: the workers look for those once per poll, not on every refill.
 */
export async function claimReviews(
  db: Executor,
  dialect: DatabaseHandle['dialect'],
  q: { provider: string; owner: string; now: string; leaseUntil: string; limit: number; takeOver?: boolean },
): Promise<ReviewRow[]> {
  const prefix = `${q.provider}/`;
  const lane: JobFilter = (eb) =>
    eb.and([eb('reviews.reviewer_kind', '=', 'model'), eb(sql<string>`lower(substr(reviews.reviewer, 1, ${prefix.length}))`, '=', prefix)]);
  return claimJobs<ReviewRow>(db, dialect, REVIEW_QUEUE, {
    owner: q.owner,
    now: q.now,
    leaseUntil: q.leaseUntil,
    limit: q.limit,
    takeOver: q.takeOver !== false,
    where: lane,
  });
}

/** Everything a review job needs to build its prompt, in one query. */
export async function loadJob(db: Executor, reviewId: string) {
  return db
    .selectFrom('reviews')
    .innerJoin('projects', 'projects.id', 'reviews.project_id')
    .innerJoin('events', 'events.id', 'reviews.event_id')
    .select([
      'events.name as event_name',
      'events.description as event_description',
      'events.status as event_status',
      'events.registration_deadline',
      'events.submission_deadline',
      'events.tracks',
      'events.dimensions',
      'events.models',
      'projects.project_name',
      'projects.description',
      'projects.github_url',
      'projects.project_website',
      'projects.demo_video_url',
      'projects.track_id',
      'projects.team_size',
      'projects.review_status',
    ])
    .where('reviews.id', '=', reviewId)
    .executeTakeFirst();
}

export type JobContext = NonNullable<Awaited<ReturnType<typeof loadJob>>>;

/**
 * Extends the leases a worker holds on the reviews it is working on (the heartbeat of a live worker).
 * `owners` are the lease tokens of its claims in flight (one per claim statement).
 */
export async function renewLeases(db: Executor, owners: string | string[], ids: string[], leaseUntil: string): Promise<number> {
  return renewJobLeases(db, 'reviews', typeof owners === 'string' ? [owners] : owners, ids, leaseUntil);
}

export interface AttemptFacts {
  latency_ms: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  raw_reply: string | null;
}

/**
 * Token counts add up over attempts (what the review cost); latency and the raw reply are those
 * of the last attempt.
 */
function attemptColumns(f: AttemptFacts) {
  return {
    latency_ms: f.latency_ms,
    raw_reply: f.raw_reply,
    input_tokens: f.input_tokens === null ? sql<number | null>`input_tokens` : sql<number>`coalesce(input_tokens, 0) + ${f.input_tokens}`,
    output_tokens: f.output_tokens === null ? sql<number | null>`output_tokens` : sql<number>`coalesce(output_tokens, 0) + ${f.output_tokens}`,
  };
}

export async function finishSucceeded(
  db: Executor,
  q: { id: string; owner: string; now: string; scores: Record<string, number>; summary: string } & AttemptFacts,
): Promise<boolean> {
  const done = await finishLeased(db, 'reviews', q, {
    status: 'succeeded',
    scores: JSON.stringify(q.scores),
    summary: q.summary,
    last_error: null,
    next_attempt_at: null,
    completed_at: q.now,
    updated_at: q.now,
    ...attemptColumns(q),
  });
  return done !== undefined;
}

export async function scheduleRetry(
  db: Executor,
  q: { id: string; owner: string; now: string; nextAttemptAt: string; error: string } & AttemptFacts,
): Promise<boolean> {
  const done = await finishLeased(db, 'reviews', q, {
    status: 'queued',
    last_error: q.error,
    next_attempt_at: q.nextAttemptAt,
    updated_at: q.now,
    ...attemptColumns(q),
  });
  return done !== undefined;
}

export async function finishFailed(db: Executor, q: { id: string; owner: string; now: string; error: string } & AttemptFacts): Promise<boolean> {
  // The failure and its review.failed webhook deliveries commit together.
  const run = async (tx: Executor) => {
    const row = (await finishLeased(
      tx,
      'reviews',
      q,
      {
        status: 'failed',
        scores: null,
        summary: null,
        last_error: q.error,
        next_attempt_at: null,
        completed_at: q.now,
        updated_at: q.now,
        ...attemptColumns(q),
      },
      ['event_id', 'project_id', 'reviewer'],
    )) as { event_id: string; project_id: string; reviewer: string } | undefined;
    if (!row) return false;
    await enqueueWebhookEvent(tx, {
      type: 'review.failed',
      eventId: row.event_id,
      data: { event_id: row.event_id, project_id: row.project_id, review_id: q.id, reviewer: row.reviewer, error: q.error },
      at: q.now,
    });
    return true;
  };
  if ('isTransaction' in db && db.isTransaction) return run(db);
  return db.transaction().execute(run);
}

/** Gives a lease back untouched (shutdown): the interrupted attempt does not count. */
export async function releaseLease(db: Executor, q: { id: string; owner: string; now: string }): Promise<boolean> {
  return (await releaseLeases(db, { ids: [q.id], owner: q.owner, now: q.now })) === 1;
}

/** Gives leases of one claim back untouched, before any work on them (a claim's surplus); returns how many. */
export async function releaseLeases(db: Executor, q: { ids: string[]; owner: string; now: string }): Promise<number> {
  return releaseJobLeases(db, 'reviews', q);
}

/** pending → in_review when a first review of the project starts. */
export async function markProjectInReview(db: Executor, projectId: string): Promise<void> {
  await db.updateTable('projects').set({ review_status: 'in_review' }).where('id', '=', projectId).where('review_status', '=', 'pending').execute();
}

const unfinishedModelReview = (eb: ExpressionBuilder<Database, 'projects'>) =>
  eb.exists(
    eb
      .selectFrom('reviews')
      .select(sql`1`.as('one'))
      .whereRef('reviews.project_id', '=', 'projects.id')
      .where('reviews.reviewer_kind', '=', 'model')
      .where('reviews.status', 'in', ['queued', 'running']),
  );
const anyModelReview = (eb: ExpressionBuilder<Database, 'projects'>) =>
  eb.exists(
    eb
      .selectFrom('reviews')
      .select(sql`1`.as('one'))
      .whereRef('reviews.project_id', '=', 'projects.id')
      .where('reviews.reviewer_kind', '=', 'model'),
  );

/**
 * → reviewed once every model review of the project is finished (succeeded or failed). One
 * statement run after the review's own update has committed: of two reviews finishing at the same
 * time, the later check sees both finished.
 */
export async function markReviewedIfDone(db: Executor, where: { projectId: string } | { eventId: string }): Promise<void> {
  if ('projectId' in where) {
    // The common case (another review of the project still open) costs one read, not a write.
    const open = await db
      .selectFrom('reviews')
      .select('id')
      .where('project_id', '=', where.projectId)
      .where('reviewer_kind', '=', 'model')
      .where('status', 'in', ['queued', 'running'])
      .limit(1)
      .executeTakeFirst();
    if (open) return;
  }
  let q = db
    .updateTable('projects')
    .set({ review_status: 'reviewed' })
    .where('review_status', '!=', 'reviewed')
    .where((eb) => eb.not(unfinishedModelReview(eb)))
    .where((eb) => anyModelReview(eb));
  q = 'projectId' in where ? q.where('id', '=', where.projectId) : q.where('event_id', '=', where.eventId);
  await q.execute();
}

/** Model identifiers that have queued reviews (to fail those of unconfigured providers). */
export async function queuedModels(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom('reviews').select('reviewer').distinct().where('status', '=', 'queued').where('reviewer_kind', '=', 'model').execute();
  return rows.map((r) => r.reviewer);
}

/** Fails every queued review of `model` at once with `reason` (no call is made); returns their events. */
export async function failQueuedForModel(db: Executor, q: { model: string; reason: string; now: string }): Promise<string[]> {
  const rows = await db
    .updateTable('reviews')
    .set({ status: 'failed', last_error: q.reason, next_attempt_at: null, completed_at: q.now, updated_at: q.now })
    .where('reviewer', '=', q.model)
    .where('reviewer_kind', '=', 'model')
    .where('status', '=', 'queued')
    .returning('event_id')
    .execute();
  return [...new Set(rows.map((r) => r.event_id))];
}

export interface ReviewListFilter {
  status?: ReviewStatus;
  projectId?: string;
  /** Rows to read: the page size plus one. */
  limit: number;
  /** (project_id, reviewer) of the last review already seen. */
  after?: readonly [string, string];
}

/**
 * One page of an event's reviews, grouped by project (project ids sort by creation) and within a
 * project by reviewer. (project_id, reviewer) is unique, so the order is total, and the
 * (event_id[, status], project_id, reviewer) indexes serve each page as a range.
 */
export async function listReviews(db: Executor, eventId: string, f: ReviewListFilter) {
  let q = db
    .selectFrom('reviews')
    .innerJoin('projects', 'projects.id', 'reviews.project_id')
    .innerJoin('registrations', 'registrations.id', 'projects.registration_id')
    .selectAll('reviews')
    .select(['projects.project_name', 'registrations.team_name'])
    .where('reviews.event_id', '=', eventId);
  if (f.status) q = q.where('reviews.status', '=', f.status);
  if (f.projectId) q = q.where('reviews.project_id', '=', f.projectId);
  const after = f.after;
  if (after) q = q.where((eb) => eb(eb.refTuple('reviews.project_id', 'reviews.reviewer'), '>', eb.tuple(after[0], after[1])));
  return q.orderBy('reviews.project_id').orderBy('reviews.reviewer').limit(f.limit).execute();
}

/**
 * Puts finished model reviews of an event back in the queue, as new: attempts, error, scores and
 * usage are cleared. Running reviews are left alone (they are being done right now). Projects with
 * re-queued reviews go back from reviewed to in_review.
 */
export async function requeue(db: Executor, q: { eventId: string; model?: string; statuses: ReviewStatus[]; now: string }): Promise<number> {
  let upd = db
    .updateTable('reviews')
    .set({
      status: 'queued',
      attempts: 0,
      scores: null,
      summary: null,
      last_error: null,
      raw_reply: null,
      latency_ms: null,
      input_tokens: null,
      output_tokens: null,
      lease_owner: null,
      lease_expires_at: null,
      completed_at: null,
      next_attempt_at: q.now,
      updated_at: q.now,
    })
    .where('event_id', '=', q.eventId)
    .where('reviewer_kind', '=', 'model')
    .where('status', 'in', q.statuses);
  if (q.model) upd = upd.where('reviewer', '=', q.model);
  const res = await upd.executeTakeFirst();
  const n = Number(res.numUpdatedRows);
  if (n > 0) {
    await db
      .updateTable('projects')
      .set({ review_status: 'in_review' })
      .where('event_id', '=', q.eventId)
      .where('review_status', '=', 'reviewed')
      .where((eb) => unfinishedModelReview(eb))
      .execute();
  }
  return n;
}

/**
 * The project of the organizer's review page, with its team and whether it takes part in judging
 * (its registration is approved). One primary-key lookup; undefined when it is not of this event.
 */
export async function findProjectForReviewPage(db: Executor, eventId: string, projectId: string) {
  return db
    .selectFrom('projects')
    .innerJoin('registrations', 'registrations.id', 'projects.registration_id')
    .selectAll('projects')
    .select(['registrations.team_name', 'registrations.status as registration_status'])
    .where('projects.id', '=', projectId)
    .where('projects.event_id', '=', eventId)
    .executeTakeFirst();
}

/**
 * Every review of one project (AI and human), each human one with its reviewer's name and address.
 * One range read of the (project_id, reviewer) unique index, plus a primary-key lookup per human
 * review. Models first, then humans by when they first reviewed.
 */
export async function listProjectReviews(db: Executor, projectId: string) {
  return db
    .selectFrom('reviews')
    .leftJoin('users', (join) => join.onRef('users.id', '=', 'reviews.reviewer').on('reviews.reviewer_kind', '=', 'human'))
    .select([
      'reviews.id',
      'reviews.project_id',
      'reviews.reviewer_kind',
      'reviews.reviewer',
      'reviews.group_key',
      'reviews.status',
      'reviews.scores',
      'reviews.summary',
      'reviews.attempts',
      'reviews.last_error',
      'reviews.next_attempt_at',
      'reviews.latency_ms',
      'reviews.input_tokens',
      'reviews.output_tokens',
      'reviews.created_at',
      'reviews.updated_at',
      'reviews.completed_at',
      'users.name as reviewer_name',
      'users.email as reviewer_email',
    ])
    .where('reviews.project_id', '=', projectId)
    .orderBy('reviews.reviewer_kind', 'desc')
    .orderBy('reviews.created_at')
    .orderBy('reviews.reviewer')
    .execute();
}
