import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, type TestApp } from '../helpers/harness.js';
import { freePort } from '../helpers/process.js';
import { decodeMail, mailSubject, startSmtpReceiver } from '../helpers/smtp-receiver.js';

/**
 * Notification mails: a registration decision queues a mail to the team in the recipient's language
 * and time zone (zone named), naming the organizer by display name; the worker sends it over SMTP;
 * a person's switch turns the kind off; settings are validated; a failing SMTP server is retried.
 */
describe.each(DIALECTS)('notification mails (%s)', (dialect) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await startTestApp(dialect, {
      env: {
        MAIL_WORKERS: 'true',
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Site <no-reply@hackathon.test>',
        MAIL_POLL_MS: '50',
        SITE_NAME: 'Owl Hacks 猫头鹰',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function setup() {
    const org = await t.user('organizer', `org-${Math.random().toString(36).slice(2, 8)}@example.com`);
    const named = await t.api('PATCH', '/me/settings', { key: org.key, body: { name: 'Grace Organizer' } });
    expect(named.status).toBe(200);
    const eventId = await createEvent(t, org.key, {
      name: 'Spring Hack',
      description: 'Build **river tools**, see the [brief](https://brief.example/b).\n\n<img src=x onerror=alert(1)>',
    });
    return { org, eventId };
  }
  async function register(eventId: string, key: string, team: string) {
    const reg = await t.api('POST', `/events/${eventId}/register`, { key, body: registrationBody({ team_name: team }) });
    expect(reg.status).toBe(201);
    return reg.body.id as string;
  }

  it('approval mail in English, UTC named by default; organizer by display name, not address; event link', async () => {
    const { org, eventId } = await setup();
    const team = await t.user();
    const rid = await register(eventId, team.key, 'Owls');
    const before = smtp.count();
    const ok = await t.api('POST', `/events/${eventId}/registrations/${rid}/approve`, { key: org.key });
    expect(ok.status).toBe(200);
    const raw = (await smtp.nextTo(team.email, before)).raw;
    // Every subject names the site (SITE_NAME), in the recipient's language's brackets.
    expect(mailSubject(raw)).toBe('[Owl Hacks 猫头鹰] Spring Hack: Owls is approved');
    const mail = decodeMail(raw);
    expect(mail).toContain('Grace Organizer approved the registration of Owls for Spring Hack.');
    expect(mail).not.toContain(org.email);
    // The submission deadline is T0 + 2 days: 3 Jan 2030, 12:00 UTC.
    expect(mail).toContain('3 Jan 2030, 12:00 (UTC)');
    expect(mail).toContain(`http://hackathon.test/hackathons/${eventId}`);
    expect(mail).toContain('From: Site <no-reply@hackathon.test>');
  });

  it('rejection mail in Chinese in the person’s zone, with the reason', async () => {
    const { org, eventId } = await setup();
    const team = await t.user();
    const set = await t.api('PATCH', '/me/settings', { key: team.key, body: { language: 'zh', time_zone: 'asia/shanghai' } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ language: 'zh', language_set: true, time_zone: 'Asia/Shanghai', mail_time_zone: 'Asia/Shanghai' });
    const rid = await register(eventId, team.key, '猫头鹰');
    const before = smtp.count();
    const no = await t.api('POST', `/events/${eventId}/registrations/${rid}/reject`, { key: org.key, body: { reason: '项目不符合主题' } });
    expect(no.status).toBe(200);
    const raw = (await smtp.nextTo(team.email, before)).raw;
    expect(mailSubject(raw)).toBe('【Owl Hacks 猫头鹰】Spring Hack：「猫头鹰」的报名未通过');
    const mail = decodeMail(raw);
    expect(mail).toContain('Grace Organizer 未通过「猫头鹰」参加 Spring Hack 的报名。');
    expect(mail).toContain('原因：项目不符合主题');
    expect(mail).toContain('<html lang="zh-CN">');
  });

  it('approval mail names the deadline in the person’s zone (Chinese: 20:00 Shanghai for 12:00 UTC)', async () => {
    const { org, eventId } = await setup();
    const team = await t.user();
    expect((await t.api('PATCH', '/me/settings', { key: team.key, body: { language: 'zh', time_zone: 'Asia/Shanghai' } })).status).toBe(200);
    const rid = await register(eventId, team.key, 'Foxes');
    const before = smtp.count();
    expect((await t.api('POST', `/events/${eventId}/registrations/${rid}/approve`, { key: org.key })).status).toBe(200);
    const mail = decodeMail((await smtp.nextTo(team.email, before)).raw);
    expect(mail).toContain('2030年1月3日 20:00（Asia/Shanghai）');
  });

  it('a person who turned registration mails off gets none; the settings say so', async () => {
    const { org, eventId } = await setup();
    const quiet = await t.user();
    const off = await t.api('PATCH', '/me/settings', { key: quiet.key, body: { notifications: { registration: false } } });
    expect(off.status).toBe(200);
    expect(off.body.notifications).toEqual({ registration: false, team: true, results: true });
    const rid = await register(eventId, quiet.key, 'Quiet');
    expect((await t.api('POST', `/events/${eventId}/registrations/${rid}/approve`, { key: org.key })).status).toBe(200);
    // Nothing queued for them (the queue is written in the decision's transaction).
    const queued = await t.ctx.db.selectFrom('mail_queue').select('id').where('to_address', '=', quiet.email).execute();
    expect(queued).toEqual([]);
    // A loud person in the same event still gets theirs (the queue works).
    const loud = await t.user();
    const rid2 = await register(eventId, loud.key, 'Loud');
    const before = smtp.count();
    expect((await t.api('POST', `/events/${eventId}/registrations/${rid2}/approve`, { key: org.key })).status).toBe(200);
    await smtp.nextTo(loud.email, before);
    expect(smtp.mails.some((m) => m.to.includes(quiet.email))).toBe(false);
  });

  it('team mails: an invitation by e-mail goes through the queue; teammates hear of a join, a departure and a removal (the removed member too)', async () => {
    const { eventId } = await setup();
    const leader = await t.user();
    const reg = await t.api('POST', `/events/${eventId}/register`, { key: leader.key, body: registrationBody({ team_name: 'Herons' }) });
    expect(reg.status).toBe(201);
    const invitee = `invitee-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const before = smtp.count();
    const inv = await t.api('POST', `/events/${eventId}/team/invitations`, { key: leader.key, body: { email: invitee } });
    expect(inv.status).toBe(201);
    // Written in the invitation's transaction, then sent by the worker.
    const queued = await t.ctx.db.selectFrom('mail_queue').select(['kind']).where('to_address', '=', invitee).execute();
    expect(queued).toEqual([{ kind: 'team_invitation' }]);
    const invitation = decodeMail((await smtp.nextTo(invitee, before)).raw);
    expect(invitation).toContain('invites you to join the team Herons in Spring Hack.');
    expect(invitation).toContain(inv.body.join_url);
    // A stranger learns what the event is: its Markdown description, rendered safely in the HTML
    // part and as plain text in the other.
    const html = invitation.slice(invitation.indexOf('text/html'));
    const text = invitation.slice(invitation.indexOf('text/plain'), invitation.indexOf('text/html'));
    expect(html).toContain('<h2 style="font-size:1.1em">About Spring Hack</h2>');
    expect(html).toContain('Build <strong>river tools</strong>, see the <a href="https://brief.example/b" rel="noopener nofollow ugc">brief</a>.');
    expect(html).not.toMatch(/<img[^>]*onerror/i);
    expect(text).toMatch(/About Spring Hack\r?\n\r?\nBuild river tools, see the brief\./);
    expect(text).not.toContain('**');

    const a = await t.user();
    const b = await t.user();
    const code = inv.body.join_code as string;
    let mark = smtp.count();
    expect((await t.api('POST', `/events/${eventId}/team/join`, { key: a.key, body: { join_code: code } })).status).toBe(200);
    expect(decodeMail((await smtp.nextTo(leader.email, mark)).raw)).toContain(`${a.email.split('@')[0]} joined your team Herons in Spring Hack.`);
    mark = smtp.count();
    expect((await t.api('POST', `/events/${eventId}/team/join`, { key: b.key, body: { join_code: code } })).status).toBe(200);
    // Every teammate but the one who joined.
    await smtp.nextTo(leader.email, mark);
    await smtp.nextTo(a.email, mark);
    mark = smtp.count();
    expect((await t.api('POST', `/events/${eventId}/team/leave`, { key: a.key })).status).toBe(204);
    expect(decodeMail((await smtp.nextTo(b.email, mark)).raw)).toContain(`${a.email.split('@')[0]} left your team Herons in Spring Hack.`);
    await smtp.nextTo(leader.email, mark);
    mark = smtp.count();
    expect((await t.api('DELETE', `/events/${eventId}/team/members/${b.id}`, { key: leader.key })).status).toBe(204);
    expect(decodeMail((await smtp.nextTo(b.email, mark)).raw)).toContain(
      `The team leader removed ${b.email.split('@')[0]} from your team Herons in Spring Hack.`,
    );
    // Nobody is told of their own joining or leaving.
    const own = await t.ctx.db
      .selectFrom('mail_queue')
      .select(['to_address', 'kind'])
      .where('event_id', '=', eventId)
      .where('kind', 'in', ['team_member_joined', 'team_member_left'])
      .orderBy('created_at')
      .execute();
    expect(own.map((m) => `${m.kind}:${m.to_address}`).sort()).toEqual(
      [
        `team_member_joined:${leader.email}`,
        `team_member_joined:${leader.email}`,
        `team_member_joined:${a.email}`,
        `team_member_left:${leader.email}`,
        `team_member_left:${b.email}`,
        `team_member_left:${leader.email}`,
        `team_member_left:${b.email}`,
      ].sort(),
    );
  });

  it('GET /me/settings: defaults (en, no zone → UTC, every mail on)', async () => {
    const u = await t.user();
    const res = await t.api('GET', '/me/settings', { key: u.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: null,
      email: u.email,
      language: 'en',
      language_set: false,
      time_zone: null,
      mail_time_zone: 'UTC',
      notifications: { registration: true, team: true, results: true },
    });
    expect((await t.api('GET', '/me/settings')).status).toBe(401);
  });

  it('PATCH /me/settings validates: unknown zone, offset, bad language, empty name, unknown field → 422 validation_failed', async () => {
    const u = await t.user();
    for (const body of [
      { time_zone: 'Mars/Olympus' },
      { time_zone: '+05:00' },
      { language: 'fr' },
      { name: '   ' },
      { colour: 'red' },
      { notifications: { sms: true } },
    ]) {
      const res = await t.api('PATCH', '/me/settings', { key: u.key, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe('validation_failed');
    }
    const cleared = await t.api('PATCH', '/me/settings', { key: u.key, body: { time_zone: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.mail_time_zone).toBe('UTC');
  });

  it('sign-up takes the language (en | zh): kept until the mailed link makes the account; another is refused', async () => {
    const email = `zh-${dialect}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const origin = { origin: 'http://hackathon.test' };
    const before = smtp.count();
    const made = await t.api('POST', '/auth/signup', { body: { email, password: 'correct horse battery', language: 'zh' }, headers: origin });
    expect(made.status).toBe(202);
    const link = /signup\/confirm\?token=([A-Za-z0-9_-]{43})/.exec(decodeMail((await smtp.nextTo(email, before)).raw));
    expect(link).not.toBeNull();
    await t.ctx.auth.drain();
    const confirmed = await t.api('POST', '/auth/signup/confirm', { body: { token: link![1] }, headers: origin });
    expect(confirmed.status).toBe(201);
    const row = await t.ctx.db.selectFrom('users').select('language').where('email', '=', email).executeTakeFirst();
    expect(row?.language).toBe('zh');
    const bad = await t.api('POST', '/auth/signup', { body: { email: `x${email}`, password: 'correct horse battery', language: 'fr' }, headers: origin });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('validation_failed');
  });
});

describe.each(DIALECTS)('notification mails when SMTP fails, then recovers (%s)', (dialect) => {
  let t: TestApp;
  let port: number;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>> | null = null;
  beforeAll(async () => {
    port = await freePort();
    // Nothing listens on the port yet: every send is refused.
    t = await startTestApp(dialect, { env: { MAIL_WORKERS: 'true', SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_RETRY_BASE_MS: '60000', MAIL_POLL_MS: '50' } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const row = (to: string) => t.ctx.db.selectFrom('mail_queue').selectAll().where('to_address', '=', to).executeTakeFirstOrThrow();

  it('is retried with backoff on the test clock and delivered once the server is back; after 24 h of failures it is marked failed', async () => {
    const org = await t.user('organizer');
    const eventId = await createEvent(t, org.key);
    const team = await t.user();
    const late = await t.user();
    const rid = (await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() })).body.id as string;
    expect((await t.api('POST', `/events/${eventId}/registrations/${rid}/approve`, { key: org.key })).status).toBe(200);
    await t.ctx.mailWorker.pump();
    await t.ctx.mailWorker.whenIdle();
    const failed = await row(team.email);
    expect(failed).toMatchObject({ status: 'queued', attempts: 1 });
    expect(failed.last_error).not.toContain(team.email);
    // Retried no sooner than the backoff: not due yet.
    await t.ctx.mailWorker.pump();
    await t.ctx.mailWorker.whenIdle();
    expect((await row(team.email)).attempts).toBe(1);

    smtp = await startSmtpReceiver(port);
    t.clock.advance(2 * 60_000);
    await t.ctx.mailWorker.pump();
    await t.ctx.mailWorker.whenIdle();
    const mail = decodeMail((await smtp.nextTo(team.email, 0)).raw);
    expect(mail).toContain('approved the registration');
    expect(await row(team.email)).toMatchObject({ status: 'sent', attempts: 2 });

    // The server goes away again for good: retries stop 24 hours after the first failure.
    await smtp.close();
    smtp = null;
    const rid2 = (await t.api('POST', `/events/${eventId}/register`, { key: late.key, body: registrationBody() })).body.id as string;
    expect((await t.api('POST', `/events/${eventId}/registrations/${rid2}/approve`, { key: org.key })).status).toBe(200);
    for (let i = 0; i < 60 && (await row(late.email)).status !== 'failed'; i++) {
      await t.ctx.mailWorker.pump();
      await t.ctx.mailWorker.whenIdle();
      t.clock.advance(3_600_000 * 1.3);
    }
    const gaveUp = await row(late.email);
    expect(gaveUp.status).toBe('failed');
    expect(gaveUp.attempts).toBeGreaterThan(5);
  });
});
