import type { Redis } from 'ioredis';

export interface RateLimitHit {
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/**
 * Fixed-window counters. In memory for one process; in Redis when several processes share limits.
 * `now` (epoch ms) comes from the app's clock, so windows follow the same time as everything else.
 */
export interface RateLimitStore {
  hit(bucket: string, windowMs: number, now: number): Promise<RateLimitHit>;
  /** The same without a promise, for stores that need no I/O (keeps the anonymous hot path synchronous). */
  hitSync?(bucket: string, windowMs: number, now: number): RateLimitHit;
  /** The count so far without adding to it (sign-in lockout checks before it knows whether to count). */
  peek(bucket: string, windowMs: number, now: number): Promise<RateLimitHit>;
  close(): Promise<void>;
}

export function memoryRateLimitStore(): RateLimitStore {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = -Infinity;
  const store: RateLimitStore = {
    async hit(bucket, windowMs, now) {
      return store.hitSync!(bucket, windowMs, now);
    },
    hitSync(bucket, windowMs, t) {
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
    async peek(bucket, windowMs, t) {
      const w = windows.get(bucket);
      if (!w || w.resetAt <= t) return { count: 0, resetMs: windowMs };
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
return c`;

/**
 * Windows aligned on multiples of windowMs, one key per window: every process computes the same key
 * from its own clock, and the count resets when the clock passes the window's end (Redis' expiry
 * only cleans up, a little after).
 */
export function redisRateLimitStore(redis: Redis, prefix = 'hk:rl:'): RateLimitStore {
  return {
    async hit(bucket, windowMs, now) {
      const window = Math.floor(now / windowMs);
      const resetMs = (window + 1) * windowMs - now;
      const count = (await redis.eval(HIT_SCRIPT, 1, `${prefix}${bucket}:${window}`, String(resetMs + 1000))) as number;
      return { count, resetMs };
    },
    async peek(bucket, windowMs, now) {
      const window = Math.floor(now / windowMs);
      const raw = await redis.get(`${prefix}${bucket}:${window}`);
      return { count: raw === null ? 0 : Number(raw), resetMs: (window + 1) * windowMs - now };
    },
    async close() {},
  };
}

/**
 * Shared counters while they can be reached, this process's own otherwise: Redis is help, so a
 * request never fails or waits because the shared store is down. While `usable()` is false every
 * call goes to `local` without trying `shared`; a call to `shared` that fails (the connection
 * dropped mid-command, a timeout) is counted in `local` instead and reported to `failed`. What was
 * counted locally stays local: when the shared store is back, counting resumes there.
 */
export function failoverRateLimitStore(
  shared: RateLimitStore,
  local: RateLimitStore,
  link: { up(): boolean; commandFailed(err: unknown): void },
): RateLimitStore {
  async function either<T>(onShared: () => Promise<T>, onLocal: () => Promise<T>): Promise<T> {
    if (!link.up()) return onLocal();
    try {
      return await onShared();
    } catch (err) {
      link.commandFailed(err);
      return onLocal();
    }
  }
  return {
    hit: (bucket, windowMs, now) =>
      either(
        () => shared.hit(bucket, windowMs, now),
        () => local.hit(bucket, windowMs, now),
      ),
    peek: (bucket, windowMs, now) =>
      either(
        () => shared.peek(bucket, windowMs, now),
        () => local.peek(bucket, windowMs, now),
      ),
    async close() {
      await Promise.all([shared.close(), local.close()]);
    },
  };
}
