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
  /**
   * Takes back one hit counted at `now` (the time given to that `hit`): an attempt counted before it
   * was checked and that turned out not to count (a sign-in with the right password). Nothing when
   * that window has ended or holds nothing.
   */
  giveBack(bucket: string, windowMs: number, now: number): Promise<void>;
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
    async giveBack(bucket, windowMs, t) {
      const w = windows.get(bucket);
      // Only the window the hit went to: it started at most windowMs before its reset.
      if (w && w.count > 0 && t >= w.resetAt - windowMs && t < w.resetAt) w.count--;
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

const GIVE_BACK_SCRIPT = `
local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

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
    async giveBack(bucket, windowMs, now) {
      await redis.eval(GIVE_BACK_SCRIPT, 1, `${prefix}${bucket}:${Math.floor(now / windowMs)}`);
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
    // Where the hit went is not known (the link may have changed since): the store asked now.
    giveBack: (bucket, windowMs, now) =>
      either(
        () => shared.giveBack(bucket, windowMs, now),
        () => local.giveBack(bucket, windowMs, now),
      ),
    async close() {
      await Promise.all([shared.close(), local.close()]);
    },
  };
}
