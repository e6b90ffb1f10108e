/**
 * HTTP benchmark: the real server (src/server.ts in a child process, bench/instrumented-server.ts,
 * counting the statements it runs) against baselines measured in the same run with autocannon on
 * 127.0.0.1, 50 connections:
 *   - GET /events and GET /events/:id against a bare Fastify route answering the same JSON;
 *   - a register + submit write mix (every request a real write) on SQLite and on PostgreSQL, with
 *     statements (PostgreSQL: round trips) per write, against the bare route and against the floor:
 *     the same inserts written by hand, statements prepared once, one transaction per write
 *     (bench/floor-server.ts);
 *   - the write mix while the background jobs see 5,000 projects sharing one repository URL, against
 *     the same with distinct URLs;
 *   - with BENCH_BASELINE_DIR=<a built checkout of an older commit>, the write mix of that checkout's
 *     server on the same machine, alternating runs with this one.
 * Every figure is printed beside the bare route's figure of the same run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../src/core/db/index.js';
import { migrateToLatest } from '../src/core/db/migrations.js';
import type { DatabaseConfig } from '../src/core/config.js';
import { freePort, serverNodeFlags, startBenchServer, type BenchServer } from './bench-server.js';
import { seedTeamUsers } from './seed-users.js';
import { newId } from '../src/core/ids.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 50;
/** Events per group; every measured write run takes a group of its own (no pair is written twice). */
const EVENTS = 20;
const USERS = 1500;
const SHARED_PROJECTS = 5000;
const PG_ADMIN = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BASELINE = process.env.BENCH_BASELINE_DIR;
/** Alternating runs of this server and the baseline's. */
const BASELINE_ROUNDS = Number(process.env.BENCH_BASELINE_ROUNDS ?? 2);

/** Children still running: stopped on the way out, whatever happened. */
const children = new Set<ChildProcess>();

async function waitReady(child: ChildProcess, url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server at ${url} never became ready`);
}

/** Spawns a server and waits for it; one that never becomes ready is killed, not left behind. */
async function spawnReady(args: string[], env: Record<string, string>, readyPath: string, cwd?: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
    ...(cwd ? { cwd } : {}),
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitReady(child, url + readyPath);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return { child, url };
}

function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  ok: number;
}

async function measure(opts: autocannon.Options): Promise<Measured> {
  const r = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    ok: r['2xx'],
  };
}

/** Seeds `groups` groups of events, users and keys straight into the database (fast, not measured). */
async function seed(db: DatabaseHandle['db'], groups: number) {
  const now = new Date().toISOString();
  const far = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
  const orgId = newId('usr');
  await db
    .insertInto('users')
    .values({ id: orgId, email: 'org@bench.test', password_hash: null, role: 'organizer', created_at: now, updated_at: now })
    .execute();
  const eventGroups: string[][] = [];
  for (let g = 0; g < groups; g++) {
    const ids: string[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const id = newId('evt');
      ids.push(id);
      await db
        .insertInto('events')
        .values({
          id,
          name: `Bench hack ${g}.${i}`,
          description: 'A benchmark event with a realistic amount of text. '.repeat(4),
          status: 'open',
          registration_deadline: far(10),
          submission_deadline: far(20),
          result_announced_at: null,
          tracks: JSON.stringify([
            { id: 'tools', name: 'Developer tools', prize: '$1000' },
            { id: 'fun', name: 'Just for fun', prize: 'glory' },
          ]),
          dimensions: JSON.stringify([
            { name: 'impact', weight: 2 },
            { name: 'craft', weight: 1 },
          ]),
          models: JSON.stringify(['openai/gpt-4o-mini']),
          registration_open: 1,
          auto_approve: 1,
          form_fields: JSON.stringify([{ key: 'repo', label: 'Repository', type: 'url', required: false }]),
          created_by: orgId,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    eventGroups.push(ids);
  }
  const keys = await seedTeamUsers(db, USERS, now);
  return { eventGroups, keys, orgId };
}

/**
 * An event with `count` submitted projects (and their teams), all with the repository `url` when
 * given, else each its own: what the build-window job's duplicate check walks.
 */
async function seedProjects(db: DatabaseHandle['db'], orgId: string, count: number, url: string | null): Promise<void> {
  const now = new Date().toISOString();
  const eventId = newId('evt');
  await db
    .insertInto('events')
    .values({
      id: eventId,
      name: 'Template hack',
      description: 'Everybody starts from the same template repository.',
      status: 'open',
      registration_deadline: new Date(Date.now() + 86_400_000).toISOString(),
      submission_deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      result_announced_at: null,
      tracks: JSON.stringify([{ id: 'tools', name: 'Developer tools', prize: '$1000' }]),
      dimensions: JSON.stringify([{ name: 'impact', weight: 1 }]),
      models: JSON.stringify(['openai/gpt-4o-mini']),
      registration_open: 1,
      auto_approve: 1,
      form_fields: '[]',
      created_by: orgId,
      created_at: now,
      updated_at: now,
    })
    .execute();
  for (let i = 0; i < count; i += 500) {
    const users = [];
    const regs = [];
    const members = [];
    const projects = [];
    for (let j = i; j < Math.min(count, i + 500); j++) {
      const userId = newId('usr');
      const regId = newId('reg');
      users.push({ id: userId, email: `template${j}@bench.test`, password_hash: null, role: 'user' as const, created_at: now, updated_at: now });
      regs.push({
        id: regId,
        event_id: eventId,
        user_id: userId,
        team_name: `template team ${j}`,
        team_name_key: `template team ${j}`,
        track_id: 'tools',
        contact_email: `template${j}@bench.test`,
        github_url: null,
        fields: '{}',
        status: 'approved' as const,
        reason: null,
        reapplied_at: null,
        created_at: now,
        updated_at: now,
      });
      members.push({ registration_id: regId, event_id: eventId, user_id: userId, role: 'leader' as const, joined_at: now });
      projects.push({
        id: newId('prj'),
        event_id: eventId,
        registration_id: regId,
        project_name: `Template project ${j}`,
        description: null,
        github_url: url ?? `https://github.com/bench/template-${j}`,
        project_website: null,
        demo_video_url: null,
        team_size: null,
        track_id: 'tools',
        status: 'submitted' as const,
        review_status: 'pending' as const,
        first_submitted_at: now,
        created_at: now,
        updated_at: now,
      });
    }
    await db.insertInto('users').values(users).execute();
    await db.insertInto('registrations').values(regs).execute();
    await db.insertInto('team_members').values(members).execute();
    await db.insertInto('projects').values(projects).execute();
  }
}

/** Node flags for every server: those of `npm start` (BENCH_NODE_FLAGS replaces them). */
const NODE_FLAGS = serverNodeFlags();

const SERVER_ENV = {
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_IP: '1000000',
  RATE_LIMIT_PER_KEY: '1000000',
  MAX_CONNECTIONS_PER_IP: '0',
  REDIS_URL: '',
  // Nothing leaves the machine: the build-window checks meet a closed local port.
  GITHUB_API_URL: 'http://127.0.0.1:9',
};

/** This checkout's server, as `npm start` runs it but with a statement counter; the review loop runs, as in production. */
async function startReal(dbUrl: string): Promise<BenchServer> {
  const server = await startBenchServer({
    ...SERVER_ENV,
    DATABASE_URL: dbUrl,
    RATE_LIMIT_ENABLED: 'true',
    REVIEW_WORKERS: process.env.BENCH_REVIEW_WORKERS ?? 'true',
  });
  children.add(server.child);
  return server;
}

/** The baseline checkout's own server (its dist/cli.js serve), on a database it migrates itself. */
async function startBaseline(dbUrl: string): Promise<{ child: ChildProcess; url: string }> {
  return spawnReady([...NODE_FLAGS, join(BASELINE!, 'dist/cli.js'), 'serve'], { ...SERVER_ENV, DATABASE_URL: dbUrl }, '/healthz', BASELINE);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}

/** Each connection walks its own slice of (user, event) pairs: register, then submit, then the next pair. */
function writeRequests(keys: string[], eventIds: string[], repoUrl: (n: number) => string = () => 'https://github.com/bench/repo'): autocannon.Request[] {
  let next = 0;
  const pairs = keys.length * eventIds.length;
  return [
    {
      method: 'POST',
      setupRequest: (req: any, context: any) => {
        const n = next++ % pairs;
        context.n = n;
        context.key = keys[n % keys.length];
        context.event = eventIds[Math.floor(n / keys.length)];
        return {
          ...req,
          path: `/api/v1/events/${context.event}/register`,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${context.key}` },
          body: JSON.stringify({ team_name: `team-${n}`, track_id: 'tools', fields: { repo: 'https://github.com/bench/repo' } }),
        };
      },
    },
    {
      method: 'POST',
      setupRequest: (req: any, context: any) => ({
        ...req,
        path: `/api/v1/events/${context.event}/submit`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${context.key}` },
        body: JSON.stringify({ project_name: 'Bench project', github_url: repoUrl(context.n as number), description: 'x'.repeat(200) }),
      }),
    },
  ] as autocannon.Request[];
}

const fmt = (m: Measured) => `${m.rps.toFixed(0).padStart(7)} req/s  p50 ${String(m.p50).padStart(3)} ms  p99 ${String(m.p99).padStart(4)} ms`;

async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `hk_bench_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const c = new pg.Client({ connectionString: PG_ADMIN });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const u = new URL(PG_ADMIN);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const d = new pg.Client({ connectionString: PG_ADMIN });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    },
  };
}

function configOf(url: string): DatabaseConfig {
  return url.startsWith('postgres') ? { dialect: 'postgres', url } : { dialect: 'sqlite', path: url.slice('sqlite:'.length), url };
}

async function prepare(url: string, groups: number, opts: { migrate?: boolean } = {}) {
  const handle = openDatabase(configOf(url));
  if (opts.migrate !== false) await migrateToLatest(handle.db);
  const seeded = await seed(handle.db, groups);
  return { ...seeded, handle };
}

export async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hk-bench-'));
  const drops: Array<() => Promise<void>> = [];
  const newDb = async (name: string, dialect: 'sqlite' | 'postgres') => {
    if (dialect === 'sqlite') return `sqlite:${join(dir, name)}`;
    const d = await createPgDatabase();
    drops.push(d.drop);
    return d.url;
  };
  try {
    console.log(`HTTP benchmark: autocannon, ${CONNECTIONS} connections, ${DURATION} s per run, 127.0.0.1, 2 cores shared by client and server`);
    console.log(`${new Date().toISOString()}  load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`);

    // --- the bare route ---
    const sqliteUrl = await newDb('bench.db', 'sqlite');
    const sqlite = await prepare(sqliteUrl, 2);
    await sqlite.handle.close();
    let real = await startReal(sqliteUrl);
    const list = await (await fetch(`${real.url}/api/v1/events`)).json();
    const detail = await (await fetch(`${real.url}/api/v1/events/${sqlite.eventGroups[0]![0]}`)).json();
    const fixturePath = join(dir, 'fixtures.json');
    writeFileSync(fixturePath, JSON.stringify({ list, detail, write: { ...detail, updated: false } }));
    const bare = await spawnReady([...NODE_FLAGS, '--import', 'tsx', 'bench/bare-server.ts', fixturePath], {}, '/api/v1/events');
    const bareUrl = bare.url;

    const report = (label: string, m: Measured, base: Measured, extra = '') => {
      console.log(`${label.padEnd(44)} ${fmt(m)}  ${((m.rps / base.rps) * 100).toFixed(0).padStart(3)} % of bare  errors ${m.errors + m.non2xx}  ${extra}`);
    };
    /** A write run of this server, with its statements per acknowledged write. */
    const realWrites = async (server: BenchServer, keys: string[], events: string[], repoUrl?: (n: number) => string) => {
      const before = (await server.probe()).statements;
      const m = await measure({ url: server.url, requests: writeRequests(keys, events, repoUrl) });
      const after = (await server.probe()).statements;
      return { m, perWrite: (after - before) / Math.max(1, m.ok) };
    };

    // Warm both up so JIT and page cache do not decide the first run.
    await autocannon({ url: `${real.url}/api/v1/events`, connections: 10, duration: 2 });
    await autocannon({ url: `${bareUrl}/api/v1/events`, connections: 10, duration: 2 });

    const bareList = await measure({ url: `${bareUrl}/api/v1/events` });
    console.log(`${'bare GET /events'.padEnd(44)} ${fmt(bareList)}`);
    const realList = await measure({ url: `${real.url}/api/v1/events` });
    report('GET /events (40 events, SQLite)', realList, bareList, 'target ≥ 80 %, p99 < 15 ms');

    const bareDetail = await measure({ url: `${bareUrl}/api/v1/events/x` });
    console.log(`${'bare GET /events/:id'.padEnd(44)} ${fmt(bareDetail)}`);
    const realDetail = await measure({ url: `${real.url}/api/v1/events/${sqlite.eventGroups[0]![0]}` });
    report('GET /events/:id (SQLite)', realDetail, bareDetail, 'target ≥ 80 %, p99 < 15 ms');

    const bareWrite = await measure({
      url: `${bareUrl}/api/v1/write`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ project_name: 'Bench project', github_url: 'https://github.com/bench/repo' }),
    });
    console.log(`${'bare POST (same JSON)'.padEnd(44)} ${fmt(bareWrite)}`);

    // --- the write mix, SQLite: the app, then the hand-written floor on the same file ---
    // BENCH_PROFILE=<dir>: a CPU profile of the server during this run (open it in Chrome DevTools).
    if (process.env.BENCH_PROFILE) await real.profileStart();
    const app = await realWrites(real, sqlite.keys, sqlite.eventGroups[0]!);
    if (process.env.BENCH_PROFILE) await real.profileStop(join(process.env.BENCH_PROFILE, 'write-mix-sqlite.cpuprofile'));
    report('register+submit mix (SQLite)', app.m, bareWrite, `${app.perWrite.toFixed(2)} statements/write`);
    const rssSqlite = rssMb(real.child.pid!);
    await real.stop();
    if (process.env.BENCH_ONLY_SQLITE_WRITES) return;
    const floor = await spawnReady([...NODE_FLAGS, '--import', 'tsx', 'bench/floor-server.ts'], { DATABASE_URL: sqliteUrl }, '/healthz');
    const floorM = await measure({ url: floor.url, requests: writeRequests(sqlite.keys, sqlite.eventGroups[1]!) });
    report('  floor: hand-written, prepared (SQLite)', floorM, bareWrite, `app = 1/${(floorM.rps / app.m.rps).toFixed(2)} of the floor (target ≥ 1/2.5)`);
    await stop(floor.child);

    // --- background jobs over 5,000 projects sharing one repository URL vs distinct URLs ---
    const shared: Record<'distinct' | 'shared', Measured> = {} as never;
    for (const kind of ['distinct', 'shared'] as const) {
      const url = await newDb(`${kind}.db`, 'sqlite');
      const p = await prepare(url, 1);
      const template = 'https://github.com/bench/template';
      await seedProjects(p.handle.db, p.orgId, SHARED_PROJECTS, kind === 'shared' ? template : null);
      await p.handle.close();
      const server = await startReal(url);
      const run = await realWrites(server, p.keys, p.eventGroups[0]!, kind === 'shared' ? () => template : (n) => `https://github.com/bench/repo-${n}`);
      shared[kind] = run.m;
      report(
        `  ${SHARED_PROJECTS} projects, ${kind === 'shared' ? 'one shared URL' : 'distinct URLs'} (SQLite)`,
        run.m,
        bareWrite,
        `${run.perWrite.toFixed(2)} statements/write`,
      );
      await server.stop();
    }
    console.log(`  shared URL / distinct URLs: ${((shared.shared.rps / shared.distinct.rps) * 100).toFixed(0)} % (target ≥ 90 %)`);

    // --- the baseline checkout, alternating runs (SQLite) ---
    const baselineRuns = async (dialect: 'sqlite' | 'postgres') => {
      if (!BASELINE) return;
      const ours: number[] = [];
      const theirs: number[] = [];
      for (let round = 0; round < BASELINE_ROUNDS; round++) {
        const oursUrl = await newDb(`ours-${round}.db`, dialect);
        const o = await prepare(oursUrl, 1);
        await o.handle.close();
        const server = await startReal(oursUrl);
        const run = await realWrites(server, o.keys, o.eventGroups[0]!);
        await server.stop();
        ours.push(run.m.rps);
        report(`  this checkout, round ${round + 1} (${dialect})`, run.m, bareWrite, `${run.perWrite.toFixed(2)} statements/write`);

        const theirsUrl = await newDb(`theirs-${round}.db`, dialect);
        // The baseline migrates its own database (its schema), then the same seed goes in.
        const base = await startBaseline(theirsUrl);
        const t = await prepare(theirsUrl, 1, { migrate: false });
        await t.handle.close();
        const m = await measure({ url: base.url, requests: writeRequests(t.keys, t.eventGroups[0]!) });
        await stop(base.child);
        theirs.push(m.rps);
        report(`  baseline ${BASELINE}, round ${round + 1} (${dialect})`, m, bareWrite);
      }
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      console.log(`  this checkout / baseline (${dialect}): ${(mean(ours) / mean(theirs)).toFixed(2)}×`);
    };
    await baselineRuns('sqlite');

    // --- PostgreSQL ---
    const pgUrl = await newDb('', 'postgres');
    const pgSeed = await prepare(pgUrl, 2);
    await pgSeed.handle.close();
    real = await startReal(pgUrl);
    await autocannon({ url: `${real.url}/api/v1/events`, connections: 10, duration: 2 });
    const pgList = await measure({ url: `${real.url}/api/v1/events` });
    report('GET /events (PostgreSQL)', pgList, bareList);
    const pgApp = await realWrites(real, pgSeed.keys, pgSeed.eventGroups[0]!);
    report('register+submit mix (PostgreSQL)', pgApp.m, bareWrite, `${pgApp.perWrite.toFixed(2)} round trips/write`);
    const rssPg = rssMb(real.child.pid!);
    await real.stop();
    const pgFloor = await spawnReady([...NODE_FLAGS, '--import', 'tsx', 'bench/floor-server.ts'], { DATABASE_URL: pgUrl }, '/healthz');
    const pgFloorM = await measure({ url: pgFloor.url, requests: writeRequests(pgSeed.keys, pgSeed.eventGroups[1]!) });
    report('  floor: hand-written, prepared (PostgreSQL)', pgFloorM, bareWrite, `app = 1/${(pgFloorM.rps / pgApp.m.rps).toFixed(2)} of the floor`);
    await stop(pgFloor.child);
    await baselineRuns('postgres');

    console.log(`\nserver RSS after the runs: SQLite ${rssSqlite} MB, PostgreSQL ${rssPg} MB; bare ${rssMb(bare.child.pid!)} MB`);
    await stop(bare.child);
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    for (const drop of drops) await drop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
