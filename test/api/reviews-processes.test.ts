import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { startFakeGithub, startFakeOpenAI, type FakeGithub, type FakeProvider } from '../helpers/fake-providers.js';
import { createEvent, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickApprovedTeam, quickUser } from '../helpers/quick-users.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { untilWith } from '../helpers/until.js';

const DAY = 86_400_000;

/**
 * Exactly once with real processes: two `hackathon serve` processes share one fresh database and
 * both run the judging scheduler and workers. The events are set up (by an in-test app whose clock
 * is three days back, with workers off) so that their submission deadline has passed in real time:
 * the two servers race to start judging on their own. Each server reaches the fake provider under
 * its own path prefix (/a or /b), so the fake can tell who asked.
 */
describe.each(DIALECTS)('review workers in two server processes (%s)', (dialect) => {
  let db: TestDatabase;
  let t: TestApp;
  let oa: FakeProvider;
  let gh: FakeGithub;
  let org: TestUser;
  const servers: Record<'a' | 'b', ServerProcess | null> = { a: null, b: null };

  beforeAll(async () => {
    [oa, gh] = await Promise.all([startFakeOpenAI(), startFakeGithub()]);
    db = await createTestDatabase(dialect);
    t = await startTestApp(dialect, {
      database: db,
      now: new Date(Date.now() - 3 * DAY),
      env: { REVIEW_WORKERS: 'false', GITHUB_API_URL: gh.url },
    });
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => {
    for (const s of Object.values(servers)) s?.child.kill('SIGKILL');
    await Promise.all(Object.values(servers).flatMap((s) => (s ? [s.exited] : [])));
    await t?.close();
    await db?.drop();
    await Promise.all([oa?.close(), gh?.close()]);
  });

  async function eventWithProjects(models: string[], projects: number, tag: string) {
    const eventId = await createEvent(t, org.key, { models, registration_config: { open: true, auto_approve: true, fields: [] } });
    for (let i = 0; i < projects; i++) {
      const { team } = await quickApprovedTeam(t, eventId, org.key, { fields: {} });
      const res = await t.api('POST', `/events/${eventId}/submit`, {
        key: team.key,
        body: { project_name: `${tag} project ${i}`, github_url: `https://github.com/acme/${tag}-${i}`, track_id: 'tools' },
      });
      if (res.status !== 201) throw new Error(`submit: ${res.status} ${res.text}`);
    }
    return eventId;
  }

  const rowsOf = (eventId: string) =>
    t.ctx.db.selectFrom('reviews').selectAll().where('event_id', '=', eventId).orderBy('project_id').orderBy('reviewer').execute();

  const until = untilWith({
    ms: 20_000,
    every: 50,
    details: () => `--- a ---\n${servers.a?.stderr() ?? ''}\n--- b ---\n${servers.b?.stderr() ?? ''}`,
  });

  it('review each project × model exactly once, and finish a review whose process was killed mid-call', async () => {
    const P = 4;
    const [m1, m2, held] = [`once-a-${dialect}`, `once-b-${dialect}`, `held-${dialect}`];
    const e1 = await eventWithProjects([`local/${m1}`, `local/${m2}`], P, 'e1');
    const e2 = await eventWithProjects([`local/${held}`], 1, 'e2');
    oa.script(held, [{ kind: 'hang' }]);

    const env = (who: 'a' | 'b') => ({
      DATABASE_URL: db.config.url,
      REVIEW_WORKERS: 'true',
      REVIEW_POLL_MS: '50',
      // Short, so the takeover below is quick, yet longer than the stall of a cold process on a busy
      // two-core machine (a lease lost to a stall means a second call to the provider).
      REVIEW_LEASE_MS: '3000',
      REVIEW_TIMEOUT_MS: '30000',
      REVIEW_BACKOFF_MS: '0',
      REVIEW_CONCURRENCY: '4',
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

    // Event 1: every review done, each asked for exactly once, by one process or the other.
    await until('event 1 reviews', async () => {
      const rows = await rowsOf(e1);
      return rows.length === P * 2 && rows.every((r) => r.status === 'succeeded');
    });
    const rows1 = await rowsOf(e1);
    expect(new Set(rows1.map((r) => `${r.project_id} ${r.reviewer}`)).size).toBe(P * 2);
    expect(rows1.filter((r) => r.attempts !== 1 || r.lease_owner !== null)).toEqual([]);
    for (const m of [m1, m2]) {
      const calls = oa.callsFor(m);
      expect(calls).toHaveLength(P);
      const asked = calls.map((c) => /e1 project \d/.exec(c.prompt)![0]).sort();
      expect(asked).toEqual(Array.from({ length: P }, (_, i) => `e1 project ${i}`));
    }
    const judgingStarted = await t.ctx.db.selectFrom('events').select('judging_started_at').where('id', 'in', [e1, e2]).execute();
    expect(judgingStarted.every((e) => e.judging_started_at !== null)).toBe(true);

    // Event 2: one process holds the only review's call; kill it. The other takes the review over
    // once the lease (3 s) has expired and finishes it.
    const [first] = await oa.waitForHeld(1, 15_000).catch(async (e: Error) => {
      throw new Error(
        `${e.message} calls=${JSON.stringify(oa.callsFor(held).map((c) => c.prefix))} rows=${JSON.stringify(await rowsOf(e2))}\n--- a ---\n${servers.a?.stderr()}\n--- b ---\n${servers.b?.stderr()}`,
      );
    });
    const holder = first!.prefix === '/a' ? 'a' : 'b';
    const survivor = holder === 'a' ? 'b' : 'a';
    expect((await rowsOf(e2))[0]).toMatchObject({ status: 'running', attempts: 1 });
    servers[holder]!.child.kill('SIGKILL');
    await servers[holder]!.exited;
    servers[holder] = null;
    await until('the survivor to finish event 2', async () => (await rowsOf(e2))[0]?.status === 'succeeded');
    const [r2] = await rowsOf(e2);
    expect(r2).toMatchObject({ status: 'succeeded', attempts: 2, lease_owner: null });
    expect(JSON.parse(r2!.scores!)).toEqual({ impact: 7, craft: 7 });
    expect(oa.callsFor(held).map((c) => c.prefix)).toEqual([`/${holder}`, `/${survivor}`]);

    // The survivor shuts down cleanly on SIGTERM.
    servers[survivor]!.child.kill('SIGTERM');
    expect(await servers[survivor]!.exited).toBe(0);
    servers[survivor] = null;
    // Two cold server starts (tsx transpiles the server) take well over the default 30 s on a loaded machine.
  }, 180_000);
});
