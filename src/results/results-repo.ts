import type { Executor } from '../core/db/index.js';
import type { ResultEntriesTable, ResultRow } from '../core/db/schema.js';

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
