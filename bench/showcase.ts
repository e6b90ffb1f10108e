/**
 * The showcase under load (issue "Showcase"):
 *   - the gallery's first page (`GET /events/:id/gallery`, public) at 100 and 10,000 projects, as
 *     throughput and latency and as ratios against a bare Fastify route answering the same JSON,
 *     measured in the same run; the large/small ratio is the figure to watch (goal: within 20 %);
 *   - a burst of 2,000 votes by 2,000 accounts (each their own key, 50 at a time) on the large
 *     event: throughput, p50/p99, and the count in the database afterwards (0 lost), against the
 *     same burst of POSTs to a bare route.
 * Seeds with bench/growth-results.ts's bulk insert (projects with three AI reviews each), serves the
 * real app on 127.0.0.1 with the rate limits off (RATE_LIMIT_ENABLED=false: the burst measures the
 * vote, not the limiter). Run: `node --import tsx bench/showcase.ts` (SQLite, and PostgreSQL when
 * reachable; BENCH_DIALECTS=sqlite to choose).
 */
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { ManualClock } from '../src/core/clock.js';
import { loadConfig } from '../src/core/config.js';
import { openDatabase, type Db } from '../src/core/db/index.js';
import { migrateToLatest } from '../src/core/db/migrations.js';
import { seed } from './growth-results.js';
import { seedTeamUsers } from './seed-users.js';
import { createBenchDatabase } from './submit-bench.js';

const SIZES = (process.env.BENCH_SIZES ?? '100,10000').split(',').map(Number);
const DURATION = Number(process.env.BENCH_DURATION ?? 3);
const CONNECTIONS = 8;
const VOTERS = Number(process.env.BENCH_VOTERS ?? 2000);
const VOTE_CONCURRENCY = 50;
const NOW = new Date('2030-06-01T12:00:00.000Z');
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
}

async function measure(url: string): Promise<Figures> {
  const res = await autocannon({ url, connections: CONNECTIONS, duration: DURATION });
  if (res.non2xx > 0 || res.errors > 0) throw new Error(`${url}: ${res.non2xx} non-2xx answers, ${res.errors} errors`);
  return { rps: res.requests.average, p50: res.latency.p50, p99: res.latency.p99 };
}

/** A bare Fastify app on 127.0.0.1: GET /gallery answers `page`, POST /vote answers 201 `vote`. */
async function bareServer(page: string, vote: string) {
  const app = Fastify({ logger: false });
  app.get('/gallery', async (_request, reply) => reply.type('application/json; charset=utf-8').send(page));
  app.post('/vote', async (_request, reply) => reply.code(201).type('application/json; charset=utf-8').send(vote));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  return { app, base: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}` };
}

/** Sends every request (50 at a time), timing each; the statuses counted. */
async function burst(requests: Array<{ url: string; key: string }>): Promise<{ seconds: number; p50: number; p99: number; statuses: Record<number, number> }> {
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: VOTE_CONCURRENCY }, async () => {
      while (next < requests.length) {
        const r = requests[next++]!;
        const t = performance.now();
        const res = await fetch(r.url, { method: 'POST', headers: { authorization: `Bearer ${r.key}` } });
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { seconds, p50: at(0.5), p99: at(0.99), statuses };
}

/** The seeded event opened for the gallery (deadline passed) and a vote (one per track, open now). */
async function openShowcase(db: Db, eventId: string, projects: number) {
  const voting = {
    enabled: true,
    opens_at: '2030-05-31T12:00:00.000Z',
    closes_at: '2030-06-02T12:00:00.000Z',
    votes_per_person: 1,
    per_track: true,
    exclude_new_accounts: false,
  };
  await db
    .updateTable('events')
    .set({ voting: JSON.stringify(voting), gallery_visibility: 'after_deadline' })
    .where('id', '=', eventId)
    .execute();
  // Every project its own Markdown description (a card shows its plain-text start).
  await db
    .updateTable('projects')
    .set({
      description: sql<string>`${'## '} || project_name || ${'\n\nBuilt in **48 hours**: see https://example.com/'} || id || ${' for the demo.\n\n- fast\n- small\n- tested'}`,
    })
    .where('event_id', '=', eventId)
    .execute();
  // Each seeded team of one: its leader is a member (the gallery's project page names members).
  for (let i = 0; i < projects; i += 2000) {
    const ids = Array.from({ length: Math.min(2000, projects - i) }, (_, j) => `prj_${String(i + j).padStart(6, '0')}`);
    await db
      .insertInto('team_members')
      .values(
        ids.map((id) => ({ registration_id: `reg_${id}`, event_id: eventId, user_id: `usr_${id}`, role: 'leader' as const, joined_at: NOW.toISOString() })),
      )
      .execute();
  }
}

async function run(dialect: 'sqlite' | 'postgres', projects: number, withVotes: boolean) {
  const target = await createBenchDatabase(dialect, 'showcase').catch(() => null);
  if (!target) {
    console.log(`${dialect}: skipped (database not reachable)`);
    return null;
  }
  const database = openDatabase(target.config);
  try {
    await migrateToLatest(database.db);
    const eventId = await seed(database.db, projects);
    await openShowcase(database.db, eventId, projects);
    const voterKeys = withVotes ? await seedTeamUsers(database.db, VOTERS, NOW.toISOString()) : [];
    // A database after a bulk load as one that has run a while: PostgreSQL's statistics current, SQLite's
    // write-ahead log folded into the file (reads otherwise search a WAL the size of the seed).
    if (dialect === 'postgres') await sql`vacuum analyze`.execute(database.db);
    else await sql`pragma wal_checkpoint(truncate)`.execute(database.db);
    const config = loadConfig({
      DATABASE_URL: target.config.url,
      LOG_LEVEL: 'silent',
      REVIEW_WORKERS: 'false',
      RATE_LIMIT_ENABLED: 'false',
      MAX_CONNECTIONS_PER_IP: '0',
    });
    const { app } = await buildApp({ config, database, clock: new ManualClock(NOW), logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/api/v1/events/${eventId}`;
    const first = await fetch(`${base}/gallery`);
    if (first.status !== 200) throw new Error(`gallery: ${first.status} ${await first.text()}`);
    const page = await first.text();
    const bare = await bareServer(page, JSON.stringify({ event_id: eventId, project_id: 'prj_000001', votes_left: 0 }));
    const gallery = await measure(`${base}/gallery`);
    const gallerybare = await measure(`${bare.base}/gallery`);
    let votes: null | { app: Awaited<ReturnType<typeof burst>>; bare: Awaited<ReturnType<typeof burst>>; counted: number } = null;
    if (withVotes) {
      // Voter i votes for project i mod N: both tracks, spread over the event.
      const requests = voterKeys.map((key, i) => ({ url: `${base}/gallery/prj_${String(i % projects).padStart(6, '0')}/vote`, key }));
      const appBurst = await burst(requests);
      const bareBurst = await burst(voterKeys.map((key) => ({ url: `${bare.base}/vote`, key })));
      const counted = Number(
        (
          await database.db
            .selectFrom('votes')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('event_id', '=', eventId)
            .executeTakeFirstOrThrow()
        ).n,
      );
      votes = { app: appBurst, bare: bareBurst, counted };
    }
    await bare.app.close();
    await app.close();
    return { gallery, gallerybare, votes };
  } finally {
    await database.close().catch(() => undefined);
    await target.drop();
  }
}

async function main(): Promise<void> {
  console.log(
    `showcase: ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, node ${process.version}, ${DURATION} s per run, ${CONNECTIONS} connections; vote burst ${VOTERS} accounts, ${VOTE_CONCURRENCY} at a time`,
  );
  const f = (x: Figures) => `${x.rps.toFixed(0)} req/s, p50 ${x.p50} ms, p99 ${x.p99} ms`;
  for (const dialect of DIALECTS) {
    const rows: Array<{ projects: number; gallery: Figures }> = [];
    for (const [i, n] of SIZES.entries()) {
      const r = await run(dialect, n, i === SIZES.length - 1);
      if (!r) break;
      rows.push({ projects: n, gallery: r.gallery });
      console.log(
        `${dialect} ${n} projects: gallery first page ${f(r.gallery)} (bare ${f(r.gallerybare)}; ×${(r.gallery.rps / r.gallerybare.rps).toFixed(2)} of bare)`,
      );
      if (r.votes) {
        const v = r.votes;
        const ok = (v.app.statuses[201] ?? 0) + (v.app.statuses[200] ?? 0);
        console.log(
          `${dialect} vote burst: ${VOTERS} votes in ${v.app.seconds.toFixed(2)} s = ${(VOTERS / v.app.seconds).toFixed(0)} votes/s, p50 ${v.app.p50.toFixed(1)} ms, p99 ${v.app.p99.toFixed(1)} ms; ` +
            `statuses ${JSON.stringify(v.app.statuses)}; ${v.counted} in the database (${ok - v.counted} lost); ` +
            `bare ${(VOTERS / v.bare.seconds).toFixed(0)} req/s, p99 ${v.bare.p99.toFixed(1)} ms (votes/s ×${(v.bare.seconds / v.app.seconds).toFixed(2)} of bare)`,
        );
        if (ok !== VOTERS || v.counted !== VOTERS) process.exitCode = 1;
      }
    }
    if (rows.length >= 2) {
      const a = rows[0]!;
      const b = rows[rows.length - 1]!;
      console.log(
        `${dialect} gallery ${b.projects}/${a.projects}: req/s ×${(b.gallery.rps / a.gallery.rps).toFixed(2)}, p50 ×${(b.gallery.p50 / a.gallery.p50).toFixed(2)}, p99 ×${(b.gallery.p99 / a.gallery.p99).toFixed(2)}`,
      );
    }
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
