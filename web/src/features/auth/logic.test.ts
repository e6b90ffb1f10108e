import { describe, expect, it } from 'vitest';
import { safeNext } from '../../lib/session';
import { afterSignIn, browserMailLanguage, formatWait, homeFor, passwordProblem, secondsLeft, summarizeUserAgent } from './logic';

describe('user-agent summary', () => {
  it('names common browsers and systems', () => {
    expect(summarizeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36')).toEqual({
      browser: 'Chrome 120',
      os: 'Windows',
      tool: null,
    });
    expect(
      summarizeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91')
        .browser,
    ).toBe('Edge 120');
    expect(summarizeUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15')).toEqual({
      browser: 'Safari 17',
      os: 'macOS',
      tool: null,
    });
    expect(
      summarizeUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ browser: 'Safari 17', os: 'iOS', tool: null });
    expect(summarizeUserAgent('Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0')).toEqual({
      browser: 'Firefox 121',
      os: 'Linux',
      tool: null,
    });
    expect(summarizeUserAgent('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36').os).toBe(
      'Android',
    );
    expect(summarizeUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36').browser).toBe(
      'Headless Chrome 131',
    );
  });
  it('recognises command-line clients and knows when it does not know', () => {
    expect(summarizeUserAgent('curl/8.5.0')).toEqual({ browser: null, os: null, tool: 'curl' });
    expect(summarizeUserAgent('')).toEqual({ browser: null, os: null, tool: null });
    expect(summarizeUserAgent(null)).toEqual({ browser: null, os: null, tool: null });
  });
});

describe('passwords', () => {
  it('checks the length in characters, then the confirmation', () => {
    expect(passwordProblem('short', 8)).toBe('tooShort');
    expect(passwordProblem('long enough', 8)).toBe(null);
    expect(passwordProblem('long enough', 8, 'long enougH')).toBe('mismatch');
    expect(passwordProblem('long enough', 8, 'long enough')).toBe(null);
    expect(passwordProblem('密码密码密码密码', 8)).toBe(null);
  });
});

describe('where sign-in leads', () => {
  it('goes to next when it is a path of this site, else to the role home', () => {
    expect(homeFor('organizer')).toBe('/events');
    expect(homeFor('admin')).toBe('/events');
    expect(homeFor('user')).toBe('/');
    expect(afterSignIn('/api-keys', 'user', safeNext)).toBe('/api-keys');
    expect(afterSignIn(null, 'organizer', safeNext)).toBe('/events');
    expect(afterSignIn('//evil.example', 'user', safeNext)).toBe('/');
    expect(afterSignIn('https://evil.example', 'admin', safeNext)).toBe('/');
    expect(afterSignIn('/signin?next=/x', 'organizer', safeNext)).toBe('/events');
  });
  it('counts seconds down, rounded up, never below zero', () => {
    expect(secondsLeft(10_500, 0)).toBe(11);
    expect(secondsLeft(1000, 2000)).toBe(0);
  });
});

describe('waits', () => {
  it('reads seconds under a minute, minutes:seconds above', () => {
    expect(formatWait(45)).toBe('45 s');
    expect(formatWait(59.2)).toBe('1:00');
    expect(formatWait(60)).toBe('1:00');
    expect(formatWait(899)).toBe('14:59');
    expect(formatWait(-3)).toBe('0 s');
  });
});

describe('browserMailLanguage', () => {
  it('is zh for a Chinese first preference, en for English or anything else', () => {
    expect(browserMailLanguage(['zh-CN', 'en'])).toBe('zh');
    expect(browserMailLanguage(['zh-TW'])).toBe('zh');
    expect(browserMailLanguage(['en-US', 'zh-CN'])).toBe('en');
    expect(browserMailLanguage(['fr-FR', 'zh'])).toBe('zh');
    expect(browserMailLanguage([])).toBe('en');
  });
});
