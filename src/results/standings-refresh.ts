import type { Db, Executor } from '../core/db/index.js';
import type { EventRecord } from '../events/events-model.js';
import { computeStandings } from './standings.js';
import * as repo from './standings-repo.js';

/**
 * Keeping the `standings` rows current (see standings.ts for what they hold and the triggers that
 * mark them stale): stale rows are recomputed a chunk at a time, at most a bounded share of them
 * by a read, the rest of a bulk change in the background.
 */

/**
 * Projects recomputed per statement: bounded IN lists and bind parameters, short event-loop slices.
 * SQLite runs its queries on the event loop itself, so its slices are smaller.
 */
const CHUNK = { sqlite: 250, postgres: 500 } as const;

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
  eventId: string,
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
    const chunk = await repo.staleChunk(db, eventId, last, Math.min(size, maxRows - found));
    if (chunk.length === 0) return { found, stoppedAfter: null };
    let whole: boolean;
    try {
      whole = await refreshChunk(db, eventId, chunk);
    } catch (err) {
      // A bulk write elsewhere can lock the same rows in another order (PostgreSQL picks one of
      // the two as deadlocked): recomputing is idempotent, so try the chunk once more.
      if ((err as { code?: unknown }).code !== '40P01') throw err;
      whole = await refreshChunk(db, eventId, chunk);
    }
    // A zscore event: one stale row means every row may be off; the whole event is recomputed.
    if (whole) return { found: found + (await refreshWholeEvent(db, eventId, opts)), stoppedAfter: null };
    found += chunk.length;
    opts.progress?.(chunk.length);
    last = chunk[chunk.length - 1]!.project_id;
    if (chunk.length < size && found < maxRows) return { found, stoppedAfter: null };
  }
}

/** Whole-event passes a zscore refresh makes before leaving a still-moving event stale for the next read. */
const WHOLE_EVENT_PASSES = 3;

/**
 * A `zscore` event: its numbers depend on every review of the event (each reviewer standardised over
 * all the projects they scored), so when any standing is stale every one is recomputed, from one
 * read of all the event's reviews. Versions are read first, as in walkStale, and each row written
 * back only if its version did not move. A write during the pass (any version moved, a project
 * added or removed) may have changed the statistics the other rows were computed with: the pass
 * then marks every row stale again and tries once more, so that "no row stale" always means "every
 * row exact". Returns the rows recomputed.
 */
async function refreshWholeEvent(
  db: Executor,
  eventId: string,
  opts: { chunk: number; yieldBetweenChunks: boolean; stopped?: () => boolean; progress?: (rows: number) => void },
): Promise<number> {
  let total = 0;
  for (let pass = 0; pass < WHOLE_EVENT_PASSES && !opts.stopped?.(); pass++) {
    const versions = await repo.standingVersions(db, eventId);
    if (!versions.some((v) => Number(v.stale) === 1)) return total;
    const [config, projects, judged, reviews] = await repo.eventInputs(db, eventId);
    if (!config) return total;
    const judgedIds = new Set(judged.map((p) => p.id));
    const standings = computeStandings(
      {
        dimensions: JSON.parse(config.dimensions) as EventRecord['dimensions'],
        models: JSON.parse(config.models) as string[],
        normalization: config.normalization,
      },
      projects.map((p) => ({ id: p.id, track_id: p.track_id, first_submitted_at: p.first_submitted_at, judged: judgedIds.has(p.id) })),
      reviews,
    );
    const version = new Map(versions.map((r) => [r.project_id, Number(r.version)]));
    const known = standings.filter((st) => version.has(st.project_id));
    for (let i = 0; i < known.length; i += opts.chunk) {
      if (i > 0 && opts.yieldBetweenChunks) await new Promise<void>((resolve) => setImmediate(resolve));
      await repo.writeStandings(db, eventId, known.slice(i, i + opts.chunk), version);
      opts.progress?.(Math.min(opts.chunk, known.length - i));
    }
    total += known.length;
    const after = await repo.versionTotals(db, eventId);
    const before = versions.reduce((a, r) => a + Number(r.version), 0);
    if (Number(after.n) === versions.length && Number(after.v ?? 0) === before) return total;
    // Something was written meanwhile: every row's numbers may be off, not only the written one's.
    await repo.markAllStale(db, eventId);
  }
  return total;
}

/**
 * Recomputes every stale standing of the event now, in the caller's transaction (publication: the
 * snapshot must be exact). No yielding: the transaction keeps its connection's turn.
 */
export async function refreshAllStandings(tx: Executor, eventId: string): Promise<void> {
  await walkStale(tx, eventId, { chunk: CHUNK.postgres, yieldBetweenChunks: false });
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
          await repo.vacuumStandings(db);
        } catch (err) {
          warn(err, 'vacuum of standings after a bulk refresh failed; autovacuum will do it later');
        }
      } while (vacuumAgain && !stopped);
    })().finally(() => (vacuuming = null));
  }

  function start(eventId: string): Run {
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
        const first = await walkStale(db, eventId, { chunk, maxRows: inlineRows, yieldBetweenChunks: true, stopped: isStopped });
        total += first.found;
        if (first.stoppedAfter === null) return settleSlice(0);
        // Counted before the background part starts, so the reader learns what it left behind.
        const pending = await repo.countStale(db, eventId);
        run.remaining = pending;
        settleSlice(pending);
        if (pending === 0) return;
        // The background part: on from where the read stopped, then passes from the start for rows
        // made stale behind the walk meanwhile, until a pass finds none.
        let from: string | null = first.stoppedAfter;
        for (let pass = 0; pass < MAX_PASSES && !stopped; pass++) {
          const r = await walkStale(db, eventId, { chunk, from, yieldBetweenChunks: true, stopped: isStopped, progress });
          total += r.found;
          if (from === null && r.found === 0) break;
          from = null;
        }
      } catch (err) {
        failSlice(err);
        // The read that started the run sees an error of its own share; the background part's only here.
        warn(err, 'refresh of standings failed; the next read retries');
      } finally {
        runs.delete(eventId);
        if (total >= vacuumAfterRows) vacuumSoon();
      }
    })();
    runs.set(eventId, run);
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
    async forRead(eventId: string): Promise<number> {
      const joined = runs.get(eventId);
      if (!joined) return start(eventId).slice;
      // A run under way, perhaps well into its background part: what it has left, without
      // counting again (a count over tens of thousands of stale rows would slow every read).
      // Rows made stale after it counted are not in it; the next run counts them.
      return (await joined.slice) === 0 ? 0 : Math.max(1, joined.remaining);
    },
    /** Before a read that must be exact (CSV export, publication): every stale standing, waited for. */
    async complete(eventId: string): Promise<void> {
      const run = runs.get(eventId);
      if (run) await run.done;
      await walkStale(db, eventId, { chunk: CHUNK[dialect], yieldBetweenChunks: true });
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

/**
 * Recomputes one chunk of stale standings of a `none` event. Answers true, writing nothing, when the
 * event normalises with zscore: its standings are recomputed whole (refreshWholeEvent).
 */
async function refreshChunk(db: Executor, eventId: string, rows: ReadonlyArray<{ project_id: string; version: number }>): Promise<boolean> {
  const ids = rows.map((r) => r.project_id);
  // The weights and models too are read after the versions, like the reviews: a run that began
  // before an edit of them (a background run lasts seconds) must not write numbers from the old ones.
  const [config, projects, judged, reviews] = await repo.projectsInputs(db, eventId, ids);
  if (!config) return false; // the event is gone (its standings with it)
  if (config.normalization === 'zscore') return true;
  const judgedIds = new Set(judged.map((p) => p.id));
  const standings = computeStandings(
    { dimensions: JSON.parse(config.dimensions) as EventRecord['dimensions'], models: JSON.parse(config.models) as string[] },
    projects.map((p) => ({ id: p.id, track_id: p.track_id, first_submitted_at: p.first_submitted_at, judged: judgedIds.has(p.id) })),
    reviews,
  );
  const version = new Map(rows.map((r) => [r.project_id, Number(r.version)]));
  await repo.writeStandings(db, eventId, standings, version);
  return false;
}
