import type { Executor } from '../core/db/index.js';
import type { ReviewMode } from '../core/db/schema.js';
import { judgedProjects } from '../submissions/judged-projects-repo.js';

export interface ReviewSettings {
  mode: ReviewMode;
  perProject: number | null;
  sameDomain: boolean;
}

export async function readReviewSettings(db: Executor, eventId: string): Promise<ReviewSettings> {
  const row = await db
    .selectFrom('events')
    .select(['review_mode', 'reviewers_per_project', 'conflict_same_domain'])
    .where('id', '=', eventId)
    .executeTakeFirst();
  return {
    mode: row?.review_mode === 'assigned' ? 'assigned' : 'every',
    perProject: row?.reviewers_per_project == null ? null : Number(row.reviewers_per_project),
    sameDomain: Number(row?.conflict_same_domain ?? 0) === 1,
  };
}

export async function writeReviewSettings(db: Executor, eventId: string, s: Partial<ReviewSettings>): Promise<void> {
  // Nothing asked (an empty PATCH): nothing to write.
  if (s.mode === undefined && s.perProject === undefined && s.sameDomain === undefined) return;
  await db
    .updateTable('events')
    .set({
      ...(s.mode !== undefined ? { review_mode: s.mode } : {}),
      ...(s.perProject !== undefined ? { reviewers_per_project: s.perProject } : {}),
      ...(s.sameDomain !== undefined ? { conflict_same_domain: s.sameDomain ? 1 : 0 } : {}),
    })
    .where('id', '=', eventId)
    .execute();
}

/**
 * A no-op write on the event row as a transaction's first statement: on PostgreSQL it holds the
 * row's lock until commit, on SQLite it takes the write lock. Assignment changes of one event run
 * one after the other (publication takes the same lock).
 */
export async function lockEvent(tx: Executor, eventId: string): Promise<void> {
  await tx
    .updateTable('events')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', eventId)
    .execute();
}

/** The judged projects' ids, first submitted first. */
export async function judgedProjectIds(db: Executor, eventId: string): Promise<string[]> {
  const rows = await judgedProjects(db, eventId).select('projects.id').orderBy('projects.first_submitted_at', 'asc').orderBy('projects.id', 'asc').execute();
  return rows.map((r) => r.id);
}

/** The event's reviewers with their addresses, in the order they joined. */
export async function reviewersOf(db: Executor, eventId: string): Promise<Array<{ id: string; email: string }>> {
  return db
    .selectFrom('event_reviewers')
    .innerJoin('users', 'users.id', 'event_reviewers.user_id')
    .select(['users.id as id', 'users.email as email'])
    .where('event_reviewers.event_id', '=', eventId)
    .orderBy('event_reviewers.created_at', 'asc')
    .orderBy('event_reviewers.user_id', 'asc')
    .execute();
}

export async function assignmentRows(db: Executor, eventId: string) {
  return db.selectFrom('review_assignments').select(['project_id', 'reviewer_id', 'source']).where('event_id', '=', eventId).execute();
}

/** (project, human reviewer) pairs with a review: such an assignment is done and never moves. */
export async function reviewedPairs(db: Executor, eventId: string) {
  return db.selectFrom('reviews').select(['project_id', 'reviewer']).where('event_id', '=', eventId).where('reviewer_kind', '=', 'human').execute();
}

export async function declaredConflicts(db: Executor, eventId: string) {
  return db.selectFrom('reviewer_conflicts').select(['project_id', 'reviewer_id', 'declared_by', 'created_at']).where('event_id', '=', eventId).execute();
}

/** Every judged project's people: its registrant, team members and former members, with their addresses. */
export async function teamPeople(db: Executor, eventId: string): Promise<Array<{ project_id: string; user_id: string; email: string }>> {
  const members = await judgedProjects(db, eventId)
    .innerJoin('team_members', 'team_members.registration_id', 'projects.registration_id')
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .select(['projects.id as project_id', 'users.id as user_id', 'users.email as email'])
    .execute();
  const registrants = await judgedProjects(db, eventId)
    .innerJoin('users', 'users.id', 'registrations.user_id')
    .select(['projects.id as project_id', 'users.id as user_id', 'users.email as email'])
    .execute();
  // Who left or was removed worked on it too: never its reviewer (team-membership-repo's rule).
  const former = await judgedProjects(db, eventId)
    .innerJoin('team_former_members', 'team_former_members.registration_id', 'projects.registration_id')
    .innerJoin('users', 'users.id', 'team_former_members.user_id')
    .select(['projects.id as project_id', 'users.id as user_id', 'users.email as email'])
    .execute();
  return [...members, ...registrants, ...former];
}

export async function deleteAssignments(db: Executor, eventId: string, pairs: Array<{ project_id: string; reviewer_id: string }>): Promise<void> {
  for (const p of pairs) {
    await db
      .deleteFrom('review_assignments')
      .where('event_id', '=', eventId)
      .where('project_id', '=', p.project_id)
      .where('reviewer_id', '=', p.reviewer_id)
      .execute();
  }
}

const INSERT_CHUNK = 500;

/** Inserts pairs; one already there is left as it is (the unique pair), so concurrent top-ups cannot double. */
export async function insertAssignments(
  db: Executor,
  eventId: string,
  pairs: Array<{ project_id: string; reviewer_id: string }>,
  source: 'auto' | 'manual',
  now: string,
): Promise<void> {
  for (let i = 0; i < pairs.length; i += INSERT_CHUNK) {
    await db
      .insertInto('review_assignments')
      .values(
        pairs.slice(i, i + INSERT_CHUNK).map((p) => ({ event_id: eventId, project_id: p.project_id, reviewer_id: p.reviewer_id, source, created_at: now })),
      )
      .onConflict((oc) => oc.columns(['project_id', 'reviewer_id']).doNothing())
      .execute();
  }
}

export async function deleteProjectAssignments(db: Executor, eventId: string, projectId: string): Promise<void> {
  await db.deleteFrom('review_assignments').where('event_id', '=', eventId).where('project_id', '=', projectId).execute();
}

/** Removes every assignment of the event that has no review yet (an automatic re-assignment starts over). */
export async function deleteUnreviewedAssignments(db: Executor, eventId: string): Promise<void> {
  await db
    .deleteFrom('review_assignments')
    .where('event_id', '=', eventId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('reviews')
            .select('reviews.id')
            .whereRef('reviews.project_id', '=', 'review_assignments.project_id')
            .whereRef('reviews.reviewer', '=', 'review_assignments.reviewer_id')
            .where('reviews.reviewer_kind', '=', 'human'),
        ),
      ),
    )
    .execute();
}

export async function isAssigned(db: Executor, projectId: string, reviewerId: string): Promise<boolean> {
  const row = await db
    .selectFrom('review_assignments')
    .select('project_id')
    .where('project_id', '=', projectId)
    .where('reviewer_id', '=', reviewerId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function hasDeclaredConflict(db: Executor, projectId: string, reviewerId: string): Promise<boolean> {
  const row = await db
    .selectFrom('reviewer_conflicts')
    .select('project_id')
    .where('project_id', '=', projectId)
    .where('reviewer_id', '=', reviewerId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records a declared conflict (again: nothing changes); drops that pair's assignment and review. */
export async function insertConflict(
  db: Executor,
  c: { event_id: string; project_id: string; reviewer_id: string; declared_by: 'reviewer' | 'organizer'; created_at: string },
): Promise<void> {
  await db
    .insertInto('reviewer_conflicts')
    .values(c)
    .onConflict((oc) => oc.columns(['project_id', 'reviewer_id']).doNothing())
    .execute();
  await db.deleteFrom('review_assignments').where('project_id', '=', c.project_id).where('reviewer_id', '=', c.reviewer_id).execute();
  await db.deleteFrom('reviews').where('project_id', '=', c.project_id).where('reviewer_kind', '=', 'human').where('reviewer', '=', c.reviewer_id).execute();
}

export async function deleteConflict(db: Executor, eventId: string, projectId: string, reviewerId: string): Promise<boolean> {
  const res = await db
    .deleteFrom('reviewer_conflicts')
    .where('event_id', '=', eventId)
    .where('project_id', '=', projectId)
    .where('reviewer_id', '=', reviewerId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** A page of judged projects (first submitted first) after `after`, with their assigned reviewers. */
export async function assignmentsPage(db: Executor, eventId: string, page: { limit: number; after?: readonly [string, string] }) {
  let q = judgedProjects(db, eventId).select(['projects.id', 'projects.project_name', 'projects.first_submitted_at', 'registrations.team_name']);
  const after = page.after;
  if (after) q = q.where((eb) => eb(eb.refTuple('projects.first_submitted_at', 'projects.id'), '>', eb.tuple(after[0], after[1])));
  const projects = await q.orderBy('projects.first_submitted_at', 'asc').orderBy('projects.id', 'asc').limit(page.limit).execute();
  const ids = projects.map((p) => p.id);
  const pairs = ids.length
    ? await db
        .selectFrom('review_assignments')
        .leftJoin('reviews', (join) =>
          join
            .onRef('reviews.project_id', '=', 'review_assignments.project_id')
            .onRef('reviews.reviewer', '=', 'review_assignments.reviewer_id')
            .on('reviews.reviewer_kind', '=', 'human'),
        )
        .select(['review_assignments.project_id', 'review_assignments.reviewer_id', 'review_assignments.source', 'reviews.id as review_id'])
        .where('review_assignments.event_id', '=', eventId)
        .where('review_assignments.project_id', 'in', ids)
        .orderBy('review_assignments.reviewer_id', 'asc')
        .execute()
    : [];
  return { projects, pairs };
}

/** How human judging stands, for the publication warning. */
export async function judgingProgress(db: Executor, eventId: string, mode: ReviewMode) {
  if (mode === 'assigned') {
    const open = await judgedProjects(db, eventId)
      .innerJoin('review_assignments', 'review_assignments.project_id', 'projects.id')
      .leftJoin('reviews', (join) =>
        join
          .onRef('reviews.project_id', '=', 'review_assignments.project_id')
          .onRef('reviews.reviewer', '=', 'review_assignments.reviewer_id')
          .on('reviews.reviewer_kind', '=', 'human'),
      )
      .select(['review_assignments.project_id', 'review_assignments.reviewer_id'])
      .where('reviews.id', 'is', null)
      .execute();
    return {
      openAssignments: open.length,
      projects: new Set(open.map((o) => o.project_id)).size,
      reviewers: new Set(open.map((o) => o.reviewer_id)).size,
    };
  }
  const reviewers = await reviewersOf(db, eventId);
  if (reviewers.length === 0) return { openAssignments: 0, projects: 0, reviewers: 0 };
  const unreviewed = await judgedProjects(db, eventId)
    .select('projects.id')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('reviews').select('reviews.id').whereRef('reviews.project_id', '=', 'projects.id').where('reviews.reviewer_kind', '=', 'human'),
        ),
      ),
    )
    .execute();
  const idle = await db
    .selectFrom('event_reviewers')
    .select('event_reviewers.user_id')
    .where('event_reviewers.event_id', '=', eventId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('reviews')
            .select('reviews.id')
            .where('reviews.event_id', '=', eventId)
            .where('reviews.reviewer_kind', '=', 'human')
            .whereRef('reviews.reviewer', '=', 'event_reviewers.user_id'),
        ),
      ),
    )
    .execute();
  return { openAssignments: null, projects: unreviewed.length, reviewers: idle.length };
}
