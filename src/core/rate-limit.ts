import type { Redis } from 'ioredis';

export interface RateLimitHit {
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/** Fixed-window counters. In memory for one process; in Redis when several processes share limits. */
export interface RateLimitStore {
  hit(bucket: string, windowMs: number): Promise<RateLimitHit>;
  /** The same without a promise, for stores that need no I/O (keeps the anonymous hot path synchronous). */
  hitSync?(bucket: string, windowMs: number): RateLimitHit;
  close(): Promise<void>;
}

export function memoryRateLimitStore(now: () => number = Date.now): RateLimitStore {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = now();
  const store: RateLimitStore = {
    async hit(bucket, windowMs) {
      return store.hitSync!(bucket, windowMs);
    },
    hitSync(bucket, windowMs) {
      const t = now();
      if (t - lastSweep > windowMs) {
        for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
        lastSweep = t;
      }
      let w = windows.get(bucket);
      if (!w || w.resetAt <= t) {
        w = { count: 0, resetAt: t + windowMs };
        windows.set(bucket, w);
      }
      w.count++;
      return { count: w.count, resetMs: w.resetAt - t };
    },
    async close() {
      windows.clear();
    },
  };
  return store;
}

const HIT_SCRIPT = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}`;

export function redisRateLimitStore(redis: Redis, prefix = 'hk:rl:'): RateLimitStore {
  return {
    async hit(bucket, windowMs) {
      const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, prefix + bucket, String(windowMs))) as [number, number];
      return { count, resetMs: ttl };
    },
    async close() {},
  };
}
