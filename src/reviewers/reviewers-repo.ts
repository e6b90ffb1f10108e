import type { Executor } from '../core/db/index.js';
import type { InvitationRow, ReviewRow } from '../core/db/schema.js';
import { judgedProjects } from '../submissions/judged-projects.js';

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

export async function listUnusedInvitations(db: Executor, eventId: string): Promise<InvitationRow[]> {
  return db
    .selectFrom('reviewer_invitations')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('accepted_at', 'is', null)
    .orderBy('id', 'asc')
    .execute();
}

export async function addReviewer(db: Executor, eventId: string, userId: string, now: string): Promise<void> {
  await db
    .insertInto('event_reviewers')
    .values({ event_id: eventId, user_id: userId, created_at: now })
    .onConflict((oc) => oc.columns(['event_id', 'user_id']).doNothing())
    .execute();
}

export async function isReviewer(db: Executor, eventId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('event_reviewers')
    .select('user_id')
    .where('event_id', '=', eventId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function listReviewers(db: Executor, eventId: string) {
  return db
    .selectFrom('event_reviewers')
    .innerJoin('users', 'users.id', 'event_reviewers.user_id')
    .select((eb) => [
      'users.id as user_id',
      'users.email',
      'event_reviewers.created_at as added_at',
      eb
        .selectFrom('reviews')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('reviews.event_id', '=', eventId)
        .where('reviews.reviewer_kind', '=', 'human')
        .whereRef('reviews.reviewer', '=', 'users.id')
        .as('reviews_count'),
    ])
    .where('event_reviewers.event_id', '=', eventId)
    .orderBy('event_reviewers.created_at', 'asc')
    .orderBy('users.email', 'asc')
    .execute();
}

/** Removes a reviewer and their (unpublished) reviews of the event; false when they were not one. */
export async function removeReviewer(db: Executor, eventId: string, userId: string): Promise<boolean> {
  const res = await db.deleteFrom('event_reviewers').where('event_id', '=', eventId).where('user_id', '=', userId).executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) return false;
  await db
    .deleteFrom('reviews')
    .where('event_id', '=', eventId)
    .where('reviewer_kind', '=', 'human')
    .where('reviewer', '=', userId)
    .execute();
  return true;
}

/** The event's reviewable projects: submitted by an approved registration, first submitted first. */
export async function listReviewableProjects(db: Executor, eventId: string, reviewerId: string) {
  return judgedProjects(db, eventId)
    .leftJoin('reviews', (join) =>
      join
        .onRef('reviews.project_id', '=', 'projects.id')
        .on('reviews.reviewer_kind', '=', 'human')
        .on('reviews.reviewer', '=', reviewerId),
    )
    .selectAll('projects')
    .select([
      'registrations.team_name',
      'registrations.user_id as team_user_id',
      'reviews.id as review_id',
      'reviews.scores as review_scores',
      'reviews.summary as review_summary',
      'reviews.created_at as review_created_at',
      'reviews.updated_at as review_updated_at',
    ])
    .orderBy('projects.first_submitted_at', 'asc')
    .orderBy('projects.id', 'asc')
    .execute();
}

export async function findReviewableProject(db: Executor, eventId: string, projectId: string) {
  return judgedProjects(db, eventId)
    .select(['projects.id', 'projects.event_id', 'registrations.user_id as team_user_id'])
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
