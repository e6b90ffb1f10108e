import { sql } from 'kysely';
import type { Db, Executor } from '../core/db/index.js';
import { judgedProjects } from '../submissions/judged-projects-repo.js';
import type { Standing, StandingKey, StandingRow } from './standings.js';

/** The stale standings of the event after project `after` (all when null), in project id order, at most `limit`: versions only. */
export async function staleChunk(db: Executor, eventId: string, after: string | null, limit: number) {
  let q = db.selectFrom('standings').select(['project_id', 'version']).where('event_id', '=', eventId).where('stale', '=', 1);
  if (after !== null) q = q.where('project_id', '>', after);
  return q.orderBy('project_id').limit(limit).execute();
}

/** Every standing's version and stale flag of the event. */
export async function standingVersions(db: Executor, eventId: string) {
  return db.selectFrom('standings').select(['project_id', 'version', 'stale']).where('event_id', '=', eventId).execute();
}

/** The event's standings: how many, and the sum of their versions (a write anywhere changes one of them). */
export async function versionTotals(db: Executor, eventId: string) {
  return db
    .selectFrom('standings')
    .select([sql<number | string>`count(*)`.as('n'), sql<number | string | null>`sum(version)`.as('v')])
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
}

/** Marks every standing of the event stale. */
export async function markAllStale(db: Executor, eventId: string): Promise<void> {
  await db.updateTable('standings').set({ stale: 1 }).where('event_id', '=', eventId).execute();
}

/** PostgreSQL only, outside a transaction (VACUUM cannot run in one). */
export async function vacuumStandings(db: Db): Promise<void> {
  await sql`vacuum analyze standings`.execute(db);
}

/** What the ranking of a whole event is computed from, read at once: its config, projects, judged project ids and reviews. */
export async function eventInputs(db: Executor, eventId: string) {
  return Promise.all([
    db.selectFrom('events').select(['dimensions', 'models', 'normalization']).where('id', '=', eventId).executeTakeFirst(),
    db.selectFrom('projects').select(['id', 'track_id', 'first_submitted_at']).where('event_id', '=', eventId).execute(),
    judgedProjects(db, eventId).select('projects.id').execute(),
    db
      .selectFrom('reviews')
      .innerJoin('projects', 'projects.id', 'reviews.project_id')
      .select(['reviews.project_id', 'reviews.reviewer_kind', 'reviews.reviewer', 'reviews.group_key', 'reviews.status', 'reviews.scores'])
      .where('projects.event_id', '=', eventId)
      .execute(),
  ]);
}

/** The same for some projects of the event: its config, those projects, which of them are judged (the one rule, judgedProjects), their reviews. */
export async function projectsInputs(db: Executor, eventId: string, ids: string[]) {
  return Promise.all([
    db.selectFrom('events').select(['dimensions', 'models', 'normalization']).where('id', '=', eventId).executeTakeFirst(),
    db.selectFrom('projects').select(['id', 'track_id', 'first_submitted_at']).where('id', 'in', ids).execute(),
    judgedProjects(db, eventId).select('projects.id').where('projects.id', 'in', ids).execute(),
    db.selectFrom('reviews').select(['project_id', 'reviewer_kind', 'reviewer', 'group_key', 'status', 'scores']).where('project_id', 'in', ids).execute(),
  ]);
}

/** How many of the event's standings are stale right now (an index range count). */
export async function countStale(db: Executor, eventId: string): Promise<number> {
  const row = await db
    .selectFrom('standings')
    .select(sql<number | string>`count(*)`.as('n'))
    .where('event_id', '=', eventId)
    .where('stale', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Writes computed standings back, each only if its row's version is still the one read. */
export async function writeStandings(db: Executor, eventId: string, standings: readonly Standing[], version: ReadonlyMap<string, number>): Promise<void> {
  if (standings.length === 0) return;
  await db
    .insertInto('standings')
    .values(
      standings.map((s) => ({
        project_id: s.project_id,
        event_id: eventId,
        version: version.get(s.project_id)!,
        stale: 0,
        judged: s.judged,
        track_id: s.track_id,
        first_submitted_at: s.first_submitted_at,
        score_key: s.score_key,
        raw_score_key: s.raw_score_key,
        by_model: s.by_model,
        by_dimension: s.by_dimension,
        model_groups: s.model_groups,
        reviews_expected: s.coverage.expected,
        reviews_succeeded: s.coverage.succeeded,
        reviews_failed: s.coverage.failed,
        reviews_pending: s.coverage.pending,
        reviews_human: s.coverage.human,
      })),
    )
    .onConflict((oc) =>
      oc
        .column('project_id')
        .doUpdateSet({
          stale: 0,
          judged: sql`excluded.judged`,
          track_id: sql`excluded.track_id`,
          first_submitted_at: sql`excluded.first_submitted_at`,
          score_key: sql`excluded.score_key`,
          raw_score_key: sql`excluded.raw_score_key`,
          by_model: sql`excluded.by_model`,
          by_dimension: sql`excluded.by_dimension`,
          model_groups: sql`excluded.model_groups`,
          reviews_expected: sql`excluded.reviews_expected`,
          reviews_succeeded: sql`excluded.reviews_succeeded`,
          reviews_failed: sql`excluded.reviews_failed`,
          reviews_pending: sql`excluded.reviews_pending`,
          reviews_human: sql`excluded.reviews_human`,
        })
        .where(sql<boolean>`standings.version = excluded.version`),
    )
    .execute();
}

function ranked(db: Executor, eventId: string, trackId: string | undefined) {
  let q = db.selectFrom('standings').where('standings.event_id', '=', eventId).where('standings.judged', '=', 1);
  if (trackId !== undefined) q = q.where('standings.track_id', '=', trackId);
  return q;
}

function after(k: StandingKey) {
  // The leading `score_key <=` is implied by the rest; it is there for the planner, as a bound of the
  // index range (the mixed sort directions rule out a row-value comparison), so a later page starts
  // at its place in the index instead of filtering every entry before it.
  return sql<boolean>`(standings.score_key <= ${k.score_key} and (standings.score_key < ${k.score_key} or (standings.score_key = ${k.score_key} and (standings.first_submitted_at > ${k.first_submitted_at} or (standings.first_submitted_at = ${k.first_submitted_at} and standings.project_id > ${k.project_id})))))`;
}

/** Up to `limit` judged projects in ranking order, after `from` when given, with their names. */
export async function standingsPage(
  db: Executor,
  q: { eventId: string; trackId?: string | undefined; limit: number; after?: StandingKey | undefined },
): Promise<StandingRow[]> {
  let query = ranked(db, q.eventId, q.trackId)
    .innerJoin('projects', 'projects.id', 'standings.project_id')
    .innerJoin('registrations', 'registrations.id', 'projects.registration_id')
    .select([
      'standings.project_id',
      'standings.score_key',
      'standings.raw_score_key',
      'standings.first_submitted_at',
      'standings.track_id',
      'standings.by_model',
      'standings.by_dimension',
      'standings.reviews_expected',
      'standings.reviews_succeeded',
      'standings.reviews_failed',
      'standings.reviews_pending',
      'standings.reviews_human',
      'projects.project_name',
      'registrations.team_name',
    ]);
  if (q.after) query = query.where(after(q.after));
  const rows = await query
    .orderBy('standings.score_key', 'desc')
    .orderBy('standings.first_submitted_at', 'asc')
    .orderBy('standings.project_id', 'asc')
    .limit(q.limit)
    .execute();
  return rows.map((r) => ({
    ...r,
    score_key: Number(r.score_key),
    raw_score_key: Number(r.raw_score_key),
    reviews_expected: Number(r.reviews_expected),
    reviews_succeeded: Number(r.reviews_succeeded),
    reviews_failed: Number(r.reviews_failed),
    reviews_pending: Number(r.reviews_pending),
    reviews_human: Number(r.reviews_human),
  }));
}

/**
 * The competition rank and 0-based position of the entry `first`: how many judged projects score
 * higher, and how many come before it. Two index range counts.
 */
export async function placeOf(db: Executor, eventId: string, trackId: string | undefined, first: StandingKey): Promise<{ rank: number; position: number }> {
  const row = await ranked(db, eventId, trackId)
    .select([
      sql<number | string>`count(*)`.as('before'),
      sql<number | string | null>`sum(case when standings.score_key > ${first.score_key} then 1 else 0 end)`.as('above'),
    ])
    .where(sql<boolean>`not ${after(first)}`)
    .where('standings.project_id', '!=', first.project_id)
    .executeTakeFirstOrThrow();
  return { rank: Number(row.above ?? 0) + 1, position: Number(row.before) };
}

/** The model groups that scored any judged project of the event (for table columns). */
export async function scoredGroups(db: Executor, eventId: string): Promise<string[]> {
  const rows = await ranked(db, eventId, undefined).select('standings.model_groups').distinct().execute();
  const out = new Set<string>();
  for (const r of rows) for (const g of JSON.parse(r.model_groups) as string[]) out.add(g);
  return [...out];
}

/** Judged projects nobody scored: their count and the first few ids (ranking order). */
export async function unscored(db: Executor, eventId: string, sample: number): Promise<{ count: number; projectIds: string[] }> {
  const [count, first] = await Promise.all([
    ranked(db, eventId, undefined)
      .select(sql<number | string>`count(*)`.as('n'))
      .where('standings.score_key', '<', 0)
      .executeTakeFirstOrThrow(),
    ranked(db, eventId, undefined)
      .select('standings.project_id')
      .where('standings.score_key', '<', 0)
      .orderBy('standings.score_key', 'desc')
      .orderBy('standings.first_submitted_at', 'asc')
      .orderBy('standings.project_id', 'asc')
      .limit(sample)
      .execute(),
  ]);
  return { count: Number(count.n), projectIds: first.map((r) => r.project_id) };
}
