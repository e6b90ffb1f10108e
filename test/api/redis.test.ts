import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisNotifier } from '../../src/core/notifier.js';
import { redisRateLimitStore } from '../../src/core/rate-limit.js';
import { openRedis, type RedisLink } from '../../src/core/redis.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, type TestApp } from '../helpers/harness.js';
import { until } from '../helpers/until.js';

const REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

/**
 * Two app instances on one database and one Redis, as several server processes would run: rate
 * limits are shared, and a registration decided on one instance wakes a long-poll on the other.
 */
describe.each(DIALECTS)('several instances sharing Redis (%s)', (dialect) => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  const clients: RedisLink[] = [];

  beforeAll(async () => {
    // A prefix of our own: concurrent runs never see each other's counters or messages.
    const prefix = `hk:test:${randomBytes(6).toString('hex')}:`;
    const redis = () => {
      const link = openRedis(REDIS_URL, { commandTimeoutMs: 5000, log: () => undefined });
      clients.push(link);
      return link;
    };
    db = await createTestDatabase(dialect);
    const instance = async () => {
      const link = redis();
      const notifier = redisNotifier(link, `${prefix}n:`);
      if (!(await link.ready(10_000))) throw new Error(`Redis is not reachable at ${REDIS_URL}`);
      return startTestApp(dialect, {
        database: db,
        // A long cache TTL and no shared re-check of waiters: only the Redis messages can refresh the
        // other instance's copy of an event or wake its long-polls.
        env: { RATE_LIMIT_PER_KEY: '5', RATE_LIMIT_PER_IP: '1000', REVIEW_WORKERS: 'false', EVENT_CACHE_TTL_MS: '60000', WAIT_RECHECK_MS: '0' },
        notifier,
        rateLimitStore: redisRateLimitStore(link.publisher, `${prefix}rl:`),
      });
    };
    a = await instance();
    b = await instance();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    for (const c of clients) c.close();
    await db?.drop();
  });

  it('counts one key against one limit across instances', async () => {
    const user = await a.user();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await (i % 2 ? b : a).api('GET', '/events', { key: user.key })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await b.api('GET', '/events', { key: user.key });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
  });

  it('wakes a long-poll on one instance when the organizer decides on the other', async () => {
    const org = await a.user('organizer');
    const team = await a.user();
    const eventId = await createEvent(a, org.key);
    const reg = await a.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() });
    expect(reg.status).toBe(201);

    const before = a.ctx.registrations.waitsStarted();
    const waiting = a.api('GET', `/events/${eventId}/my-registration?wait=20`, { key: team.key });
    while (a.ctx.registrations.waitsStarted() === before) await new Promise((r) => setTimeout(r, 5)); // parked on a
    const approved = await b.api('POST', `/events/${eventId}/registrations/${reg.body.id}/approve`, { key: org.key });
    expect(approved.status).toBe(200);
    // With no re-check timer, a wait that runs out answers "pending" without reading again: only the
    // message from b can have woken it with "approved".
    const res = await waiting;
    expect(res.body.status).toBe('approved');
    expect(a.ctx.registrations.waiting()).toBe(0);
  });

  it('drops the other instance’s cached events at once when an organizer creates or edits one', async () => {
    const org = await a.user('organizer');
    expect((await b.api('GET', '/events')).status).toBe(200); // b now holds a snapshot of the public events
    const eventId = await createEvent(a, org.key);
    // The message takes a Redis round trip; polling for at most 5 s stays far below the 60 s cache
    // TTL, so only the message can have refreshed b's copy.
    await until('b to list the new event', async () => (await b.api('GET', '/events')).body.some((e: { id: string }) => e.id === eventId));
    const patched = await a.api('PATCH', `/events/${eventId}`, { key: org.key, body: { name: 'Renamed Hack' } });
    expect(patched.status).toBe(200);
    await until('b to show the new name', async () => (await b.api('GET', `/events/${eventId}`)).body.name === 'Renamed Hack');
  });
});
