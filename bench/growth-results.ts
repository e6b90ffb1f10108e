/**
 * Growth benchmark for results (issue "Scale"): does a request cost the same whatever the data it
 * does not need? Seeds 1,000 and 50,000 judged projects (3 models × 5 dimensions, succeeded reviews
 * with a summary, 2 % failed) by bulk inserts, serves the real app on 127.0.0.1, and measures with
 * autocannon (short runs):
 *   - GET /events/:id/leaderboard (owner, first page of 100), live, and again right after a weight
 *     edit while every standing is recomputed in the background;
 *   - GET /events/:id/result (first page, 200) after publishing;
 *   - the same with If-None-Match (304);
 * plus the event loop's longest delay during each run (autocannon runs in this process too, so
 * the figure is an upper bound of what the server blocks). Also reported, untimed by autocannon:
 * the first leaderboard read after the bulk load (every standing stale: it answers after its inline
 * share, the rest is recomputed in the background), how long until every standing is current, and
 * the publication. Prints the large/small ratio per figure (goal: within 20 %).
 * Run: `node --import tsx bench/growth-results.ts` (SQLite, and PostgreSQL when reachable).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { ManualClock } from '../src/core/clock.js';
import { loadConfig, type DatabaseConfig } from '../src/core/config.js';
import { openDatabase, type Db } from '../src/core/db/index.js';
import { migrateToLatest } from '../src/core/db/migrations.js';

const SIZES = (process.env.BENCH_SIZES ?? '1000,50000').split(',').map(Number);
const DURATION = Number(process.env.BENCH_DURATION ?? 2);
const CONNECTIONS = 8;
const MODELS = ['openai/gpt-4o-mini', 'anthropic/claude-sonnet-4-5', 'ollama/llama3.1'];
const DIMENSIONS = ['impact', 'craft', 'novelty', 'design', 'pitch'].map((name, i) => ({ name, weight: [3, 2, 2, 1, 1][i]! }));
const PG_ADMIN = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const NOW = new Date('2030-06-01T12:00:00.000Z');
const SUMMARY = 'Clear problem, working demo, thin tests; the README explains setup well. '.repeat(3);
const CHUNK = 2000;

function* lcg(seed: number): Generator<number> {
  let s = seed >>> 0;
  for (;;) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    yield s / 2 ** 32;
  }
}

export async function seed(db: Db, projects: number): Promise<string> {
  const rnd = lcg(7);
  const r = () => rnd.next().value;
  const now = NOW.toISOString();
  const eventId = 'evt_growth';
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto('users')
      .values({ id: 'usr_owner', email: 'owner@example.com', password_hash: null, role: 'organizer', created_at: now, updated_at: now })
      .execute();
    await tx
      .insertInto('events')
      .values({
        id: eventId,
        name: 'Growth',
        description: '',
        status: 'judging',
        registration_deadline: '2030-05-30T12:00:00.000Z',
        submission_deadline: '2030-05-31T12:00:00.000Z',
        result_announced_at: null,
        tracks: JSON.stringify([
          { id: 'tools', name: 'Tools', prize: '' },
          { id: 'fun', name: 'Fun', prize: '' },
        ]),
        dimensions: JSON.stringify(DIMENSIONS),
        models: JSON.stringify(MODELS),
        registration_open: 1,
        auto_approve: 1,
        form_fields: '[]',
        created_by: 'usr_owner',
        created_at: now,
        updated_at: now,
        judging_started_at: now,
      })
      .execute();
    await tx.insertInto('event_organizers').values({ event_id: eventId, user_id: 'usr_owner', created_at: now }).execute();
    let reviewNo = 0;
    for (let i = 0; i < projects; i += CHUNK) {
      const part = Array.from({ length: Math.min(CHUNK, projects - i) }, (_, j) => {
        const n = i + j;
        const id = `prj_${String(n).padStart(6, '0')}`;
        return { id, n, track: n % 3 === 0 ? 'tools' : 'fun', at: new Date(NOW.getTime() - 86_400_000 + n * 1000).toISOString() };
      });
      await tx
        .insertInto('users')
        .values(
          part.map((p) => ({ id: `usr_${p.id}`, email: `${p.id}@example.com`, password_hash: null, role: 'user' as const, created_at: now, updated_at: now })),
        )
        .execute();
      await tx
        .insertInto('registrations')
        .values(
          part.map((p) => ({
            id: `reg_${p.id}`,
            event_id: eventId,
            user_id: `usr_${p.id}`,
            team_name: `Team ${p.n}`,
            team_name_key: `team ${p.n}`,
            track_id: p.track,
            contact_email: `${p.id}@example.com`,
            github_url: null,
            fields: '{}',
            status: 'approved' as const,
            reason: null,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
      await tx
        .insertInto('projects')
        .values(
          part.map((p) => ({
            id: p.id,
            event_id: eventId,
            registration_id: `reg_${p.id}`,
            project_name: `Project ${p.n}`,
            description: 'A project.',
            github_url: `https://github.com/example/${p.id}`,
            project_website: null,
            demo_video_url: null,
            team_size: 3,
            track_id: p.track,
            status: 'submitted' as const,
            review_status: 'reviewed' as const,
            first_submitted_at: p.at,
            created_at: p.at,
            updated_at: p.at,
          })),
        )
        .execute();
      const reviews = part.flatMap((p) =>
        MODELS.map((m) => {
          const failed = r() < 0.02;
          const scores: Record<string, number> = {};
          for (const d of DIMENSIONS) scores[d.name] = Math.round(r() * 100) / 10;
          return {
            id: `rev_${String(reviewNo++).padStart(7, '0')}`,
            event_id: eventId,
            project_id: p.id,
            reviewer_kind: 'model' as const,
            reviewer: m,
            group_key: m,
            status: failed ? ('failed' as const) : ('succeeded' as const),
            scores: failed ? null : JSON.stringify(scores),
            summary: failed ? null : SUMMARY,
            last_error: failed ? 'provider answered 503 three times' : null,
            attempts: failed ? 3 : 1,
            created_at: now,
            updated_at: now,
            completed_at: now,
          };
        }),
      );
      for (let k = 0; k < reviews.length; k += 2000)
        await tx
          .insertInto('reviews')
          .values(reviews.slice(k, k + 2000))
          .execute();
    }
  });
  return eventId;
}

/**
 * PostgreSQL: VACUUM ANALYZE every table after a bulk load (the seed, the publication), as a
 * database that has been running for a while is. Otherwise autovacuum and autoanalyze pick the
 * fresh tables up during the next measurements (a 304 of the result, one primary-key read, measured
 * at 0.43 of its small-event rate while they ran) and the benchmark measures PostgreSQL's upkeep,
 * not what a request costs. The standings' own vacuum after a bulk recomputation is the app's.
 */
async function settle(db: Db, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect === 'postgres') await sql`vacuum analyze`.execute(db);
}

/** POST publish from a child process; its status, and its body when it is not a 200. */
async function publishFromChild(url: string, authorization: string): Promise<{ status: number; text: string }> {
  const code = `fetch(process.env.URL, { method: 'POST', headers: { authorization: process.env.AUTH, 'content-type': 'application/json' }, body: '{"force":true}' })
    .then(async (r) => { const b = await r.text(); process.stdout.write(JSON.stringify({ status: r.status, text: r.status === 200 ? '' : b })); })`;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', code], { env: { ...process.env, URL: url, AUTH: authorization }, maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as { status: number; text: string };
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  loopMaxMs: number;
}

async function measure(opts: autocannon.Options): Promise<Figures> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const res = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts });
  loop.disable();
  if (res.non2xx > 0 && !String(opts.headers?.['if-none-match'] ?? '')) throw new Error(`${opts.url}: ${res.non2xx} non-2xx answers`);
  return { rps: res.requests.average, p50: res.latency.p50, p99: res.latency.p99, loopMaxMs: loop.max / 1e6 };
}

async function openFor(dialect: 'sqlite' | 'postgres'): Promise<{ config: DatabaseConfig; drop: () => Promise<void> } | null> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'hk-bench-growth-'));
    const path = join(dir, 'bench.db');
    return { config: { dialect: 'sqlite', path, url: `sqlite:${path}` }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `hk_bench_growth_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return {
    config: { dialect: 'postgres', url: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

type Row = Record<string, Figures>;

async function run(dialect: 'sqlite' | 'postgres', projects: number): Promise<Row | null> {
  const target = await openFor(dialect);
  if (!target) {
    console.log(`${dialect}: skipped (PostgreSQL not reachable at ${PG_ADMIN})`);
    return null;
  }
  const database = openDatabase(target.config);
  try {
    await migrateToLatest(database.db);
    let t = performance.now();
    const eventId = await seed(database.db, projects);
    const seedMs = performance.now() - t;
    await settle(database.db, dialect);
    const config = loadConfig({
      DATABASE_URL: target.config.url,
      LOG_LEVEL: 'silent',
      REVIEW_WORKERS: 'false',
      RATE_LIMIT_PER_KEY: '1000000',
      RATE_LIMIT_PER_IP: '1000000',
      MAX_CONNECTIONS_PER_IP: '0',
    });
    const { app, ctx } = await buildApp({ config, database, clock: new ManualClock(NOW), logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/api/v1/events/${eventId}`;
    const { key } = await ctx.accounts.createKey('usr_owner');
    const auth = { authorization: `Bearer ${key}` };

    // The first read after the bulk load: every standing is stale. It recomputes its inline share
    // and answers; the rest is recomputed in the background (then, on PostgreSQL, the table vacuumed).
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    t = performance.now();
    const first = await fetch(`${base}/leaderboard`, { headers: auth });
    const firstMs = performance.now() - t;
    const firstPending = first.headers.get('leaderboard-pending');
    await first.arrayBuffer();
    await ctx.standings.idle();
    const rebuildMs = performance.now() - t;
    loop.disable();
    if (first.status !== 200) throw new Error(`leaderboard: ${first.status}`);
    const rebuildLoopMax = loop.max / 1e6;

    const out: Row = {};
    out['leaderboard 200'] = await measure({ url: `${base}/leaderboard`, headers: auth });
    // A bulk change while organizers read: the weights edited, every standing stale at once. The
    // reads go on while the background recomputes them.
    const weights = (plus: number) =>
      database.db
        .updateTable('events')
        .set({ dimensions: JSON.stringify(DIMENSIONS.map((d) => ({ ...d, weight: d.weight + plus }))) })
        .where('id', '=', eventId)
        .execute();
    // Alone first: one read after the edit, then how long until every standing is current.
    await weights(1);
    t = performance.now();
    const afterEdit = await fetch(`${base}/leaderboard`, { headers: auth });
    const editReadMs = performance.now() - t;
    await afterEdit.arrayBuffer();
    await ctx.standings.idle();
    const bulkMs = performance.now() - t;
    // Then under reads: the weights back, and the first page read by 8 clients meanwhile.
    await weights(0);
    out['leaderboard 200 during a bulk recomputation'] = await measure({ url: `${base}/leaderboard`, headers: auth });
    await ctx.standings.idle();
    const publishLoop = monitorEventLoopDelay({ resolution: 5 });
    publishLoop.enable();
    t = performance.now();
    // Asked by another process: the answer carries every entry (16 MB at 50,000), and receiving it
    // here would count the client's work in the server's event-loop delay.
    const pub = await publishFromChild(`${base}/results/publish`, auth.authorization);
    const publishMs = performance.now() - t;
    publishLoop.disable();
    if (pub.status !== 200) throw new Error(`publish: ${pub.status} ${pub.text.slice(0, 200)}`);
    await settle(database.db, dialect);
    const etag = (await fetch(`${base}/result`)).headers.get('etag')!;
    out['result 200'] = await measure({ url: `${base}/result` });
    out['result 304'] = await measure({ url: `${base}/result`, headers: { 'if-none-match': etag } });
    console.log(
      `${dialect} ${projects} projects: seeded in ${(seedMs / 1000).toFixed(1)} s; first leaderboard read ${firstMs.toFixed(0)} ms (Leaderboard-Pending: ${firstPending ?? 'absent'}), ` +
        `every standing recomputed after ${rebuildMs.toFixed(0)} ms (event loop max ${rebuildLoopMax.toFixed(0)} ms); ` +
        `after a weight edit the first read ${editReadMs.toFixed(0)} ms and every standing current after ${bulkMs.toFixed(0)} ms; publish ${publishMs.toFixed(0)} ms (event loop max ${(publishLoop.max / 1e6).toFixed(0)} ms)`,
    );
    for (const [what, f] of Object.entries(out)) {
      console.log(`  ${what}: ${f.rps.toFixed(0)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, event loop max ${f.loopMaxMs.toFixed(1)} ms`);
    }
    await app.close();
    return out;
  } finally {
    await database.close().catch(() => undefined);
    await target.drop();
  }
}

async function main(): Promise<void> {
  console.log(
    `growth-results: ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, node ${process.version}, ${DURATION} s per run, ${CONNECTIONS} connections`,
  );
  const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
  for (const dialect of dialects) {
    const rows: Array<{ projects: number; row: Row }> = [];
    for (const n of SIZES) {
      const row = await run(dialect, n);
      if (row) rows.push({ projects: n, row });
    }
    if (rows.length < 2) continue;
    const small = rows[0]!;
    const large = rows[rows.length - 1]!;
    for (const what of Object.keys(small.row)) {
      const a = small.row[what]!;
      const b = large.row[what]!;
      const ratio = (x: number, y: number) => (y === 0 ? NaN : x / y);
      console.log(
        `${dialect} ${what} ${large.projects}/${small.projects}: req/s ×${ratio(b.rps, a.rps).toFixed(2)}, p50 ×${ratio(b.p50, a.p50).toFixed(2)}, p99 ×${ratio(b.p99, a.p99).toFixed(2)}`,
      );
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
