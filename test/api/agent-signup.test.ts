import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOW_TO_GET_A_KEY, ERROR_CATALOG } from '../../src/core/error-catalog.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, eventBody, registrationBody, startTestApp, type TestApp } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';
import { startSmtpReceiver, unfoldMail } from '../helpers/smtp-receiver.js';
import { until } from '../helpers/until.js';
import { ORIGIN, PASSWORD, sessionCookieFrom } from '../helpers/web-session.js';

const LINK = /http:\/\/hackathon\.test\/signup\/confirm\?token=([A-Za-z0-9_-]{43})/;

/** POST /agents/signup as an agent sends it: no cookie, no Origin, no CSRF token. */
const agentSignup = (t: TestApp, body: Record<string, unknown>, headers: Record<string, string> = {}) => t.api('POST', '/agents/signup', { body, headers });

/**
 * An agent gets its own key from the API (issue 29): one request gives an account and a key in every
 * sign-up mode; the key rotates and revokes itself; a refused key is told how to get a new one.
 */
describe.each(DIALECTS)('agent sign-up (%s)', (dialect) => {
  describe('open, without e-mail confirmation', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(dialect);
    });
    afterAll(async () => t?.close());

    it('one request gives an account and a key (201, shown once, stored hashed) that works on an authenticated route', async () => {
      const email = `agent-${dialect}@example.com`;
      const res = await agentSignup(t, { email, name: 'Agent Smith', key_name: 'ci' });
      expect(res.status).toBe(201);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toMatchObject({
        user: { email, name: 'Agent Smith', role: 'user' },
        api_key: { name: 'ci', scope: 'full', revoked_at: null },
        awaiting_confirmation: false,
        confirmation_expires_at: null,
      });
      const key = res.body.api_key.key as string;
      expect(key).toMatch(/^hk_/);
      const rows = await t.ctx.db.selectFrom('api_keys').selectAll().where('user_id', '=', res.body.user.id).execute();
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(key);

      const session = await t.api('GET', '/auth/session', { key });
      expect(session.status).toBe(200);
      expect(session.body.user.email).toBe(email);
      const status = await t.api('GET', '/auth/status', { key });
      expect(status.body).toMatchObject({ signed_in: true, awaiting_confirmation: false, via: 'key' });
      // An agent without a password still registers a team like anyone.
      const org = await quickUser(t, 'organizer');
      const eventId = await createEvent(t, org.key);
      expect((await t.api('POST', `/events/${eventId}/register`, { key, body: registrationBody() })).status).toBe(201);
    });

    it('an address in use is 409 email_taken, whose action names the next step', async () => {
      const email = `taken-${dialect}@example.com`;
      expect((await agentSignup(t, { email })).status).toBe(201);
      const again = await agentSignup(t, { email: email.toUpperCase() });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('email_taken');
      expect(again.body.detail).toContain('http://hackathon.test/api-keys');
      expect(again.body.action).toBe(ERROR_CATALOG.email_taken.action);
    });

    it('a short password is refused (422), an optional good one lets the account sign in on the web', async () => {
      const weak = await agentSignup(t, { email: `weak-${dialect}@example.com`, password: 'short' });
      expect(weak.status).toBe(422);
      expect(weak.body.code).toBe('validation_failed');
      const email = `pw-${dialect}@example.com`;
      expect((await agentSignup(t, { email, password: PASSWORD })).status).toBe(201);
      const signin = await t.api('POST', '/auth/signin', { body: { email, password: PASSWORD }, headers: { origin: ORIGIN } });
      expect(signin.status).toBe(200);
    });

    it('rotates the key it is called with: a new key (201, same name and scope), the old one is 401 at once', async () => {
      const created = await agentSignup(t, { email: `rotate-${dialect}@example.com`, key_name: 'bot' });
      const old = created.body.api_key.key as string;
      const rotated = await t.api('POST', '/api-keys/current/rotate', { key: old });
      expect(rotated.status).toBe(201);
      expect(rotated.headers.get('cache-control')).toBe('no-store');
      expect(rotated.body).toMatchObject({ name: 'bot', scope: 'full', revoked_at: null });
      expect(rotated.body.key).not.toBe(old);
      const refused = await t.api('GET', '/auth/session', { key: old });
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe('unauthorized');
      expect(refused.body.detail).toContain('POST /api/v1/agents/signup');
      expect(refused.body.action).toContain(HOW_TO_GET_A_KEY);
      expect((await t.api('GET', '/auth/session', { key: rotated.body.key })).status).toBe(200);
      // Rotating the dead key again does not work either.
      expect((await t.api('POST', '/api-keys/current/rotate', { key: old })).status).toBe(401);
      const list = await t.api('GET', '/api-keys', { key: rotated.body.key });
      expect(list.body.map((k: { revoked_at: string | null }) => k.revoked_at !== null)).toEqual([false, true]);
    });

    it('rotation takes an expiry in the future only', async () => {
      const { key } = await quickUser(t);
      const past = await t.api('POST', '/api-keys/current/rotate', { key, body: { expires_at: '2000-01-01T00:00:00.000Z' } });
      expect(past.status).toBe(422);
      expect(past.body.code).toBe('validation_failed');
      const later = new Date(t.clock.now().getTime() + 86_400_000).toISOString();
      const ok = await t.api('POST', '/api-keys/current/rotate', { key, body: { expires_at: later } });
      expect(ok.status).toBe(201);
      expect(ok.body.expires_at).toBe(later);
    });

    it('revokes the key it is called with (204); then it is 401', async () => {
      const created = await agentSignup(t, { email: `revoke-${dialect}@example.com` });
      const key = created.body.api_key.key as string;
      const res = await t.api('DELETE', '/api-keys/current', { key });
      expect(res.status).toBe(204);
      const after = await t.api('GET', '/api-keys', { key });
      expect(after.status).toBe(401);
      expect(after.body.code).toBe('unauthorized');
    });

    it('a web session has no current key: 404 key_not_found naming the way', async () => {
      const email = `web-${dialect}@example.com`;
      await agentSignup(t, { email, password: PASSWORD });
      const signin = await t.api('POST', '/auth/signin', { body: { email, password: PASSWORD }, headers: { origin: ORIGIN } });
      const cookie = sessionCookieFrom(signin)!;
      const res = await t.api('DELETE', '/api-keys/current', { headers: { cookie, origin: ORIGIN, 'x-csrf-token': signin.body.csrf_token } });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('key_not_found');
      expect(res.body.action).toContain('GET /api/v1/api-keys');
    });

    it('tells one story of getting a key: the 401 texts, the problem page, the CSRF help and skill.md', async () => {
      const none = await t.api('GET', '/api-keys');
      expect(none.status).toBe(401);
      expect(none.body.code).toBe('unauthorized');
      expect(none.body.detail).toContain('POST /api/v1/agents/signup');
      const unknown = await t.api('GET', '/events', { key: `hk_${'x'.repeat(43)}` });
      expect(unknown.status).toBe(401);
      expect(unknown.body.detail).toContain('unknown, revoked or expired; get a new one');
      expect(unknown.body.detail).toContain('POST /api/v1/agents/signup');
      for (const res of [none, unknown]) expect(res.body.action).toBe(ERROR_CATALOG.unauthorized.action);
      const page = await t.request('GET', '/problems/unauthorized');
      expect(page.text).toContain('POST /api/v1/agents/signup');
      expect(ERROR_CATALOG.csrf_failed.action).toContain(HOW_TO_GET_A_KEY);
      expect(ERROR_CATALOG.csrf_failed.action).not.toContain('instead of cookies');
      const skill = (await t.api('GET', '/skill.md')).text;
      expect(skill).toContain('curl -s -X POST "http://hackathon.test/api/v1/agents/signup"');
      expect(skill).not.toContain('Create one at');
    });

    it('a new account creating an event is told how to become an organizer, not only that it may not', async () => {
      const res = await agentSignup(t, { email: `wants-to-organize-${dialect}@example.com` });
      const key = res.body.api_key.key as string;
      const refused = await t.api('POST', '/events', { key, body: eventBody(t.clock.now()) });
      expect([refused.status, refused.body.code]).toEqual([403, 'forbidden']);
      expect(refused.body.action).toContain('users set-role --email <address> --role organizer');
      expect(refused.body.action).not.toBe(ERROR_CATALOG.forbidden.action);
    });

    it('REST problems carry the action sentence of their problem page', async () => {
      const { key } = await quickUser(t);
      const res = await t.api('GET', '/events/evt_nosuch', { key });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('event_not_found');
      expect(res.body.action).toBe(ERROR_CATALOG.event_not_found.action);
    });

    it('a malformed JSON body is 400 bad_request saying where (line and column)', async () => {
      const res = await t.api('POST', '/agents/signup', {
        raw: '{\n  "email": "x@example.com",\n  oops\n}',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('bad_request');
      expect(res.body).toMatchObject({ line: 3, column: 3 });
      expect(res.body.detail).toContain('line 3, column 3');
      const cut = await t.api('POST', '/agents/signup', { raw: '{"email": ', headers: { 'content-type': 'application/json' } });
      expect(cut.status).toBe(400);
      expect(cut.body.code).toBe('bad_request');
      expect(cut.body).toMatchObject({ line: 1, column: 11 });
    });

    it('?wait=60 is accepted (capped, not refused): the long-poll parks and answers the decision', async () => {
      const org = await quickUser(t, 'organizer');
      const eventId = await createEvent(t, org.key);
      const team = await quickUser(t);
      const reg = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() });
      expect(reg.body.status).toBe('pending');
      const before = t.ctx.registrations.waitsStarted();
      const waiting = t.api('GET', `/events/${eventId}/my-registration?wait=60`, { key: team.key });
      await until('the wait=60 long-poll to park', () => t.ctx.registrations.waitsStarted() === before + 1);
      expect((await t.api('POST', `/events/${eventId}/registrations/${reg.body.id}/approve`, { key: org.key })).status).toBe(200);
      const res = await waiting;
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('approved');
    });
  });

  describe('limits per client address, and the wait cap', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(dialect, { env: { AGENT_SIGNUPS_PER_IP: '2', TRUST_PROXY: '1', MAX_WAIT_SECONDS: '1' } });
    });
    afterAll(async () => t?.close());

    it('counts sign-ups per client address: past AGENT_SIGNUPS_PER_IP, 429 rate_limited with Retry-After; another address goes on', async () => {
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      expect((await agentSignup(t, { email: `a1-${dialect}@example.com` }, from('203.0.113.7'))).status).toBe(201);
      // A refused attempt counts too (invite-code or address guessing is throttled alike).
      expect((await agentSignup(t, { email: 'not an address' }, from('203.0.113.7'))).status).toBe(422);
      const third = await agentSignup(t, { email: `a3-${dialect}@example.com` }, from('203.0.113.7'));
      expect(third.status).toBe(429);
      expect(third.body.code).toBe('rate_limited');
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await agentSignup(t, { email: `b1-${dialect}@example.com` }, from('198.51.100.9'))).status).toBe(201);
    });

    it('a wait above the cap is capped (MAX_WAIT_SECONDS=1): wait=60 answers 200, still pending, after one parked wait', async () => {
      const org = await quickUser(t, 'organizer');
      const eventId = await createEvent(t, org.key);
      const team = await quickUser(t);
      await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() });
      const before = t.ctx.registrations.waitsStarted();
      const res = await t.api('GET', `/events/${eventId}/my-registration?wait=60`, { key: team.key });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('pending');
      expect(t.ctx.registrations.waitsStarted()).toBe(before + 1);
      expect(t.ctx.registrations.waiting()).toBe(0);
    });
  });

  describe('invite', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(dialect, { env: { SIGNUP_MODE: 'invite' } });
    });
    afterAll(async () => t?.close());

    it('needs a valid invite code: none or a wrong one is 403 invite_code_invalid; a valid one gives the key and is used up', async () => {
      const none = await agentSignup(t, { email: `i0-${dialect}@example.com` });
      expect(none.status).toBe(403);
      expect(none.body.code).toBe('invite_code_invalid');
      expect(none.body.action).toContain('invite_code');
      const wrong = await agentSignup(t, { email: `i1-${dialect}@example.com`, invite_code: 'nope' });
      expect([wrong.status, wrong.body.code]).toEqual([403, 'invite_code_invalid']);
      const { code } = await t.ctx.auth.createInviteCode(null, { maxUses: 1 });
      const ok = await agentSignup(t, { email: `i2-${dialect}@example.com`, invite_code: code });
      expect(ok.status).toBe(201);
      expect((await t.api('GET', '/auth/session', { key: ok.body.api_key.key })).status).toBe(200);
      const spent = await agentSignup(t, { email: `i3-${dialect}@example.com`, invite_code: code });
      expect([spent.status, spent.body.code]).toEqual([403, 'invite_code_invalid']);
      // The refused attempt made no account.
      expect(await t.ctx.db.selectFrom('users').select('id').where('email', '=', `i3-${dialect}@example.com`).executeTakeFirst()).toBeUndefined();
    });

    it('skill.md shows the invite code in the sign-up request', async () => {
      const skill = (await t.api('GET', '/skill.md')).text;
      expect(skill).toContain('"invite_code": "<code>"');
      expect(Buffer.byteLength(skill)).toBeLessThan(12 * 1024);
    });
  });

  describe('closed', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(dialect, { env: { SIGNUP_MODE: 'closed', OPERATOR_CONTACT: 'hackathon-ops@example.org' } });
    });
    afterAll(async () => t?.close());

    it('is 403 signup_closed naming whom to ask (OPERATOR_CONTACT), as skill.md does', async () => {
      const res = await agentSignup(t, { email: `c-${dialect}@example.com` });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('signup_closed');
      expect(res.body.contact).toBe('hackathon-ops@example.org');
      expect(res.body.detail).toContain('hackathon-ops@example.org');
      expect(res.body.action).toBe(ERROR_CATALOG.signup_closed.action);
      // The web sign-up tells the same.
      const web = await t.api('POST', '/auth/signup', { body: { email: `w-${dialect}@example.com`, password: PASSWORD }, headers: { origin: ORIGIN } });
      expect([web.status, web.body.code, web.body.contact]).toEqual([403, 'signup_closed', 'hackathon-ops@example.org']);
      expect((await t.api('GET', '/skill.md')).text).toContain('ask its operator (hackathon-ops@example.org) for an account');
    });
  });

  describe('with e-mail confirmation', () => {
    let t: TestApp;
    let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
    beforeAll(async () => {
      smtp = await startSmtpReceiver();
      t = await startTestApp(dialect, { env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Site <no-reply@hackathon.test>' } });
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });

    const nextMail = async (email: string, after: number) => unfoldMail((await smtp.nextTo(email, after)).raw);
    const tokenIn = (mail: string) => {
      const m = LINK.exec(mail);
      if (!m) throw new Error(`no confirmation link in:\n${mail}`);
      return m[1]!;
    };

    it('the key is refused with 403 account_unconfirmed until the owner opens the mailed link; a long-poll answers the moment they do', async () => {
      const email = `owner-${dialect}@example.com`;
      const before = smtp.count();
      const res = await agentSignup(t, { email, name: 'Bot', password: PASSWORD });
      expect(res.status).toBe(201);
      expect(res.body.awaiting_confirmation).toBe(true);
      expect(typeof res.body.confirmation_expires_at).toBe('string');
      const key = res.body.api_key.key as string;

      const refused = await t.api('GET', '/api-keys', { key });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('account_unconfirmed');
      expect(refused.body.action).toContain('GET /api/v1/auth/status?wait=45');
      // Public routes refuse the key too (a key sent is always checked), and so does the web sign-in.
      expect((await t.api('GET', '/events', { key })).body.code).toBe('account_unconfirmed');
      const signin = await t.api('POST', '/auth/signin', { body: { email, password: PASSWORD }, headers: { origin: ORIGIN } });
      expect([signin.status, signin.body.code]).toEqual([403, 'account_unconfirmed']);
      const status = await t.api('GET', '/auth/status', { key });
      expect(status.status).toBe(200);
      expect(status.body).toMatchObject({ signed_in: true, awaiting_confirmation: true });

      const mail = await nextMail(email, before);
      expect(mail).toContain(res.body.api_key.prefix);
      const token = tokenIn(mail);
      expect(JSON.stringify(await t.ctx.db.selectFrom('signup_requests').selectAll().execute())).not.toContain(token);

      const started = t.ctx.auth.confirmationWaitsStarted();
      const waiting = t.api('GET', '/auth/status?wait=60', { key });
      await until('the confirmation long-poll to park', () => t.ctx.auth.confirmationWaitsStarted() === started + 1 && t.ctx.auth.confirmationWaiting() === 1);
      const confirmed = await t.api('POST', '/auth/signup/confirm', { body: { token }, headers: { origin: ORIGIN } });
      expect(confirmed.status).toBe(201);
      expect(confirmed.body.user.email).toBe(email);
      expect(sessionCookieFrom(confirmed)).not.toBeNull();
      const answer = await waiting;
      expect(answer.status).toBe(200);
      expect(answer.body.awaiting_confirmation).toBe(false);
      expect(t.ctx.auth.confirmationWaiting()).toBe(0);

      expect((await t.api('GET', '/api-keys', { key })).status).toBe(200);
      expect((await t.api('POST', '/auth/signin', { body: { email, password: PASSWORD }, headers: { origin: ORIGIN } })).status).toBe(200);
      // The link works once.
      const again = await t.api('POST', '/auth/signup/confirm', { body: { token }, headers: { origin: ORIGIN } });
      expect([again.status, again.body.code]).toEqual([410, 'signup_token_invalid']);
    });

    it('an unconfirmed key may rotate itself; the new key waits for the same link', async () => {
      const email = `rot-${dialect}@example.com`;
      const before = smtp.count();
      const res = await agentSignup(t, { email });
      const rotated = await t.api('POST', '/api-keys/current/rotate', { key: res.body.api_key.key });
      expect(rotated.status).toBe(201);
      expect((await t.api('GET', '/api-keys', { key: rotated.body.key })).body.code).toBe('account_unconfirmed');
      const token = tokenIn(await nextMail(email, before));
      expect((await t.api('POST', '/auth/signup/confirm', { body: { token }, headers: { origin: ORIGIN } })).status).toBe(201);
      expect((await t.api('GET', '/api-keys', { key: rotated.body.key })).status).toBe(200);
    });

    it('an address waiting for its link is 409 email_taken; once the link expired, signing up again starts over (old key revoked)', async () => {
      const email = `again-${dialect}@example.com`;
      const sent = smtp.count();
      const first = await agentSignup(t, { email });
      expect(first.status).toBe(201);
      // The first link has arrived (it is sent in the background) before the second is awaited.
      await nextMail(email, sent);
      const busy = await agentSignup(t, { email });
      expect([busy.status, busy.body.code]).toEqual([409, 'email_taken']);
      expect(busy.body.detail).toContain('waiting for its owner to confirm');
      const expired = new Date(Date.parse(first.body.confirmation_expires_at) + 1000);
      t.clock.set(expired);
      const before = smtp.count();
      const second = await agentSignup(t, { email });
      expect(second.status).toBe(201);
      expect(second.body.user.id).toBe(first.body.user.id);
      expect((await t.api('GET', '/auth/status', { key: first.body.api_key.key })).status).toBe(401);
      const token = tokenIn(await nextMail(email, before));
      expect((await t.api('POST', '/auth/signup/confirm', { body: { token }, headers: { origin: ORIGIN } })).status).toBe(201);
      expect((await t.api('GET', '/api-keys', { key: second.body.api_key.key })).status).toBe(200);
    });

    it("the owner can adopt the account by a password reset, which proves the address (confirms it) and revokes the agent's key", async () => {
      const email = `adopt-${dialect}@example.com`;
      const sent = smtp.count();
      const res = await agentSignup(t, { email });
      await nextMail(email, sent);
      const before = smtp.count();
      expect((await t.api('POST', '/auth/password-reset', { body: { email }, headers: { origin: ORIGIN } })).status).toBe(202);
      const reset = /http:\/\/hackathon\.test\/reset-password\?token=([A-Za-z0-9_-]{43})/.exec(await nextMail(email, before));
      expect(reset).not.toBeNull();
      const set = await t.api('POST', '/auth/password-reset/confirm', { body: { token: reset![1], password: PASSWORD }, headers: { origin: ORIGIN } });
      expect(set.status).toBe(204);
      expect((await t.api('POST', '/auth/signin', { body: { email, password: PASSWORD }, headers: { origin: ORIGIN } })).status).toBe(200);
      expect((await t.api('GET', '/auth/status', { key: res.body.api_key.key })).status).toBe(401);
    });

    it('skill.md tells the agent about the confirmation and the long-poll', async () => {
      const skill = (await t.api('GET', '/skill.md')).text;
      expect(skill).toContain('`403 account_unconfirmed`');
      expect(skill).toContain('`GET /auth/status?wait=45`');
    });
  });
});
