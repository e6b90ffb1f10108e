import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { browser, signIn, signUp } from '../helpers/web-session.js';

/** Admins list users (search, role filter, keyset pages) and change roles or disable accounts. */
describe.each(DIALECTS)('admin users (%s)', (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { AUTH_CACHE_TTL_MS: '60000' } });
    admin = await t.user('admin', `root-${dialect}@example.com`);
  });
  afterAll(async () => t?.close());

  it('lists users newest first with search, role filter and cursor pages (Link rel="next")', async () => {
    for (let i = 0; i < 5; i++) await signUp(t, `Page${i}-${dialect}@Example.com`, undefined, { name: i === 3 ? 'Grace_Hopper' : `P ${i}` });
    const all = await t.api('GET', '/admin/users?q=page', { key: admin.key });
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(5);
    expect(all.body.map((u: { email: string }) => u.email)).toEqual([4, 3, 2, 1, 0].map((i) => `page${i}-${dialect}@example.com`));
    expect(Object.keys(all.body[0]).sort()).toEqual(['created_at', 'disabled_at', 'email', 'id', 'name', 'role']);

    const first = await t.api('GET', '/admin/users?q=PAGE&limit=2', { key: admin.key });
    expect(first.body).toHaveLength(2);
    const link = first.headers.get('link')!;
    expect(link).toMatch(/^<http:\/\/hackathon\.test\/api\/v1\/admin\/users\?q=PAGE&limit=2&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
    const next = await t.api(
      'GET',
      new URL(link.slice(1, link.indexOf('>'))).pathname.replace('/api/v1', '') + new URL(link.slice(1, link.indexOf('>'))).search,
      { key: admin.key },
    );
    expect(next.body.map((u: { email: string }) => u.email)).toEqual([2, 1].map((i) => `page${i}-${dialect}@example.com`));

    const byName = await t.api('GET', '/admin/users?q=grace_h', { key: admin.key });
    expect(byName.body.map((u: { name: string }) => u.name)).toEqual(['Grace_Hopper']);
    // LIKE wildcards are literal.
    expect((await t.api('GET', '/admin/users?q=%25', { key: admin.key })).body).toEqual([]);
    const admins = await t.api('GET', '/admin/users?role=admin', { key: admin.key });
    expect(admins.body.map((u: { id: string }) => u.id)).toEqual([admin.id]);
  });

  it('only admins: others get 403 forbidden', async () => {
    const org = await t.user('organizer');
    const res = await t.api('GET', '/admin/users', { key: org.key });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    const patch = await t.api('PATCH', `/admin/users/${org.id}`, { key: org.key, body: { role: 'admin' } });
    expect(patch.status).toBe(403);
  });

  it('changes a role; the change applies at once to cached keys', async () => {
    const u = await t.user();
    expect((await t.api('GET', '/admin/users', { key: u.key })).status).toBe(403);
    const res = await t.api('PATCH', `/admin/users/${u.id}`, { key: admin.key, body: { role: 'organizer' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: u.id, email: u.email, name: null, role: 'organizer', created_at: expect.any(String), disabled_at: null });
    const me = await t.api('GET', '/auth/session', { key: u.key });
    expect(me.body.user.role).toBe('organizer');
  });

  it('disabling signs the user out and stops their keys at once; enabling lets them sign in again', async () => {
    const s = await signUp(t, `victim-${dialect}@example.com`);
    const key = await t.api('POST', '/api-keys', { headers: browser(s), body: { name: 'k' } });
    expect((await t.api('GET', '/auth/session', { key: key.body.key })).status).toBe(200);
    const off = await t.api('PATCH', `/admin/users/${s.userId}`, { key: admin.key, body: { disabled: true } });
    expect(off.status).toBe(200);
    expect(off.body.disabled_at).toBe(t.clock.now().toISOString());
    expect((await t.api('GET', '/auth/session', { key: key.body.key })).status).toBe(401);
    expect((await t.api('GET', '/auth/session', { headers: { cookie: s.cookie } })).status).toBe(401);
    const signin = await t.api('POST', '/auth/signin', { body: { email: s.email, password: 'correct horse battery' } });
    expect(signin.status).toBe(403);
    expect(signin.body.code).toBe('account_disabled');

    const on = await t.api('PATCH', `/admin/users/${s.userId}`, { key: admin.key, body: { disabled: false } });
    expect(on.body.disabled_at).toBeNull();
    expect((await t.api('GET', '/auth/session', { key: key.body.key })).status).toBe(200);
    await signIn(t, s.email);
  });

  it('an admin cannot demote or disable themself (422); an unknown user is 404', async () => {
    const demote = await t.api('PATCH', `/admin/users/${admin.id}`, { key: admin.key, body: { role: 'user' } });
    expect(demote.status).toBe(422);
    expect(demote.body.code).toBe('validation_failed');
    const disable = await t.api('PATCH', `/admin/users/${admin.id}`, { key: admin.key, body: { disabled: true } });
    expect(disable.status).toBe(422);
    const same = await t.api('PATCH', `/admin/users/${admin.id}`, { key: admin.key, body: { role: 'admin' } });
    expect(same.status).toBe(200);
    const unknown = await t.api('PATCH', '/admin/users/usr_nope', { key: admin.key, body: { disabled: true } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('user_not_found');
  });
});
