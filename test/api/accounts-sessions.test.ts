import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as accountsRepo from '../../src/accounts/accounts-repo.js';
import { DIALECTS } from '../helpers/databases.js';
import { eventBody, startTestApp, type TestApp } from '../helpers/harness.js';
import { browser, ORIGIN, PASSWORD, sessionCookieFrom, signIn, signUp } from '../helpers/web-session.js';

// The real repository, with touchSession watched: its writes run in the background, and the test
// awaits them instead of sleeping.
vi.mock('../../src/accounts/accounts-repo.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/accounts/accounts-repo.js')>();
  return { ...real, touchSession: vi.fn(real.touchSession) };
});

let n = 0;
const email = (tag: string) => `${tag}-${++n}-${Math.random().toString(36).slice(2, 7)}@example.com`;

/** Web accounts: sign-up, sign-in, the session cookie, sign-out, and a session reaching the same routes as a key. */
describe.each(DIALECTS)('browser sessions (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('GET /site describes the server', async () => {
    const res = await t.api('GET', '/site');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: 'Hackathon platform',
      public_url: 'http://hackathon.test',
      api_base: 'http://hackathon.test/api/v1',
      signup_mode: 'open',
      ai_providers: [],
      password_min_length: 8,
    });
  });

  it('sign-up creates the account, signs in at once and sets an HttpOnly, SameSite=Lax session cookie', async () => {
    const addr = email('signup');
    const res = await t.api('POST', '/auth/signup', { body: { email: addr.toUpperCase(), password: PASSWORD, name: 'Ada' }, headers: { origin: ORIGIN } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      user: { id: expect.stringMatching(/^usr_/), email: addr, name: 'Ada', role: 'user', created_at: t.clock.now().toISOString() },
      csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/),
    });
    const set = res.headers.get('set-cookie')!;
    expect(set).toMatch(/^hk_session=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    // Stored hashed only.
    const token = /hk_session=([^;]+)/.exec(set)![1]!;
    const rows = await t.ctx.db.selectFrom('sessions').selectAll().where('user_id', '=', res.body.user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toContain(token);

    const who = await t.api('GET', '/auth/session', { headers: { cookie: sessionCookieFrom(res)! } });
    expect(who.status).toBe(200);
    expect(who.body).toEqual({
      user: res.body.user,
      csrf_token: res.body.csrf_token,
      session: { id: rows[0]!.id, created_at: rows[0]!.created_at, expires_at: rows[0]!.expires_at },
      via: 'session',
    });
  });

  it('sign-up refuses a taken e-mail (409), a short password and a bad e-mail (422)', async () => {
    const addr = email('dup');
    await signUp(t, addr);
    const taken = await t.api('POST', '/auth/signup', { body: { email: addr, password: PASSWORD } });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('email_taken');
    const weak = await t.api('POST', '/auth/signup', { body: { email: email('weak'), password: 'short' } });
    expect(weak.status).toBe(422);
    expect(weak.body.code).toBe('validation_failed');
    expect(weak.body.errors).toEqual([{ field: 'password', message: 'must be at least 8 characters' }]);
    const bad = await t.api('POST', '/auth/signup', { body: { email: 'not-an-address', password: PASSWORD } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ field: 'email', message: 'must be an e-mail address' }]);
  });

  it('sign-in answers the same 401 for an unknown e-mail and a wrong password; the right one signs in', async () => {
    const addr = email('signin');
    await signUp(t, addr);
    const wrong = await t.api('POST', '/auth/signin', { body: { email: addr, password: 'wrong password' } });
    const unknown = await t.api('POST', '/auth/signin', { body: { email: email('nobody'), password: 'wrong password' } });
    for (const r of [wrong, unknown]) {
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('invalid_credentials');
      expect(r.body.detail).toBe('The e-mail address or the password is wrong.');
      expect(r.headers.get('set-cookie')).toBeNull();
    }
    const ok = await t.api('POST', '/auth/signin', { body: { email: addr, password: PASSWORD }, headers: { origin: ORIGIN } });
    expect(ok.status).toBe(200);
    expect(ok.body.user.email).toBe(addr);
    expect(sessionCookieFrom(ok)).toMatch(/^hk_session=/);
  });

  it('sign-out revokes the session (the cookie then gives 401) and clears the cookie; without a session it is 204 too', async () => {
    const s = await signUp(t, email('out'));
    const out = await t.api('POST', '/auth/signout', { headers: browser(s) });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^hk_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/);
    const after = await t.api('GET', '/auth/session', { headers: { cookie: s.cookie } });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('unauthorized');
    // The ended session is anonymous: public routes still answer.
    const pub = await t.api('GET', '/site', { headers: { cookie: s.cookie } });
    expect(pub.status).toBe(200);
    const again = await t.api('POST', '/auth/signout', { headers: { cookie: s.cookie, origin: ORIGIN } });
    expect(again.status).toBe(204);
    const bare = await t.api('POST', '/auth/signout');
    expect(bare.status).toBe(204);
  });

  it('GET /auth/session: with a key the same shape with null csrf_token and session; without auth 401', async () => {
    const u = await t.user();
    const res = await t.api('GET', '/auth/session', { key: u.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: { id: u.id, email: u.email, name: null, role: 'user', created_at: expect.any(String) },
      csrf_token: null,
      session: null,
      via: 'key',
    });
    const anon = await t.api('GET', '/auth/session');
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe('unauthorized');
    const garbage = await t.api('GET', '/auth/session', { headers: { cookie: 'hk_session=garbage; other=1' } });
    expect(garbage.status).toBe(401);
  });

  it('GET /auth/status: 200 signed_in false with nulls when signed out (no key, ended or garbage cookie); the session when signed in', async () => {
    const signedOut = { signed_in: false, awaiting_confirmation: false, user: null, csrf_token: null, session: null, via: null };
    const anon = await t.api('GET', '/auth/status');
    expect(anon.status).toBe(200);
    expect(anon.headers.get('cache-control')).toBe('no-store');
    expect(anon.body).toEqual(signedOut);
    const garbage = await t.api('GET', '/auth/status', { headers: { cookie: 'hk_session=garbage' } });
    expect(garbage.status).toBe(200);
    expect(garbage.body).toEqual(signedOut);

    const s = await signUp(t, email('status'));
    const mine = await t.api('GET', '/auth/status', { headers: { cookie: s.cookie } });
    const session = await t.api('GET', '/auth/session', { headers: { cookie: s.cookie } });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({ signed_in: true, awaiting_confirmation: false, ...session.body });
    expect(mine.body.via).toBe('session');
    await t.api('POST', '/auth/signout', { headers: browser(s) });
    expect((await t.api('GET', '/auth/status', { headers: { cookie: s.cookie } })).body).toEqual(signedOut);

    const u = await t.user();
    const byKey = await t.api('GET', '/auth/status', { key: u.key });
    expect(byKey.body).toMatchObject({ signed_in: true, user: { id: u.id }, csrf_token: null, session: null, via: 'key' });
    // A key that is sent is always checked: a wrong one is still a 401 (API clients learn it at once).
    const wrong = await t.api('GET', '/auth/status', { key: 'hk_wrong' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('unauthorized');
  });

  it('a session reaches the same routes and checks as a key: an organizer creates an event, a plain user is refused', async () => {
    const addr = email('org');
    const s = await signUp(t, addr);
    const refused = await t.api('POST', '/events', { headers: browser(s), body: eventBody(t.clock.now()) });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
    await t.ctx.accounts.setRole(addr, 'organizer');
    t.ctx.accounts.invalidateAuth();
    const created = await t.api('POST', '/events', { headers: browser(s), body: eventBody(t.clock.now()) });
    expect(created.status).toBe(201);
    const mine = await t.api('GET', '/events?mine=true', { headers: { cookie: s.cookie } });
    expect(mine.status).toBe(200);
    expect(JSON.stringify(mine.body)).toContain(created.body.id);
  });

  it("lists the caller's live sessions newest first, marks the current one, and revokes one at once", async () => {
    const addr = email('many');
    const a = await signUp(t, addr);
    t.clock.advance(1000);
    const b = await signIn(t, addr);
    const list = await t.api('GET', '/auth/sessions', { headers: { cookie: b.cookie, 'user-agent': 'TestBrowser/1.0' } });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    expect(list.body.map((s: { current: boolean }) => s.current)).toEqual([true, false]);
    expect(list.body[0]).toEqual({
      id: expect.stringMatching(/^ses_/),
      created_at: expect.any(String),
      last_seen_at: expect.any(String),
      expires_at: expect.any(String),
      user_agent: 'node',
      ip: '127.0.0.1',
      current: true,
    });
    const other = list.body[1].id as string;
    // Someone else's session is not found.
    const stranger = await signUp(t, email('stranger'));
    const foreign = await t.api('DELETE', `/auth/sessions/${other}`, { headers: browser(stranger) });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('session_not_found');
    const del = await t.api('DELETE', `/auth/sessions/${other}`, { headers: browser(b) });
    expect(del.status).toBe(204);
    expect((await t.api('GET', '/auth/session', { headers: { cookie: a.cookie } })).status).toBe(401);
    expect((await t.api('GET', '/auth/session', { headers: { cookie: b.cookie } })).status).toBe(200);
    const gone = await t.api('DELETE', `/auth/sessions/${other}`, { headers: browser(b) });
    expect(gone.status).toBe(404);
  });

  it('sessions expire after SESSION_TTL_DAYS', async () => {
    const s = await signUp(t, email('ttl'));
    t.clock.advance(30 * 86_400_000 - 1000);
    expect((await t.api('GET', '/auth/session', { headers: { cookie: s.cookie } })).status).toBe(200);
    t.clock.advance(1000);
    expect((await t.api('GET', '/auth/session', { headers: { cookie: s.cookie } })).status).toBe(401);
  });

  it('a bearer key ignores the cookie', async () => {
    const s = await signUp(t, email('both'));
    const u = await t.user();
    const res = await t.api('GET', '/auth/session', { key: u.key, headers: { cookie: s.cookie } });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(u.id);
    expect(res.body.via).toBe('key');
  });

  it('changing the password signs out the other sessions, keeps this one; a wrong current password is 422', async () => {
    const addr = email('pw');
    const a = await signUp(t, addr);
    const b = await signIn(t, addr);
    const wrong = await t.api('POST', '/auth/password', { headers: browser(a), body: { current_password: 'nope nope', new_password: 'a new password' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual([{ field: 'current_password', message: 'is not your current password' }]);
    const ok = await t.api('POST', '/auth/password', { headers: browser(a), body: { current_password: PASSWORD, new_password: 'a new password' } });
    expect(ok.status).toBe(204);
    expect((await t.api('GET', '/auth/session', { headers: { cookie: a.cookie } })).status).toBe(200);
    expect((await t.api('GET', '/auth/session', { headers: { cookie: b.cookie } })).status).toBe(401);
    await signIn(t, addr, 'a new password');
  });
});

describe.each(DIALECTS)('https PUBLIC_URL (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { PUBLIC_URL: 'https://hackathon.test' } });
  });
  afterAll(async () => t?.close());

  it('names the cookie __Host-hk_session and marks it Secure', async () => {
    const res = await t.api('POST', '/auth/signup', {
      body: { email: 'secure@example.com', password: PASSWORD },
      headers: { origin: 'https://hackathon.test' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('set-cookie')).toMatch(/^__Host-hk_session=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    const cookie = sessionCookieFrom(res)!;
    expect((await t.api('GET', '/auth/session', { headers: { cookie } })).status).toBe(200);
    // The plain name means nothing here.
    expect((await t.api('GET', '/auth/session', { headers: { cookie: cookie.replace('__Host-', '') } })).status).toBe(401);
  });
});

describe.each(DIALECTS)('site and last_seen_at (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, {
      env: {
        OLLAMA_BASE_URL: 'http://127.0.0.1:11434',
        AI_PROVIDER_MY_LAB_BASE_URL: 'http://127.0.0.1:9999/v1',
        AUTH_CACHE_TTL_MS: '0',
        SITE_NAME: 'Lab Hack',
      },
    });
  });
  afterAll(async () => t?.close());

  it('/site names the configured providers and the configured site name', async () => {
    const res = await t.api('GET', '/site');
    expect(res.body).toMatchObject({ name: 'Lab Hack', ai_providers: ['my-lab', 'ollama'] });
  });

  it('last_seen_at is written at most once a minute', async () => {
    const s = await signUp(t, 'seen@example.com');
    const seen = async () =>
      (await t.ctx.db.selectFrom('sessions').select('last_seen_at').where('user_id', '=', s.userId).executeTakeFirstOrThrow()).last_seen_at;
    const settle = () => Promise.allSettled(vi.mocked(accountsRepo.touchSession).mock.results.map((r) => r.value));
    const created = await seen();
    t.clock.advance(30_000);
    await t.api('GET', '/auth/session', { headers: { cookie: s.cookie } });
    await settle();
    expect(await seen()).toBe(created);
    t.clock.advance(31_000);
    await t.api('GET', '/auth/session', { headers: { cookie: s.cookie } });
    await settle();
    expect(await seen()).toBe(t.clock.now().toISOString());
  });
});
