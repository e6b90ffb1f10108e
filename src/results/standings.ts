import { sql } from 'kysely';
import type { Db, Executor } from '../core/db/index.js';
import type { EventRecord } from '../events/events-model.js';
import { judgedProjects } from '../submissions/judged-projects.js';
import { HUMAN_GROUP, rankProjects, SCORE_DECIMALS, type RankingProject, type RankingReview } from './ranking.js';

/**
 * The live ranking's per-project numbers (table `standings`), kept current incrementally.
 *
 * Database triggers (migration 0106) mark a project's row stale and bump its version in the same
 * transaction as every write that changes what the row is computed from: a review inserted,
 * finished, failed, re-queued or removed, a human review written, the registration approved or
 * rejected, the project (re)submitted to another track, the event's dimensions or models edited.
 * No write path can forget it, including bulk loads. Before reading, the leaderboard recomputes the
 * stale rows of its event, and only those, with the same arithmetic as `rankProjects` (a project's
 * numbers depend on its own reviews only), in chunks that yield to the event loop; past a bound the
 * rest is done in the background (createStandingsRefresher). A row is written back only if its
 * version did not move while it was being computed; otherwise it stays stale.
 */

const SCALE = 10 ** SCORE_DECIMALS;
/**
 * Projects recomputed per statement: bounded IN lists and bind parameters, short event-loop slices.
 * SQLite runs its queries on the event loop itself, so its slices are smaller.
 */
const CHUNK = { sqlite: 250, postgres: 500 } as const;

interface ReviewFact {
  project_id: string;
  reviewer_kind: string;
  group_key: string;
  status: string;
  scores: string | null;
}

export interface Coverage {
  expected: number;
  succeeded: number;
  failed: number;
  pending: number;
  human: number;
}

/** A project's computed standing (what one `standings` row holds besides its bookkeeping). */
export interface Standing {
  project_id: string;
  judged: number;
  track_id: string | null;
  first_submitted_at: string;
  score_key: number;
  by_model: string;
  by_dimension: string;
  model_groups: string;
  coverage: Coverage;
}

/**
 * Pure: the standings of some projects from their reviews (every status: succeeded ones are scored,
 * all of them count for coverage). The numbers are rankProjects' own, so they agree exactly with a
 * full recomputation.
 */
export function computeStandings(
  event: Pick<EventRecord, 'dimensions' | 'models'>,
  projects: ReadonlyArray<{ id: string; track_id: string | null; first_submitted_at: string; judged: boolean }>,
  reviews: readonly ReviewFact[],
): Standing[] {
  const ranked: RankingProject[] = projects.map((p) => ({
    project_id: p.id,
    project_name: '',
    team_name: '',
    track_id: p.track_id,
    first_submitted_at: p.first_submitted_at,
  }));
  const succeeded: RankingReview[] = [];
  const coverage = new Map<string, Coverage>();
  for (const p of projects) coverage.set(p.id, { expected: event.models.length, succeeded: 0, failed: 0, pending: 0, human: 0 });
  for (const r of reviews) {
    const c = coverage.get(r.project_id);
    if (!c) continue;
    if (r.reviewer_kind === 'human') {
      if (r.status === 'succeeded') c.human++;
    } else if (r.status === 'succeeded') c.succeeded++;
    else if (r.status === 'failed') c.failed++;
    else c.pending++;
    if (r.status !== 'succeeded' || r.scores === null) continue;
    let scores: unknown;
    try {
      scores = JSON.parse(r.scores);
    } catch {
      continue; // a broken row never becomes a score
    }
    if (scores === null || typeof scores !== 'object' || Array.isArray(scores)) continue;
    succeeded.push({
      project_id: r.project_id,
      group_key: r.reviewer_kind === 'human' ? HUMAN_GROUP : r.group_key,
      scores: scores as Record<string, unknown>,
    });
  }
  const entries = rankProjects({ dimensions: event.dimensions, projects: ranked, reviews: succeeded, groupOrder: event.models });
  const byId = new Map(projects.map((p) => [p.id, p]));
  return entries.map((e) => {
    const p = byId.get(e.project_id)!;
    const scored = Object.keys(e.scores_by_dimension).length > 0;
    return {
      project_id: e.project_id,
      judged: p.judged ? 1 : 0,
      track_id: p.track_id,
      first_submitted_at: p.first_submitted_at,
      // rankProjects publishes key / SCALE; rounding recovers the integer key exactly.
      score_key: scored ? Math.round(e.score * SCALE) : -1,
      by_model: JSON.stringify(e.scores_by_model),
      by_dimension: JSON.stringify(e.scores_by_dimension),
      model_groups: JSON.stringify(Object.keys(e.scores_by_model)),
      coverage: coverage.get(e.project_id)!,
    };
  });
}

/** Where one walk over an event's stale standings stopped. */
interface WalkResult {
  /** Stale rows found (and recomputed, unless a write moved their version meanwhile). */
  found: number;
  /** The last project id handled when the walk stopped at its row budget; null when it reached the end. */
  stoppedAfter: string | null;
}

/**
 * Recomputes stale standings of the event in project id order from after `from`, a chunk at a
 * time (an index range each), until none is left or `maxRows` were handled. In project id order so
 * that concurrent refreshers lock rows in one order; a chunk at a time so that no single read of a
 * large event's stale rows blocks the event loop. `yieldBetweenChunks: false` inside a transaction
 * that must not give up the connection's turn.
 */
async function walkStale(
  db: Executor,
  event: EventRecord,
  opts: { chunk: number; from?: string | null; maxRows?: number; yieldBetweenChunks: boolean; stopped?: () => boolean; progress?: (rows: number) => void },
): Promise<WalkResult> {
  const size = opts.chunk;
  let last = opts.from ?? null;
  let found = 0;
  const maxRows = opts.maxRows ?? Infinity;
  for (let first = true; ; first = false) {
    if (!first && opts.yieldBetweenChunks) await new Promise<void>((resolve) => setImmediate(resolve));
    if (found >= maxRows || opts.stopped?.()) return { found, stoppedAfter: last ?? '' };
    // Versions first, data after: a write that lands in between has bumped the version, so the row
    // written back from older data is refused and stays stale.
    let q = db.selectFrom('standings').select(['project_id', 'version']).where('event_id', '=', event.id).where('stale', '=', 1);
    if (last !== null) q = q.where('project_id', '>', last);
    const chunk = await q.orderBy('project_id').limit(Math.min(size, maxRows - found)).execute();
    if (chunk.length === 0) return { found, stoppedAfter: null };
    try {
      await refreshChunk(db, event, chunk);
    } catch (err) {
      // A bulk write elsewhere can lock the same rows in another order (PostgreSQL picks one of
      // the two as deadlocked): recomputing is idempotent, so try the chunk once more.
      if ((err as { code?: unknown }).code !== '40P01') throw err;
      await refreshChunk(db, event, chunk);
    }
    found += chunk.length;
    opts.progress?.(chunk.length);
    last = chunk[chunk.length - 1]!.project_id;
    if (chunk.length < size && found < maxRows) return { found, stoppedAfter: null };
  }
}

/**
 * Recomputes every stale standing of the event now, in the caller's transaction (publication: the
 * snapshot must be exact). No yielding: the transaction keeps its connection's turn.
 */
export async function refreshAllStandings(tx: Executor, event: EventRecord): Promise<void> {
  await walkStale(tx, event, { chunk: CHUNK.postgres, yieldBetweenChunks: false });
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

/** Full passes a background refresh makes at most before leaving what is still stale to the next read. */
const MAX_PASSES = 5;

export interface StandingsRefresherOptions {
  db: Db;
  dialect: 'sqlite' | 'postgres';
  /** Stale standings a read recomputes before answering; past it the rest is done in the background. */
  inlineRows: number;
  /**
   * PostgreSQL: after one refresh recomputed at least this many rows, VACUUM ANALYZE the table in
   * the background (their dead versions would otherwise slow every read's stale probe until
   * autovacuum comes by, up to a minute later).
   */
  vacuumAfterRows?: number;
  log?: () => { warn(obj: object, msg: string): void };
}

interface Run {
  /** Settles once the read's share (up to `inlineRows`) is done: how many standings it left stale (0: none). */
  slice: Promise<number>;
  /** What the background part has still to do: the count it started from, less the rows done since. */
  remaining: number;
  /** Settles when the whole run, background part included, has finished. */
  done: Promise<void>;
}

/**
 * Keeps standings fresh for the live ranking without making any one read pay for a bulk change.
 *
 * A read recomputes at most `inlineRows` stale rows before it answers (a single review changed:
 * one row, exact at once). When more are stale (a weight edit, judging start, a re-run of every
 * review: every project of the event), the rest is recomputed in the background, one run per event
 * per process, and the read answers at once from the standings as they are, saying how many
 * projects are still being recomputed (`pending`). Readers of one event share one run. Another
 * process may recompute the same rows at the same time, harmlessly (same version, same numbers).
 */
export function createStandingsRefresher(opts: StandingsRefresherOptions) {
  const { db, dialect, inlineRows } = opts;
  const vacuumAfterRows = opts.vacuumAfterRows ?? 2000;
  const runs = new Map<string, Run>();
  let stopped = false;
  let vacuuming: Promise<void> | null = null;
  let vacuumAgain = false;

  function warn(err: unknown, msg: string): void {
    opts.log?.().warn({ err }, msg);
  }

  function vacuumSoon(): void {
    if (dialect !== 'postgres' || stopped) return;
    if (vacuuming) {
      vacuumAgain = true;
      return;
    }
    vacuuming = (async () => {
      do {
        vacuumAgain = false;
        try {
          // Not in a transaction (VACUUM cannot be): a pooled connection of its own.
          await sql`vacuum analyze standings`.execute(db);
        } catch (err) {
          warn(err, 'vacuum of standings after a bulk refresh failed; autovacuum will do it later');
        }
      } while (vacuumAgain && !stopped);
    })().finally(() => (vacuuming = null));
  }

  function start(event: EventRecord): Run {
    let settleSlice!: (pending: number) => void;
    let failSlice!: (err: unknown) => void;
    const slice = new Promise<number>((resolve, reject) => {
      settleSlice = resolve;
      failSlice = reject;
    });
    const isStopped = () => stopped;
    const chunk = CHUNK[dialect];
    const run: Run = { slice, done: Promise.resolve(), remaining: 0 };
    const progress = (rows: number) => (run.remaining = Math.max(0, run.remaining - rows));
    run.done = (async () => {
      let total = 0;
      try {
        const first = await walkStale(db, event, { chunk, maxRows: inlineRows, yieldBetweenChunks: true, stopped: isStopped });
        total += first.found;
        if (first.stoppedAfter === null) return settleSlice(0);
        // Counted before the background part starts, so the reader learns what it left behind.
        const pending = await countStale(db, event.id);
        run.remaining = pending;
        settleSlice(pending);
        if (pending === 0) return;
        // The background part: on from where the read stopped, then passes from the start for rows
        // made stale behind the walk meanwhile, until a pass finds none.
        let from: string | null = first.stoppedAfter;
        for (let pass = 0; pass < MAX_PASSES && !stopped; pass++) {
          const r = await walkStale(db, event, { chunk, from, yieldBetweenChunks: true, stopped: isStopped, progress });
          total += r.found;
          if (from === null && r.found === 0) break;
          from = null;
        }
      } catch (err) {
        failSlice(err);
        // The read that started the run sees an error of its own share; the background part's only here.
        warn(err, 'refresh of standings failed; the next read retries');
      } finally {
        runs.delete(event.id);
        if (total >= vacuumAfterRows) vacuumSoon();
      }
    })();
    runs.set(event.id, run);
    return run;
  }

  /** Background work finished (runs and vacuum): for shutdown and tests. */
  async function idle(): Promise<void> {
    while (runs.size > 0 || vacuuming) {
      await Promise.all([...[...runs.values()].map((r) => r.done), vacuuming]);
    }
  }

  return {
    /**
     * Before a read of the live ranking: recomputes up to `inlineRows` stale standings (sharing a run
     * already under way) and answers how many are still stale, being recomputed in the background
     * (0: the standings are exact).
     */
    async forRead(event: EventRecord): Promise<number> {
      const joined = runs.get(event.id);
      if (!joined) return start(event).slice;
      // A run under way, perhaps well into its background part: what it has left, without
      // counting again (a count over tens of thousands of stale rows would slow every read).
      // Rows made stale after it counted are not in it; the next run counts them.
      return (await joined.slice) === 0 ? 0 : Math.max(1, joined.remaining);
    },
    /** Before a read that must be exact (CSV export, publication): every stale standing, waited for. */
    async complete(event: EventRecord): Promise<void> {
      const run = runs.get(event.id);
      if (run) await run.done;
      await walkStale(db, event, { chunk: CHUNK[dialect], yieldBetweenChunks: true });
    },
    idle,
    /** Stops background work at its next chunk and waits for it. */
    async stop(): Promise<void> {
      stopped = true;
      await idle();
    },
  };
}

export type StandingsRefresher = ReturnType<typeof createStandingsRefresher>;

async function refreshChunk(db: Executor, event: EventRecord, rows: ReadonlyArray<{ project_id: string; version: number }>): Promise<void> {
  const ids = rows.map((r) => r.project_id);
  const [config, projects, judged, reviews] = await Promise.all([
    // The weights and models too are read after the versions, like the reviews: a run that began
    // before an edit of them (a background run lasts seconds) must not write numbers from the old ones.
    db.selectFrom('events').select(['dimensions', 'models']).where('id', '=', event.id).executeTakeFirst(),
    db.selectFrom('projects').select(['id', 'track_id', 'first_submitted_at']).where('id', 'in', ids).execute(),
    // Which of them take part: the one rule, from judgedProjects.
    judgedProjects(db, event.id).select('projects.id').where('projects.id', 'in', ids).execute(),
    db.selectFrom('reviews').select(['project_id', 'reviewer_kind', 'group_key', 'status', 'scores']).where('project_id', 'in', ids).execute(),
  ]);
  if (!config) return; // the event is gone (its standings with it)
  const judgedIds = new Set(judged.map((p) => p.id));
  const standings = computeStandings(
    { dimensions: JSON.parse(config.dimensions) as EventRecord['dimensions'], models: JSON.parse(config.models) as string[] },
    projects.map((p) => ({ id: p.id, track_id: p.track_id, first_submitted_at: p.first_submitted_at, judged: judgedIds.has(p.id) })),
    reviews,
  );
  if (standings.length === 0) return;
  const version = new Map(rows.map((r) => [r.project_id, Number(r.version)]));
  await db
    .insertInto('standings')
    .values(
      standings.map((s) => ({
        project_id: s.project_id,
        event_id: event.id,
        version: version.get(s.project_id)!,
        stale: 0,
        judged: s.judged,
        track_id: s.track_id,
        first_submitted_at: s.first_submitted_at,
        score_key: s.score_key,
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

/** Where a page starts: after this entry in ranking order (score_key desc, first_submitted_at, project_id). */
export interface StandingKey {
  score_key: number;
  first_submitted_at: string;
  project_id: string;
}

export interface StandingRow extends StandingKey {
  track_id: string | null;
  by_model: string;
  by_dimension: string;
  project_name: string;
  team_name: string;
  reviews_expected: number;
  reviews_succeeded: number;
  reviews_failed: number;
  reviews_pending: number;
  reviews_human: number;
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
    ranked(db, eventId, undefined).select(sql<number | string>`count(*)`.as('n')).where('standings.score_key', '<', 0).executeTakeFirstOrThrow(),
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
