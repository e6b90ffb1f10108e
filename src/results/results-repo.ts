import { sql } from 'kysely';
import type { DatabaseHandle, Executor } from '../core/db/index.js';
import type { ResultEntriesTable, ResultRow } from '../core/db/schema.js';

type ResultEntryRow = ResultEntriesTable;
import { judgedProjects } from '../submissions/judged-projects.js';
import { HUMAN_GROUP, type RankingProject, type RankingReview } from './ranking.js';

type Dialect = DatabaseHandle['dialect'];

/**
 * The projects that take part in the ranking: submitted by a team whose registration is approved
 * (a team rejected after submitting drops out).
 */
export async function rankedProjects(db: Executor, eventId: string): Promise<RankingProject[]> {
  return judgedProjects(db, eventId)
    .select([
      'projects.id as project_id',
      'projects.project_name',
      'registrations.team_name',
      'projects.track_id',
      'projects.first_submitted_at',
    ])
    .execute();
}

/**
 * Every succeeded review of the event with its parsed scores. Reviews of projects outside the
 * ranking are returned too; the ranking ignores them. Human reviewers always form the `human`
 * group, whatever their stored group_key says.
 *
 * For speed the database concatenates the rows into one JSON array of [project_id, group, scores]
 * (one row to fetch and one JSON.parse instead of 50,000 of each, about 4x faster at 10,000
 * projects × 5 models). Stored scores are JSON written by this application; should one ever not
 * parse, or the array not hold one tuple per row, the rows are read and parsed one by one instead,
 * skipping the broken ones.
 */
export async function succeededReviews(db: Executor, dialect: Dialect, eventId: string): Promise<RankingReview[]> {
  const group = sql<string>`case when reviewer_kind = 'human' then ${HUMAN_GROUP} else group_key end`;
  const tuples =
    dialect === 'sqlite'
      ? sql<string | null>`'[' || group_concat('[' || json_quote(project_id) || ',' || json_quote(${group}) || ',' || scores || ']', ',') || ']'`
      : sql<string | null>`'[' || string_agg('[' || to_json(project_id)::text || ',' || to_json(${group})::text || ',' || scores || ']', ',') || ']'`;
  const row = await db
    .selectFrom('reviews')
    .select([tuples.as('doc'), (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('event_id', '=', eventId)
    .where('status', '=', 'succeeded')
    .where('scores', 'is not', null)
    .executeTakeFirst();
  if (!row || Number(row.n) === 0 || row.doc === null) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.doc);
  } catch {
    parsed = null;
  }
  if (!Array.isArray(parsed) || parsed.length !== Number(row.n)) return succeededReviewsRowByRow(db, eventId);
  const out: RankingReview[] = [];
  for (const t of parsed as Array<[unknown, unknown, unknown]>) {
    const [projectId, groupKey, scores] = t;
    if (typeof projectId !== 'string' || typeof groupKey !== 'string' || !isScoresObject(scores)) continue;
    out.push({ project_id: projectId, group_key: groupKey, scores });
  }
  return out;
}

async function succeededReviewsRowByRow(db: Executor, eventId: string): Promise<RankingReview[]> {
  const rows = await db
    .selectFrom('reviews')
    .select(['project_id', 'reviewer_kind', 'group_key', 'scores'])
    .where('event_id', '=', eventId)
    .where('status', '=', 'succeeded')
    .execute();
  const out: RankingReview[] = [];
  for (const r of rows) {
    if (r.scores === null) continue;
    let scores: unknown;
    try {
      scores = JSON.parse(r.scores);
    } catch {
      continue; // a broken row never becomes a score
    }
    if (!isScoresObject(scores)) continue;
    out.push({ project_id: r.project_id, group_key: r.reviewer_kind === 'human' ? HUMAN_GROUP : r.group_key, scores });
  }
  return out;
}

function isScoresObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export async function findResult(db: Executor, eventId: string): Promise<ResultRow | undefined> {
  return db.selectFrom('results').selectAll().where('event_id', '=', eventId).executeTakeFirst();
}

export async function resultExists(db: Executor, eventId: string): Promise<boolean> {
  const row = await db.selectFrom('results').select('event_id').where('event_id', '=', eventId).executeTakeFirst();
  return row !== undefined;
}

export async function insertResult(db: Executor, row: ResultRow): Promise<void> {
  await db.insertInto('results').values(row).execute();
}

/** The published snapshot's small columns (tag and date), without its entries. */
export async function findResultTag(db: Executor, eventId: string): Promise<{ published_at: string; etag: string } | undefined> {
  return db.selectFrom('results').select(['published_at', 'etag']).where('event_id', '=', eventId).executeTakeFirst();
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
