import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { startSmtpReceiver, unfoldMail } from '../helpers/smtp-receiver.js';
import { ORIGIN, PASSWORD, signIn, signUp } from '../helpers/web-session.js';

const LINK = /http:\/\/hackathon\.test\/reset-password\?token=([A-Za-z0-9_-]{43})/;

/** Password reset by e-mail over real SMTP: one-time link, no account enumeration, sessions end. */
describe.each(DIALECTS)('password reset (%s)', (dialect) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    // Accounts are made by immediate sign-up here (test/api/signup-confirm.test.ts covers the confirmation by e-mail).
    t = await startTestApp(dialect, {
      env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Site <no-reply@hackathon.test>', SIGNUP_CONFIRMATION: 'off' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const requestReset = (email: string) => t.api('POST', '/auth/password-reset', { body: { email }, headers: { origin: ORIGIN } });
  const tokenFromNextMail = async (email: string, after: number) => {
    const mail = await smtp.nextTo(email, after);
    const m = LINK.exec(unfoldMail(mail.raw));
    if (!m) throw new Error(`no reset link in:\n${mail.raw}`);
    return m[1]!;
  };

  it('mails a one-time link; confirming sets the password and signs every session out; the token then is 410', async () => {
    const email = `reset-${dialect}@example.com`;
    const a = await signUp(t, email);
    const b = await signIn(t, email);
    const before = smtp.count();
    const res = await requestReset(email.toUpperCase());
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ ok: true });
    const token = await tokenFromNextMail(email, before);
    // Stored hashed only.
    const rows = await t.ctx.db.selectFrom('password_resets').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);

    const confirm = await t.api('POST', '/auth/password-reset/confirm', { body: { token, password: 'brand new secret' }, headers: { origin: ORIGIN } });
    expect(confirm.status).toBe(204);
    expect(confirm.headers.get('set-cookie')).toBeNull();
    for (const s of [a, b]) expect((await t.api('GET', '/auth/session', { headers: { cookie: s.cookie } })).status).toBe(401);
    const old = await t.api('POST', '/auth/signin', { body: { email, password: PASSWORD } });
    expect(old.status).toBe(401);
    await signIn(t, email, 'brand new secret');

    const reuse = await t.api('POST', '/auth/password-reset/confirm', { body: { token, password: 'another new one' } });
    expect(reuse.status).toBe(410);
    expect(reuse.body.code).toBe('reset_token_invalid');
  });

  it('answers 202 for an unknown address too, and sends nothing', async () => {
    const res = await requestReset(`nobody-${dialect}@example.com`);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ ok: true });
    await t.ctx.auth.drain();
    expect(smtp.mails.some((m) => m.to.includes(`nobody-${dialect}@example.com`))).toBe(false);
  });

  it('a newer link replaces the older; an unknown token and an expired one are 410; a weak password is 422 and keeps the link', async () => {
    const email = `reset2-${dialect}@example.com`;
    await signUp(t, email);
    let n = smtp.count();
    await requestReset(email);
    const first = await tokenFromNextMail(email, n);
    n = smtp.count();
    await requestReset(email);
    const second = await tokenFromNextMail(email, n);
    const replaced = await t.api('POST', '/auth/password-reset/confirm', { body: { token: first, password: 'whatever 123' } });
    expect(replaced.status).toBe(410);
    expect(replaced.body.code).toBe('reset_token_invalid');
    const unknown = await t.api('POST', '/auth/password-reset/confirm', { body: { token: 'x'.repeat(43), password: 'whatever 123' } });
    expect(unknown.status).toBe(410);
    const weak = await t.api('POST', '/auth/password-reset/confirm', { body: { token: second, password: 'short' } });
    expect(weak.status).toBe(422);
    expect(weak.body.code).toBe('validation_failed');
    t.clock.advance(60 * 60_000);
    const expired = await t.api('POST', '/auth/password-reset/confirm', { body: { token: second, password: 'whatever 123' } });
    expect(expired.status).toBe(410);
    expect(expired.body.code).toBe('reset_token_invalid');
  });

  it('limits requests per e-mail address (429 with Retry-After)', async () => {
    const email = `flood-${dialect}@example.com`;
    for (let i = 0; i < 5; i++) expect((await requestReset(email)).status).toBe(202);
    const sixth = await requestReset(email);
    expect(sixth.status).toBe(429);
    expect(sixth.body.code).toBe('rate_limited');
    expect(sixth.headers.get('retry-after')).toBe('900');
    expect(sixth.body.retry_after).toBe(900);
  });
});
