/**
 * HTTP benchmark: the real server (`node dist/cli.js serve`, a child process) against a bare Fastify
 * route answering the same JSON, measured in the same run with autocannon on 127.0.0.1.
 *   - GET /events and GET /events/:id at 50 connections
 *   - a register + submit write mix (every request a real write) on SQLite and on PostgreSQL
 * Prints req/s, p50/p99 latency, the ratio to the bare route and the server's RSS.
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
import { freePort, serverNodeFlags } from './bench-server.js';
import { seedTeamUsers } from './seed-users.js';
import { newId } from '../src/core/ids.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 50;
const EVENTS = 20;
const USERS = 1500;
const PG_ADMIN = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function waitReady(child: ChildProcess, url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
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
}

async function measure(opts: autocannon.Options): Promise<Measured> {
  const r = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

/** Seeds events, users and keys straight into the database (fast, not measured). */
async function seed(db: DatabaseHandle['db']) {
  const now = new Date().toISOString();
  const far = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
  const orgId = newId('usr');
  await db
    .insertInto('users')
    .values({ id: orgId, email: 'org@bench.test', password_hash: null, role: 'organizer', created_at: now, updated_at: now })
    .execute();
  const eventIds: string[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const id = newId('evt');
    eventIds.push(id);
    await db
      .insertInto('events')
      .values({
        id,
        name: `Bench hack ${i}`,
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
  const keys = await seedTeamUsers(db, USERS, now);
  return { eventIds, keys };
}

/** Node flags for both servers: those of `npm start` (BENCH_NODE_FLAGS replaces them). */
const NODE_FLAGS = serverNodeFlags();

async function startReal(dbUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...NODE_FLAGS, ...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_PROF] : []), 'dist/cli.js', 'serve'],
    {
      env: {
        ...process.env,
        DATABASE_URL: dbUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_IP: '1000000',
        RATE_LIMIT_PER_KEY: '1000000',
        MAX_CONNECTIONS_PER_IP: '0',
        REDIS_URL: '',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitReady(child, `${url}/healthz`);
  return { child, url };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}

/** Each connection walks its own slice of (user, event) pairs: register, then submit, then the next pair. */
function writeRequests(keys: string[], eventIds: string[]): autocannon.Request[] {
  let next = 0;
  const pairs = keys.length * eventIds.length;
  return [
    {
      method: 'POST',
      setupRequest: (req: any, context: any) => {
        const n = next++ % pairs;
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
        body: JSON.stringify({ project_name: 'Bench project', github_url: 'https://github.com/bench/repo', description: 'x'.repeat(200) }),
      }),
    },
  ] as autocannon.Request[];
}

const fmt = (m: Measured) => `${m.rps.toFixed(0).padStart(7)} req/s  p50 ${String(m.p50).padStart(3)} ms  p99 ${String(m.p99).padStart(3)} ms`;

async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `hk_bench_${Date.now().toString(36)}`;
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

async function prepare(config: DatabaseConfig) {
  const handle = openDatabase(config);
  await migrateToLatest(handle.db);
  const seeded = await seed(handle.db);
  await handle.close();
  return seeded;
}

export async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hk-bench-'));
  const sqlitePath = join(dir, 'bench.db');
  const children: ChildProcess[] = [];
  let pgDb: { url: string; drop: () => Promise<void> } | null = null;
  try {
    console.log(`HTTP benchmark: autocannon, ${CONNECTIONS} connections, ${DURATION} s per run, 127.0.0.1, 2 cores shared by client and server\n`);
    const sqlite = await prepare({ dialect: 'sqlite', path: sqlitePath, url: `sqlite:${sqlitePath}` });
    const real = await startReal(`sqlite:${sqlitePath}`);
    children.push(real.child);

    const list = await (await fetch(`${real.url}/api/v1/events`)).json();
    const detail = await (await fetch(`${real.url}/api/v1/events/${sqlite.eventIds[0]}`)).json();
    const fixturePath = join(dir, 'fixtures.json');
    writeFileSync(fixturePath, JSON.stringify({ list, detail, write: { ...detail, updated: false } }));
    const barePort = await freePort();
    // The same runtime flags as the real server: the ratio compares the code, not V8 settings.
    const bare = spawn(process.execPath, [...NODE_FLAGS, '--import', 'tsx', 'bench/bare-server.ts', fixturePath], {
      env: { ...process.env, PORT: String(barePort) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(bare);
    const bareUrl = `http://127.0.0.1:${barePort}`;
    await waitReady(bare, `${bareUrl}/api/v1/events`);

    const rows: string[] = [];
    const report = (label: string, m: Measured, base: Measured, target: string) => {
      const line = `${label.padEnd(34)} ${fmt(m)}  ${((m.rps / base.rps) * 100).toFixed(0).padStart(3)} % of bare  errors ${m.errors + m.non2xx}  ${target}`;
      rows.push(line);
      console.log(line);
    };

    // Warm both up so JIT and page cache do not decide the first run.
    await autocannon({ url: `${real.url}/api/v1/events`, connections: 10, duration: 2 });
    await autocannon({ url: `${bareUrl}/api/v1/events`, connections: 10, duration: 2 });

    const bareList = await measure({ url: `${bareUrl}/api/v1/events` });
    console.log(`${'bare GET /events'.padEnd(34)} ${fmt(bareList)}`);
    const realList = await measure({ url: `${real.url}/api/v1/events` });
    report('GET /events (20 events, SQLite)', realList, bareList, 'target ≥ 60 %, p99 < 15 ms');

    const bareDetail = await measure({ url: `${bareUrl}/api/v1/events/x` });
    console.log(`${'bare GET /events/:id'.padEnd(34)} ${fmt(bareDetail)}`);
    const realDetail = await measure({ url: `${real.url}/api/v1/events/${sqlite.eventIds[0]}` });
    report('GET /events/:id (SQLite)', realDetail, bareDetail, 'target ≥ 60 %, p99 < 15 ms');

    const bareWrite = await measure({
      url: `${bareUrl}/api/v1/write`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ project_name: 'Bench project', github_url: 'https://github.com/bench/repo' }),
    });
    console.log(`${'bare POST (same JSON)'.padEnd(34)} ${fmt(bareWrite)}`);
    const sqliteWrite = await measure({ url: real.url, requests: writeRequests(sqlite.keys, sqlite.eventIds) });
    report('register+submit mix (SQLite)', sqliteWrite, bareWrite, 'target ≥ 2000 writes/s, 0 errors');
    const rssSqlite = rssMb(real.child.pid!);
    await stop(real.child);

    pgDb = await createPgDatabase();
    const pgSeed = await prepare({ dialect: 'postgres', url: pgDb.url });
    const realPg = await startReal(pgDb.url);
    children.push(realPg.child);
    await autocannon({ url: `${realPg.url}/api/v1/events`, connections: 10, duration: 2 });
    const pgList = await measure({ url: `${realPg.url}/api/v1/events` });
    report('GET /events (PostgreSQL)', pgList, bareList, '');
    const pgWrite = await measure({ url: realPg.url, requests: writeRequests(pgSeed.keys, pgSeed.eventIds) });
    report('register+submit mix (PostgreSQL)', pgWrite, bareWrite, 'target ≥ 1000 writes/s, 0 errors');
    const rssPg = rssMb(realPg.child.pid!);
    await stop(realPg.child);

    console.log(`\nserver RSS after the runs: SQLite ${rssSqlite} MB, PostgreSQL ${rssPg} MB; bare ${rssMb(bare.pid!)} MB`);
    await stop(bare);
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    if (pgDb) await pgDb.drop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
