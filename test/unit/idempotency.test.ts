import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { canonicalJson, isStoredOutcome, isValidIdempotencyKey, requestFingerprint } from '../../src/idempotency/idempotency-key.js';

describe('Idempotency-Key values', () => {
  it('accepts 1 to 255 printable ASCII characters and nothing else', () => {
    expect(isValidIdempotencyKey('a')).toBe(true);
    expect(isValidIdempotencyKey('k'.repeat(255))).toBe(true);
    expect(isValidIdempotencyKey(' ~!"#{}')).toBe(true);
    expect(isValidIdempotencyKey('')).toBe(false);
    expect(isValidIdempotencyKey('k'.repeat(256))).toBe(false);
    expect(isValidIdempotencyKey('caf\u00e9')).toBe(false);
    expect(isValidIdempotencyKey('a\tb')).toBe(false);
    expect(isValidIdempotencyKey('a\x7fb')).toBe(false);
  });
});

describe('request fingerprints', () => {
  it('ignore the order of object members at every depth, but not the order of arrays', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(requestFingerprint('POST', '/x', {}, { a: 1, b: { c: 2, d: 3 } })).toBe(requestFingerprint('POST', '/x', {}, { b: { d: 3, c: 2 }, a: 1 }));
    expect(requestFingerprint('POST', '/x', {}, { a: [1, 2] })).not.toBe(requestFingerprint('POST', '/x', {}, { a: [2, 1] }));
  });

  it('differ by method, route, path parameters and body, and tell "no body" from an empty object', () => {
    const route = '/api/v1/events/:id/register';
    const base = requestFingerprint('POST', route, { id: 'evt_1' }, { team_name: 'A' });
    expect(requestFingerprint('POST', route, { id: 'evt_2' }, { team_name: 'A' })).not.toBe(base);
    expect(requestFingerprint('PUT', route, { id: 'evt_1' }, { team_name: 'A' })).not.toBe(base);
    expect(requestFingerprint('POST', '/api/v1/events/:id/submit', { id: 'evt_1' }, { team_name: 'A' })).not.toBe(base);
    expect(requestFingerprint('POST', route, { id: 'evt_1' }, { team_name: 'B' })).not.toBe(base);
    expect(requestFingerprint('POST', '/p', {}, undefined)).not.toBe(requestFingerprint('POST', '/p', {}, {}));
  });

  it('are equal for any JSON value and any reordering of its members (property)', () => {
    const shuffle = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(shuffle);
      if (v === null || typeof v !== 'object') return v;
      return Object.fromEntries(
        Object.entries(v)
          .reverse()
          .map(([k, x]) => [k, shuffle(x)]),
      );
    };
    fc.assert(fc.property(fc.jsonValue(), (v) => canonicalJson(shuffle(v)) === canonicalJson(v)));
  });
});

describe('stored outcomes', () => {
  it('keep what the route answered below 500, except timing answers (408, 429)', () => {
    expect([200, 201, 202, 400, 403, 404, 409, 410, 422].every(isStoredOutcome)).toBe(true);
    expect([408, 429, 500, 502, 503].some(isStoredOutcome)).toBe(false);
  });
});

describe('IDEMPOTENCY_TTL_HOURS and IDEMPOTENCY_LEASE_SECONDS', () => {
  it('default to 24 hours and 60 seconds, and are validated', () => {
    expect(loadConfig({}).idempotency).toEqual({ ttlMs: 24 * 3_600_000, leaseMs: 60_000 });
    expect(loadConfig({ IDEMPOTENCY_TTL_HOURS: '48', IDEMPOTENCY_LEASE_SECONDS: '5' }).idempotency).toEqual({ ttlMs: 48 * 3_600_000, leaseMs: 5000 });
    expect(() => loadConfig({ IDEMPOTENCY_TTL_HOURS: '0' })).toThrow(/IDEMPOTENCY_TTL_HOURS="0" must be a whole number from 1 to 720/);
    expect(() => loadConfig({ IDEMPOTENCY_LEASE_SECONDS: 'soon' })).toThrow(/IDEMPOTENCY_LEASE_SECONDS/);
  });
});
