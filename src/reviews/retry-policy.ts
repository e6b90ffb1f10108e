import { retryDelayMs, type RetryPolicy } from '../core/job-queue.js';

/**
 * When to try a review again and how long to wait: pure functions, unit-tested.
 *
 * - Retried: invalid replies, timeouts, connection failures, HTTP 408, 429 and 5xx.
 * - Failed at once: every other 4xx (bad key, unknown model, refused request): asking again
 *   cannot help, and a wrong key must not be hammered.
 * - Delay before attempt n+1 (n = attempts so far): base × 2^(n-1), capped at max, with "equal
 *   jitter" (a uniformly random value between half and all of it) so that many reviews failing
 *   together do not retry in lockstep.
 * - Retry-After (on 429 and 503; seconds or an HTTP date, and OpenAI's retry-after-ms) is a floor:
 *   the delay is the larger of it and the backoff, capped at one hour so a broken header cannot park
 *   a review for days.
 */
export { RETRY_AFTER_CAP_MS } from '../core/job-queue.js';

/** A review's retry policy for the core job queue: exponential, capped, equal jitter, REVIEW_MAX_ATTEMPTS. */
export function reviewRetryPolicy(opts: { baseMs: number; maxMs: number; maxAttempts?: number }): RetryPolicy {
  return {
    backoff: { kind: 'exponential', baseMs: opts.baseMs, maxMs: opts.maxMs },
    jitter: 'equal',
    ...(opts.maxAttempts !== undefined ? { maxAttempts: opts.maxAttempts } : {}),
  };
}

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

export function backoffDelayMs(attempts: number, opts: { baseMs: number; maxMs: number; retryAfterMs?: number | undefined; random?: () => number }): number {
  return retryDelayMs(reviewRetryPolicy(opts), attempts, opts)!;
}

interface HeaderBag {
  get(name: string): string | null;
}

/** The wait a 429/503 response asks for, in ms, or undefined when it names none (or a nonsense one). */
export function retryAfterMs(headers: HeaderBag | undefined | null, now: Date): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Math.round(Number(ms));
  const raw = headers.get('retry-after');
  if (raw === null || raw.trim() === '') return undefined;
  const v = raw.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now.getTime());
}
