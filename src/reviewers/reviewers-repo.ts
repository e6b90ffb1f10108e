import { sql } from 'kysely';
import type { Executor } from '../core/db/index.js';
import { onTeamOf } from '../core/db/team-membership-repo.js';
import type { InvitationRow, ReviewRow } from '../core/db/schema.js';
import { judgedProjects } from '../submissions/judged-projects-repo.js';

export async function insertInvitation(db: Executor, row: InvitationRow): Promise<void> {
  await db.insertInto('reviewer_invitations').values(row).execute();
}

export async function deleteInvitation(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('reviewer_invitations').where('id', '=', id).execute();
}

/**
 * Removes the unused invitations of one address to one event that are older than `keepId`. Ids are
 * time-sorted, so of two concurrent re-invitations exactly the newer one survives.
 */
export async function deleteOlderUnusedInvitations(db: Executor, eventId: string, email: string, keepId: string): Promise<void> {
  await db
    .deleteFrom('reviewer_invitations')
    .where('event_id', '=', eventId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .where('id', '<', keepId)
    .execute();
}

/** Deletes an unused invitation of the event; false when there is none with that id. */
export async function deleteUnusedInvitation(db: Executor, eventId: string, id: string): Promise<boolean> {
  const res = await db
    .deleteFrom('reviewer_invitations')
    .where('id', '=', id)
    .where('event_id', '=', eventId)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function findInvitationByHash(db: Executor, hash: string) {
  return db
    .selectFrom('reviewer_invitations')
    .innerJoin('events', 'events.id', 'reviewer_invitations.event_id')
    .selectAll('reviewer_invitations')
    .select(['events.name as event_name', 'events.status as event_status', 'events.registration_deadline', 'events.submission_deadline'])
    .where('reviewer_invitations.token_hash', '=', hash)
    .executeTakeFirst();
}

export async function findInvitation(db: Executor, id: string): Promise<InvitationRow | undefined> {
  return db.selectFrom('reviewer_invitations').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Marks the invitation used, only if nobody has, it has not expired and its event is neither ended
 * nor cancelled: of two concurrent accepts exactly one changes the row, and an event closed between
 * the check and the claim still closes the invitation. True when this call won.
 */
export async function claimInvitation(db: Executor, id: string, userId: string, now: string): Promise<boolean> {
  const res = await db
    .updateTable('reviewer_invitations')
    .set({ accepted_at: now, accepted_by: userId })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .where('event_id', 'in', (eb) => eb.selectFrom('events').select('id').where('status', 'not in', ['ended', 'cancelled']))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Invitations not yet accepted, by id (creation order), after `after`, at most `limit`. */
export async function listUnusedInvitations(db: Executor, eventId: string, page: { limit: number; after?: string }): Promise<InvitationRow[]> {
  let q = db.selectFrom('reviewer_invitations').selectAll().where('event_id', '=', eventId).where('accepted_at', 'is', null);
  if (page.after !== undefined) q = q.where('id', '>', page.after);
  return q.orderBy('id', 'asc').limit(page.limit).execute();
}

export async function addReviewer(db: Executor, eventId: string, userId: string, now: string): Promise<void> {
  await db
    .insertInto('event_reviewers')
    .values({ event_id: eventId, user_id: userId, created_at: now })
    .onConflict((oc) => oc.columns(['event_id', 'user_id']).doNothing())
    .execute();
}

export async function isReviewer(db: Executor, eventId: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom('event_reviewers').select('user_id').where('event_id', '=', eventId).where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

/**
 * The event's reviewers in the order they joined (user id breaks ties), after `after`
 * (created_at, user_id), at most `limit`; served by the (event_id, created_at, user_id) index.
 */
export async function listReviewers(db: Executor, eventId: string, page: { limit: number; after?: readonly [string, string] }) {
  let q = db
    .selectFrom('event_reviewers')
    .innerJoin('users', 'users.id', 'event_reviewers.user_id')
    .select((eb) => [
      'users.id as user_id',
      'users.email',
      'users.name',
      'event_reviewers.created_at as added_at',
      eb
        .selectFrom('reviews')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('reviews.event_id', '=', eventId)
        .where('reviews.reviewer_kind', '=', 'human')
        .whereRef('reviews.reviewer', '=', 'users.id')
        .as('reviews_count'),
    ])
    .where('event_reviewers.event_id', '=', eventId);
  const after = page.after;
  if (after) q = q.where((eb) => eb(eb.refTuple('event_reviewers.created_at', 'event_reviewers.user_id'), '>', eb.tuple(after[0], after[1])));
  return q.orderBy('event_reviewers.created_at', 'asc').orderBy('event_reviewers.user_id', 'asc').limit(page.limit).execute();
}

/** Removes a reviewer and their (unpublished) reviews of the event; false when they were not one. */
export async function removeReviewer(db: Executor, eventId: string, userId: string): Promise<boolean> {
  const res = await db.deleteFrom('event_reviewers').where('event_id', '=', eventId).where('user_id', '=', userId).executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) return false;
  // Their assignments go too; the next sync gives those projects to the remaining reviewers.
  await db.deleteFrom('review_assignments').where('event_id', '=', eventId).where('reviewer_id', '=', userId).execute();
  await db.deleteFrom('reviews').where('event_id', '=', eventId).where('reviewer_kind', '=', 'human').where('reviewer', '=', userId).execute();
  return true;
}

/**
 * A page of the event's reviewable projects for one reviewer, first submitted first: submitted by
 * an approved registration that is not the reviewer's own team (conflict of interest), after
 * `after` (first_submitted_at, id), at most `limit`.
 */
export async function listReviewableProjects(
  db: Executor,
  eventId: string,
  reviewerId: string,
  page: { limit: number; after?: readonly [string, string]; assignedOnly?: boolean },
) {
  let q = judgedProjects(db, eventId)
    .leftJoin('reviews', (join) =>
      join.onRef('reviews.project_id', '=', 'projects.id').on('reviews.reviewer_kind', '=', 'human').on('reviews.reviewer', '=', reviewerId),
    )
    .selectAll('projects')
    .select([
      'registrations.team_name',
      'reviews.id as review_id',
      'reviews.scores as review_scores',
      'reviews.summary as review_summary',
      'reviews.created_at as review_created_at',
      'reviews.updated_at as review_updated_at',
    ])
    .where((eb) => eb.not(onTeamOf(reviewerId)))
    // A declared conflict of interest hides the project; in assigned reviewing only the reviewer's own are listed.
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('reviewer_conflicts')
            .select('reviewer_conflicts.project_id')
            .whereRef('reviewer_conflicts.project_id', '=', 'projects.id')
            .where('reviewer_conflicts.reviewer_id', '=', reviewerId),
        ),
      ),
    );
  if (page.assignedOnly) {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('review_assignments')
          .select('review_assignments.project_id')
          .whereRef('review_assignments.project_id', '=', 'projects.id')
          .where('review_assignments.reviewer_id', '=', reviewerId),
      ),
    );
  }
  const after = page.after;
  if (after) q = q.where((eb) => eb(eb.refTuple('projects.first_submitted_at', 'projects.id'), '>', eb.tuple(after[0], after[1])));
  return q.orderBy('projects.first_submitted_at', 'asc').orderBy('projects.id', 'asc').limit(page.limit).execute();
}

/** How many judged projects of the event belong to a team the reviewer is or was on. */
export async function countOwnJudgedProjects(db: Executor, eventId: string, reviewerId: string): Promise<number> {
  const row = await judgedProjects(db, eventId)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where(onTeamOf(reviewerId))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A judged project, and whether `reviewerId` is or was on its team. */
export async function findReviewableProject(db: Executor, eventId: string, projectId: string, reviewerId: string) {
  return judgedProjects(db, eventId)
    .select(['projects.id', 'projects.event_id', onTeamOf(reviewerId).as('own_team')])
    .where('projects.id', '=', projectId)
    .executeTakeFirst();
}

export async function findHumanReview(db: Executor, projectId: string, reviewerId: string): Promise<ReviewRow | undefined> {
  return db
    .selectFrom('reviews')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('reviewer_kind', '=', 'human')
    .where('reviewer', '=', reviewerId)
    .executeTakeFirst();
}

/**
 * Creates or replaces one human review through the unique (project_id, reviewer) constraint, so two
 * concurrent PUTs of one reviewer end in one row. `created` is true when the new id went in.
 */
export async function upsertHumanReview(
  db: Executor,
  r: { id: string; eventId: string; projectId: string; reviewerId: string; scores: string; comment: string | null; now: string },
): Promise<{ review: ReviewRow; created: boolean }> {
  const review = await db
    .insertInto('reviews')
    .values({
      id: r.id,
      event_id: r.eventId,
      project_id: r.projectId,
      reviewer_kind: 'human',
      reviewer: r.reviewerId,
      group_key: 'human',
      status: 'succeeded',
      scores: r.scores,
      summary: r.comment,
      attempts: 1,
      last_error: null,
      next_attempt_at: null,
      lease_owner: null,
      lease_expires_at: null,
      latency_ms: null,
      input_tokens: null,
      output_tokens: null,
      raw_reply: null,
      created_at: r.now,
      updated_at: r.now,
      completed_at: r.now,
    })
    .onConflict((oc) =>
      oc.columns(['project_id', 'reviewer']).doUpdateSet({
        scores: r.scores,
        summary: r.comment,
        status: 'succeeded',
        updated_at: r.now,
        completed_at: r.now,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return { review, created: review.id === r.id };
}

/**
 * The open reviews of an event's reviewers (all, or those named): per reviewer, the judged projects
 * they may review (not their own team's) and have not reviewed yet. The one place that says what a
 * reviewer still owes: when reviewers get assigned projects, this is where the assignment joins in.
 * One statement; per reviewer a count over the event's judged projects, each checked against the
 * (project_id, reviewer) unique index.
 */
export async function openReviewCounts(db: Executor, eventId: string, reviewerIds?: readonly string[]): Promise<Map<string, number>> {
  if (reviewerIds && reviewerIds.length === 0) return new Map();
  // The outer row's reviewer, referred to from inside judgedProjects' own query.
  const reviewerRef = sql.ref<string>('event_reviewers.user_id');
  let q = db
    .selectFrom('event_reviewers')
    .select((eb) => [
      'event_reviewers.user_id',
      judgedProjects(eb as unknown as Executor, eventId)
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .where((e) => e.not(onTeamOf(reviewerRef)))
        // Assigned reviewing: only the reviewer's own projects are theirs to review.
        .where((e) =>
          e.or([
            e(e.selectFrom('events').select('events.review_mode').where('events.id', '=', eventId), '=', 'every'),
            e.exists(
              e
                .selectFrom('review_assignments')
                .select('review_assignments.project_id')
                .whereRef('review_assignments.project_id', '=', 'projects.id')
                .where('review_assignments.reviewer_id', '=', reviewerRef),
            ),
          ]),
        )
        // A declared conflict takes the project out of the reviewer's queue in either mode.
        .where((e) =>
          e.not(
            e.exists(
              e
                .selectFrom('reviewer_conflicts')
                .select('reviewer_conflicts.project_id')
                .whereRef('reviewer_conflicts.project_id', '=', 'projects.id')
                .where('reviewer_conflicts.reviewer_id', '=', reviewerRef),
            ),
          ),
        )
        .where((e) =>
          e.not(
            e.exists(
              e
                .selectFrom('reviews')
                .select('reviews.id')
                .whereRef('reviews.project_id', '=', 'projects.id')
                .where('reviews.reviewer', '=', reviewerRef)
                .where('reviews.reviewer_kind', '=', 'human'),
            ),
          ),
        )
        .as('open_reviews'),
    ])
    .where('event_reviewers.event_id', '=', eventId);
  if (reviewerIds) q = q.where('event_reviewers.user_id', 'in', [...reviewerIds]);
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.user_id, Number(r.open_reviews ?? 0)]));
}

/**
 * Takes the reviewer's reminder slot of the event: inserts the row, or moves it on when the last
 * reminder is at least a day old (`sentBefore`). One conditional upsert, so of two organizers
 * clicking at once exactly one gets the row back; the other gets undefined (too soon).
 */
export async function claimReminder(
  db: Executor,
  r: { eventId: string; userId: string; now: string; sentBefore: string; by: string; openReviews: number },
): Promise<{ last_sent_at: string } | undefined> {
  return db
    .insertInto('reviewer_reminders')
    .values({ event_id: r.eventId, user_id: r.userId, last_sent_at: r.now, last_sent_by: r.by, open_reviews: r.openReviews, reminders_sent: 1 })
    .onConflict((oc) =>
      oc
        .columns(['event_id', 'user_id'])
        .doUpdateSet((eb) => ({
          last_sent_at: r.now,
          last_sent_by: r.by,
          open_reviews: r.openReviews,
          reminders_sent: eb(eb.ref('reviewer_reminders.reminders_sent'), '+', 1),
        }))
        .where('reviewer_reminders.last_sent_at', '<=', r.sentBefore),
    )
    .returning('last_sent_at')
    .executeTakeFirst();
}

/** When each of the event's reviewers (all, or those named) was last reminded. */
export async function lastReminders(db: Executor, eventId: string, userIds?: readonly string[]): Promise<Map<string, string>> {
  if (userIds && userIds.length === 0) return new Map();
  let q = db.selectFrom('reviewer_reminders').select(['user_id', 'last_sent_at']).where('event_id', '=', eventId);
  if (userIds) q = q.where('user_id', 'in', [...userIds]);
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.user_id, r.last_sent_at]));
}
