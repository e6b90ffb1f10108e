/* eslint-disable @typescript-eslint/no-explicit-any -- generic over its table: the queue builds its statements on Kysely<any> from a table descriptor (QueueTable); each kind's repository keeps its typed rows. */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { DatabaseHandle, Executor } from './db/index.js';
import { createOutageLog, type LoopLog } from './outage-log.js';

/**
 * The one leased job queue. A queue is a table whose rows are jobs (mail_queue, webhook_deliveries,
 * reviews), each with the same lease columns:
 *
 *   id, status ('queued' → 'running' → a finished status, or back to 'queued' for a retry),
 *   next_attempt_at (when a queued job is due), lease_owner and lease_expires_at (who holds a
 *   running job, until when), attempts (counted when claimed), updated_at.
 *
 * - claimJobs leases due jobs to one lease token, atomically on both databases, and takes over jobs
 *   whose lease expired (their worker died or hung): at least once, never lost.
 * - finishLeased is the only way a job's outcome is written: conditioned on the lease token and
 *   status 'running', so a worker whose lease was taken over can never overwrite the new holder.
 * - renewLeases / releaseLeases: a live worker's heartbeat, and handing a job back untouched.
 * - retryDelayMs / nextAttemptAt: backoff with jitter and giving up, as a per-queue policy.
 * - createJobWorker: the loop (per-process concurrency per lane, poll interval, early wake-up,
 *   refill on finish, once-per-outage logging, graceful stop).
 *
 * The kinds (mail, webhooks, reviews, the build-window checks) are configurations of it.
 */

/** A queue table as the claim reads it. */
export interface QueueTable {
  /** The table's name (its lease columns are the ones named above). */
  table: string;
  /** Which claimable jobs go first: due queued ones (then expired leases), or expired leases (then queued). */
  first: 'queued' | 'expired';
  /** Jobs due at the same instant go by id too (first queued, first sent). */
  tieBreakById?: boolean;
}

/** An extra condition on the jobs a claim may take (a lane's jobs, an enabled subscription's); columns as `<table>.<column>`. */
export type JobFilter = (eb: ExpressionBuilder<any, any>) => Expression<SqlBool>;

export interface ClaimQuery {
  /** The lease token the jobs are leased under (one per claim statement; see createJobWorker). */
  owner: string;
  now: string;
  leaseUntil: string;
  limit: number;
  /** Also take over expired leases (default true). */
  takeOver?: boolean;
  where?: JobFilter;
}

const any = (db: Executor) => db as unknown as Kysely<any>;

/**
 * Leases up to `limit` claimable jobs to `q.owner` and counts the attempt: one atomic statement per
 * kind (due queued jobs; running jobs whose lease expired), never more than `limit` rows whatever
 * plan the database picks. Returns the leased rows.
 *
 * PostgreSQL: `WITH picked AS MATERIALIZED (SELECT id … LIMIT n FOR UPDATE SKIP LOCKED) UPDATE …
 * FROM picked WHERE t.id = picked.id`. A materialized CTE is evaluated exactly once, so at most n
 * rows are locked and updated; workers in several processes claim disjoint rows without waiting on
 * each other. (`WHERE id IN (SELECT … LIMIT n FOR UPDATE SKIP LOCKED)` is not safe: with a fresh
 * table's statistics the planner made it a nested-loop semi-join that re-ran the subquery for every
 * outer row, and one claim took every queued review.) The condition is not repeated in the UPDATE:
 * FOR UPDATE re-checks it on the row's latest version as it locks it (a row changed meanwhile is
 * skipped), and the planner then looks the picked ids up by primary key.
 *
 * SQLite serialises writers and evaluates an uncorrelated IN subquery once, so `UPDATE … WHERE id
 * IN (SELECT … LIMIT n) RETURNING *` is atomic and bounded as it is.
 *
 * Two statements rather than one with an OR: each walks the (status, next_attempt_at) or lease
 * index in order and stops after `limit` rows, where the OR made SQLite sort every due job.
 */
export async function claimJobs<Row>(db: Executor, dialect: DatabaseHandle['dialect'], t: QueueTable, q: ClaimQuery): Promise<Row[]> {
  const table = t.table;
  const lease = { status: 'running', lease_owner: q.owner, lease_expires_at: q.leaseUntil, attempts: sql<number>`attempts + 1`, updated_at: q.now };
  const claim = async (kind: 'queued' | 'expired', limit: number): Promise<Row[]> => {
    const pick = (from: Kysely<any>) => {
      let s = from
        .selectFrom(table)
        .select(`${table}.id`)
        .where((eb) =>
          kind === 'queued'
            ? eb.and([eb(`${table}.status`, '=', 'queued'), eb(`${table}.next_attempt_at`, '<=', q.now)])
            : eb.and([eb(`${table}.status`, '=', 'running'), eb(`${table}.lease_expires_at`, '<', q.now)]),
        );
      if (q.where) s = s.where(q.where);
      s = s.orderBy(kind === 'queued' ? `${table}.next_attempt_at` : `${table}.lease_expires_at`);
      if (t.tieBreakById) s = s.orderBy(`${table}.id`);
      return s.limit(limit);
    };
    if (dialect === 'postgres') {
      const rows = await any(db)
        .with(
          (cte) => cte('picked').materialized(),
          (qb) =>
            pick(qb as unknown as Kysely<any>)
              .forUpdate()
              .skipLocked(),
        )
        .updateTable(table)
        .from('picked')
        .set(lease)
        .whereRef(`${table}.id`, '=', 'picked.id')
        .returningAll(table)
        .execute();
      return rows as Row[];
    }
    const rows = await any(db)
      .updateTable(table)
      .set(lease)
      .where('id', 'in', pick(any(db)))
      .returningAll()
      .execute();
    return rows as Row[];
  };
  const order: Array<'queued' | 'expired'> = t.first === 'expired' ? ['expired', 'queued'] : ['queued', 'expired'];
  const out: Row[] = [];
  for (const kind of order) {
    if (kind === 'expired' && q.takeOver === false) continue;
    if (out.length >= q.limit) break;
    out.push(...(await claim(kind, q.limit - out.length)));
  }
  return out;
}

/** The lease a job's outcome is written under: the job and the token it was claimed with. */
export interface Lease {
  id: string;
  owner: string;
}

/**
 * Writes a leased job's outcome (`set`: its status and whatever else) only while `lease` still holds
 * it (lease_owner = the token, status running), and clears the lease. Returns the `returning`
 * columns of the row (at least its id), or undefined when the lease was lost (taken over after it
 * expired): then nothing was written.
 */
export async function finishLeased(
  db: Executor,
  table: string,
  lease: Lease,
  set: Record<string, unknown>,
  returning: readonly string[] = [],
): Promise<Record<string, any> | undefined> {
  return any(db)
    .updateTable(table)
    .set({ lease_owner: null, lease_expires_at: null, ...set })
    .where('id', '=', lease.id)
    .where('lease_owner', '=', lease.owner)
    .where('status', '=', 'running')
    .returning(['id', ...returning])
    .executeTakeFirst();
}

/** Extends the leases a live worker holds (`owners`: the tokens of its claims in flight) on the jobs it is working on. */
export async function renewLeases(db: Executor, table: string, owners: readonly string[], ids: readonly string[], leaseUntil: string): Promise<number> {
  if (ids.length === 0 || owners.length === 0) return 0;
  const res = await any(db)
    .updateTable(table)
    .set({ lease_expires_at: leaseUntil })
    .where('id', 'in', ids)
    .where('lease_owner', 'in', owners)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Gives leased jobs back untouched (shutdown, a claim's surplus): queued at once, the attempt uncounted. Returns how many. */
export async function releaseLeases(db: Executor, table: string, q: { ids: readonly string[]; owner: string; now: string }): Promise<number> {
  if (q.ids.length === 0) return 0;
  const res = await any(db)
    .updateTable(table)
    .set({
      status: 'queued',
      attempts: sql<number>`case when attempts > 0 then attempts - 1 else 0 end`,
      next_attempt_at: q.now,
      lease_owner: null,
      lease_expires_at: null,
      updated_at: q.now,
    })
    .where('id', 'in', q.ids)
    .where('lease_owner', '=', q.owner)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** The most a Retry-After the other side sent can delay a job (a broken header must not park it for days). */
export const RETRY_AFTER_CAP_MS = 3_600_000;

/**
 * When to try a failed job again. The delay before attempt n+1 (n = attempts so far):
 * - `exponential`: baseMs × 2^(n-1), at most maxMs;
 * - `schedule`: the n-th entry of delaysMs (past its end: give up).
 * Jitter spreads jobs that failed together: `equal` takes a uniformly random value between half and
 * all of the delay, `{ up: f }` one between the delay and (1 + f) times it.
 * Giving up: after maxAttempts attempts, when the schedule runs out, or when the next attempt would
 * come after the job's give-up instant.
 */
export interface RetryPolicy {
  backoff: { kind: 'exponential'; baseMs: number; maxMs: number } | { kind: 'schedule'; delaysMs: readonly number[] };
  jitter: 'equal' | { up: number };
  maxAttempts?: number;
}

/** The delay before the next attempt after `attempts` attempts, or null when the schedule has run out. A Retry-After is a floor (capped at RETRY_AFTER_CAP_MS). */
export function retryDelayMs(policy: RetryPolicy, attempts: number, opts: { retryAfterMs?: number | undefined; random?: () => number } = {}): number | null {
  const random = opts.random ?? Math.random;
  const b = policy.backoff;
  let delay: number;
  if (b.kind === 'schedule') {
    const at = b.delaysMs[attempts - 1];
    if (at === undefined) return null;
    delay = at;
  } else delay = Math.min(b.maxMs, b.baseMs * 2 ** Math.min(Math.max(0, attempts - 1), 40));
  const jittered = Math.round(policy.jitter === 'equal' ? delay / 2 + random() * (delay / 2) : delay * (1 + policy.jitter.up * random()));
  const floor = opts.retryAfterMs !== undefined ? Math.min(Math.max(0, opts.retryAfterMs), RETRY_AFTER_CAP_MS) : 0;
  return Math.max(jittered, floor);
}

/** When the next attempt is due (epoch ms), or null to give up (see RetryPolicy). */
export function nextAttemptAt(
  policy: RetryPolicy,
  attempts: number,
  o: { nowMs: number; giveUpAtMs?: number | undefined; retryAfterMs?: number | undefined; random?: () => number },
): number | null {
  if (policy.maxAttempts !== undefined && attempts >= policy.maxAttempts) return null;
  const delay = retryDelayMs(policy, attempts, o);
  if (delay === null) return null;
  const at = o.nowMs + delay;
  return o.giveUpAtMs !== undefined && at > o.giveUpAtMs ? null : at;
}

/** A process's worker id: host, pid and a random part; every claim leases under `<id>#<n>`. */
export function workerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export interface JobContext {
  /** The lease token the job was claimed under (its writes go through finishLeased with it). */
  owner: string;
  /** Aborted when the worker closes: hand the job back or finish quickly. */
  signal: AbortSignal;
}

export interface JobWorkerOptions<J extends { id: string }> {
  /** Names the loop in logs ("mail queue", "review queue", …). */
  component: string;
  log: () => LoopLog;
  /** Real time between polls; `wake()` (a notifier signal) starts one early. */
  pollMs: number;
  /** Jobs in flight per lane in this process. */
  concurrency: number;
  /** The lanes (a review queue has one per provider); default one. */
  lanes?: () => readonly string[];
  /** Leases up to `limit` jobs of `lane` under `owner` (claimJobs with the kind's table and filter). */
  claim: (q: { lane: string; owner: string; limit: number; takeOver: boolean }) => Promise<J[]>;
  /** Does one job and writes its outcome (finishLeased with ctx.owner). */
  run: (job: J, ctx: JobContext) => Promise<void>;
  /** A job whose run threw: default, logged (an outage once); its lease then expires and it is claimed again. */
  crashed?: (job: J, err: unknown, ctx: JobContext) => Promise<void>;
  /** Hands a claim's surplus back (a claim that returned more than the lane has room for). */
  release?: (ids: string[], owner: string) => Promise<unknown>;
  /** A heartbeat that extends the leases of the jobs in flight, every intervalMs. */
  renew?: { intervalMs: number; run: (owners: string[], ids: string[]) => Promise<unknown> };
  /** Runs before each poll's claim (the review scheduler starts judging here). */
  beforePoll?: () => Promise<void>;
  /** Runs after each poll (never throws). */
  afterPoll?: () => void;
  /** Whether a refill after a finished job also takes over expired leases (else only the poll does). */
  takeOverOnRefill?: boolean;
}

/**
 * The loop of one queue in one process. Per lane at most `concurrency` jobs in flight; `pump()`
 * fills free slots by claiming due jobs (concurrent calls coalesce into one pass); a finished job
 * refills its slot on the next turn of the event loop (jobs finishing together share one claim);
 * `start()` polls every `pollMs` and `wake()` polls at once. Every claim statement leases under a
 * token of its own (worker id + counter): if a lease expires while its job still runs and this same
 * process claims the job again, the stale run's writes no longer match.
 *
 * Failures of the loop (poll, refill, heartbeat, a crashed job) that are a database outage are
 * logged once per outage at warn and the recovery at info (core/outage-log.ts); anything else at
 * error with its stack. `close()` stops claiming, aborts the jobs' signal and waits for them.
 */
export function createJobWorker<J extends { id: string }>(o: JobWorkerOptions<J>) {
  const owner = workerId();
  const outage = createOutageLog(o.log, o.component);
  const lanes = o.lanes ?? (() => ['']);
  let claims = 0;
  const claimToken = () => `${owner}#${(++claims).toString(36)}`;
  const active = new Map<string, number>();
  const inflight = new Set<Promise<void>>();
  /** Jobs in flight here, with the lease token that holds each: only those leases are renewed. */
  const working = new Map<string, string>();
  const closing = new AbortController();
  let closed = false;
  let pumping: Promise<void> | null = null;
  let pumpAgain = false;
  let wantTakeOver = false;
  let refilling: Promise<void> | null = null;
  let claimed = 0;
  let heartbeat: NodeJS.Timeout | null = null;
  let loop: Promise<void> | null = null;
  let wakeUp: (() => void) | null = null;
  let kicked = false;

  /** Logs a failure of the loop: an outage once (warn), anything else at error with its stack. */
  function failed(err: unknown, what: string, fields: object = {}) {
    if (!outage.failed(err)) o.log().error({ err, ...fields }, `${o.component}: ${what}`);
  }

  function startHeartbeat() {
    if (heartbeat || !o.renew) return;
    const renew = o.renew;
    heartbeat = setInterval(() => {
      renew.run([...new Set(working.values())], [...working.keys()]).then(
        () => outage.ok(),
        (err: unknown) => failed(err, 'lease renewal failed'),
      );
    }, renew.intervalMs);
    heartbeat.unref();
  }
  function stopHeartbeatIfIdle() {
    if (heartbeat && inflight.size === 0) {
      clearInterval(heartbeat);
      heartbeat = null;
    }
  }

  /** Fills every lane's free slots with due jobs; `takeOver` also looks for expired leases. */
  function pump(opts: { takeOver?: boolean } = {}): Promise<void> {
    if (closed) return Promise.resolve();
    if (opts.takeOver || o.takeOverOnRefill) wantTakeOver = true;
    if (pumping) {
      pumpAgain = true;
      return pumping;
    }
    const pass = (async () => {
      do {
        pumpAgain = false;
        const takeOver = wantTakeOver;
        wantTakeOver = false;
        for (const lane of lanes()) {
          if (closed) return;
          const free = o.concurrency - (active.get(lane) ?? 0);
          if (free <= 0) continue;
          const token = claimToken();
          const jobs = await o.claim({ lane, owner: token, limit: free, takeOver });
          const surplus: string[] = [];
          for (const job of jobs) {
            if ((active.get(lane) ?? 0) < o.concurrency) launch(lane, job, token);
            else surplus.push(job.id);
          }
          if (surplus.length > 0) {
            // The claim's LIMIT should make this unreachable; the lane's limit must hold regardless.
            o.log().warn(
              { component: o.component, lane, limit: o.concurrency, surplus: surplus.length },
              `${o.component}: a claim returned more jobs than the lane has room for; handing them back`,
            );
            await o.release?.(surplus, token).catch((err: unknown) => failed(err, 'handing back surplus jobs failed; their leases will expire'));
          }
          // A full claim: more may be due.
          if (jobs.length >= free) pumpAgain = true;
        }
      } while (pumpAgain && !closed);
    })();
    // Cleared in a callback, never inside the pass: a pass that finishes without awaiting would
    // otherwise clear `pumping` before it was even assigned, and stick.
    pumping = pass;
    const clear = () => {
      if (pumping === pass) pumping = null;
    };
    pass.then(clear, clear);
    return pass;
  }

  function refill() {
    if (refilling || closed) return;
    refilling = new Promise<void>((resolve) => {
      setImmediate(() => {
        refilling = null;
        pump()
          .then(
            () => outage.ok(),
            (err: unknown) => failed(err, 'refill failed'),
          )
          .finally(resolve);
      });
    });
  }

  function launch(lane: string, job: J, token: string) {
    active.set(lane, (active.get(lane) ?? 0) + 1);
    claimed++;
    working.set(job.id, token);
    // Only this run's own entry is dropped: a newer claim of the same job keeps its lease renewed.
    const forget = () => {
      if (working.get(job.id) === token) working.delete(job.id);
    };
    startHeartbeat();
    const ctx: JobContext = { owner: token, signal: closing.signal };
    const p: Promise<void> = o
      .run(job, ctx)
      .catch(async (err: unknown) => {
        forget();
        if (o.crashed) await o.crashed(job, err, ctx).catch((e: unknown) => failed(e, 'crash handling failed', { job: job.id }));
        else failed(err, 'job crashed; its lease will expire and it is tried again', { job: job.id });
      })
      .finally(() => {
        forget();
        active.set(lane, (active.get(lane) ?? 1) - 1);
        inflight.delete(p);
        stopHeartbeatIfIdle();
        refill();
      });
    inflight.add(p);
  }

  /** One poll: the before-poll work, then a pump that also takes over expired leases. Throws what they throw. */
  async function poll(): Promise<void> {
    await o.beforePoll?.();
    await pump({ takeOver: true });
  }

  /** Polls every pollMs (or at once after wake()) until close(). */
  function start(): void {
    if (loop || closed) return;
    loop = (async () => {
      while (!closed) {
        kicked = false;
        try {
          await poll();
          outage.ok();
        } catch (err) {
          failed(err, 'poll failed; retrying at the next poll');
        }
        if (closed) break;
        try {
          o.afterPoll?.();
        } catch (err) {
          failed(err, 'after-poll work failed');
        }
        if (kicked) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, o.pollMs);
          timer.unref();
          wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wakeUp = null;
      }
    })();
  }

  /** Polls at once (a notifier said there is new work). */
  function wake(): void {
    kicked = true;
    const w = wakeUp;
    wakeUp = null;
    w?.();
  }

  /** Resolves once nothing is in flight and no pump is running. */
  async function whenIdle(): Promise<void> {
    while (inflight.size > 0 || pumping || refilling) {
      await Promise.allSettled([...inflight, ...(pumping ? [pumping] : []), ...(refilling ? [refilling] : [])]);
    }
  }

  /** Stops claiming, aborts the jobs' signal, waits for the loop and the jobs in flight. */
  async function close(): Promise<void> {
    closed = true;
    closing.abort(new Error('shutting down'));
    wake();
    await loop;
    await whenIdle();
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = null;
  }

  return {
    owner,
    start,
    poll,
    pump,
    wake,
    whenIdle,
    close,
    /** Logs a failure the way the loop does (an outage once); for the kind's own background work. */
    failed,
    /** How many jobs this process has claimed so far. */
    claimedCount: () => claimed,
    inFlight: () => inflight.size,
    get closed() {
      return closed;
    },
  };
}

export type JobWorker = ReturnType<typeof createJobWorker>;
