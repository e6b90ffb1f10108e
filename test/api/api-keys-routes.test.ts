import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { browser, signUp, type WebSession } from '../helpers/web-session.js';

/** The web app's API-key page: create (shown once), list, revoke; a session and a key reach the same routes. */
describe.each(DIALECTS)('API-key routes (%s)', (dialect) => {
  let t: TestApp;
  let s: WebSession;
  beforeAll(async () => {
    // The auth cache is on (as in production): revocation must still take effect at once.
    t = await startTestApp(dialect, { env: { AUTH_CACHE_TTL_MS: '60000' } });
    s = await signUp(t, `keys-${dialect}@example.com`);
  });
  afterAll(async () => t?.close());

  it('creates a full key shown once with Cache-Control: no-store; lists keys newest first without secrets', async () => {
    const res = await t.api('POST', '/api-keys', { headers: browser(s), body: { name: 'laptop' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      id: expect.stringMatching(/^key_/),
      name: 'laptop',
      prefix: res.body.key.slice(0, res.body.prefix.length),
      scope: 'full',
      key: expect.stringMatching(/^hk_[A-Za-z0-9_-]{43}$/),
      created_at: t.clock.now().toISOString(),
      expires_at: null,
      last_used_at: null,
      revoked_at: null,
    });
    t.clock.advance(1000);
    const expiry = new Date(t.clock.now().getTime() + 86_400_000).toISOString();
    const second = await t.api('POST', '/api-keys', { headers: browser(s), body: { name: 'ci', expires_at: expiry } });
    expect(second.status).toBe(201);
    expect(second.body.expires_at).toBe(expiry);

    const list = await t.api('GET', '/api-keys', { headers: { cookie: s.cookie } });
    expect(list.status).toBe(200);
    expect(list.body.map((k: { id: string }) => k.id)).toEqual([second.body.id, res.body.id]);
    expect(Object.keys(list.body[0]).sort()).toEqual(['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'prefix', 'revoked_at', 'scope']);
    expect(list.text).not.toContain(res.body.key);

    // The new key works and lists the same keys.
    const viaKey = await t.api('GET', '/api-keys', { key: res.body.key });
    expect(viaKey.status).toBe(200);
    expect(viaKey.body.map((k: { id: string }) => k.id)).toEqual([second.body.id, res.body.id]);
  });

  it('refuses a past expiry and a bad name (422)', async () => {
    const past = await t.api('POST', '/api-keys', {
      headers: browser(s),
      body: { name: 'old', expires_at: new Date(t.clock.now().getTime() - 1000).toISOString() },
    });
    expect(past.status).toBe(422);
    expect(past.body.code).toBe('validation_failed');
    const empty = await t.api('POST', '/api-keys', { headers: browser(s), body: { name: '' } });
    expect(empty.status).toBe(422);
    const long = await t.api('POST', '/api-keys', { headers: browser(s), body: { name: 'x'.repeat(101) } });
    expect(long.status).toBe(422);
  });

  it('revoking takes effect at once, even for a cached key; revoking again is 204', async () => {
    const created = await t.api('POST', '/api-keys', { headers: browser(s), body: { name: 'temp' } });
    expect((await t.api('GET', '/auth/session', { key: created.body.key })).status).toBe(200);
    const del = await t.api('DELETE', `/api-keys/${created.body.id}`, { headers: browser(s) });
    expect(del.status).toBe(204);
    const after = await t.api('GET', '/auth/session', { key: created.body.key });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('unauthorized');
    const again = await t.api('DELETE', `/api-keys/${created.body.id}`, { headers: browser(s) });
    expect(again.status).toBe(204);
    const listed = (await t.api('GET', '/api-keys', { headers: { cookie: s.cookie } })).body.find((k: { id: string }) => k.id === created.body.id);
    expect(listed.revoked_at).toBe(t.clock.now().toISOString());
  });

  it("someone else's key or an unknown id is 404 key_not_found, and stays working", async () => {
    const other = await t.user();
    const res = await t.api('DELETE', `/api-keys/${(await t.ctx.accounts.listKeysForEmail(other.email))[0]!.id}`, { headers: browser(s) });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('key_not_found');
    expect((await t.api('GET', '/auth/session', { key: other.key })).status).toBe(200);
    const unknown = await t.api('DELETE', '/api-keys/key_nope', { key: other.key });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('key_not_found');
  });

  it('a review-scoped key may not use these routes (403)', async () => {
    const u = await t.user();
    const review = await t.ctx.accounts.createKey(u.id, { scope: 'review' });
    for (const [method, path] of [
      ['GET', '/api-keys'],
      ['POST', '/api-keys'],
      ['DELETE', '/api-keys/key_x'],
    ] as const) {
      const res = await t.api(method, path, { key: review.key, ...(method === 'POST' ? { body: { name: 'x' } } : {}) });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
  });

  it('without auth: 401', async () => {
    const res = await t.api('GET', '/api-keys');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
  });
});
