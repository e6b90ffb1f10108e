/**
 * Does the public catalog cost grow with the data a request does not need?
 * Seeds 100 public events with 1-2 KB descriptions, measures, grows the catalog to 50,000 and
 * measures again, on SQLite and on PostgreSQL, against the real server (a child process):
 *   GET /events (first page), ?status=open (pages of 30), ?fields=id,name,status, GET /events/:id (random ids
 *   among all events), and the register + submit write mix; plus the server's event-loop delay max.
 * Prints large/small ratios (goal: within 20 %).
 *   node --import tsx bench/growth-events.ts        (BENCH_SECONDS=4 by default)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../src/core/config.js';
import { openDatabase, type Db } from '../src/core/db/index.js';
import { migrateToLatest } from '../src/core/db/migrations.js';
import type { NewEventRow } from '../src/core/db/schema.js';
import { newId } from '../src/core/ids.js';
import { startBenchServer, type BenchServer } from './bench-server.js';
import { seedTeamUsers } from './seed-users.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = 50;
const SMALL = 100;
const LARGE = 50_000;
const USERS = 1000;
const PG_ADMIN = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const WORDS = 'agents build tools models judge projects teams register submit events hackathon ranking review score open data api'.split(' ');

function description(): string {
  const target = 1024 + Math.floor(Math.random() * 1024);
  let s = '';
  while (s.length < target) s += WORDS[Math.floor(Math.random() * WORDS.length)] + (Math.random() < 0.1 ? '. ' : ' ');
  return s.slice(0, target);
}

const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Public events created at `baseMs + i`: a third open, a third past registration (active), a third ended. */
function eventRows(orgId: string, count: number, baseMs: number): NewEventRow[] {
  const now = Date.now();
  const rows: NewEventRow[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 3;
    const created = baseMs + i;
    rows.push({
      id: newId('evt', created),
      name: `Growth hack ${i}`,
      description: description(),
      status: kind === 2 ? 'ended' : 'open',
      registration_deadline: iso(kind === 1 ? now - day : now + 30 * day),
      submission_deadline: iso(kind === 2 ? now - day : now + 60 * day),
      result_announced_at: kind === 2 ? iso(now - day) : null,
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
      created_at: iso(created),
      updated_at: iso(created),
    });
  }
  return rows;
}

async function insertEvents(db: Db, rows: NewEventRow[]): Promise<void> {
  // 16 columns a row: 500 rows stay under SQLite's and PostgreSQL's parameter limits.
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    await db.insertInto('events').values(chunk).execute();
    await db
      .insertInto('event_organizers')
      .values(chunk.map((r) => ({ event_id: r.id, user_id: r.created_by, created_at: r.created_at })))
      .execute();
  }
}

async function seedUsers(db: Db) {
  const now = iso(Date.now());
  const orgId = newId('usr');
  await db
    .insertInto('users')
    .values({ id: orgId, email: 'org@bench.test', password_hash: null, role: 'organizer', created_at: now, updated_at: now })
    .execute();
  const keys = await seedTeamUsers(db, USERS, now);
  return { orgId, keys };
}

interface Run {
  rps: number;
  p99: number;
  errors: number;
  loopMaxMs: number;
}

/** A directory: a CPU profile of the server per run (BENCH_PROFILE=dir). */
const PROFILE = process.env.BENCH_PROFILE;
let profiled = 0;

async function measure(server: BenchServer, opts: autocannon.Options): Promise<Run> {
  await server.reset();
  if (PROFILE) await server.profileStart();
  const r = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts });
  if (PROFILE) await server.profileStop(`${PROFILE}/growth-events-${String(++profiled).padStart(2, '0')}.cpuprofile`);
  const p = await server.probe();
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx, loopMaxMs: p.loopMaxMs };
}

/** Register then submit, each connection on its own (user, open event) pairs; every request a write. */
function writeRequests(keys: string[], eventIds: string[], tag: string): autocannon.Request[] {
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
          body: JSON.stringify({ team_name: `team-${tag}-${n}`, track_id: 'tools', fields: { repo: 'https://github.com/bench/repo' } }),
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

type Results = Record<string, Run>;

async function scenarios(server: BenchServer, ids: string[], newest: string[], openIds: string[], keys: string[], tag: string): Promise<Results> {
  const url = `${server.url}/api/v1`;
  await autocannon({ url: `${url}/events`, connections: 10, duration: 1 });
  const out: Results = {};
  out['GET /events'] = await measure(server, { url: `${url}/events` });
  // 30 a page: the small catalog has 34 open events, so both pages hold 30 (the default 50 would
  // compare a page of 34 events with one of 50).
  out['GET /events?status=open&limit=30'] = await measure(server, { url: `${url}/events?status=open&limit=30` });
  out['GET /events?fields=id,name,status'] = await measure(server, { url: `${url}/events?fields=id,name,status` });
  const byId = (pool: string[]) => [
    { method: 'GET', setupRequest: (req: any) => ({ ...req, path: `/api/v1/events/${pool[Math.floor(Math.random() * pool.length)]}` }) },
  ];
  // The same 100 events in both runs (all cached), then random ids over the whole catalog (mostly
  // cache misses at 50,000: one primary-key read each).
  out['GET /events/:id (newest 100)'] = await measure(server, { url, requests: byId(newest) as autocannon.Request[] });
  out['GET /events/:id (any event)'] = await measure(server, { url, requests: byId(ids) as autocannon.Request[] });
  // Fresh (user, event) pairs in each run: 16 open events x 1000 users, more than a run can use.
  out['register+submit (writes)'] = await measure(server, { url: server.url, requests: writeRequests(keys, openIds, tag) });
  return out;
}

async function runDialect(config: DatabaseConfig, label: string): Promise<void> {
  const handle = openDatabase(config);
  await migrateToLatest(handle.db);
  const { orgId, keys } = await seedUsers(handle.db);
  // The small catalog is the newest 100 events; the growth goes in before them (older ids), so
  // the first page and the open events written to are the same in both runs.
  const base = Date.now() - 10 * day;
  const small = eventRows(orgId, SMALL, base);
  await insertEvents(handle.db, small);
  const ids = small.map((r) => r.id);
  const openIds = small
    .filter((r) => r.status === 'open' && Date.parse(r.registration_deadline) > Date.now())
    .map((r) => r.id)
    .reverse();

  const server = await startBenchServer({ DATABASE_URL: config.url });
  let smallRes: Results;
  let largeRes: Results;
  let allIds: string[];
  try {
    const page = await (await fetch(`${server.url}/api/v1/events`)).text();
    const compact = await (await fetch(`${server.url}/api/v1/events?fields=id,name,status`)).text();
    const open = (await (await fetch(`${server.url}/api/v1/events?status=open&limit=30`)).json()) as unknown[];
    console.log(
      `\n${label}: first page ${Math.round(page.length / 1024)} KB, compact (fields=id,name,status) ${(compact.length / 1024).toFixed(1)} KB, status=open&limit=30 ${open.length} events`,
    );
    smallRes = await scenarios(server, ids, ids, openIds.slice(0, 16), keys, 's');
    const t0 = Date.now();
    const growth = eventRows(orgId, LARGE - SMALL, base - LARGE - 1000);
    await insertEvents(handle.db, growth);
    if (config.dialect === 'postgres') await sql`ANALYZE events`.execute(handle.db);
    console.log(`${label}: grew to ${LARGE} events in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    allIds = [...growth.map((r) => r.id), ...ids];
    largeRes = await scenarios(server, allIds, ids, openIds.slice(16, 32), keys, 'l');
    const p = await server.probe();
    console.log(`${label}: server RSS ${p.rssMb} MB`);
  } finally {
    await server.stop();
    await handle.close();
  }
  console.log(`${'scenario'.padEnd(36)} ${'100 events'.padEnd(30)} ${'50,000 events'.padEnd(30)} large/small`);
  for (const k of Object.keys(smallRes)) {
    const s = smallRes[k]!;
    const l = largeRes[k]!;
    const cell = (r: Run) =>
      `${r.rps.toFixed(0).padStart(6)}/s p99 ${String(r.p99).padStart(3)} ms loop ${r.loopMaxMs.toFixed(0).padStart(3)} ms${r.errors ? ` err ${r.errors}` : ''}`.padEnd(
        30,
      );
    console.log(`${k.padEnd(36)} ${cell(s)} ${cell(l)} ${((l.rps / s.rps) * 100).toFixed(0)} %`);
  }
}

async function main(): Promise<void> {
  console.log(`growth benchmark: autocannon ${CONNECTIONS} connections, ${DURATION} s per run, 2 cores shared by client and server`);
  const dir = mkdtempSync(join(tmpdir(), 'hk-growth-'));
  const name = `hk_growth_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(PG_ADMIN);
  u.pathname = `/${name}`;
  try {
    const path = join(dir, 'growth.db');
    if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'sqlite') await runDialect({ dialect: 'sqlite', path, url: `sqlite:${path}` }, 'SQLite');
    if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'postgres') await runDialect({ dialect: 'postgres', url: u.toString() }, 'PostgreSQL');
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
