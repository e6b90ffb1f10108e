import type { Executor } from '../core/db/index.js';
import type { RegistrationStatus, ReviewStatus } from '../core/db/schema.js';
import { judgedProjects } from '../submissions/judged-projects-repo.js';

/**
 * The organizer's dashboard numbers: grouped COUNTs only (no row is loaded), each served by an
 * index that starts with event_id, so the answer stays cheap on an event with 100k registrations.
 * COUNT comes back as a string on PostgreSQL, hence the Number().
 */

export async function registrationCounts(db: Executor, eventId: string): Promise<Record<RegistrationStatus, number>> {
  const rows = await db
    .selectFrom('registrations')
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
    .where('event_id', '=', eventId)
    .groupBy('status')
    .execute();
  const out: Record<RegistrationStatus, number> = { pending: 0, approved: 0, rejected: 0, withdrawn: 0 };
  for (const r of rows) out[r.status] = Number(r.n);
  return out;
}

export async function projectCount(db: Executor, eventId: string): Promise<number> {
  const row = await db
    .selectFrom('projects')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Model reviews per (model, status). */
export async function modelReviewCounts(db: Executor, eventId: string): Promise<{ reviewer: string; status: ReviewStatus; n: number }[]> {
  const rows = await db
    .selectFrom('reviews')
    .select((eb) => ['reviewer', 'status', eb.fn.countAll<number | string>().as('n')])
    .where('event_id', '=', eventId)
    .where('reviewer_kind', '=', 'model')
    .groupBy(['reviewer', 'status'])
    .execute();
  return rows.map((r) => ({ reviewer: r.reviewer, status: r.status, n: Number(r.n) }));
}

/** Finished human reviews per reviewer (user id). */
export async function humanReviewCounts(db: Executor, eventId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('reviews')
    .select((eb) => ['reviewer', eb.fn.countAll<number | string>().as('n')])
    .where('event_id', '=', eventId)
    .where('reviewer_kind', '=', 'human')
    .where('status', '=', 'succeeded')
    .groupBy('reviewer')
    .execute();
  return new Map(rows.map((r) => [r.reviewer, Number(r.n)]));
}

/** The event's reviewers, in the order they joined. */
export async function reviewerList(db: Executor, eventId: string): Promise<{ user_id: string; email: string }[]> {
  return db
    .selectFrom('event_reviewers')
    .innerJoin('users', 'users.id', 'event_reviewers.user_id')
    .select(['users.id as user_id', 'users.email'])
    .where('event_reviewers.event_id', '=', eventId)
    .orderBy('event_reviewers.created_at', 'asc')
    .orderBy('event_reviewers.user_id', 'asc')
    .execute();
}

export async function pendingInvitationCount(db: Executor, eventId: string, now: string): Promise<number> {
  const row = await db
    .selectFrom('reviewer_invitations')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('event_id', '=', eventId)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function judgedProjectCount(db: Executor, eventId: string): Promise<number> {
  const row = await judgedProjects(db, eventId)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Reviewers of the event whose own team has a judged project (they may not review it: conflict of interest). */
export async function reviewersWithOwnProject(db: Executor, eventId: string): Promise<Set<string>> {
  const rows = await judgedProjects(db, eventId)
    .innerJoin('event_reviewers', (join) => join.onRef('event_reviewers.user_id', '=', 'registrations.user_id').on('event_reviewers.event_id', '=', eventId))
    .select('registrations.user_id')
    .execute();
  return new Set(rows.map((r) => r.user_id));
}

/**
 * In assigned reviewing, per reviewer how many judged projects are assigned to them; null in every
 * mode (each reviewer then has every judged project but their own team's).
 */
export async function assignedCounts(db: Executor, eventId: string): Promise<Map<string, number> | null> {
  const event = await db.selectFrom('events').select(['review_mode', 'reviewers_per_project']).where('id', '=', eventId).executeTakeFirst();
  if (event?.review_mode !== 'assigned' || event.reviewers_per_project == null) return null;
  const rows = await judgedProjects(db, eventId)
    .innerJoin('review_assignments', 'review_assignments.project_id', 'projects.id')
    .select((eb) => ['review_assignments.reviewer_id', eb.fn.countAll<number | string>().as('n')])
    .groupBy('review_assignments.reviewer_id')
    .execute();
  return new Map(rows.map((r) => [r.reviewer_id, Number(r.n)]));
}
