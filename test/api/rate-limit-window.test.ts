import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryRateLimitStore, redisRateLimitStore, type RateLimitStore } from '../../src/core/rate-limit.js';
import { DIALECTS } from '../helpers/databases.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';

const REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

/**
 * A client that exhausted its window gets through again once the window is over. The windows run
 * on the app's clock, so the test moves the ManualClock instead of waiting a minute.
 */
const STORES: { name: string; make: (redis: () => Redis) => RateLimitStore }[] = [
  { name: 'memory', make: () => memoryRateLimitStore() },
  // A prefix of our own: concurrent runs never see each other's counters.
  { name: 'redis', make: (redis) => redisRateLimitStore(redis(), `hk:test:${randomBytes(6).toString('hex')}:rl:`) },
];

describe.each(DIALECTS)('rate-limit windows (%s)', (dialect) => {
  describe.each(STORES)('$name store', ({ make }) => {
    let t: TestApp;
    let user: TestUser;
    const clients: Redis[] = [];

    beforeAll(async () => {
      const redis = () => {
        const r = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
        clients.push(r);
        return r;
      };
      t = await startTestApp(dialect, {
        env: { RATE_LIMIT_PER_KEY: '3', RATE_LIMIT_PER_IP: '2', RATE_LIMIT_WINDOW_MS: '60000', REVIEW_WORKERS: 'false' },
        rateLimitStore: make(redis),
      });
      user = await t.user();
    });
    afterAll(async () => {
      await t?.close();
      for (const c of clients) c.disconnect();
    });

    it('per key: 429 with Retry-After once exhausted, 200 again after the window', async () => {
      for (let i = 0; i < 3; i++) expect((await t.api('GET', '/events', { key: user.key })).status).toBe(200);
      const limited = await t.api('GET', '/events', { key: user.key });
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('rate_limited');
      expect(limited.headers.get('retry-after')).toBe('60');

      // Half way through the window: still limited, and Retry-After counts down with the clock.
      t.clock.advance(30_000);
      const still = await t.api('GET', '/events', { key: user.key });
      expect(still.status).toBe(429);
      expect(still.headers.get('retry-after')).toBe('30');

      t.clock.advance(30_000);
      const again = await t.api('GET', '/events', { key: user.key });
      expect(again.status).toBe(200);
      expect(again.headers.get('ratelimit-remaining')).toBe('2');
    });

    it('per IP without a key: the same', async () => {
      for (let i = 0; i < 2; i++) expect((await t.api('GET', '/events')).status).toBe(200);
      const limited = await t.api('GET', '/events');
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('rate_limited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

      t.clock.advance(60_000);
      const again = await t.api('GET', '/events');
      expect(again.status).toBe(200);
      expect(again.headers.get('ratelimit-remaining')).toBe('1');
    });
  });
});
