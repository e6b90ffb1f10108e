import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as accountsRepo from '../../src/accounts/accounts-repo.js';
import { DIALECTS } from '../helpers/databases.js';
import { startTestApp, T0, type TestApp } from '../helpers/harness.js';

// The real repository, with touchApiKey watched: its writes run in the background, and the tests
// await them instead of sleeping.
vi.mock('../../src/accounts/accounts-repo.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/accounts/accounts-repo.js')>();
  return { ...real, touchApiKey: vi.fn(real.touchApiKey) };
});

/** Issue 3 "Accounts and keys": prefixed random keys, stored only hashed, expiry, last_used_at. */
describe.each(DIALECTS)('API keys (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    // No auth cache: every request looks its key up, so last_used_at bookkeeping is observable.
    t = await startTestApp(dialect, { env: { AUTH_CACHE_TTL_MS: '0' } });
  });
  afterAll(async () => t?.close());

  const lastUsed = async (id: string) =>
    (await t.ctx.db.selectFrom('api_keys').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow()).last_used_at;
  /** last_used_at is written in the background: wait for every write started so far to finish. */
  const settle = async () => {
    await Promise.allSettled(vi.mocked(accountsRepo.touchApiKey).mock.results.map((r) => r.value));
  };

  it('are hk_-prefixed with at least 128 random bits and stored only as a SHA-256 hash', async () => {
    const u = await t.ctx.accounts.createUser({ email: `k-${dialect}@example.com` });
    const a = await t.ctx.accounts.createKey(u.id);
    const b = await t.ctx.accounts.createKey(u.id);
    for (const k of [a, b]) {
      expect(k.key).toMatch(/^hk_[A-Za-z0-9_-]{22,}$/);
      expect(k.prefix).toBe(k.key.slice(0, k.prefix.length));
      expect(k.prefix.length).toBeLessThan(16);
    }
    expect(a.key).not.toBe(b.key);
    const row = await t.ctx.db.selectFrom('api_keys').selectAll().where('id', '=', a.id).executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(createHash('sha256').update(a.key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(a.key);
  });

  it('stop working exactly at their expiry', async () => {
    const u = await t.ctx.accounts.createUser({ email: `e-${dialect}@example.com` });
    const k = await t.ctx.accounts.createKey(u.id, { expiresAt: new Date(T0.getTime() + 60_000) });
    try {
      t.clock.set(T0.getTime() + 60_000 - 1);
      expect((await t.api('GET', '/events?mine=true', { key: k.key })).status).toBe(200);
      t.clock.set(T0.getTime() + 60_000);
      const res = await t.api('GET', '/events?mine=true', { key: k.key });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthorized');
    } finally {
      t.clock.set(T0);
    }
  });

  it('record last_used_at at most once a minute', async () => {
    const u = await t.user();
    const id = (await t.ctx.db.selectFrom('api_keys').select('id').where('user_id', '=', u.id).executeTakeFirstOrThrow()).id;
    expect(await lastUsed(id)).toBeNull();
    try {
      await t.api('GET', '/events', { key: u.key });
      await settle();
      expect(vi.mocked(accountsRepo.touchApiKey)).toHaveBeenCalled(); // settle really awaits the writes
      expect(await lastUsed(id)).toBe(T0.toISOString());

      t.clock.advance(30_000);
      await t.api('GET', '/events', { key: u.key });
      await settle();
      expect(await lastUsed(id)).toBe(T0.toISOString());

      t.clock.advance(31_000);
      await t.api('GET', '/events', { key: u.key });
      await settle();
      expect(await lastUsed(id)).toBe(new Date(T0.getTime() + 61_000).toISOString());
    } finally {
      t.clock.set(T0);
    }
  });
});
