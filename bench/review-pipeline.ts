/**
 * Review pipeline benchmark (not part of `npm test`): 1,000 projects × 3 models against a fake
 * OpenAI-compatible provider that answers every call after 200 ms, at a concurrency of 32, on a
 * temporary SQLite database. The ideal is 200 ms × 3,000 / 32 = 18.75 s; the target is ≥ 90 % of it.
 *
 * REVIEW_CONCURRENCY is a per-provider limit, so the three models are served by one provider
 * (`bench/m1`, `bench/m2`, `bench/m3`) with REVIEW_CONCURRENCY=32: total concurrency is exactly 32.
 * The fake provider and a fake GitHub API run in a child process (this file, started with
 * `--fake`), so their work does not eat into the pipeline's event loop. The measured time covers
 * the whole pipeline: starting judging (queuing 3,000 reviews), leasing, the GitHub context
 * (README + tree, once per project), the prompt, the call, validation and the writes.
 *
 *   node --import tsx bench/review-pipeline.ts
 *   BENCH_PROJECTS=200 BENCH_LATENCY_MS=200 BENCH_CONCURRENCY=32 node --import tsx bench/review-pipeline.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 1000);
const MODELS = ['bench/m1', 'bench/m2', 'bench/m3'];
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const TARGET = 0.9;

/** The child: a fake OpenAI-compatible provider (fixed latency) and a fake GitHub API. */
async function runFake(): Promise<void> {
  let calls = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const readme = `# Project\n\n${'A line of README text that describes the project. '.repeat(40)}\n`;
  const listing = JSON.stringify(
    ['src', 'test', 'README.md', 'package.json', 'LICENSE'].map((name) => ({
      name,
      path: name,
      type: name.includes('.') || name === 'LICENSE' ? 'file' : 'dir',
    })),
  );
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (req.method === 'GET' && url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ calls, maxInFlight }));
      return;
    }
    if (req.method === 'GET' && url.startsWith('/repos/')) {
      if (url.endsWith('/readme')) res.writeHead(200, { 'content-type': 'text/plain' }).end(readme);
      else res.writeHead(200, { 'content-type': 'application/json' }).end(listing);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls++;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; response_format: { json_schema: { schema: any } } };
      const dims: string[] = body.response_format.json_schema.schema.properties.scores.required;
      const scores = Object.fromEntries(dims.map((d, i) => [d, (calls + i) % 11]));
      const content = JSON.stringify({ scores, summary: 'Benchmark review.' });
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: `c${calls}`,
            object: 'chat.completion',
            created: 0,
            model: body.model,
            choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content, refusal: null } }],
            usage: { prompt_tokens: 800, completion_tokens: 40, total_tokens: 840 },
          }),
        );
      }, LATENCY_MS);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`${(server.address() as { port: number }).port}\n`);
  });
}

async function runBench(): Promise<void> {
  const fake = spawn(process.execPath, ['--import', 'tsx', 'bench/review-pipeline.ts', '--fake'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: fake.stdout }).once('line', (l) => resolve(Number(l)));
    fake.once('exit', (code) => reject(new Error(`fake provider exited (${code})`)));
  });
  const fakeUrl = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(join(tmpdir(), 'hk-bench-reviews-'));

  const { buildApp } = await import('../src/app.js');
  const { loadConfig } = await import('../src/core/config.js');
  const { openDatabase } = await import('../src/core/db/index.js');
  const { migrateToLatest } = await import('../src/core/db/migrations.js');
  const { newId } = await import('../src/core/ids.js');

  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    LOG_LEVEL: 'silent',
    REVIEW_WORKERS: 'false',
    REVIEW_CONCURRENCY: String(CONCURRENCY),
    REVIEW_TIMEOUT_MS: '30000',
    AI_PROVIDER_BENCH_BASE_URL: `${fakeUrl}/v1`,
    GITHUB_API_URL: fakeUrl,
  });
  const database = openDatabase(config.database);
  await migrateToLatest(database.db);
  const db = database.db;

  // Fixture straight into the database: one event already in judging, 1,000 approved teams with a project.
  const now = new Date().toISOString();
  const past = new Date(Date.now() - 86_400_000).toISOString();
  const userId = newId('usr');
  const eventId = newId('evt');
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto('users')
      .values({ id: userId, email: 'bench@example.com', password_hash: null, role: 'organizer', created_at: now, updated_at: now })
      .execute();
    await tx
      .insertInto('events')
      .values({
        id: eventId,
        name: 'Benchmark Hack',
        description: 'Reviews at scale.',
        status: 'judging',
        registration_deadline: past,
        submission_deadline: past,
        result_announced_at: null,
        tracks: JSON.stringify([{ id: 'main', name: 'Main', prize: '' }]),
        dimensions: JSON.stringify([
          { name: 'impact', weight: 2 },
          { name: 'craft', weight: 1 },
          { name: 'novelty', weight: 1 },
        ]),
        models: JSON.stringify(MODELS),
        registration_open: 1,
        auto_approve: 1,
        form_fields: '[]',
        created_by: userId,
        created_at: now,
        updated_at: now,
        judging_started_at: null,
      })
      .execute();
    for (let i = 0; i < PROJECTS; i++) {
      const uid = newId('usr');
      const rid = newId('reg');
      await tx
        .insertInto('users')
        .values({ id: uid, email: `team${i}@example.com`, password_hash: null, role: 'user', created_at: now, updated_at: now })
        .execute();
      await tx
        .insertInto('registrations')
        .values({
          id: rid,
          event_id: eventId,
          user_id: uid,
          team_name: `Team ${i}`,
          team_name_key: `team ${i}`,
          track_id: 'main',
          contact_email: `team${i}@example.com`,
          github_url: null,
          fields: '{}',
          status: 'approved',
          reason: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await tx
        .insertInto('projects')
        .values({
          id: newId('prj'),
          event_id: eventId,
          registration_id: rid,
          project_name: `Project ${i}`,
          description: `Project number ${i}: an agent that does useful things.`,
          github_url: `https://github.com/bench/project-${i}`,
          project_website: null,
          demo_video_url: null,
          team_size: 3,
          track_id: 'main',
          status: 'submitted',
          review_status: 'pending',
          first_submitted_at: now,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
  });

  const { app, ctx } = await buildApp({ config, database, logger: false });
  const jobs = PROJECTS * MODELS.length;
  const ideal = (LATENCY_MS * jobs) / CONCURRENCY / 1000;

  const cpu0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  await ctx.reviews.drain();
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const elu = performance.eventLoopUtilization(elu0);

  const rows = await db.selectFrom('reviews').select(['status']).where('event_id', '=', eventId).execute();
  const succeeded = rows.filter((r) => r.status === 'succeeded').length;
  const reviewed = await db.selectFrom('projects').select('id').where('event_id', '=', eventId).where('review_status', '=', 'reviewed').execute();
  const stats = (await (await fetch(`${fakeUrl}/stats`)).json()) as { calls: number; maxInFlight: number };

  await app.close();
  await database.close();
  fake.kill();
  rmSync(dir, { recursive: true, force: true });

  const pct = (ideal / wall) * 100;
  console.log(`review pipeline ${PROJECTS}x${MODELS.length} @${CONCURRENCY}: ${wall.toFixed(1)} s, ${pct.toFixed(1)} % of ideal (target ≥ ${TARGET * 100} %)`);
  console.log(
    `  ideal ${ideal.toFixed(2)} s (${LATENCY_MS} ms × ${jobs} / ${CONCURRENCY}); ${(jobs / wall).toFixed(1)} reviews/s; ` +
      `${succeeded}/${jobs} succeeded, ${reviewed.length}/${PROJECTS} projects reviewed; provider calls ${stats.calls}, max in flight ${stats.maxInFlight}`,
  );
  console.log(
    `  pipeline process: ${((cpu.user + cpu.system) / 1000 / jobs).toFixed(2)} ms CPU per review, event loop ${(elu.utilization * 100).toFixed(0)} % busy; ` +
      `machine load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs`,
  );
  if (succeeded !== jobs || stats.calls !== jobs || reviewed.length !== PROJECTS) {
    console.error('  FAILED: every review must succeed with exactly one call');
    process.exit(1);
  }
  if (pct < TARGET * 100) console.log('  below target');
}

if (process.argv.includes('--fake')) void runFake();
else
  runBench().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
