/**
 * Growth benchmark for the organizer lists: does the first page cost the same at 1,000 and at
 * 100,000 registrations and projects (1-2 KB of text each)?
 *
 *   node --import tsx bench/growth-organizer-lists.ts            # SQLite and PostgreSQL
 *   BENCH_DIALECTS=sqlite BENCH_SECONDS=3 node --import tsx bench/growth-organizer-lists.ts
 *   BENCH_EXPLAIN=1 ...                                         # also print the page queries' plans
 *
 * The app runs in this process (so its event loop can be watched with monitorEventLoopDelay);
 * autocannon runs as a child process so the load generator does not share that loop. Rows are
 * seeded straight through Kysely in batches, into two events of one database (1,000 and 100,000
 * teams); runs alternate small, large, large, small so that a change in the machine's load falls
 * on both. Per list and dialect it prints the first page's req/s and latency at both sizes, the
 * large/small ratio, the event-loop delay (max) during those runs and while the largest allowed
 * page (limit=1000) is served, an idle baseline of that delay, and the RSS.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { CompiledQuery, type Insertable } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/core/config.js';
import { openDatabase, type DatabaseHandle, type Executor } from '../src/core/db/index.js';
import type { ProjectsTable, RegistrationsTable, UsersTable } from '../src/core/db/schema.js';
import { migrateToLatest } from '../src/core/db/migrations.js';
import { newId } from '../src/core/ids.js';
import { createBenchDatabase } from './submit-bench.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = 10;
const SMALL = 1_000;
const LARGE = Number(process.env.BENCH_LARGE ?? 100_000);
const BATCH = 500;
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

// Realistic free text: 1-2 KB of words, varied so that neither database can compress it away.
const WORDS = 'agent model tool build deploy graph vector prompt latency eval judge score team demo repo user data stream cache queue'.split(' ');
function makeProse(seed: number, min = 1024, max = 2048): string {
  const want = min + ((seed * 7919) % (max - min));
  let s = '';
  let x = seed + 1;
  while (s.length < want) {
    x = (x * 1103515245 + 12345) % 2147483648;
    s += WORDS[x % WORDS.length] + (x % 11 === 0 ? '. ' : ' ');
  }
  return s.slice(0, want);
}

// Generating text for 200,000 rows would dominate the seeding time: draw from 997 variants instead.
const PROSE = Array.from({ length: 997 }, (_, i) => makeProse(i));
const prose = (seed: number) => PROSE[seed % PROSE.length]!;

const createDatabase = (dialect: 'sqlite' | 'postgres') => createBenchDatabase(dialect, 'growth');

/** Adds `count` teams to the event: a user, a registration (90 % approved) and a project each. */
async function seedTeams(db: DatabaseHandle['db'], eventId: string, tag: string, count: number) {
  // One transaction per 5,000 teams, inserted 500 rows a statement (under PostgreSQL's parameter cap).
  for (let chunk = 0; chunk < count; chunk += 5000) {
    await db.transaction().execute(async (tx) => {
      for (let start = chunk; start < Math.min(count, chunk + 5000); start += BATCH) await seedBatch(tx, eventId, tag, start, Math.min(count, start + BATCH));
    });
  }
}

async function seedBatch(db: Executor, eventId: string, tag: string, from: number, to: number) {
  const base = Date.parse('2030-01-01T00:00:00.000Z');
  {
    const [start, end] = [from, to];
    const users: Insertable<UsersTable>[] = [];
    const regs: Insertable<RegistrationsTable>[] = [];
    const projects: Insertable<ProjectsTable>[] = [];
    for (let i = start; i < end; i++) {
      const at = new Date(base + i * 1000).toISOString();
      const userId = newId('usr');
      const regId = newId('reg');
      users.push({ id: userId, email: `team${i}-${tag}@growth.test`, password_hash: null, role: 'user' as const, created_at: at, updated_at: at });
      regs.push({
        id: regId,
        event_id: eventId,
        user_id: userId,
        team_name: `Team ${i}`,
        team_name_key: `team ${i}`,
        track_id: i % 2 ? 'fun' : 'tools',
        contact_email: `team${i}-${tag}@growth.test`,
        github_url: `https://github.com/growth/team-${i}`,
        fields: JSON.stringify({ repo: `https://github.com/growth/team-${i}`, why: prose(i) }),
        status: i % 10 === 0 ? 'pending' : 'approved',
        reason: null,
        created_at: at,
        updated_at: at,
      });
      projects.push({
        id: newId('prj'),
        event_id: eventId,
        registration_id: regId,
        project_name: `Project ${i}`,
        description: prose(i + 1_000_003),
        github_url: `https://github.com/growth/project-${i}`,
        project_website: null,
        demo_video_url: null,
        team_size: 1 + (i % 5),
        track_id: i % 2 ? 'fun' : 'tools',
        status: 'submitted',
        review_status: 'pending',
        first_submitted_at: at,
        created_at: at,
        updated_at: at,
      });
    }
    await db.insertInto('users').values(users).execute();
    await db.insertInto('registrations').values(regs).execute();
    await db.insertInto('projects').values(projects).execute();
  }
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** autocannon in a child process, so the app's event loop serves requests and nothing else. */
function autocannon(url: string, key: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [autocannonBin, '-j', '-c', String(CONNECTIONS), '-d', String(SECONDS), '-H', `authorization=Bearer ${key}`, url], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', () => {
      try {
        const r = JSON.parse(out);
        resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts });
      } catch (err) {
        reject(new Error(`autocannon output: ${out.slice(0, 200)} (${(err as Error).message})`));
      }
    });
  });
}

const LISTS = ['registrations', 'projects'] as const;

async function benchDialect(dialect: 'sqlite' | 'postgres') {
  const testDb = await createDatabase(dialect);
  const config = loadConfig({
    DATABASE_URL: testDb.config.url,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_ENABLED: 'false',
    // Every load generator connects from 127.0.0.1: no per-address connection cap.
    MAX_CONNECTIONS_PER_IP: '0',
    REVIEW_WORKERS: 'false',
    PUBLIC_URL: 'http://127.0.0.1',
  });
  const database = openDatabase(testDb.config);
  await migrateToLatest(database.db);
  const { app, ctx } = await buildApp({ config, database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const base = `http://127.0.0.1:${port}/api/v1`;
  const results: Record<string, Record<string, Run & { loopMaxMs: number }>> = {};
  try {
    const org = await ctx.accounts.createUser({ email: 'org@growth.test', role: 'organizer' });
    const key = (await ctx.accounts.createKey(org.id)).key;
    const createEvent = async (name: string) => {
      const created = await fetch(`${base}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name,
          registration_deadline: '2031-01-01T00:00:00Z',
          submission_deadline: '2031-02-01T00:00:00Z',
          tracks: [
            { id: 'tools', name: 'Tools' },
            { id: 'fun', name: 'Fun' },
          ],
        }),
      });
      return ((await created.json()) as { id: string }).id;
    };
    // Two events in one database: the small one is measured beside the large one's rows, which is
    // the point (a page must not pay for rows it does not show), and runs alternate between them.
    const events = { small: await createEvent('Small'), large: await createEvent('Large') };
    for (const [label, size] of [
      ['small', SMALL],
      ['large', LARGE],
    ] as const) {
      const t0 = performance.now();
      await seedTeams(database.db, events[label], label, size);
      console.log(`[${dialect}] seeded ${size.toLocaleString()} teams in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    // Fresh statistics, as autovacuum (PostgreSQL) or an operator (SQLite) would have them.
    await database.db.executeQuery(CompiledQuery.raw('ANALYZE'));

    // What the machine alone does to the loop (other jobs, GC): the floor under the figures below.
    const idle = monitorEventLoopDelay({ resolution: 5 });
    idle.enable();
    await new Promise((r) => setTimeout(r, 1000));
    idle.disable();
    console.log(`[${dialect}] idle loop max ${(idle.max / 1e6).toFixed(1)} ms (load average ${loadavg()[0]!.toFixed(1)})`);

    for (const list of LISTS) {
      // small, large, large, small: a drift in the machine's load falls on both sizes alike.
      const runs: Record<'small' | 'large', Run[]> = { small: [], large: [] };
      const loop: Record<'small' | 'large', number> = { small: 0, large: 0 };
      for (const label of ['small', 'large', 'large', 'small'] as const) {
        const during = monitorEventLoopDelay({ resolution: 5 });
        during.enable();
        runs[label].push(await autocannon(`${base}/events/${events[label]}/${list}`, key));
        during.disable();
        loop[label] = Math.max(loop[label], during.max / 1e6);
      }
      for (const label of ['small', 'large'] as const) {
        // The largest page a client may ask for, served while the loop is watched.
        const h = monitorEventLoopDelay({ resolution: 5 });
        const times: number[] = [];
        h.enable();
        for (let i = 0; i < 10; i++) {
          const t0 = performance.now();
          const r = await fetch(`${base}/events/${events[label]}/${list}?limit=1000`, { headers: { authorization: `Bearer ${key}` } });
          if (r.status !== 200) throw new Error(`${list}: ${r.status}`);
          await r.arrayBuffer();
          times.push(performance.now() - t0);
        }
        h.disable();
        times.sort((a, b) => a - b);
        const [a, b] = runs[label] as [Run, Run];
        const merged: Run = {
          rps: (a.rps + b.rps) / 2,
          p50: (a.p50 + b.p50) / 2,
          p99: Math.max(a.p99, b.p99),
          non2xx: a.non2xx + b.non2xx,
          errors: a.errors + b.errors,
        };
        (results[list] ??= {})[label] = { ...merged, loopMaxMs: Math.max(loop[label], h.max / 1e6) };
        console.log(
          `[${dialect}] ${label.padEnd(5)} ${list.padEnd(13)} first page (limit 100): ${merged.rps.toFixed(0)} req/s, p50 ${merged.p50.toFixed(1)} ms, p99 ${merged.p99} ms, ` +
            `non-2xx ${merged.non2xx}, errors ${merged.errors}, loop max ${loop[label].toFixed(1)} ms; ` +
            `limit=1000: median ${times[5]!.toFixed(0)} ms a request, loop max ${(h.max / 1e6).toFixed(1)} ms`,
        );
      }
    }

    if (process.env.BENCH_EXPLAIN) await explain(database, events.large);
    const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
    for (const list of LISTS) {
      const s = results[list]!.small!;
      const l = results[list]!.large!;
      console.log(
        `[${dialect}] ${list}: large/small first page req/s ${(l.rps / s.rps).toFixed(2)}, p50 ${(l.p50 / s.p50).toFixed(2)} (${l.p50.toFixed(1)}/${s.p50.toFixed(1)} ms); worst loop stall ${Math.max(s.loopMaxMs, l.loopMaxMs).toFixed(1)} ms; RSS ${rss} MB`,
      );
    }
  } finally {
    await app.close();
    await database.close();
    await testDb.drop();
  }
}

/** Plans of a later page of each list (and the registration filters), to check that an index serves them. */
async function explain(database: DatabaseHandle, eventId: string) {
  const db = database.db;
  const { registrationsPageQuery } = await import('../src/registrations/registrations-repo.js');
  const mid = await db
    .selectFrom('registrations')
    .select('id')
    .where('event_id', '=', eventId)
    .orderBy('id')
    .offset(Math.floor(LARGE / 2))
    .limit(1)
    .executeTakeFirstOrThrow();
  const midProject = await db
    .selectFrom('projects')
    .select(['id', 'first_submitted_at'])
    .where('event_id', '=', eventId)
    .orderBy('id')
    .offset(Math.floor(LARGE / 2))
    .limit(1)
    .executeTakeFirstOrThrow();
  const queries: Array<[string, { sql: string; parameters: readonly unknown[] }]> = [
    ['registrations, first page', registrationsPageQuery(db, { eventId, limit: 101 }).compile()],
    ['registrations, later page', registrationsPageQuery(db, { eventId, limit: 101, after: mid.id }).compile()],
    ['registrations ?status=pending', registrationsPageQuery(db, { eventId, limit: 101, status: 'pending', after: mid.id }).compile()],
    ['registrations ?track_id=fun', registrationsPageQuery(db, { eventId, limit: 101, trackId: 'fun', after: mid.id }).compile()],
    ['registrations ?q=team 12', registrationsPageQuery(db, { eventId, limit: 101, namePrefix: 'team 12', after: 'team 1200' }).compile()],
    [
      'projects, later page',
      db
        .selectFrom('projects')
        .innerJoin('registrations', 'registrations.id', 'projects.registration_id')
        .selectAll('projects')
        .select(['registrations.team_name', 'registrations.status as registration_status'])
        .where('projects.event_id', '=', eventId)
        .where((eb) => eb(eb.refTuple('projects.first_submitted_at', 'projects.id'), '>', eb.tuple(midProject.first_submitted_at, midProject.id)))
        .orderBy('projects.first_submitted_at')
        .orderBy('projects.id')
        .limit(101)
        .compile(),
    ],
  ];
  // The other lists, through their own repository functions: a plugin records each compiled query.
  const reviewRows = await db.selectFrom('projects').select('id').where('event_id', '=', eventId).orderBy('id').limit(3000).execute();
  const org = await db.selectFrom('users').select('id').where('role', '=', 'organizer').executeTakeFirstOrThrow();
  for (let i = 0; i < reviewRows.length; i += BATCH) {
    const stamp = new Date().toISOString();
    const rows = reviewRows.slice(i, i + BATCH).flatMap((p) =>
      ['anthropic/a', 'openai/b', 'openai/c'].map((m, j) => ({
        id: newId('rev'),
        event_id: eventId,
        project_id: p.id,
        reviewer_kind: 'model',
        reviewer: m,
        group_key: m,
        status: j === 2 ? 'failed' : 'succeeded',
        attempts: 1,
        created_at: stamp,
        updated_at: stamp,
      })),
    );
    await db
      .insertInto('reviews')
      .values(rows as never)
      .execute();
  }
  const reviewerIds = (await db.selectFrom('registrations').select('user_id').where('event_id', '=', eventId).limit(200).execute()).map((r) => r.user_id);
  const now = new Date().toISOString();
  await db
    .insertInto('event_reviewers')
    .values(reviewerIds.map((u) => ({ event_id: eventId, user_id: u, created_at: now })))
    .execute();
  await db
    .insertInto('reviewer_invitations')
    .values(
      Array.from({ length: 200 }, (_, i) => ({
        id: newId('inv'),
        event_id: eventId,
        email: `i${i}@growth.test`,
        token_hash: `h${i}`,
        invited_by: org.id,
        created_at: now,
        expires_at: now,
        accepted_at: i % 2 ? now : null,
        accepted_by: null,
      })),
    )
    .execute();
  await db.executeQuery(CompiledQuery.raw('ANALYZE'));
  const captured: Array<{ sql: string; parameters: readonly unknown[] }> = [];
  const spy = db.withPlugin({
    transformQuery: (a) => {
      captured.push(db.getExecutor().compileQuery(a.node, a.queryId));
      return a.node;
    },
    transformResult: async (a) => a.result,
  });
  const record = async (name: string, run: () => Promise<unknown>) => {
    captured.length = 0;
    await run();
    for (const q of captured) queries.push([name, q]);
  };
  const reviewsRepo = await import('../src/reviews/reviews-repo.js');
  const reviewersRepo = await import('../src/reviewers/reviewers-repo.js');
  const midReview = reviewRows[Math.floor(reviewRows.length / 2)]!.id;
  await record('reviews, later page', () => reviewsRepo.listReviews(spy, eventId, { limit: 101, after: [midReview, 'openai/b'] }));
  await record('reviews ?status=failed', () => reviewsRepo.listReviews(spy, eventId, { limit: 101, status: 'failed', after: [midReview, 'openai/b'] }));
  await record('reviewers, later page', () => reviewersRepo.listReviewers(spy, eventId, { limit: 101, after: [now, reviewerIds[50]!] }));
  await record('invitations, later page', () => reviewersRepo.listUnusedInvitations(spy, eventId, { limit: 101, after: 'inv_0' }));
  await record('review assignments, later page', () =>
    reviewersRepo.listReviewableProjects(spy, eventId, reviewerIds[0]!, { limit: 101, after: [midProject.first_submitted_at, midProject.id] }),
  );
  for (const [name, q] of queries) {
    const prefix = database.dialect === 'sqlite' ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN ';
    const plan = await db.executeQuery(CompiledQuery.raw(prefix + q.sql, [...q.parameters]));
    const lines = plan.rows.map((r) => (database.dialect === 'sqlite' ? (r as { detail: string }).detail : (r as { 'QUERY PLAN': string })['QUERY PLAN']));
    console.log(`[${database.dialect}] plan: ${name}\n    ${lines.join('\n    ')}`);
  }
}

const started = performance.now();
for (const dialect of DIALECTS) await benchDialect(dialect);
console.log(
  `done in ${((performance.now() - started) / 1000).toFixed(0)} s; load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
