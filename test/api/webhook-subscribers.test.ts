import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, type TestApp } from '../helpers/harness.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { quickUser } from '../helpers/quick-users.js';

const REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
const ROUNDS = 12;

/**
 * The webhook index (src/webhooks/webhook-subscribers.ts) lets a write skip the delivery query when
 * nobody subscribes. Two server processes on one database: a subscription made through one, then at
 * once (as soon as its 201 arrives) a write through the other, must queue a delivery. SQLite's
 * processes hear each other through Redis, PostgreSQL's through LISTEN/NOTIFY.
 */
describe.each(DIALECTS)('webhook subscriptions seen across processes (%s)', (dialect) => {
  let db: TestDatabase;
  let t: TestApp;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    // Seeds users and events only.
    t = await startTestApp(dialect, { database: db, now: new Date(), env: { WEBHOOKS_WORKERS: 'false', REVIEW_WORKERS: 'false' } });
    const env = {
      DATABASE_URL: db.config.url,
      WEBHOOKS_ALLOW_LOOPBACK: 'true',
      // Deliveries stay queued: the test counts them.
      WEBHOOKS_WORKERS: 'false',
      REVIEW_WORKERS: 'false',
      RATE_LIMIT_PER_IP: '100000',
      RATE_LIMIT_PER_KEY: '100000',
      // No timed re-read: only the announcement can tell the other process.
      WEBHOOK_INDEX_RELOAD_MS: '0',
      ...(dialect === 'sqlite' ? { REDIS_URL } : {}),
    };
    servers.push(...(await Promise.all([spawnServer(env), spawnServer(env)])));
  });
  afterAll(async () => {
    for (const s of servers) s.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    await t?.close();
    await db?.drop();
  });

  const call = async (base: string, method: string, path: string, key: string, body?: unknown) => {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: await res.json() };
  };
  const deliveries = async (webhookId: string) =>
    Number(
      (
        await t.ctx.db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('webhook_id', '=', webhookId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const queuedFor = async (eventId: string) =>
    Number(
      (
        await t.ctx.db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('payload', 'like', `%${eventId}%`)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('a write through one process right after a subscription through the other queues its delivery', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const org = await quickUser(t, 'organizer');
    for (let round = 0; round < ROUNDS; round++) {
      const eventId = await createEvent(t, org.key, { registration_config: { open: true, auto_approve: true, fields: [] } });
      const [early, late] = [await quickUser(t), await quickUser(t)];
      // Before any subscription: B queues nothing for this event (its index says nobody listens).
      const first = await call(b.url, 'POST', `/events/${eventId}/register`, early.key, registrationBody({ fields: {} }));
      expect(first.status).toBe(201);
      expect(await queuedFor(eventId)).toBe(0);
      // Alternate which process takes the subscription and which the write.
      const [subscribeVia, writeVia] = round % 2 === 0 ? [a, b] : [b, a];
      const hook = await call(subscribeVia.url, 'POST', '/webhooks', org.key, {
        url: 'http://127.0.0.1:9/hook',
        events: ['registration.created'],
        event_id: eventId,
      });
      expect(hook.status).toBe(201);
      const second = await call(writeVia.url, 'POST', `/events/${eventId}/register`, late.key, registrationBody({ fields: {} }));
      expect(second.status).toBe(201);
      expect(await deliveries(hook.body.id as string), `round ${round}`).toBe(1);
    }
  });

  it('a subscription to every event (no event_id) is seen by the other process too', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const team = await quickUser(t);
    const org = await quickUser(t, 'organizer');
    const eventId = await createEvent(t, org.key, { registration_config: { open: true, auto_approve: true, fields: [] } });
    const hook = await call(a.url, 'POST', '/webhooks', team.key, { url: 'http://127.0.0.1:9/all', events: ['registration.created', 'project.submitted'] });
    expect(hook.status).toBe(201);
    expect((await call(b.url, 'POST', `/events/${eventId}/register`, team.key, registrationBody({ fields: {} }))).status).toBe(201);
    expect(await deliveries(hook.body.id as string)).toBe(1);
  });
});
