import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { startFakeGithub, startFakeOpenAI, type FakeGithub, type FakeProvider } from '../helpers/fake-providers.js';
import { createEvent, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickApprovedTeam, quickUser } from '../helpers/quick-users.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { untilWith } from '../helpers/until.js';

const until = untilWith({ ms: 20_000 });

/**
 * A database outage between a model's answer and its write. The answer is paid for: the worker keeps
 * it and writes it once the database is back, rather than letting the lease expire and asking the
 * model again.
 *
 * The outage is real, not simulated in the app: on PostgreSQL the app reaches the server through a
 * TCP proxy that resets every connection (open and new) while cut; on SQLite another connection
 * holds the write lock, so the app's write fails with SQLITE_BUSY after its busy timeout. The
 * outage starts once the model has the request, and ends when the app logs (a warning or an error
 * naming the review) that its write failed: the write certainly failed once, whatever the timing.
 */
describe.each(DIALECTS)('a review answered during a database outage (%s)', (dialect) => {
  let db: TestDatabase;
  let proxy: TcpProxy | null = null;
  let t: TestApp;
  let oa: FakeProvider;
  let gh: FakeGithub;
  let org: TestUser;
  /** Called with each line the app logs at warn or above. */
  let onLog: (entry: { level: number; msg?: string; review?: string }) => void = () => {};

  beforeAll(async () => {
    [oa, gh] = await Promise.all([startFakeOpenAI(), startFakeGithub()]);
    db = await createTestDatabase(dialect);
    let database = db;
    if (dialect === 'postgres') {
      const url = new URL(db.config.url);
      proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
      url.hostname = '127.0.0.1';
      url.port = String(proxy.port);
      database = { config: { dialect: 'postgres', url: url.toString() }, drop: async () => {} };
    }
    t = await startTestApp(dialect, {
      database,
      logger: { level: 'warn', stream: { write: (line: string) => onLog(JSON.parse(line)) } },
      env: {
        AI_PROVIDER_LOCAL_BASE_URL: `${oa.url}/v1`,
        GITHUB_API_URL: gh.url,
        REVIEW_WORKERS: 'false',
        REVIEW_BACKOFF_MS: '0',
        // Long: the heartbeat stays out of the way, and a lost answer is only asked again after the clock passes it.
        REVIEW_LEASE_MS: '60000',
      },
    });
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => {
    proxy?.restore();
    await t?.close();
    await proxy?.close();
    await db?.drop();
    await Promise.all([oa?.close(), gh?.close()]);
  });

  /** Makes the app's database unavailable; returns the function that ends the outage. */
  function outage(): () => void {
    if (proxy) {
      const p = proxy;
      p.cut();
      return () => p.restore();
    }
    if (db.config.dialect !== 'sqlite') throw new Error('unreachable');
    const lock = new SQLite(db.config.path);
    lock.exec('BEGIN IMMEDIATE');
    return () => {
      if (!lock.open) return;
      lock.exec('COMMIT');
      lock.close();
    };
  }

  it('keeps the model’s reply and records it once the database is back: the model is asked once', async () => {
    const m = `outage-${dialect}`;
    let answer!: () => void;
    oa.script(m, [{ kind: 'ok', scores: 9, summary: 'kept', after: new Promise<void>((r) => (answer = r)) }]);
    // What a second, needless call would answer.
    oa.setDefault({ kind: 'ok', scores: 2, summary: 'asked again' }, m);

    const eventId = await createEvent(t, org.key, { models: [`local/${m}`], registration_config: { open: true, auto_approve: true, fields: [] } });
    const { team } = await quickApprovedTeam(t, eventId, org.key, { fields: {} });
    expect(
      (await t.api('POST', `/events/${eventId}/submit`, { key: team.key, body: { project_name: 'Rocket', github_url: 'https://github.com/acme/rocket' } }))
        .status,
    ).toBe(201);
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'judging' } })).status).toBe(200);
    const row = () => t.ctx.db.selectFrom('reviews').selectAll().where('event_id', '=', eventId).executeTakeFirstOrThrow();
    const reviewId = (await row()).id;

    const run = t.ctx.reviews.runOnce();
    let end: (() => void) | null = null;
    const failures: string[] = [];
    try {
      await until('the model to get the request', () => oa.callsFor(m).length === 1);
      end = outage();
      onLog = (entry) => {
        if (entry.level < 40 || entry.review !== reviewId) return;
        failures.push(entry.msg ?? '');
        end?.();
      };
      answer();
      await run;
    } finally {
      answer();
      onLog = () => {};
      end?.();
      await Promise.allSettled([run]);
    }
    // The write did fail while the database was away.
    expect(failures.length).toBeGreaterThan(0);

    // Whatever was left behind has had every chance to be redone: past the lease, then drained.
    t.clock.advance(60_001);
    await t.ctx.reviews.drain();
    const final = await row();
    expect(final).toMatchObject({ status: 'succeeded', summary: 'kept', attempts: 1, lease_owner: null, last_error: null });
    expect(JSON.parse(final.scores!)).toEqual({ impact: 9, craft: 9 });
    expect(oa.callsFor(m)).toHaveLength(1);
    const project = await t.ctx.db.selectFrom('projects').select('review_status').where('event_id', '=', eventId).executeTakeFirstOrThrow();
    expect(project.review_status).toBe('reviewed');
  });
});
