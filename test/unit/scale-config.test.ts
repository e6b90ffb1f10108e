import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/core/config.js';

describe('event cache, long-poll and leaderboard settings', () => {
  it('have the documented defaults', () => {
    const c = loadConfig({});
    expect(c.eventCacheTtlMs).toBe(1000);
    expect(c.eventCacheMaxEntries).toBe(5000);
    expect(c.eventCacheMaxBytes).toBe(32 * 1024 * 1024);
    expect(c.waitRecheckMs).toBe(5000);
    expect(c.leaderboardInlineRefresh).toBe(200);
  });

  it('take values from the environment', () => {
    const c = loadConfig({ EVENT_CACHE_MAX_ENTRIES: '10', EVENT_CACHE_MAX_BYTES: '2048', WAIT_RECHECK_MS: '0', LEADERBOARD_INLINE_REFRESH: '3' });
    expect(c.eventCacheMaxEntries).toBe(10);
    expect(c.eventCacheMaxBytes).toBe(2048);
    expect(c.waitRecheckMs).toBe(0);
    expect(c.leaderboardInlineRefresh).toBe(3);
  });

  it.each([
    ['EVENT_CACHE_MAX_ENTRIES', '0'],
    ['EVENT_CACHE_MAX_BYTES', '100'],
    ['WAIT_RECHECK_MS', '-1'],
    ['WAIT_RECHECK_MS', '5s'],
    ['LEADERBOARD_INLINE_REFRESH', '0'],
    ['LEADERBOARD_INLINE_REFRESH', 'all'],
  ])('refuse %s=%j with a ConfigError naming the variable', (name, value) => {
    let problems: string[] = [];
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      problems = (e as ConfigError).problems;
    }
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(name);
  });
});
