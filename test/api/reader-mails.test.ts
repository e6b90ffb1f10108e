import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { decodeMail, mailSubject, startSmtpReceiver } from '../helpers/smtp-receiver.js';
import { ORIGIN, PASSWORD } from '../helpers/web-session.js';

const SIGNUP_LINK = /http:\/\/hackathon\.test\/signup\/confirm\?token=([A-Za-z0-9_-]{43})/;
const INVITATION_LINK = /http:\/\/hackathon\.test\/invitations\/([A-Za-z0-9_-]{43})/;
/** An ISO timestamp as the API writes them: what a mail must never show a person. */
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** The mail's text part (decoded), without the headers. */
const textPart = (raw: string) => {
  const body = decodeMail(raw);
  return body.slice(body.indexOf('text/plain'), body.indexOf('text/html'));
};

/**
 * Mails to people who never opened their settings: the sign-up's browser language and time zone
 * decide (kept with the account), an invited reviewer reads the organizer's chosen language, and
 * nobody reads an ISO timestamp or an organizer's address.
 */
describe.each(DIALECTS)('mails in the reader’s language and zone (%s)', (dialect) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let org: TestUser;
  let eventId: string;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await startTestApp(dialect, { env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Site <no-reply@hackathon.test>' } });
    org = await t.user('organizer', `olga-${dialect}@hacknight.test`);
    expect((await t.api('PATCH', '/me/settings', { key: org.key, body: { name: 'Olga Petrova' } })).status).toBe(200);
    eventId = await createEvent(t, org.key, { name: 'Night Hack', time_zone: 'Asia/Shanghai' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('a sign-up from a zh browser in Shanghai: the link mail is Chinese with local time, and the account keeps both', async () => {
    const email = `mei-${dialect}@example.com`;
    const before = smtp.count();
    const res = await t.api('POST', '/auth/signup', {
      body: { email, password: PASSWORD, language: 'zh', time_zone: 'asia/shanghai' },
      headers: { origin: ORIGIN },
    });
    expect(res.status).toBe(202);
    const mail = await smtp.nextTo(email, before);
    expect(mailSubject(mail.raw)).toBe('确认你在 Hackathon platform 的注册');
    const text = textPart(mail.raw);
    expect(text).toContain('链接只能使用一次');
    // Created at T0 + the link's lifetime, shown in Shanghai time and named.
    const expires = new Date(t.clock.now().getTime() + t.config.accounts.signupConfirmTtlMinutes * 60_000);
    const local = new Intl.DateTimeFormat('zh-CN', { timeZone: 'Asia/Shanghai', dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' }).format(expires);
    expect(text).toContain(`${local}（Asia/Shanghai）`);
    expect(decodeMail(mail.raw)).not.toMatch(ISO);

    const token = SIGNUP_LINK.exec(decodeMail(mail.raw))![1]!;
    const confirmed = await t.api('POST', '/auth/signup/confirm', { body: { token }, headers: { origin: ORIGIN } });
    expect(confirmed.status).toBe(201);
    const row = await t.ctx.db.selectFrom('users').select(['language', 'time_zone']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(row).toEqual({ language: 'zh', time_zone: 'Asia/Shanghai' });

    // Her password-reset mail follows the account's settings.
    const beforeReset = smtp.count();
    expect((await t.api('POST', '/auth/password-reset', { body: { email }, headers: { origin: ORIGIN } })).status).toBe(202);
    const reset = await smtp.nextTo(email, beforeReset);
    expect(mailSubject(reset.raw)).toBe('重设你在 Hackathon platform 的密码');
    expect(textPart(reset.raw)).toContain('（Asia/Shanghai）');
    expect(decodeMail(reset.raw)).not.toMatch(ISO);
  });

  it('an English sign-up without a zone reads UTC, named, and no ISO timestamp', async () => {
    const email = `sam-${dialect}@example.com`;
    const before = smtp.count();
    expect((await t.api('POST', '/auth/signup', { body: { email, password: PASSWORD }, headers: { origin: ORIGIN } })).status).toBe(202);
    const mail = await smtp.nextTo(email, before);
    expect(mailSubject(mail.raw)).toBe('Confirm your sign-up at Hackathon platform');
    expect(textPart(mail.raw)).toMatch(/The link works once and expires \d{1,2} \w{3} \d{4}, \d{2}:\d{2} \(UTC\)\./);
    expect(decodeMail(mail.raw)).not.toMatch(ISO);
  });

  it('an unknown time zone is the client’s mistake: 422 naming time_zone, and no mail', async () => {
    const before = smtp.count();
    const res = await t.api('POST', '/auth/signup', {
      body: { email: `x-${dialect}@example.com`, password: PASSWORD, time_zone: 'Mars/Olympus' },
      headers: { origin: ORIGIN },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'time_zone' })]);
    const agent = await t.api('POST', '/agents/signup', { body: { email: `y-${dialect}@example.com`, time_zone: '+08:00' } });
    expect(agent.status).toBe(422);
    expect(agent.body.errors).toEqual([expect.objectContaining({ field: 'time_zone' })]);
    await t.ctx.auth.drain();
    expect(smtp.count()).toBe(before);
  });

  it("an agent's sign-up in zh: its owner's confirmation mail is Chinese, in the zone sent", async () => {
    const email = `owner-${dialect}@example.com`;
    const before = smtp.count();
    const res = await t.api('POST', '/agents/signup', { body: { email, name: 'Bot', language: 'zh', time_zone: 'Europe/Berlin' } });
    expect(res.status).toBe(201);
    const mail = await smtp.nextTo(email, before);
    expect(mailSubject(mail.raw)).toBe('确认你的智能体在 Hackathon platform 的账号');
    expect(textPart(mail.raw)).toContain(`它的 API 密钥以 ${res.body.api_key.prefix} 开头`);
    expect(textPart(mail.raw)).toContain('（Europe/Berlin）');
    expect(decodeMail(mail.raw)).not.toMatch(ISO);
  });

  it('a reviewer invitation names the organizer by display name, greets the reviewer by the name given, in the chosen language; the account takes the name', async () => {
    const email = `reviewer-${dialect}@example.com`;
    const before = smtp.count();
    const res = await t.api('POST', `/events/${eventId}/reviewers`, { key: org.key, body: { email, name: 'Lin Wei', language: 'zh' } });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('Lin Wei');
    const mail = await smtp.nextTo(email, before);
    expect(mailSubject(mail.raw)).toBe('[Hackathon platform] 邀请你评审“Night Hack”');
    const text = textPart(mail.raw);
    expect(text).toContain('Lin Wei，你好：');
    expect(text).toContain('Olga Petrova邀请你担任黑客松“Night Hack”的评审');
    expect(decodeMail(mail.raw)).not.toContain(org.email);
    expect(text).toContain('（Asia/Shanghai）');
    expect(decodeMail(mail.raw)).not.toMatch(ISO);

    const token = INVITATION_LINK.exec(decodeMail(mail.raw))![1]!;
    const described = await t.api('GET', `/invitations/${token}`);
    expect(described.body.name).toBe('Lin Wei');
    const accepted = await t.api('POST', `/invitations/${token}/accept`, { body: { password: PASSWORD, time_zone: 'Asia/Shanghai' } });
    expect(accepted.status).toBe(200);
    const row = await t.ctx.db.selectFrom('users').select(['name', 'language', 'time_zone']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Lin Wei', language: 'zh', time_zone: 'Asia/Shanghai' });
    const list = await t.api('GET', `/events/${eventId}/reviewers`, { key: org.key });
    expect(list.body.reviewers).toEqual([expect.objectContaining({ email, name: 'Lin Wei' })]);
  });

  it('without a language the invitation follows the organizer’s own mail language; the reviewer may give their own name on accepting', async () => {
    expect((await t.api('PATCH', '/me/settings', { key: org.key, body: { language: 'en' } })).status).toBe(200);
    const existing = await t.user('user', `nameless-${dialect}@example.com`);
    const before = smtp.count();
    expect((await t.api('POST', `/events/${eventId}/reviewers`, { key: org.key, body: { email: existing.email } })).status).toBe(201);
    const mail = await smtp.nextTo(existing.email, before);
    expect(mailSubject(mail.raw)).toBe('[Hackathon platform] You are invited to review "Night Hack"');
    expect(textPart(mail.raw)).toContain('Olga Petrova invites you to review the projects of the hackathon "Night Hack".');
    const token = INVITATION_LINK.exec(decodeMail(mail.raw))![1]!;
    const accepted = await t.api('POST', `/invitations/${token}/accept`, { key: existing.key, body: { display_name: '  Ada   Reviewer ' } });
    expect(accepted.status).toBe(200);
    const row = await t.ctx.db.selectFrom('users').select('name').where('email', '=', existing.email).executeTakeFirstOrThrow();
    expect(row.name).toBe('Ada Reviewer');
    expect((await t.api('GET', '/auth/session', { key: existing.key })).body.user.name).toBe('Ada Reviewer');
  });
});
