import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { startFakeGithub, startFakeOpenAI, type FakeGithub, type FakeProvider } from '../helpers/fake-providers.js';
import { createEvent, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { quickApprovedTeam, quickUser } from '../helpers/quick-users.js';
import { untilWith } from '../helpers/until.js';

/**
 * REVIEW_CONCURRENCY bounds the provider calls one process has in flight, however many reviews are
 * queued and whatever plan the database picks for the claim. The scenario that broke it on
 * PostgreSQL: judging starts, a burst of reviews lands in a table whose statistics still say it is
 * empty (autovacuum off for it here, and no ANALYZE, so they stay that way), and the planner ran the
 * claim's `LIMIT n … FOR UPDATE SKIP LOCKED` subquery once per row, claiming every queued review.
 *
 * The fake model holds every call until the test lets it answer. "Everything claimed has reached the
 * model" is an event, not a timeout: every review the database shows running is a job some worker
 * has launched, and each launched job calls the model, so the test waits until the held calls are
 * as many as the running reviews, then counts them.
 */

const K = 3;
const PROJECTS = 8;
const MODELS = ['burst-a', 'burst-b'];

const until = untilWith({ ms: 30_000, every: 20 });

/** The event's reviews, queued with the statistics of an empty table (PostgreSQL): the stale case. */
async function burstOfReviews(t: TestApp, org: TestUser, models: string[]) {
  if (t.dialect === 'postgres') await sql`alter table reviews set (autovacuum_enabled = false)`.execute(t.ctx.db);
  const eventId = await createEvent(t, org.key, { models, registration_config: { open: true, auto_approve: true, fields: [] } });
  for (let i = 0; i < PROJECTS; i++) {
    const { team } = await quickApprovedTeam(t, eventId, org.key, { fields: {} });
    const res = await t.api('POST', `/events/${eventId}/submit`, {
      key: team.key,
      body: { project_name: `Burst ${i}`, github_url: `https://github.com/acme/burst-${i}` },
    });
    if (res.status !== 201) throw new Error(`submit: ${res.status} ${res.text}`);
  }
  expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'judging' } })).status).toBe(200);
  // Queued, or already claimed by a running server's worker.
  const reviews = await t.ctx.db.selectFrom('reviews').select('id').where('event_id', '=', eventId).execute();
  expect(reviews).toHaveLength(PROJECTS * models.length);
  if (t.dialect === 'postgres') {
    // The precondition: PostgreSQL has never counted the table's rows.
    const stats = await sql<{ reltuples: number }>`select reltuples from pg_class where relname = 'reviews'`.execute(t.ctx.db);
    expect(stats.rows[0]!.reltuples).toBeLessThanOrEqual(0);
  }
  return eventId;
}

const countRunning = async (t: TestApp, eventId: string) =>
  Number(
    (
      await t.ctx.db
        .selectFrom('reviews')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('event_id', '=', eventId)
        .where('status', '=', 'running')
        .executeTakeFirstOrThrow()
    ).n,
  );

describe.each(DIALECTS)('REVIEW_CONCURRENCY holds for a burst of queued reviews (%s)', (dialect) => {
  let t: TestApp;
  let oa: FakeProvider;
  let gh: FakeGithub;
  let org: TestUser;

  beforeAll(async () => {
    [oa, gh] = await Promise.all([startFakeOpenAI(), startFakeGithub()]);
    t = await startTestApp(dialect, {
      env: {
        AI_PROVIDER_LOCAL_BASE_URL: `${oa.url}/v1`,
        GITHUB_API_URL: gh.url,
        REVIEW_WORKERS: 'false',
        REVIEW_CONCURRENCY: String(K),
        REVIEW_LEASE_MS: '60000',
      },
    });
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([oa?.close(), gh?.close()]);
  });

  it('never has more than REVIEW_CONCURRENCY calls to a provider in flight, and reviews everything once', async () => {
    const models = MODELS.map((m) => `${m}-${dialect}`);
    let answer!: () => void;
    const gate = new Promise<void>((r) => (answer = r));
    for (const m of models) oa.setDefault({ kind: 'ok', after: gate }, m);
    const eventId = await burstOfReviews(
      t,
      org,
      models.map((m) => `local/${m}`),
    );

    const run = t.ctx.reviews.runOnce();
    try {
      let running = -1;
      await until(
        'every claimed review to reach the model',
        async () => {
          running = await countRunning(t, eventId);
          return running > 0 && oa.inFlight() === running;
        },
        {
          ms: 60_000,
          details: () =>
            ` (running ${running}, in flight ${oa.inFlight()}) ${JSON.stringify(oa.calls.map((c) => [c.model, /Burst \d/.exec(c.prompt)?.[0], c.behaviour]))}`,
        },
      );
      expect(oa.inFlight()).toBe(K);
    } finally {
      answer();
      await Promise.allSettled([run]);
    }
    await run;

    const rows = await t.ctx.db.selectFrom('reviews').select(['status', 'attempts']).where('event_id', '=', eventId).execute();
    expect(rows.filter((r) => r.status !== 'succeeded' || r.attempts !== 1)).toEqual([]);
    expect(oa.calls).toHaveLength(PROJECTS * models.length);
    expect(oa.maxInFlight()).toBe(K);
  }, 120_000);
});

describe.each(DIALECTS)('REVIEW_CONCURRENCY per process, two server processes (%s)', (dialect) => {
  let db: TestDatabase;
  let t: TestApp;
  let oa: FakeProvider;
  let gh: FakeGithub;
  let org: TestUser;
  const servers: Record<'a' | 'b', ServerProcess | null> = { a: null, b: null };

  beforeAll(async () => {
    [oa, gh] = await Promise.all([startFakeOpenAI(), startFakeGithub()]);
    db = await createTestDatabase(dialect);
    // Queues the reviews (its clock is real time at the start, so they are due for the servers) and
    // never works on them.
    t = await startTestApp(dialect, {
      database: db,
      now: new Date(),
      env: { AI_PROVIDER_LOCAL_BASE_URL: `${oa.url}/v1`, GITHUB_API_URL: gh.url, REVIEW_WORKERS: 'false' },
    });
    org = await quickUser(t, 'organizer');
  });
  afterEach(async () => {
    for (const s of Object.values(servers)) s?.child.kill('SIGKILL');
    await Promise.all(Object.values(servers).flatMap((s) => (s ? [s.exited] : [])));
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
    await Promise.all([oa?.close(), gh?.close()]);
  });

  it('each process keeps to its own limit (together at most twice it), and both shut down cleanly', async () => {
    const env = (who: 'a' | 'b') => ({
      DATABASE_URL: db.config.url,
      REVIEW_WORKERS: 'true',
      REVIEW_POLL_MS: '50',
      REVIEW_LEASE_MS: '60000',
      REVIEW_TIMEOUT_MS: '60000',
      REVIEW_CONCURRENCY: String(K),
      AI_PROVIDER_LOCAL_BASE_URL: `${oa.url}/${who}/v1`,
      OPENAI_API_KEY: '',
      OPENAI_BASE_URL: '',
      ANTHROPIC_API_KEY: '',
      ANTHROPIC_BASE_URL: '',
      OLLAMA_BASE_URL: '',
      GITHUB_API_URL: gh.url,
      GITHUB_TOKEN: '',
    });
    [servers.a, servers.b] = await Promise.all([spawnServer(env('a')), spawnServer(env('b'))]);
    const logs = () => `\n--- a ---\n${servers.a?.stderr() ?? ''}\n--- b ---\n${servers.b?.stderr() ?? ''}`;

    const models = MODELS.map((m) => `${m}-procs-${dialect}`);
    let answer!: () => void;
    const gate = new Promise<void>((r) => (answer = r));
    for (const m of models) oa.setDefault({ kind: 'ok', after: gate }, m);
    const eventId = await burstOfReviews(
      t,
      org,
      models.map((m) => `local/${m}`),
    );

    try {
      // Both processes' lanes full (or, with the old claim, whatever one claim statement took).
      await until(
        'every claimed review to reach the model',
        async () => {
          const running = await countRunning(t, eventId);
          return running >= 2 * K && oa.inFlight() === running;
        },
        { ms: 60_000, details: logs },
      );
      expect({ a: oa.inFlight('/a'), b: oa.inFlight('/b') }).toEqual({ a: K, b: K });
    } finally {
      answer();
    }
    await until(
      'every review to succeed',
      async () => {
        const rows = await t.ctx.db.selectFrom('reviews').select('status').where('event_id', '=', eventId).execute();
        return rows.every((r) => r.status === 'succeeded');
      },
      { ms: 30_000, details: logs },
    );
    const rows = await t.ctx.db.selectFrom('reviews').select(['attempts', 'lease_owner']).where('event_id', '=', eventId).execute();
    expect(rows.filter((r) => r.attempts !== 1 || r.lease_owner !== null)).toEqual([]);
    expect(oa.calls.filter((c) => models.includes(c.model))).toHaveLength(PROJECTS * models.length);
    expect(oa.maxInFlight('/a')).toBeLessThanOrEqual(K);
    expect(oa.maxInFlight('/b')).toBeLessThanOrEqual(K);

    // Graceful shutdown still holds with the new claim.
    for (const who of ['a', 'b'] as const) {
      servers[who]!.child.kill('SIGTERM');
      expect(await servers[who]!.exited).toBe(0);
      servers[who] = null;
    }
  }, 180_000);
});
