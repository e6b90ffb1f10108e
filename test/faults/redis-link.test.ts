import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFIER_RESYNC, redisNotifier, type Notifier } from '../../src/core/notifier.js';
import { failoverRateLimitStore, memoryRateLimitStore, redisRateLimitStore, type RateLimitStore } from '../../src/core/rate-limit.js';
import { openRedis, type RedisLink } from '../../src/core/redis.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';
import { untilWith } from '../helpers/until.js';

/** Waits for a state the link reaches by itself (an event, not a duration). */
const until = untilWith({ ms: 15_000, every: 20 });

/**
 * The link to a Redis of the test's own, stopped, frozen and started again: calls never wait on a
 * missing Redis, the outage and the return are logged once each, and the rate limits and the
 * notifications come back to Redis by themselves.
 */
describe('Redis link through an outage', () => {
  let redis: TestRedis;
  let link: RedisLink;
  let notifier: Notifier;
  let store: RateLimitStore;
  const logged: Array<{ level: 'warn' | 'info'; msg: string }> = [];
  const W = 86_400_000;
  const now = () => Date.now();

  beforeAll(async () => {
    redis = await startTestRedis();
    link = openRedis(redis.url, {
      commandTimeoutMs: 300,
      log: () => ({ warn: (_o, msg) => void logged.push({ level: 'warn', msg }), info: (_o, msg) => void logged.push({ level: 'info', msg }) }),
    });
    notifier = redisNotifier(link);
    store = failoverRateLimitStore(redisRateLimitStore(link.publisher), memoryRateLimitStore(), link);
    expect(await link.ready(10_000)).toBe(true);
  });
  afterEach(() => {
    if (redis.running()) redis.resume();
  });
  afterAll(async () => {
    await notifier?.close();
    link?.close();
    await redis?.stop();
  });

  it('counts in Redis and delivers through it while up', async () => {
    const probe = redisRateLimitStore(link.publisher);
    await store.hit('up', W, now());
    await store.hit('up', W, now());
    expect((await probe.peek('up', W, now())).count).toBe(2);
    expect(notifier.connected()).toBe(true);
    const got = notifier.wait('ch', 5000);
    notifier.publish('ch', 'x');
    expect(await got).toBe(true);
    expect(logged).toEqual([]);
  });

  it('falls back at once when Redis stops, logs it once, and comes back by itself when it starts again', async () => {
    const resyncs: string[] = [];
    const off = notifier.subscribe(NOTIFIER_RESYNC, () => resyncs.push('resync'));
    await redis.stop();
    // Whether or not the link has noticed yet, a call answers (from this process) instead of failing or waiting.
    expect((await store.hit('down', W, now())).count).toBe(1);
    await until('the link to see Redis down', () => !link.up());
    expect(notifier.connected()).toBe(false);
    for (let i = 2; i <= 5; i++) expect((await store.hit('down', W, now())).count).toBe(i);
    expect((await store.peek('down', W, now())).count).toBe(5);
    // A publish while down still reaches this process.
    const got = notifier.wait('local', 5000);
    notifier.publish('local', 'y');
    expect(await got).toBe(true);
    expect(logged.filter((l) => l.level === 'warn')).toHaveLength(1);

    await redis.start();
    await until('the link to be up again', () => link.up());
    expect(notifier.connected()).toBe(true);
    expect(resyncs).toEqual(['resync']);
    expect(logged.map((l) => l.level)).toEqual(['warn', 'info']);
    // Counting is in Redis again (the restarted Redis is empty, so it starts from 1 there).
    const probe = redisRateLimitStore(link.publisher);
    expect((await store.hit('down', W, now())).count).toBe(1);
    expect((await probe.peek('down', W, now())).count).toBe(1);
    // And notifications cross Redis again: a message published straight to Redis arrives.
    const crossed = notifier.wait('crossed', 5000);
    await link.publisher.publish('hk:n:crossed', 'z');
    expect(await crossed).toBe(true);
    off();
  });

  it('an error answer from Redis is counted here, logged at most once a minute, and does not take the link down', async () => {
    logged.length = 0;
    const admin = new Redis(redis.url);
    try {
      await admin.config('SET', 'maxmemory', '1');
      for (let i = 1; i <= 3; i++) expect((await store.hit('refused', W, now())).count).toBe(i);
      expect(link.up()).toBe(true);
      expect(logged.map((l) => [l.level, l.msg.slice(0, 23)])).toEqual([['warn', 'a Redis command failed:']]);
    } finally {
      await admin.config('SET', 'maxmemory', '0');
      admin.disconnect();
    }
  });

  it('a frozen Redis costs one command timeout, then calls go local until it answers again', async () => {
    logged.length = 0;
    await store.hit('frozen', W, now());
    redis.pause();
    // The first call waits for the command timeout (300 ms), then counts here and reconnects.
    expect((await store.hit('frozen', W, now())).count).toBe(1);
    expect(link.up()).toBe(false);
    expect(logged.filter((l) => l.level === 'warn')).toHaveLength(1);
    // The next ones do not try Redis at all.
    expect((await store.hit('frozen', W, now())).count).toBe(2);
    redis.resume();
    await until('the link to be up again', () => link.up());
    expect(logged.map((l) => l.level)).toEqual(['warn', 'info']);
    // Counting in Redis again (which may or may not have run the command that timed out).
    const probe = redisRateLimitStore(link.publisher);
    const inRedis = (await probe.peek('frozen', W, now())).count;
    expect((await store.hit('frozen', W, now())).count).toBe(inRedis + 1);
  });
});
