/**
 * The organizer's review page of one project (GET /events/:id/projects/:project_id/reviews) at 10
 * and at 500 reviews, in one event that also holds 2,000 other projects with their reviews: does
 * the page pay only for the reviews it shows, and how much per review?
 *
 *   node --import tsx bench/project-review-page.ts               # SQLite and PostgreSQL
 *   BENCH_DIALECTS=sqlite BENCH_ROUNDS=100 node --import tsx bench/project-review-page.ts
 *
 * Each review carries a summary or comment of ~600 characters, each human reviewer an account. The
 * two pages are asked in turns (small, large, large, small, … `BENCH_ROUNDS` times each), one
 * request at a time over real HTTP, so a change in the machine's load falls on both. Prints the
 * median and p90 latency and the answer's size per page, and the large/small ratios; the baseline
 * is the 10-review page measured in the same run.
 */
import { loadavg } from 'node:os';
import { CompiledQuery, type Insertable } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/core/config.js';
import { openDatabase, type Executor } from '../src/core/db/index.js';
import type { ProjectsTable, RegistrationsTable, ReviewsTable, UsersTable } from '../src/core/db/schema.js';
import { migrateToLatest } from '../src/core/db/migrations.js';
import { newId } from '../src/core/ids.js';
import { createBenchDatabase, DIALECTS } from './submit-bench.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const OTHER_PROJECTS = Number(process.env.BENCH_OTHER_PROJECTS ?? 2_000);
const SIZES = { small: 10, large: 500 } as const;
const MODELS = ['openai/gpt-bench', 'anthropic/claude-bench'];
const BATCH = 200;
const AT = '2030-01-01T00:00:00.000Z';
const WORDS = 'agent model tool build deploy graph vector prompt latency eval judge score team demo repo user data stream cache queue'.split(' ');
const text = (seed: number) => Array.from({ length: 90 }, (_, i) => WORDS[(seed * 31 + i * 7) % WORDS.length]).join(' ');

async function insertChunked<T extends 'users' | 'registrations' | 'projects' | 'reviews'>(db: Executor, table: T, rows: unknown[]) {
  for (let i = 0; i < rows.length; i += BATCH) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + BATCH) as never)
      .execute();
  }
}

/** A judged project (user, approved registration, project) with `models` AI reviews and `humans` human ones. */
async function seedProject(db: Executor, eventId: string, i: number, humans: number) {
  const userId = newId('usr');
  const regId = newId('reg');
  const projectId = newId('prj');
  const users: Insertable<UsersTable>[] = [{ id: userId, email: `team${i}@bench.test`, password_hash: null, role: 'user', created_at: AT, updated_at: AT }];
  const reg: Insertable<RegistrationsTable> = {
    id: regId,
    event_id: eventId,
    user_id: userId,
    team_name: `Team ${i}`,
    team_name_key: `team ${i}`,
    track_id: null,
    contact_email: `team${i}@bench.test`,
    github_url: null,
    fields: '{}',
    status: 'approved',
    reason: null,
    created_at: AT,
    updated_at: AT,
  };
  const project: Insertable<ProjectsTable> = {
    id: projectId,
    event_id: eventId,
    registration_id: regId,
    project_name: `Project ${i}`,
    description: text(i),
    github_url: `https://github.com/bench/p${i}`,
    project_website: null,
    demo_video_url: null,
    team_size: 3,
    track_id: null,
    status: 'submitted',
    review_status: 'reviewed',
    first_submitted_at: AT,
    created_at: AT,
    updated_at: AT,
  };
  const reviews: Insertable<ReviewsTable>[] = MODELS.map((m, k) => ({
    id: newId('rev'),
    event_id: eventId,
    project_id: projectId,
    reviewer_kind: 'model' as const,
    reviewer: m,
    group_key: m,
    status: 'succeeded' as const,
    scores: JSON.stringify({ impact: 5 + (k % 5), craft: 6 }),
    summary: text(i + k),
    attempts: 1,
    created_at: AT,
    updated_at: AT,
    completed_at: AT,
  }));
  for (let h = 0; h < humans; h++) {
    const judge = newId('usr');
    users.push({ id: judge, email: `judge${i}-${h}@bench.test`, password_hash: null, role: 'user', created_at: AT, updated_at: AT, name: `Judge ${h}` });
    reviews.push({
      id: newId('rev'),
      event_id: eventId,
      project_id: projectId,
      reviewer_kind: 'human',
      reviewer: judge,
      group_key: 'human',
      status: 'succeeded',
      scores: JSON.stringify({ impact: h % 11, craft: (h * 3) % 11 }),
      summary: text(h),
      attempts: 1,
      created_at: AT,
      updated_at: AT,
      completed_at: AT,
    });
  }
  await insertChunked(db, 'users', users);
  await db.insertInto('registrations').values(reg).execute();
  await db.insertInto('projects').values(project).execute();
  await insertChunked(db, 'reviews', reviews);
  return projectId;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;

async function benchDialect(dialect: 'sqlite' | 'postgres') {
  const testDb = await createBenchDatabase(dialect, 'reviewpage');
  const config = loadConfig({
    DATABASE_URL: testDb.config.url,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_ENABLED: 'false',
    MAX_CONNECTIONS_PER_IP: '0',
    REVIEW_WORKERS: 'false',
    MAIL_WORKERS: 'false',
    PUBLIC_URL: 'http://127.0.0.1',
    // Its reviews are seeded, never run: the event's models need no provider.
    AI_ACCEPT_UNCONFIGURED_MODELS: 'true',
  });
  const database = openDatabase(testDb.config);
  await migrateToLatest(database.db);
  const { app, ctx } = await buildApp({ config, database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/v1`;
  try {
    const org = await ctx.accounts.createUser({ email: 'org@bench.test', role: 'organizer' });
    const key = (await ctx.accounts.createKey(org.id)).key;
    const created = await fetch(`${base}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Review page bench',
        registration_deadline: '2031-01-01T00:00:00Z',
        submission_deadline: '2031-02-01T00:00:00Z',
        models: MODELS,
        dimensions: [
          { name: 'impact', weight: 2 },
          { name: 'craft', weight: 1 },
        ],
      }),
    });
    const eventId = ((await created.json()) as { id: string }).id;
    const t0 = performance.now();
    const pages: Record<'small' | 'large', string> = { small: '', large: '' };
    await database.db.transaction().execute(async (tx) => {
      // Background: other projects of the same event, each with its two AI reviews and three human ones.
      for (let i = 0; i < OTHER_PROJECTS; i++) await seedProject(tx, eventId, 1000 + i, 3);
      pages.small = await seedProject(tx, eventId, 1, SIZES.small - MODELS.length);
      pages.large = await seedProject(tx, eventId, 2, SIZES.large - MODELS.length);
    });
    await database.db.executeQuery(CompiledQuery.raw('ANALYZE'));
    console.log(
      `[${dialect}] seeded ${OTHER_PROJECTS + 2} projects in ${((performance.now() - t0) / 1000).toFixed(1)} s (load average ${loadavg()[0]!.toFixed(1)})`,
    );

    const times: Record<'small' | 'large', number[]> = { small: [], large: [] };
    const bytes: Record<'small' | 'large', number> = { small: 0, large: 0 };
    const ask = async (label: 'small' | 'large') => {
      const started = performance.now();
      const res = await fetch(`${base}/events/${eventId}/projects/${pages[label]}/reviews`, { headers: { authorization: `Bearer ${key}` } });
      const body = await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${label}: ${res.status}`);
      times[label].push(performance.now() - started);
      bytes[label] = body.byteLength;
    };
    for (let i = 0; i < 5; i++) for (const label of ['small', 'large'] as const) await ask(label); // warm-up
    times.small = [];
    times.large = [];
    for (let i = 0; i < ROUNDS / 2; i++) for (const label of ['small', 'large', 'large', 'small'] as const) await ask(label);

    for (const label of ['small', 'large'] as const) {
      console.log(
        `[${dialect}] ${String(SIZES[label]).padStart(3)} reviews: median ${median(times[label]).toFixed(2)} ms, p90 ${p90(times[label]).toFixed(2)} ms, ${(bytes[label] / 1024).toFixed(0)} KB`,
      );
    }
    const ratio = median(times.large) / median(times.small);
    const perReview = (median(times.large) - median(times.small)) / (SIZES.large - SIZES.small);
    console.log(
      `[${dialect}] 500/10 reviews: median latency ×${ratio.toFixed(1)} (answer ×${(bytes.large / bytes.small).toFixed(1)} in size); ` +
        `~${(perReview * 1000).toFixed(0)} µs per extra review; baseline (10 reviews) ${median(times.small).toFixed(2)} ms`,
    );
  } finally {
    await app.close();
    await database.close();
    await testDb.drop();
  }
}

for (const dialect of DIALECTS) await benchDialect(dialect);
