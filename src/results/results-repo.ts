import { sql } from 'kysely';
import type { Executor } from '../core/db/index.js';
import type { ResultEntriesTable, ResultRow } from '../core/db/schema.js';

import { judgedProjects } from '../submissions/judged-projects-repo.js';

type ResultEntryRow = ResultEntriesTable;

export async function resultExists(db: Executor, eventId: string): Promise<boolean> {
  const row = await db.selectFrom('results').select('event_id').where('event_id', '=', eventId).executeTakeFirst();
  return row !== undefined;
}

export async function insertResult(db: Executor, row: ResultRow): Promise<void> {
  await db.insertInto('results').values(row).execute();
}

/** The published snapshot's small columns (tag and date), without its entries. */
export async function findResultTag(
  db: Executor,
  eventId: string,
): Promise<{ published_at: string; etag: string; normalization: 'none' | 'zscore' } | undefined> {
  return db.selectFrom('results').select(['published_at', 'etag', 'normalization']).where('event_id', '=', eventId).executeTakeFirst();
}

const ENTRY_INSERT_CHUNK = 500;

export async function insertResultEntries(db: Executor, eventId: string, rows: Array<Omit<ResultEntryRow, 'event_id'>>): Promise<void> {
  for (let i = 0; i < rows.length; i += ENTRY_INSERT_CHUNK) {
    await db
      .insertInto('result_entries')
      .values(rows.slice(i, i + ENTRY_INSERT_CHUNK).map((r) => ({ ...r, event_id: eventId })))
      .execute();
  }
}

/** A page of the frozen entries: from 0-based `start`, overall or within a track, with the rank that applies. */
export async function resultEntries(
  db: Executor,
  q: { eventId: string; trackId?: string | undefined; start: number; limit: number },
): Promise<Array<{ rank: number; entry_tail: string }>> {
  if (q.trackId === undefined) {
    const rows = await db
      .selectFrom('result_entries')
      .select(['rank', 'entry_tail'])
      .where('event_id', '=', q.eventId)
      .where('position', '>=', q.start)
      .orderBy('position')
      .limit(q.limit)
      .execute();
    return rows.map((r) => ({ rank: Number(r.rank), entry_tail: r.entry_tail }));
  }
  const rows = await db
    .selectFrom('result_entries')
    .select(['track_rank', 'entry_tail'])
    .where('event_id', '=', q.eventId)
    .where('track_id', '=', q.trackId)
    .where('track_position', '>=', q.start)
    .orderBy('track_position')
    .limit(q.limit)
    .execute();
  return rows.map((r) => ({ rank: Number(r.track_rank), entry_tail: r.entry_tail }));
}

/** The frozen entries that can be winners (first in a track, or in the overall top places), in ranking order. */
export async function winnerEntries(db: Executor, eventId: string, overallPlaces: number): Promise<Array<{ rank: number; entry_tail: string }>> {
  const rows = await db
    .selectFrom('result_entries')
    .select(['rank', 'entry_tail'])
    .where('event_id', '=', eventId)
    .where((eb) => eb.or([eb('track_rank', '=', 1), eb('rank', '<=', overallPlaces)]))
    .orderBy('position')
    .execute();
  return rows.map((r) => ({ rank: Number(r.rank), entry_tail: r.entry_tail }));
}

/**
 * A project's score line as the leaderboard holds it (its standings row): under a normalisation
 * that looks across projects, the only place its normalised numbers are; null when not computed yet.
 */
export async function storedScoreLine(
  db: Executor,
  projectId: string,
): Promise<{ score: number | null; scores_by_model: Record<string, number>; scores_by_dimension: Record<string, number> } | null> {
  const row = await db.selectFrom('standings').select(['score_key', 'by_model', 'by_dimension']).where('project_id', '=', projectId).executeTakeFirst();
  if (!row) return null;
  if (row.score_key < 0) return { score: null, scores_by_model: {}, scores_by_dimension: {} };
  return {
    score: row.score_key / 10_000,
    scores_by_model: JSON.parse(row.by_model) as Record<string, number>,
    scores_by_dimension: JSON.parse(row.by_dimension) as Record<string, number>,
  };
}

export async function insertResultBundle(db: Executor, row: { event_id: string; bundle: string; sha256: string; created_at: string }): Promise<void> {
  await db.insertInto('result_bundles').values(row).execute();
}

/** The stored results bundle of a published event; undefined for events published before bundles existed. */
export async function findResultBundle(db: Executor, eventId: string): Promise<{ bundle: string; sha256: string } | undefined> {
  return db.selectFrom('result_bundles').select(['bundle', 'sha256']).where('event_id', '=', eventId).executeTakeFirst();
}

/** Every team member of the event's projects, with their role. */
export async function membersOfEventProjects(db: Executor, eventId: string) {
  return db
    .selectFrom('team_members')
    .innerJoin('projects', 'projects.registration_id', 'team_members.registration_id')
    .select(['projects.id as project_id', 'team_members.user_id', 'team_members.role'])
    .where('projects.event_id', '=', eventId)
    .execute();
}

/** The published people's choice's rank and votes per project. */
export async function peoplesChoiceRanks(db: Executor, eventId: string) {
  return db.selectFrom('peoples_choice').select(['project_id', 'rank', 'votes']).where('event_id', '=', eventId).execute();
}

/**
 * A no-op write to the event row: on PostgreSQL it locks the row until commit; on SQLite it takes
 * the database write lock before anything is read.
 */
export async function lockEventRow(db: Executor, eventId: string): Promise<void> {
  await db
    .updateTable('events')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', eventId)
    .execute();
}

export async function setResultEtag(db: Executor, eventId: string, etag: string): Promise<void> {
  await db.updateTable('results').set({ etag }).where('event_id', '=', eventId).execute();
}

/** The event is ended with its results announced at `now`. */
export async function markEventPublished(db: Executor, eventId: string, now: string, feedbackReleased: boolean): Promise<void> {
  await db
    .updateTable('events')
    .set({ status: 'ended', result_announced_at: now, updated_at: now, feedback_released: feedbackReleased ? 1 : 0 })
    .where('id', '=', eventId)
    .execute();
}

/** Sets whether the teams may read their reviews, only when the event's result exists; whether it did. */
export async function setFeedbackReleasedIfPublished(db: Executor, eventId: string, released: boolean, now: string): Promise<boolean> {
  const res = await db
    .updateTable('events')
    .set({ feedback_released: released ? 1 : 0, updated_at: now })
    .where('id', '=', eventId)
    .where((eb) => eb.exists(eb.selectFrom('results').select('results.event_id').whereRef('results.event_id', '=', 'events.id')))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** The judged projects' succeeded reviews, with a human reviewer's name and address. */
export async function judgedSucceededReviews(db: Executor, eventId: string) {
  return judgedProjects(db, eventId)
    .innerJoin('reviews', 'reviews.project_id', 'projects.id')
    .leftJoin('users', (j) => j.onRef('users.id', '=', 'reviews.reviewer').on('reviews.reviewer_kind', '=', 'human'))
    .select(['reviews.project_id', 'reviews.reviewer_kind', 'reviews.reviewer', 'reviews.group_key', 'reviews.scores', 'users.name', 'users.email'])
    .where('reviews.status', '=', 'succeeded')
    .execute();
}

/** When the event's result was published, if it was. */
export async function findPublishedAt(db: Executor, eventId: string): Promise<string | undefined> {
  const row = await db.selectFrom('results').select('published_at').where('event_id', '=', eventId).executeTakeFirst();
  return row?.published_at;
}

/** The registration's project (id and track), and how many entries the event's result has. */
export async function teamProjectAndEntryCount(db: Executor, eventId: string, registrationId: string) {
  return Promise.all([
    db.selectFrom('projects').select(['id', 'track_id']).where('registration_id', '=', registrationId).executeTakeFirst(),
    db
      .selectFrom('result_entries')
      .select(sql<number | string>`count(*)`.as('n'))
      .where('event_id', '=', eventId)
      .executeTakeFirstOrThrow(),
  ]);
}

/** The project's entry in the event's published result. */
export async function resultEntryOf(db: Executor, eventId: string, projectId: string) {
  return db
    .selectFrom('result_entries')
    .select(['rank', 'track_rank', 'track_id', 'entry_tail'])
    .where('event_id', '=', eventId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

/** The project's succeeded reviews, people's first, then by completion. */
export async function succeededReviewsOf(db: Executor, projectId: string) {
  return db
    .selectFrom('reviews')
    .select(['reviewer_kind', 'scores', 'summary'])
    .where('project_id', '=', projectId)
    .where('status', '=', 'succeeded')
    .orderBy('reviewer_kind')
    .orderBy('completed_at')
    .orderBy('id')
    .execute();
}

/** What a results bundle records beside the ranking: the event's projects' first submissions, succeeded reviews and flags. */
export async function bundleInputs(db: Executor, eventId: string) {
  return Promise.all([
    db.selectFrom('projects').select(['id', 'first_submitted_at']).where('event_id', '=', eventId).execute(),
    db
      .selectFrom('reviews')
      .innerJoin('projects', 'projects.id', 'reviews.project_id')
      .select(['reviews.project_id', 'reviews.reviewer_kind', 'reviews.reviewer', 'reviews.group_key', 'reviews.scores'])
      .where('projects.event_id', '=', eventId)
      .where('reviews.status', '=', 'succeeded')
      .execute(),
    db.selectFrom('project_flags').select(['project_id', 'kind', 'source', 'status', 'evidence', 'detail']).where('event_id', '=', eventId).execute(),
  ]);
}
