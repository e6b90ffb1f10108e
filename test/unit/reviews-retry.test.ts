import { describe, expect, it } from 'vitest';
import { fromSdkError, ProviderError } from '../../src/reviews/providers/provider.js';
import { backoffDelayMs, isRetryableStatus, retryAfterMs, RETRY_AFTER_CAP_MS } from '../../src/reviews/retry-policy.js';

const NOW = new Date('2030-01-01T12:00:00.000Z');

describe('backoffDelayMs', () => {
  it('doubles per attempt from the base, capped, with jitter between half and all of it', () => {
    const opts = { baseMs: 1000, maxMs: 5000 };
    expect(backoffDelayMs(1, { ...opts, random: () => 1 })).toBe(1000);
    expect(backoffDelayMs(1, { ...opts, random: () => 0 })).toBe(500);
    expect(backoffDelayMs(2, { ...opts, random: () => 1 })).toBe(2000);
    expect(backoffDelayMs(3, { ...opts, random: () => 1 })).toBe(4000);
    expect(backoffDelayMs(4, { ...opts, random: () => 1 })).toBe(5000);
    expect(backoffDelayMs(10, { ...opts, random: () => 0 })).toBe(2500);
  });

  it('takes Retry-After as a floor, capped at an hour', () => {
    expect(backoffDelayMs(1, { baseMs: 0, maxMs: 0, retryAfterMs: 2000 })).toBe(2000);
    expect(backoffDelayMs(1, { baseMs: 10_000, maxMs: 60_000, retryAfterMs: 2000, random: () => 1 })).toBe(10_000);
    expect(backoffDelayMs(1, { baseMs: 0, maxMs: 0, retryAfterMs: 10 * RETRY_AFTER_CAP_MS })).toBe(RETRY_AFTER_CAP_MS);
  });
});

describe('retryAfterMs', () => {
  const h = (o: Record<string, string>) => new Headers(o);
  it('reads seconds, HTTP dates and retry-after-ms', () => {
    expect(retryAfterMs(h({ 'retry-after': '2' }), NOW)).toBe(2000);
    expect(retryAfterMs(h({ 'retry-after': '0.5' }), NOW)).toBe(500);
    expect(retryAfterMs(h({ 'retry-after': new Date(NOW.getTime() + 30_000).toUTCString() }), NOW)).toBe(30_000);
    expect(retryAfterMs(h({ 'retry-after-ms': '1500', 'retry-after': '9' }), NOW)).toBe(1500);
  });
  it('ignores absent or nonsense values', () => {
    expect(retryAfterMs(h({}), NOW)).toBeUndefined();
    expect(retryAfterMs(h({ 'retry-after': 'soon' }), NOW)).toBeUndefined();
    expect(retryAfterMs(undefined, NOW)).toBeUndefined();
  });
});

describe('classification', () => {
  it('retries 408, 429 and 5xx; fails other 4xx at once', () => {
    for (const s of [408, 429, 500, 502, 503, 504]) expect(isRetryableStatus(s)).toBe(true);
    for (const s of [400, 401, 403, 404, 409, 422]) expect(isRetryableStatus(s)).toBe(false);
  });

  it('maps SDK errors by status, with Retry-After on 429 and 503 only', () => {
    const sdk = (status: number, headers: Record<string, string> = {}) => Object.assign(new Error(`${status} boom`), { status, headers: new Headers(headers) });
    const rl = fromSdkError(sdk(429, { 'retry-after': '3' }), NOW);
    expect(rl).toBeInstanceOf(ProviderError);
    expect(rl).toMatchObject({ retryable: true, retryAfterMs: 3000, status: 429 });
    expect(rl.message).toMatch(/^rate limited \(HTTP 429\)/);
    expect(fromSdkError(sdk(503, { 'retry-after': '1' }), NOW)).toMatchObject({ retryable: true, retryAfterMs: 1000 });
    expect(fromSdkError(sdk(500, { 'retry-after': '1' }), NOW)).toMatchObject({ retryable: true, retryAfterMs: undefined });
    expect(fromSdkError(sdk(401), NOW)).toMatchObject({ retryable: false, status: 401 });
    expect(fromSdkError(sdk(401), NOW).message).toMatch(/request refused \(HTTP 401\)/);
    expect(fromSdkError(new Error('ECONNREFUSED'), NOW)).toMatchObject({ retryable: true });
  });
});
