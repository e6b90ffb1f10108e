import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { startSmtpReceiver, unfoldMail } from '../helpers/smtp-receiver.js';
import { browser, ORIGIN, PASSWORD, sessionCookieFrom, signIn, type WebSession } from '../helpers/web-session.js';

const LINK = /http:\/\/hackathon\.test\/signup\/confirm\?token=([A-Za-z0-9_-]{43})/;

/**
 * Sign-up confirmed by e-mail (SMTP configured): the answer does not tell whether an address has an
 * account; the account is made at the mailed link, once.
 */
describe.each(DIALECTS)('sign-up confirmation by e-mail (%s)', (dialect) => {
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

  const signup = (email: string, extra: Record<string, unknown> = {}) =>
    t.api('POST', '/auth/signup', { body: { email, password: PASSWORD, ...extra }, headers: { origin: ORIGIN } });
  const confirm = (token: string) => t.api('POST', '/auth/signup/confirm', { body: { token }, headers: { origin: ORIGIN } });
  const tokenFromNextMail = async (email: string, after: number) => {
    const mail = unfoldMail((await smtp.nextTo(email, after)).raw);
    const m = LINK.exec(mail);
    if (!m) throw new Error(`no sign-up link in:\n${mail}`);
    return m[1]!;
  };
  const usersWith = async (email: string) => (await t.ctx.db.selectFrom('users').select('id').where('email', '=', email).execute()).length;

  it('answers a new and an existing address alike: 202 confirmation_sent, no cookie; the owner is told, the new address gets a link', async () => {
    const existing = await t.user('user', `owner-${dialect}@example.com`);
    const fresh = `fresh-${dialect}@example.com`;
    const before = smtp.count();
    const a = await signup(existing.email);
    const b = await signup(fresh.toUpperCase());
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(a.body).toEqual({ status: 'confirmation_sent', email: existing.email });
    expect(b.body).toEqual({ status: 'confirmation_sent', email: fresh });
    expect(Object.keys(a.body)).toEqual(Object.keys(b.body));
    expect(a.headers.get('set-cookie')).toBeNull();
    expect(b.headers.get('set-cookie')).toBeNull();

    const notice = unfoldMail((await smtp.nextTo(existing.email, before)).raw);
    expect(notice).toContain('Sign-up attempt with your address');
    expect(notice).toContain('http://hackathon.test/forgot-password');
    expect(LINK.test(notice)).toBe(false);
    const token = await tokenFromNextMail(fresh, before);
    await t.ctx.auth.drain();
    // No account yet; the token is stored hashed only; nothing is stored for the existing address.
    expect(await usersWith(fresh)).toBe(0);
    const rows = await t.ctx.db.selectFrom('signup_requests').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows.map((r) => r.email)).not.toContain(existing.email);
  });

  it('the link makes the account and signs it in (201, cookie), once; the password given at sign-up works', async () => {
    const email = `once-${dialect}@example.com`;
    const before = smtp.count();
    expect((await signup(email, { name: 'Ada' })).status).toBe(202);
    const token = await tokenFromNextMail(email, before);
    const ok = await confirm(token);
    expect(ok.status).toBe(201);
    expect(ok.body.user).toMatchObject({ email, name: 'Ada', role: 'user' });
    expect(typeof ok.body.csrf_token).toBe('string');
    const cookie = sessionCookieFrom(ok);
    expect(cookie).not.toBeNull();
    const session = await t.api('GET', '/auth/session', { headers: { cookie: cookie! } });
    expect(session.status).toBe(200);
    expect(session.body.user.email).toBe(email);
    await signIn(t, email);

    const again = await confirm(token);
    expect(again.status).toBe(410);
    expect(again.body.code).toBe('signup_token_invalid');
    expect(await usersWith(email)).toBe(1);
  });

  it('refuses unknown, malformed and expired tokens with 410 signup_token_invalid', async () => {
    for (const token of ['x'.repeat(43), 'short', 'a b']) {
      const res = await confirm(token);
      expect([res.status, res.body.code]).toEqual([410, 'signup_token_invalid']);
    }
    const email = `late-${dialect}@example.com`;
    const before = smtp.count();
    await signup(email);
    const token = await tokenFromNextMail(email, before);
    t.clock.advance(t.config.accounts.signupConfirmTtlMinutes * 60_000);
    const expired = await confirm(token);
    expect([expired.status, expired.body.code]).toEqual([410, 'signup_token_invalid']);
    expect(await usersWith(email)).toBe(0);
  });

  it('two concurrent confirms of one link make one account: the other is 410', async () => {
    const email = `race-${dialect}@example.com`;
    const before = smtp.count();
    await signup(email);
    const token = await tokenFromNextMail(email, before);
    const answers = await Promise.all([confirm(token), confirm(token)]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 410]);
    expect(answers.find((r) => r.status === 410)!.body.code).toBe('signup_token_invalid');
    expect(await usersWith(email)).toBe(1);
  });

  it('two links for one address confirmed at once make one account: the other is 409 email_taken and its link is spent', async () => {
    const email = `twice-${dialect}@example.com`;
    let n = smtp.count();
    await signup(email);
    const first = await tokenFromNextMail(email, n);
    n = smtp.count();
    await signup(email);
    const second = await tokenFromNextMail(email, n);
    const answers = await Promise.all([confirm(first), confirm(second)]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    const lost = answers.findIndex((r) => r.status === 409);
    expect(answers[lost]!.body.code).toBe('email_taken');
    expect(await usersWith(email)).toBe(1);
    const retry = await confirm([first, second][lost]!);
    expect([retry.status, retry.body.code]).toEqual([410, 'signup_token_invalid']);
  });

  it('limits sign-up requests per address (429), for a new and an existing address alike', async () => {
    const existing = await t.user('user', `busy-${dialect}@example.com`);
    for (const email of [existing.email, `flood-${dialect}@example.com`]) {
      for (let i = 0; i < 5; i++) expect((await signup(email)).status).toBe(202);
      const sixth = await signup(email);
      expect([sixth.status, sixth.body.code]).toEqual([429, 'rate_limited']);
    }
    await t.ctx.auth.drain();
  });
});

describe.each(DIALECTS)('sign-up confirmation in invite mode (%s)', (dialect) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let admin: WebSession;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await startTestApp(dialect, { env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SIGNUP_MODE: 'invite' } });
    const a = await t.user('admin', `admin-${dialect}@example.com`);
    admin = await signIn(t, a.email);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('checks the code at sign-up (403 when unusable) and uses it when the link is confirmed', async () => {
    const created = await t.api('POST', '/admin/invite-codes', { headers: browser(admin), body: { max_uses: 1 } });
    expect(created.status).toBe(201);
    const code = created.body.code as string;
    const bad = await t.api('POST', '/auth/signup', {
      body: { email: `x-${dialect}@example.com`, password: PASSWORD, invite_code: 'inv_nope' },
      headers: { origin: ORIGIN },
    });
    expect([bad.status, bad.body.code]).toEqual([403, 'invite_code_invalid']);

    const email = `invited-${dialect}@example.com`;
    const before = smtp.count();
    const res = await t.api('POST', '/auth/signup', { body: { email, password: PASSWORD, invite_code: code }, headers: { origin: ORIGIN } });
    expect(res.status).toBe(202);
    const token = LINK.exec(unfoldMail((await smtp.nextTo(email, before)).raw))![1]!;
    const usesOf = async () =>
      (await t.api('GET', '/admin/invite-codes', { headers: browser(admin) })).body.find((c: { id: string }) => c.id === created.body.id).uses;
    expect(await usesOf()).toBe(0);
    expect((await confirm(t, token)).status).toBe(201);
    expect(await usesOf()).toBe(1);
    // Used up now: a new sign-up with it is refused.
    const after = await t.api('POST', '/auth/signup', {
      body: { email: `late-${dialect}@example.com`, password: PASSWORD, invite_code: code },
      headers: { origin: ORIGIN },
    });
    expect([after.status, after.body.code]).toEqual([403, 'invite_code_invalid']);
  });
});

function confirm(t: TestApp, token: string) {
  return t.api('POST', '/auth/signup/confirm', { body: { token }, headers: { origin: ORIGIN } });
}

describe('the start-up warning about open sign-up without confirmation', () => {
  const start = async (env: Record<string, string>) => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const t = await startTestApp('sqlite', { env, logger: { level: 'warn', stream } });
    await t.close();
    return lines.filter((l) => l.includes('signup_confirmation'));
  };

  it('is logged once in open mode without SMTP, not with SMTP, and not in invite mode', async () => {
    const open = await start({});
    expect(open).toHaveLength(1);
    expect(open[0]).toContain('email_taken');
    expect(await start({ SMTP_URL: 'smtp://127.0.0.1:1' })).toHaveLength(0);
    expect(await start({ SIGNUP_MODE: 'invite' })).toHaveLength(0);
  });
});
