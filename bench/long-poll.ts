/**
 * What do idle long-polls cost? 5,000 `GET /events/:id/my-registration?wait=45` waiters on pending
 * registrations, PostgreSQL without Redis (the server uses LISTEN/NOTIFY), the real server in a child
 * process (the waiters held by another, bench/long-poll-waiters.ts). Measures the server's CPU while they wait (share of one core), the database's
 * transactions per second (pg_stat_database), and the rate of another read (GET /events/:id)
 * with and without the waiters.
 *   node --import tsx bench/long-poll.ts        (WAITERS=5000, BENCH_SECONDS=5 per run, BENCH_SAMPLES=3 runs)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { generateApiKey } from '../src/accounts/api-keys.js';
import { openDatabase } from '../src/core/db/index.js';
import { migrateToLatest } from '../src/core/db/migrations.js';
import { newId } from '../src/core/ids.js';
import { startBenchServer, type BenchServer } from './bench-server.js';

const WAITERS = Number(process.env.WAITERS ?? 5000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 3);
const IDLE_SECONDS = 10;
/** A directory: CPU profiles of the server (reads alone, idle with waiters, reads with waiters). */
const PROFILE = process.env.BENCH_PROFILE;
const PG_ADMIN = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function seed(url: string) {
  const { db, close } = openDatabase({ dialect: 'postgres', url });
  await migrateToLatest(db);
  const now = new Date().toISOString();
  const far = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
  const orgId = newId('usr');
  await db
    .insertInto('users')
    .values({ id: orgId, email: 'org@bench.test', password_hash: null, role: 'organizer', created_at: now, updated_at: now })
    .execute();
  const eventId = newId('evt');
  await db
    .insertInto('events')
    .values({
      id: eventId,
      name: 'Long-poll hack',
      description: 'x'.repeat(1500),
      status: 'open',
      registration_deadline: far(10),
      submission_deadline: far(20),
      result_announced_at: null,
      tracks: '[]',
      dimensions: JSON.stringify([{ name: 'overall', weight: 1 }]),
      models: '[]',
      registration_open: 1,
      auto_approve: 0,
      form_fields: '[]',
      created_by: orgId,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const keys: string[] = [];
  for (let i = 0; i < WAITERS; i += 500) {
    const users = [];
    const apiKeys = [];
    const regs = [];
    for (let j = i; j < Math.min(WAITERS, i + 500); j++) {
      const id = newId('usr');
      const k = generateApiKey();
      keys.push(k.token);
      users.push({ id, email: `team${j}@bench.test`, password_hash: null, role: 'user' as const, created_at: now, updated_at: now });
      apiKeys.push({
        id: newId('key'),
        user_id: id,
        name: 'bench',
        prefix: k.displayPrefix,
        key_hash: k.hash,
        created_at: now,
        expires_at: null,
        revoked_at: null,
        last_used_at: null,
      });
      regs.push({
        id: newId('reg'),
        event_id: eventId,
        user_id: id,
        team_name: `team ${j}`,
        team_name_key: `team ${j}`,
        track_id: null,
        contact_email: `team${j}@bench.test`,
        github_url: null,
        fields: '{}',
        status: 'pending' as const,
        reason: null,
        created_at: now,
        updated_at: now,
      });
    }
    await db.insertInto('users').values(users).execute();
    await db.insertInto('api_keys').values(apiKeys).execute();
    await db.insertInto('registrations').values(regs).execute();
  }
  await close();
  return { eventId, keys };
}

/**
 * The other read's rate: SAMPLES runs and their median (single short runs on a shared 2-core
 * machine vary by ±15 %, more than the effect measured).
 */
async function reads(opts: autocannon.Options): Promise<{ median: number; text: string }> {
  const runs: Array<{ rps: number; p99: number }> = [];
  for (let i = 0; i < SAMPLES; i++) {
    const r = await autocannon(opts);
    runs.push({ rps: r.requests.average, p99: r.latency.p99 });
  }
  const sorted = runs.map((r) => r.rps).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return { median, text: `median ${median.toFixed(0)} req/s (runs: ${runs.map((r) => `${r.rps.toFixed(0)} p99 ${r.p99} ms`).join(', ')})` };
}

async function xacts(admin: pg.Client, name: string): Promise<number> {
  const r = await admin.query('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1', [name]);
  return Number(r.rows[0].n);
}

/** CPU share of one core and database transactions per second over `seconds` of idleness. */
async function idle(server: BenchServer, admin: pg.Client, name: string, seconds: number) {
  const c0 = (await server.probe()).cpuMicros;
  const x0 = await xacts(admin, name);
  await sleep(seconds * 1000);
  const c1 = (await server.probe()).cpuMicros;
  const x1 = await xacts(admin, name);
  return { cpuPct: ((c1 - c0) / (seconds * 1e6)) * 100, xactPerS: (x1 - x0) / seconds };
}

async function main() {
  const name = `hk_lp_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(PG_ADMIN);
  u.pathname = `/${name}`;
  let holder: ChildProcess | null = null;
  let server: BenchServer | null = null;
  try {
    const { eventId, keys } = await seed(u.toString());
    server = await startBenchServer({ DATABASE_URL: u.toString(), MAX_WAIT_SECONDS: '45' });
    const read = { url: `${server.url}/api/v1/events/${eventId}`, connections: 50, duration: DURATION };
    // Warm up (JIT, caches) so that the first measurement is not the slow one.
    await autocannon({ ...read, duration: 3 });

    const quiet = await idle(server, admin, name, IDLE_SECONDS);
    if (PROFILE) await server.profileStart();
    const before = await reads(read);
    if (PROFILE) await server.profileStop(`${PROFILE}/long-poll-reads-alone.cpuprofile`);
    console.log(
      `no waiters:   server CPU ${quiet.cpuPct.toFixed(1)} % of a core, ${quiet.xactPerS.toFixed(1)} DB transactions/s; GET /events/:id ${before.text}`,
    );

    // Open the waiters (in their own process), a few hundred at a time, and let their first reads finish.
    holder = fork('bench/long-poll-waiters.ts', [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const waiters = holder;
    const message = (type: string) => new Promise<any>((resolve) => waiters.on('message', (m: any) => m?.type === type && resolve(m)));
    const connected = message('connected');
    waiters.send({ type: 'start', url: server.url, eventId, keys });
    await connected;
    // The waiters' first reads (key lookup, registration, event) take a while on a busy machine:
    // wait until the database goes quiet before measuring the waiting itself.
    const t0 = Date.now();
    for (let last = await xacts(admin, name), quiet = 0; quiet < 5 && Date.now() - t0 < 90_000;) {
      await sleep(1000);
      const now = await xacts(admin, name);
      quiet = now - last < 20 ? quiet + 1 : 0;
      last = now;
    }
    const answeredEarly = message('answered');
    waiters.send({ type: 'answered' });
    console.log(
      `${keys.length} waiters open, first reads done after ${((Date.now() - t0) / 1000).toFixed(0)} s (${(await answeredEarly).answered} answered early)`,
    );
    await server.reset();
    if (PROFILE) await server.profileStart();
    const waiting = await idle(server, admin, name, IDLE_SECONDS);
    if (PROFILE) await server.profileStop(`${PROFILE}/long-poll-idle.cpuprofile`);
    if (PROFILE) await server.profileStart();
    const during = await reads(read);
    if (PROFILE) await server.profileStop(`${PROFILE}/long-poll-reads-with-waiters.cpuprofile`);
    console.log(
      `${keys.length} waiters: server CPU ${waiting.cpuPct.toFixed(1)} % of a core, ${waiting.xactPerS.toFixed(1)} DB transactions/s; GET /events/:id ${during.text}`,
    );
    console.log(
      `other reads with waiters: ${((during.median / before.median) * 100).toFixed(0)} % of the rate without, medians of ${SAMPLES} runs (goal ≥ 90 %); waiters' CPU ${(waiting.cpuPct - quiet.cpuPct).toFixed(1)} % of a core (goal < 5 %)`,
    );
    const probe = await server.probe();
    console.log(`server RSS ${probe.rssMb} MB, event-loop delay max ${probe.loopMaxMs.toFixed(0)} ms while waiting and serving the other reads`);
  } finally {
    holder?.kill('SIGKILL');
    await server?.stop();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
