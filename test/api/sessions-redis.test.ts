import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisNotifier } from '../../src/core/notifier.js';
import { redisRateLimitStore } from '../../src/core/rate-limit.js';
import { openRedis, type RedisLink } from '../../src/core/redis.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { browser, signUp } from '../helpers/web-session.js';
import { until } from '../helpers/until.js';

const REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

/** Two instances with a long auth cache: ending a session or disabling a user on one reaches the other through the notifier. */
describe.each(DIALECTS)('session revocation across instances (%s)', (dialect) => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  const clients: RedisLink[] = [];

  beforeAll(async () => {
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
        env: { AUTH_CACHE_TTL_MS: '60000', REVIEW_WORKERS: 'false' },
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

  it('a sign-out on one instance ends the session cached by the other', async () => {
    const s = await signUp(a, `x-${dialect}@example.com`);
    expect((await b.api('GET', '/auth/session', { headers: { cookie: s.cookie } })).status).toBe(200);
    expect((await a.api('POST', '/auth/signout', { headers: browser(s) })).status).toBe(204);
    await until('the other instance to drop the session', async () => (await b.api('GET', '/auth/session', { headers: { cookie: s.cookie } })).status === 401);
  });

  it('disabling a user on one instance stops their key cached by the other', async () => {
    const admin = await a.user('admin');
    const u = await a.user();
    expect((await b.api('GET', '/auth/session', { key: u.key })).status).toBe(200);
    expect((await a.api('PATCH', `/admin/users/${u.id}`, { key: admin.key, body: { disabled: true } })).status).toBe(200);
    await until('the other instance to refuse the key', async () => (await b.api('GET', '/auth/session', { key: u.key })).status === 401);
  });
});
