import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { approvedTeam, createEvent, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { startSmtpReceiver, unfoldMail } from '../helpers/smtp-receiver.js';
import { browser, ORIGIN, PASSWORD, sessionCookieFrom, signUp } from '../helpers/web-session.js';

const LINK = /http:\/\/hackathon\.test\/invitations\/([A-Za-z0-9_-]{43})/;
const DAY = 86_400_000;

/** Reviewer invitations accepted from the web app (a session, or start_session), and GET /me/review-events. */
describe.each(DIALECTS)('reviewers with web sessions (%s)', (dialect) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let org: TestUser;
  let eventId: string;
  let projects: string[];

  const inviteToken = async (email: string) => {
    const before = smtp.count();
    const res = await t.api('POST', `/events/${eventId}/reviewers`, { key: org.key, body: { email } });
    expect(res.status).toBe(201);
    return LINK.exec(unfoldMail((await smtp.nextTo(email, before)).raw))![1]!;
  };

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await startTestApp(dialect, { env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, REVIEW_WORKERS: 'false', SIGNUP_CONFIRMATION: 'off' } });
    org = await t.user('organizer');
    eventId = await createEvent(t, org.key, { name: 'Web Review Hack' });
    projects = [];
    for (const name of ['One', 'Two']) {
      const { team } = await approvedTeam(t, eventId, org.key);
      const p = await t.api('POST', `/events/${eventId}/submit`, { key: team.key, body: { project_name: name, github_url: 'https://github.com/example/p' } });
      expect(p.status).toBe(201);
      projects.push(p.body.id);
    }
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it("signed in as the invited address, accepting needs no password and answers the session's csrf_token", async () => {
    const email = `web-reviewer-${dialect}@example.com`;
    const s = await signUp(t, email);
    const token = await inviteToken(email);
    const res = await t.api('POST', `/invitations/${token}/accept`, { headers: browser(s), body: {} });
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({ id: s.userId, email, role: 'user' });
    expect(res.body.account_created).toBe(false);
    expect(res.body.api_key.scope).toBe('review');
    expect(res.body.csrf_token).toBe(s.csrf);

    const events = await t.api('GET', '/me/review-events', { headers: { cookie: s.cookie } });
    expect(events.status).toBe(200);
    expect(events.body).toEqual([
      { event_id: eventId, event_name: 'Web Review Hack', status: 'open', submission_deadline: expect.any(String), projects: 2, reviewed: 0 },
    ]);
    // Review-scoped keys may read it too.
    const viaKey = await t.api('GET', '/me/review-events', { key: res.body.api_key.key });
    expect(viaKey.status).toBe(200);
    expect(viaKey.body).toEqual(events.body);

    // In judging, one review by the session counts.
    t.clock.advance(3 * DAY);
    const put = await t.api('PUT', `/events/${eventId}/projects/${projects[0]}/review`, { headers: browser(s), body: { scores: { impact: 7, craft: 6 } } });
    expect(put.status).toBe(201);
    const after = await t.api('GET', '/me/review-events', { headers: { cookie: s.cookie } });
    expect(after.body[0]).toMatchObject({ status: 'judging', projects: 2, reviewed: 1 });
    t.clock.advance(-3 * DAY);
  });

  it('a session of another address is 403 forbidden naming the invited one; the invitation stays usable', async () => {
    const invited = `invited-${dialect}@example.com`;
    const token = await inviteToken(invited);
    const other = await signUp(t, `someone-else-${dialect}@example.com`);
    const res = await t.api('POST', `/invitations/${token}/accept`, { headers: browser(other), body: {} });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    expect(res.body.detail).toContain(invited);
    const info = await t.api('GET', `/invitations/${token}`);
    expect(info.status).toBe(200);
  });

  it('without a session the password is still required (422 when missing)', async () => {
    const token = await inviteToken(`nopw-${dialect}@example.com`);
    const res = await t.api('POST', `/invitations/${token}/accept`, { body: {} });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
  });

  it('start_session signs the invitee in: Set-Cookie and csrf_token, the cookie then works', async () => {
    const email = `fresh-reviewer-${dialect}@example.com`;
    const token = await inviteToken(email);
    const res = await t.api('POST', `/invitations/${token}/accept`, { headers: { origin: ORIGIN }, body: { password: PASSWORD, start_session: true } });
    expect(res.status).toBe(200);
    expect(res.body.account_created).toBe(true);
    expect(res.body.csrf_token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const cookie = sessionCookieFrom(res)!;
    expect(cookie).toMatch(/^hk_session=/);
    const me = await t.api('GET', '/auth/session', { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(email);
    expect(me.body.csrf_token).toBe(res.body.csrf_token);
    const events = await t.api('GET', '/me/review-events', { headers: { cookie } });
    expect(events.body.map((e: { event_id: string }) => e.event_id)).toEqual([eventId]);
  });

  it('a foreign Origin cannot sign someone in through an invitation (login CSRF)', async () => {
    const token = await inviteToken(`csrf-reviewer-${dialect}@example.com`);
    const res = await t.api('POST', `/invitations/${token}/accept`, {
      headers: { origin: 'http://evil.test' },
      body: { password: PASSWORD, start_session: true },
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('csrf_failed');
  });

  it('someone who reviews nothing gets an empty list; no auth is 401', async () => {
    const u = await t.user();
    expect((await t.api('GET', '/me/review-events', { key: u.key })).body).toEqual([]);
    expect((await t.api('GET', '/me/review-events')).status).toBe(401);
  });
  it('a reviewer who also entered a team counts only the projects they may review (not their own)', async () => {
    const other = await createEvent(t, org.key, { name: 'Own Team Hack' });
    const { team: stranger } = await approvedTeam(t, other, org.key);
    const { team: reviewer } = await approvedTeam(t, other, org.key);
    for (const who of [stranger, reviewer]) {
      const p = await t.api('POST', `/events/${other}/submit`, {
        key: who.key,
        body: { project_name: `P ${who.email}`, github_url: 'https://github.com/example/p' },
      });
      expect(p.status).toBe(201);
    }
    const before = smtp.count();
    expect((await t.api('POST', `/events/${other}/reviewers`, { key: org.key, body: { email: reviewer.email } })).status).toBe(201);
    const token = LINK.exec(unfoldMail((await smtp.nextTo(reviewer.email, before)).raw))![1]!;
    const accepted = await t.api('POST', `/invitations/${token}/accept`, { body: { password: 'correct horse battery' } });
    expect(accepted.status).toBe(200);
    const list = await t.api('GET', '/me/review-events', { key: reviewer.key });
    expect(list.body.find((e: { event_id: string }) => e.event_id === other)).toMatchObject({ projects: 1, reviewed: 0 });
    const assignments = await t.api('GET', `/events/${other}/review-assignments`, { key: reviewer.key });
    expect(assignments.body.projects.map((p: { name: string }) => p.name)).toEqual([`P ${stranger.email}`]);
  });
});
