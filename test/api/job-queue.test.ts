import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle, type Executor } from '../../src/core/db/index.js';
import {
  claimJobs,
  createJobWorker,
  finishLeased,
  nextAttemptAt,
  releaseLeases,
  renewLeases,
  retryDelayMs,
  type QueueTable,
  type RetryPolicy,
} from '../../src/core/job-queue.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';

/**
 * The core leased job queue (src/core/job-queue.ts), once for every kind (mail, webhooks, reviews):
 * on a table of its own with the lease columns, through two database handles (two processes), with
 * instants passed in (no sleeps; the lease expires when the test says so). Each kind's tests cover
 * its own work.
 */
const TABLE = 'queue_test_jobs';
const QUEUE: QueueTable = { table: TABLE, first: 'queued', tieBreakById: true };

interface Job {
  id: string;
  status: string;
  next_attempt_at: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  attempts: number;
  result: string | null;
}

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const LEASE_MS = 60_000;

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const loose = (db: Executor) => db as unknown as Kysely<any>;
const silent = { info() {}, warn() {}, error() {} };

describe.each(DIALECTS)('the leased job queue (%s)', (dialect) => {
  let tdb: TestDatabase;
  let a: DatabaseHandle;
  let b: DatabaseHandle;

  beforeAll(async () => {
    tdb = await createTestDatabase(dialect);
    a = openDatabase(tdb.config);
    b = openDatabase(tdb.config);
    await loose(a.db)
      .schema.createTable(TABLE)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('next_attempt_at', 'text')
      .addColumn('lease_owner', 'text')
      .addColumn('lease_expires_at', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('result', 'text')
      .execute();
    await loose(a.db).schema.createIndex(`${TABLE}_due_idx`).on(TABLE).columns(['status', 'next_attempt_at']).execute();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await tdb?.drop();
  });
  beforeEach(async () => {
    await loose(a.db).deleteFrom(TABLE).execute();
  });

  async function enqueue(n: number, due = at(0)) {
    const rows = Array.from({ length: n }, (_, i) => ({
      id: `job_${String(i).padStart(4, '0')}`,
      status: 'queued',
      next_attempt_at: due,
      attempts: 0,
      updated_at: at(0),
    }));
    for (let i = 0; i < rows.length; i += 100)
      await loose(a.db)
        .insertInto(TABLE)
        .values(rows.slice(i, i + 100))
        .execute();
    return rows.map((r) => r.id);
  }
  const row = async (id: string) => (await loose(a.db).selectFrom(TABLE).selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as Job;
  const claim = (h: DatabaseHandle, owner: string, now: number, limit: number, takeOver = true) =>
    claimJobs<Job>(h.db, h.dialect, QUEUE, { owner, now: at(now), leaseUntil: at(now + LEASE_MS), limit, takeOver });
  const complete = (h: DatabaseHandle, job: { id: string }, owner: string, result: string, now: number) =>
    finishLeased(h.db, TABLE, { id: job.id, owner }, { status: 'done', result, next_attempt_at: null, updated_at: at(now) });

  it('two database handles claiming at once never take the same job, and together take every one', async () => {
    const ids = await enqueue(300);
    const taken: Record<string, string[]> = { a: [], b: [] };
    const drain = async (h: DatabaseHandle, name: 'a' | 'b') => {
      for (let n = 0; ; n++) {
        const jobs = await claim(h, `${name}#${n}`, 1_000, 7);
        expect(jobs.length).toBeLessThanOrEqual(7);
        if (jobs.length === 0) return;
        taken[name]!.push(...jobs.map((j) => j.id));
      }
    };
    await Promise.all([drain(a, 'a'), drain(b, 'b'), drain(a, 'a'), drain(b, 'b')]);
    const all = [...taken.a!, ...taken.b!];
    expect(new Set(all).size).toBe(all.length);
    expect([...all].sort()).toEqual(ids);
    const running = await loose(a.db).selectFrom(TABLE).select(['attempts', 'status']).execute();
    expect(running.every((r) => r.status === 'running' && Number(r.attempts) === 1)).toBe(true);
  });

  it('a job is not claimed before it is due, and a claim takes due jobs in order', async () => {
    await enqueue(3, at(5_000));
    expect(await claim(a, 'early', 4_999, 10)).toEqual([]);
    const jobs = await claim(a, 'due', 5_000, 2);
    expect(jobs.map((j) => j.id)).toEqual(['job_0000', 'job_0001']);
    expect(jobs[0]).toMatchObject({ status: 'running', lease_owner: 'due', lease_expires_at: at(5_000 + LEASE_MS), attempts: 1 });
  });

  it('crash: the job of a worker that died mid-job is claimed again only after its lease, and done by another', async () => {
    const [id] = await enqueue(1);
    const [job] = await claim(a, 'dead#1', 0, 1);
    expect(job!.id).toBe(id);
    // The worker dies here: no write, no heartbeat. Before the lease ends nobody else may take it.
    expect(await claim(b, 'live#1', LEASE_MS - 1, 1)).toEqual([]);
    // Expired leases are not looked at when the claim says so (a refill after a finished job).
    expect(await claim(b, 'live#2', LEASE_MS + 1, 1, false)).toEqual([]);
    const [again] = await claim(b, 'live#3', LEASE_MS + 1, 1);
    expect(again).toMatchObject({ id, status: 'running', lease_owner: 'live#3', attempts: 2 });
    expect(await complete(b, again!, 'live#3', 'done by b', LEASE_MS + 2)).toMatchObject({ id });
    expect(await row(id!)).toMatchObject({ status: 'done', result: 'done by b', lease_owner: null, lease_expires_at: null, attempts: 2 });
  });

  it('a worker whose lease was taken over can neither complete, renew nor release the job', async () => {
    const [id] = await enqueue(1);
    await claim(a, 'slow#1', 0, 1);
    // Renewed while alive…
    expect(await renewLeases(a.db, TABLE, ['slow#1'], [id!], at(30_000 + LEASE_MS))).toBe(1);
    expect(await claim(b, 'other#1', LEASE_MS + 1, 1)).toEqual([]);
    // …then paused past the renewed lease: another worker takes the job over.
    const [taken] = await claim(b, 'other#2', 30_000 + LEASE_MS + 1, 1);
    expect(taken).toMatchObject({ id, lease_owner: 'other#2' });
    // The stale worker wakes up: nothing it writes lands.
    expect(await complete(a, { id: id! }, 'slow#1', 'stale', 100_000)).toBeUndefined();
    expect(await renewLeases(a.db, TABLE, ['slow#1'], [id!], at(200_000))).toBe(0);
    expect(await releaseLeases(a.db, TABLE, { ids: [id!], owner: 'slow#1', now: at(100_000) })).toBe(0);
    expect(await row(id!)).toMatchObject({ status: 'running', lease_owner: 'other#2', result: null });
    expect(await complete(b, taken!, 'other#2', 'fresh', 100_001)).toMatchObject({ id });
    expect(await complete(b, taken!, 'other#2', 'twice', 100_002)).toBeUndefined();
    expect(await row(id!)).toMatchObject({ status: 'done', result: 'fresh' });
  });

  it('a released job is queued again at once with its attempt uncounted', async () => {
    const [id] = await enqueue(1);
    await claim(a, 'w#1', 0, 1);
    expect(await releaseLeases(a.db, TABLE, { ids: [id!], owner: 'w#1', now: at(10) })).toBe(1);
    expect(await row(id!)).toMatchObject({ status: 'queued', attempts: 0, lease_owner: null, next_attempt_at: at(10) });
  });

  /** A worker over the test table whose clock is `now.ms` and whose jobs wait for the test to let them go. */
  function worker(h: DatabaseHandle, o: { concurrency: number; now: { ms: number }; run?: (job: Job, owner: string) => Promise<void> }) {
    let inFlight = 0;
    let maxInFlight = 0;
    const gates: Array<() => void> = [];
    const w = createJobWorker<Job>({
      component: 'test queue',
      log: () => silent,
      pollMs: 60_000,
      concurrency: o.concurrency,
      claim: ({ owner, limit, takeOver }) =>
        claimJobs<Job>(h.db, h.dialect, QUEUE, { owner, limit, takeOver, now: at(o.now.ms), leaseUntil: at(o.now.ms + LEASE_MS) }),
      run: async (job, ctx) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          if (o.run) return await o.run(job, ctx.owner);
          await new Promise<void>((resolve) => gates.push(resolve));
          await complete(h, job, ctx.owner, 'ok', o.now.ms);
        } finally {
          inFlight--;
        }
      },
    });
    return { w, gates, stats: () => ({ inFlight, maxInFlight }) };
  }

  it('per-process concurrency: never more than the limit in flight, and every job done once', async () => {
    await enqueue(12);
    const now = { ms: 0 };
    const one = worker(a, { concurrency: 3, now });
    const two = worker(b, { concurrency: 2, now });
    await Promise.all([one.w.pump(), two.w.pump()]);
    await until('both workers full', () => one.gates.length === 3 && two.gates.length === 2);
    const running = async () =>
      Number(
        (
          await loose(a.db)
            .selectFrom(TABLE)
            .select(sql<number>`count(*)`.as('n'))
            .where('status', '=', 'running')
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await running()).toBe(5);
    // Let jobs go one at a time: each freed slot is refilled, never beyond the limit.
    for (let released = 0; released < 12; released++) {
      await until('a job waiting', () => one.gates.length + two.gates.length > 0);
      (one.gates.shift() ?? two.gates.shift())!();
      await new Promise((r) => setImmediate(r));
      expect(await running()).toBeLessThanOrEqual(5);
    }
    await Promise.all([one.w.whenIdle(), two.w.whenIdle()]);
    await Promise.all([one.w.close(), two.w.close()]);
    expect(one.stats().maxInFlight).toBe(3);
    expect(two.stats().maxInFlight).toBe(2);
    const rows = (await loose(a.db).selectFrom(TABLE).selectAll().execute()) as Job[];
    expect(rows.map((r) => [r.status, Number(r.attempts)])).toEqual(Array(12).fill(['done', 1]));
  });

  it('a crashed job (its run threw) stays leased until the lease expires, then another worker does it', async () => {
    const [id] = await enqueue(1);
    const now = { ms: 0 };
    const crashing = worker(a, {
      concurrency: 1,
      now,
      run: async () => {
        throw new Error('the worker died mid-job');
      },
    });
    await crashing.w.pump();
    await crashing.w.close();
    expect(await row(id!)).toMatchObject({ status: 'running', attempts: 1 });
    const rescuer = worker(b, { concurrency: 1, now, run: (job, owner) => complete(b, job, owner, 'rescued', now.ms).then(() => undefined) });
    await rescuer.w.pump();
    await rescuer.w.whenIdle();
    expect(await row(id!)).toMatchObject({ status: 'running', attempts: 1 });
    now.ms = LEASE_MS + 1;
    await rescuer.w.pump({ takeOver: true });
    await rescuer.w.whenIdle();
    expect(await row(id!)).toMatchObject({ status: 'done', result: 'rescued', attempts: 2 });
    await rescuer.w.close();
  });

  it('graceful stop: close() aborts the jobs in flight, which hand their leases back, and claims nothing more', async () => {
    await enqueue(4);
    const now = { ms: 0 };
    const started: string[] = [];
    const w = createJobWorker<Job>({
      component: 'test queue',
      log: () => silent,
      pollMs: 60_000,
      concurrency: 2,
      claim: ({ owner, limit, takeOver }) =>
        claimJobs<Job>(a.db, a.dialect, QUEUE, { owner, limit, takeOver, now: at(now.ms), leaseUntil: at(now.ms + LEASE_MS) }),
      run: async (job, ctx) => {
        started.push(job.id);
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
        await releaseLeases(a.db, TABLE, { ids: [job.id], owner: ctx.owner, now: at(now.ms) });
      },
    });
    await w.pump();
    await until('two jobs started', () => started.length === 2);
    await w.close();
    await w.pump();
    expect(started).toHaveLength(2);
    const rows = (await loose(a.db).selectFrom(TABLE).selectAll().execute()) as Job[];
    expect(rows.map((r) => [r.status, Number(r.attempts)])).toEqual(Array(4).fill(['queued', 0]));
  });

  it('backoff with jitter grows per attempt, and the job is given up after the maximum of attempts', async () => {
    const [id] = await enqueue(1);
    const policy: RetryPolicy = { backoff: { kind: 'exponential', baseMs: 1_000, maxMs: 60_000 }, jitter: 'equal', maxAttempts: 5 };
    const now = { ms: 0 };
    const randoms = [0, 1, 0.5, 0.25, 0.75];
    const failing = worker(a, {
      concurrency: 1,
      now,
      run: async (job, owner) => {
        const next = nextAttemptAt(policy, job.attempts, { nowMs: T0 + now.ms, random: () => randoms[job.attempts - 1]! });
        await finishLeased(
          a.db,
          TABLE,
          { id: job.id, owner },
          {
            status: next === null ? 'failed' : 'queued',
            next_attempt_at: next === null ? null : new Date(next).toISOString(),
            updated_at: at(now.ms),
          },
        );
      },
    });
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      await failing.w.pump();
      await failing.w.whenIdle();
      const r = await row(id!);
      expect(Number(r.attempts)).toBe(attempt);
      if (attempt === 5) {
        expect(r).toMatchObject({ status: 'failed', next_attempt_at: null, lease_owner: null });
        break;
      }
      expect(r.status).toBe('queued');
      const wait = Date.parse(r.next_attempt_at!) - (T0 + now.ms);
      waits.push(wait);
      // Not due a moment before; due at that instant.
      now.ms += wait - 1;
      await failing.w.pump();
      await failing.w.whenIdle();
      expect(Number((await row(id!)).attempts)).toBe(attempt);
      now.ms += 1;
    }
    // Equal jitter: between half and all of base × 2^(n-1).
    expect(waits).toEqual([500, 2_000, 3_000, 5_000]);
    await failing.w.close();
    // The spread, and the cap, over many draws.
    for (let n = 1; n <= 12; n++) {
      const full = Math.min(60_000, 1_000 * 2 ** (n - 1));
      const draws = Array.from({ length: 50 }, (_, i) => retryDelayMs(policy, n, { random: () => i / 49 })!);
      expect(Math.min(...draws)).toBe(Math.round(full / 2));
      expect(Math.max(...draws)).toBe(full);
    }
    // A schedule runs out; a give-up instant ends the retries before it.
    const schedule: RetryPolicy = { backoff: { kind: 'schedule', delaysMs: [10, 20] }, jitter: { up: 0.2 } };
    expect([1, 2, 3].map((n) => nextAttemptAt(schedule, n, { nowMs: 0, random: () => 1 }))).toEqual([12, 24, null]);
    expect(nextAttemptAt(schedule, 2, { nowMs: 0, giveUpAtMs: 23, random: () => 1 })).toBeNull();
  });

  it('the loop logs a database outage once at warn and its end at info; an unexpected error at error', async () => {
    const lines: Array<[string, string]> = [];
    const log = {
      info: (_: object, msg?: string) => void lines.push(['info', msg ?? '']),
      warn: (_: object, msg?: string) => void lines.push(['warn', msg ?? '']),
      error: (_: object, msg?: string) => void lines.push(['error', msg ?? '']),
    };
    let polls = 0;
    let mode: 'down' | 'up' | 'bug' = 'down';
    const w = createJobWorker<Job>({
      component: 'test queue',
      log: () => log,
      pollMs: 1,
      concurrency: 1,
      claim: async () => {
        polls++;
        if (mode === 'down') throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        if (mode === 'bug') throw new TypeError('x is not a function');
        return [];
      },
      run: async () => {},
    });
    w.start();
    await until('20 failed polls', () => polls >= 20);
    mode = 'up';
    const upAt = polls;
    await until('a poll after the outage', () => polls > upAt + 1);
    mode = 'bug';
    const bugAt = polls;
    await until('a poll that meets a bug', () => polls > bugAt + 1);
    await w.close();
    expect(lines[0]).toEqual(['warn', 'test queue: database unavailable; retrying quietly until it is back']);
    expect(lines[1]![0]).toBe('info');
    expect(lines[1]![1]).toMatch(/^test queue resumed after \d+ ms of database outage$/);
    expect(lines.slice(2).length).toBeGreaterThan(0);
    expect(lines.slice(2).every(([level, msg]) => level === 'error' && msg === 'test queue: poll failed; retrying at the next poll')).toBe(true);
  });
});
