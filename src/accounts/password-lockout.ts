import type { Clock } from '../core/clock.js';
import type { AccountsConfig } from '../core/config.js';
import type { UserRow } from '../core/db/schema.js';
import { AppError } from '../core/errors.js';
import type { RateLimitStore } from '../core/rate-limit.js';

export function rateLimited(retryAfter: number, what: string): AppError {
  return new AppError('rate_limited', `Too many ${what}; try again in ${retryAfter} s.`, { extra: { retry_after: retryAfter } });
}

/**
 * The failed-password lockout, shared by every place that checks a password (sign-in, password
 * change, accepting a reviewer invitation as an existing account): failures are counted per account
 * (e-mail) and per client IP, in the rate-limit store, within the sign-in window.
 *
 * Each attempt is counted before its password is checked, with one atomic increment per bucket, so
 * concurrent guesses cannot all pass a check made before any of them failed: past either limit the
 * attempt is refused (429) without checking and its count given back (a locked-out client adds
 * nothing), and an attempt with the right password gives its count back once checked.
 */
export function createPasswordLockout(deps: {
  store: RateLimitStore;
  clock: Clock;
  config: AccountsConfig;
  checkPassword: (email: string, password: string) => Promise<UserRow | null>;
}) {
  const { store, clock, config } = deps;
  const windowMs = config.signinWindowSeconds * 1000;

  /** The user for the right password, null for a wrong one; 429 `rate_limited` past either limit. */
  async function check(email: string, password: string, ip: string, what = 'sign-in attempts'): Promise<UserRow | null> {
    const key = email.trim().toLowerCase();
    const now = clock.now().getTime();
    const buckets: Array<[string, number]> = [
      [`signin:a:${key}`, config.signinMaxFailuresPerAccount],
      [`signin:ip:${ip}`, config.signinMaxFailuresPerIp],
    ];
    const giveBack = () => Promise.all(buckets.map(([bucket]) => store.giveBack(bucket, windowMs, now)));
    let retryAfter = 0;
    for (const [bucket, max] of buckets) {
      const hit = await store.hit(bucket, windowMs, now);
      if (hit.count > max) retryAfter = Math.max(retryAfter, Math.max(1, Math.ceil(hit.resetMs / 1000)));
    }
    if (retryAfter > 0) {
      await giveBack();
      throw rateLimited(retryAfter, what);
    }
    let user: UserRow | null;
    try {
      user = await deps.checkPassword(key, password);
    } catch (err) {
      // Not a failed guess (the database or scrypt failed): not counted.
      await giveBack();
      throw err;
    }
    if (user) await giveBack();
    return user;
  }

  return { check };
}

export type PasswordLockout = ReturnType<typeof createPasswordLockout>;
