import { describe, expect, it } from 'vitest';
import { codeStatus, curlExample, endOfDayIso, keyStatus, signupLink, todayInputValue } from './key-logic';

const NOW = Date.parse('2026-11-23T05:00:00.000Z');

describe('key and code status', () => {
  it('revoked wins, then expired, else active', () => {
    expect(keyStatus({ revoked_at: null, expires_at: null }, NOW)).toBe('active');
    expect(keyStatus({ revoked_at: null, expires_at: '2026-11-24T00:00:00.000Z' }, NOW)).toBe('active');
    expect(keyStatus({ revoked_at: null, expires_at: '2026-11-23T05:00:00.000Z' }, NOW)).toBe('expired');
    expect(keyStatus({ revoked_at: '2026-11-01T00:00:00.000Z', expires_at: '2026-01-01T00:00:00.000Z' }, NOW)).toBe('revoked');
  });

  it('an invitation code is used up once its uses reach the maximum', () => {
    expect(codeStatus({ revoked_at: null, expires_at: null, uses: 2, max_uses: 2 }, NOW)).toBe('used_up');
    expect(codeStatus({ revoked_at: null, expires_at: null, uses: 1, max_uses: 2 }, NOW)).toBe('active');
    expect(codeStatus({ revoked_at: 'x', expires_at: null, uses: 2, max_uses: 2 }, NOW)).toBe('revoked');
  });
});

describe('expiry date', () => {
  it('is the end of the chosen day in the local time zone, or none', () => {
    const iso = endOfDayIso('2026-12-31')!;
    const d = new Date(iso);
    expect([d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes()]).toEqual([2026, 11, 31, 23, 59]);
    expect(endOfDayIso('')).toBeUndefined();
    expect(endOfDayIso('31/12/2026')).toBeUndefined();
  });

  it('formats today for a date input', () => {
    expect(todayInputValue(new Date(2026, 0, 5, 12))).toBe('2026-01-05');
  });
});

describe('examples and links', () => {
  it('builds a curl command against the API base', () => {
    expect(curlExample('https://hack.example/api/v1/', 'hk_abc')).toBe("curl -H 'Authorization: Bearer hk_abc' 'https://hack.example/api/v1/auth/session'");
  });

  it('builds the sign-up link with the code', () => {
    expect(signupLink('https://hack.example/', 'ic_a+b')).toBe('https://hack.example/signup?code=ic_a%2Bb');
  });
});
