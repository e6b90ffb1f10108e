import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import {
  DEFAULT_MAX_WAIT_SECONDS,
  effectiveWaitSeconds,
  LONG_POLL_MAX_SECONDS,
  MCP_CLIENT_DEFAULT_TIMEOUT_SECONDS,
  POLL_MAX_SECONDS,
  POLL_MIN_SECONDS,
  pollDelaySeconds,
  resultsRetryAfterSeconds,
} from '../../src/core/wait-policy.js';

describe('wait policy', () => {
  it('caps long-polls below the 60 s default request timeout of the official MCP SDK clients', () => {
    expect(LONG_POLL_MAX_SECONDS).toBe(45);
    expect(LONG_POLL_MAX_SECONDS).toBeLessThan(MCP_CLIENT_DEFAULT_TIMEOUT_SECONDS - 10);
    expect(DEFAULT_MAX_WAIT_SECONDS).toBe(LONG_POLL_MAX_SECONDS);
  });

  it('gives a request the wait it asked for, within the operator cap, itself within the policy', () => {
    expect(effectiveWaitSeconds(undefined, 45)).toBe(0);
    expect(effectiveWaitSeconds(20, 45)).toBe(20);
    expect(effectiveWaitSeconds(45, 10)).toBe(10);
    expect(effectiveWaitSeconds(45, 0)).toBe(0);
    expect(effectiveWaitSeconds(600, 600)).toBe(LONG_POLL_MAX_SECONDS);
    expect(effectiveWaitSeconds(-3, 45)).toBe(0);
  });

  it('polls at 30 s, doubling to at most 5 min', () => {
    expect([0, 1, 2, 3, 4, 5, 50].map(pollDelaySeconds)).toEqual([30, 60, 120, 240, 300, 300, 300]);
    expect(pollDelaySeconds(-1)).toBe(POLL_MIN_SECONDS);
    expect(pollDelaySeconds(Number.NaN)).toBe(POLL_MIN_SECONDS);
  });

  it('asks for results at the slow end of the cadence, and never for a cancelled event', () => {
    for (const status of ['draft', 'open', 'active', 'judging']) expect(resultsRetryAfterSeconds(status)).toBe(POLL_MAX_SECONDS);
    expect(resultsRetryAfterSeconds('cancelled')).toBeNull();
  });

  it('MAX_WAIT_SECONDS defaults to the policy maximum and may not exceed it', () => {
    const base = { DATABASE_URL: 'sqlite::memory:', PUBLIC_URL: 'http://hackathon.test' };
    expect(loadConfig(base).maxWaitSeconds).toBe(LONG_POLL_MAX_SECONDS);
    expect(loadConfig({ ...base, MAX_WAIT_SECONDS: '10' }).maxWaitSeconds).toBe(10);
    expect(() => loadConfig({ ...base, MAX_WAIT_SECONDS: String(LONG_POLL_MAX_SECONDS + 1) })).toThrow(/MAX_WAIT_SECONDS/);
  });
});
