import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { browser, ORIGIN, PASSWORD, signUp, type WebSession } from '../helpers/web-session.js';

const signup = (t: TestApp, email: string, extra: Record<string, unknown> = {}) =>
  t.api('POST', '/auth/signup', { body: { email, password: PASSWORD, ...extra }, headers: { origin: ORIGIN } });

describe.each(DIALECTS)('SIGNUP_MODE (%s)', (dialect) => {
  describe('closed', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(dialect, { env: { SIGNUP_MODE: 'closed' } });
    });
    afterAll(async () => t?.close());

    it('refuses every sign-up with 403 signup_closed; /site says so', async () => {
      const res = await signup(t, 'closed@example.com');
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('signup_closed');
      expect((await t.api('GET', '/site')).body.signup_mode).toBe('closed');
    });
  });

  describe('invite', () => {
    let t: TestApp;
    let admin: WebSession;
    beforeAll(async () => {
      t = await startTestApp(dialect, { env: { SIGNUP_MODE: 'invite' } });
      const a = await t.user('admin', `admin-${dialect}@example.com`);
      admin = await (async () => {
        const res = await t.api('POST', '/auth/signin', { body: { email: a.email, password: PASSWORD }, headers: { origin: ORIGIN } });
        return { cookie: /hk_session=[^;]+/.exec(res.headers.get('set-cookie')!)![0], csrf: res.body.csrf_token, userId: a.id, email: a.email };
      })();
    });
    afterAll(async () => t?.close());

    const newCode = async (body: Record<string, unknown> = {}) => {
      const res = await t.api('POST', '/admin/invite-codes', { headers: browser(admin), body });
      expect(res.status).toBe(201);
      return res.body as { id: string; code: string; prefix: string };
    };

    it('needs a valid code: missing, unknown, revoked, expired and used-up codes are all the same 403', async () => {
      expect((await t.api('GET', '/site')).body.signup_mode).toBe('invite');
      const missing = await signup(t, 'm@example.com');
      expect(missing.status).toBe(403);
      expect(missing.body.code).toBe('invite_code_invalid');
      const unknown = await signup(t, 'u@example.com', { invite_code: 'inv_nope' });
      expect(unknown.status).toBe(403);
      expect(unknown.body.detail).toBe(missing.body.detail);

      const revoked = await newCode();
      expect((await t.api('DELETE', `/admin/invite-codes/${revoked.id}`, { headers: browser(admin) })).status).toBe(204);
      expect((await signup(t, 'r@example.com', { invite_code: revoked.code })).body.code).toBe('invite_code_invalid');

      const expiring = await newCode({ expires_at: new Date(t.clock.now().getTime() + 60_000).toISOString() });
      t.clock.advance(60_000);
      expect((await signup(t, 'e@example.com', { invite_code: expiring.code })).body.code).toBe('invite_code_invalid');

      const once = await newCode();
      expect(once.code).toMatch(/^inv_[0-9A-Za-z]{24}$/);
      const ok = await signup(t, 'first@example.com', { invite_code: once.code });
      expect(ok.status).toBe(201);
      const used = await signup(t, 'second@example.com', { invite_code: once.code });
      expect(used.status).toBe(403);
      expect(used.body.code).toBe('invite_code_invalid');
    });

    it('a taken e-mail does not use up the code', async () => {
      const code = await newCode();
      await signUp(t, 'taken@example.com', PASSWORD, { invite_code: (await newCode()).code });
      expect((await signup(t, 'taken@example.com', { invite_code: code.code })).status).toBe(409);
      expect((await signup(t, 'fresh@example.com', { invite_code: code.code })).status).toBe(201);
    });

    it('two concurrent sign-ups with a 1-use code: exactly one 201', async () => {
      const code = await newCode();
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => signup(t, `race${i}-${dialect}@example.com`, { invite_code: code.code })));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 403, 403, 403, 403, 403]);
      const listed = (await t.api('GET', '/admin/invite-codes', { headers: { cookie: admin.cookie } })).body.find((c: { id: string }) => c.id === code.id);
      expect(listed.uses).toBe(1);
    });

    it('a multi-use code counts its uses; the list shows them without the code', async () => {
      const code = await newCode({ max_uses: 2, note: 'workshop' });
      expect((await signup(t, `m1-${dialect}@example.com`, { invite_code: code.code })).status).toBe(201);
      expect((await signup(t, `m2-${dialect}@example.com`, { invite_code: code.code })).status).toBe(201);
      expect((await signup(t, `m3-${dialect}@example.com`, { invite_code: code.code })).status).toBe(403);
      const list = await t.api('GET', '/admin/invite-codes', { headers: { cookie: admin.cookie } });
      expect(list.status).toBe(200);
      expect(list.text).not.toContain(code.code);
      expect(list.body.find((c: { id: string }) => c.id === code.id)).toEqual({
        id: code.id,
        prefix: code.code.slice(0, 10),
        note: 'workshop',
        max_uses: 2,
        uses: 2,
        expires_at: null,
        revoked_at: null,
        created_at: expect.any(String),
        created_by: admin.userId,
      });
    });

    it('only admins manage invite codes', async () => {
      const u = await t.user('organizer');
      for (const [method, path] of [
        ['GET', '/admin/invite-codes'],
        ['POST', '/admin/invite-codes'],
        ['DELETE', '/admin/invite-codes/icd_x'],
      ] as const) {
        const res = await t.api(method, path, { key: u.key, ...(method === 'POST' ? { body: {} } : {}) });
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('forbidden');
      }
    });
  });
});
