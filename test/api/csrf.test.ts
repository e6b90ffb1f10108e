import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { browser, ORIGIN, PASSWORD, signUp, type WebSession } from '../helpers/web-session.js';

/** Cookie-authenticated writes need the site's Origin and the session's CSRF token; keys and reads do not. */
describe.each(DIALECTS)('CSRF (%s)', (dialect) => {
  let t: TestApp;
  let s: WebSession;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    s = await signUp(t, `csrf-${dialect}@example.com`);
  });
  afterAll(async () => t?.close());

  const createKey = (headers: Record<string, string>) => t.api('POST', '/api-keys', { headers, body: { name: 'laptop' } });

  it('a same-origin write with the token passes', async () => {
    expect((await createKey(browser(s))).status).toBe(201);
  });

  it('a cross-origin cookie write is refused 403 csrf_failed, token or not', async () => {
    const res = await createKey(browser(s, { origin: 'http://evil.test' }));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('csrf_failed');
    const sub = await createKey(browser(s, { origin: 'http://sub.hackathon.test' }));
    expect(sub.status).toBe(403);
    expect(sub.body.code).toBe('csrf_failed');
  });

  it('a missing or wrong token is refused', async () => {
    const missing = await createKey({ cookie: s.cookie, origin: ORIGIN });
    expect(missing.status).toBe(403);
    expect(missing.body.code).toBe('csrf_failed');
    const wrong = await createKey(browser(s, { 'x-csrf-token': s.csrf.slice(0, -1) + (s.csrf.endsWith('A') ? 'B' : 'A') }));
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('csrf_failed');
  });

  it("without Origin the Referer's origin counts; with neither the write is refused", async () => {
    const { origin: _o, ...noOrigin } = browser(s);
    const viaReferer = await createKey({ ...noOrigin, referer: `${ORIGIN}/settings/keys` });
    expect(viaReferer.status).toBe(201);
    const foreignReferer = await createKey({ ...noOrigin, referer: 'http://evil.test/page' });
    expect(foreignReferer.status).toBe(403);
    const neither = await createKey(noOrigin);
    expect(neither.status).toBe(403);
    expect(neither.body.code).toBe('csrf_failed');
  });

  it('DELETE and PATCH are checked too', async () => {
    const del = await t.api('DELETE', '/api-keys/key_whatever', { headers: { cookie: s.cookie, origin: ORIGIN } });
    expect(del.status).toBe(403);
    expect(del.body.code).toBe('csrf_failed');
  });

  it('reads are not checked', async () => {
    const res = await t.api('GET', '/api-keys', { headers: { cookie: s.cookie, origin: 'http://evil.test' } });
    expect(res.status).toBe(200);
  });

  it('bearer requests are never checked, even with a cookie and a foreign origin', async () => {
    const u = await t.user();
    const res = await createKey({ authorization: `Bearer ${u.key}`, cookie: s.cookie, origin: 'http://evil.test' });
    expect(res.status).toBe(201);
  });

  it('sign-in and sign-up need no token but refuse a foreign Origin (login CSRF); agents without Origin pass', async () => {
    const foreign = await t.api('POST', '/auth/signin', { body: { email: s.email, password: PASSWORD }, headers: { origin: 'http://evil.test' } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('csrf_failed');
    const cookieNoOrigin = await t.api('POST', '/auth/signin', { body: { email: s.email, password: PASSWORD }, headers: { cookie: s.cookie } });
    expect(cookieNoOrigin.status).toBe(403);
    expect(cookieNoOrigin.body.code).toBe('csrf_failed');
    const up = await t.api('POST', '/auth/signup', {
      body: { email: `x-${dialect}@example.com`, password: PASSWORD },
      headers: { origin: 'http://evil.test' },
    });
    expect(up.status).toBe(403);
    expect(up.body.code).toBe('csrf_failed');
    const reset = await t.api('POST', '/auth/password-reset', { body: { email: s.email }, headers: { origin: 'http://evil.test' } });
    expect(reset.status).toBe(403);
    const agent = await t.api('POST', '/auth/signin', { body: { email: s.email, password: PASSWORD } });
    expect(agent.status).toBe(200);
    const sameSite = await t.api('POST', '/auth/signin', { body: { email: s.email, password: PASSWORD }, headers: { cookie: s.cookie, origin: ORIGIN } });
    expect(sameSite.status).toBe(200);
  });
});
