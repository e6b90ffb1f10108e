import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from '../../src/app.js';
import type { App, AppContext } from '../../src/app-context.js';
import { ManualClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { openDatabase, type DatabaseHandle } from '../../src/core/db/index.js';
import { migrateToLatest } from '../../src/core/db/migrations.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { approvedTeam, createEvent, eventBody, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';
import { decodeMail, mailSubject } from '../helpers/smtp-receiver.js';

const HOUR = 3_600_000;
const LINK = /http:\/\/hackathon\.test\/invitations\/([A-Za-z0-9_-]{43})/;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP receiver on 127.0.0.1 (no auth, no STARTTLS), keeping every message it gets. */
async function startReceiver() {
  const mails: ReceivedMail[] = [];
  const rejecting = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      callback(rejecting.has(address.address) ? Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }) : null);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    /** Recipients the receiver refuses (550), to make sending fail. */
    rejecting,
    /** The last message to `to` (sendMail resolves only once the receiver has accepted it). */
    lastTo(to: string): ReceivedMail {
      const mail = [...mails].reverse().find((m) => m.to.includes(to));
      if (!mail) throw new Error(`no mail to ${to}; got ${mails.map((m) => m.to.join(',')).join(' ')}`);
      return mail;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Undoes quoted-printable soft line breaks so a long link reads in one piece. */
function unfold(raw: string): string {
  return raw.replace(/=\r?\n/g, '');
}

function tokenFrom(raw: string): string {
  const m = LINK.exec(unfold(raw));
  if (!m) throw new Error(`no invitation link in:\n${raw}`);
  return m[1]!;
}

describe.each(DIALECTS)('human reviewers over SMTP (%s)', (dialect) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startReceiver>>;
  let org: TestUser;
  let eventId: string;
  let teamA: TestUser;
  let projectA: string;
  let projectB: string;
  let reviewerKey: string;
  let reviewerId: string;
  let teamReviewerKey: string;

  const invite = (email: string, key = org.key, id = eventId) => t.api('POST', `/events/${id}/reviewers`, { key, body: { email } });
  const accept = (token: string, body: Record<string, unknown>) => t.api('POST', `/invitations/${token}/accept`, { body });
  const putReview = (key: string, pid: string, body: unknown, id = eventId) => t.api('PUT', `/events/${id}/projects/${pid}/review`, { key, body });
  const inviteAndGetToken = async (email: string) => {
    const res = await invite(email);
    expect(res.status).toBe(201);
    return tokenFrom(smtp.lastTo(email).raw);
  };

  beforeAll(async () => {
    smtp = await startReceiver();
    t = await startTestApp(dialect, {
      env: {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Judges <judges@hackathon.test>',
        // AI reviews are another module's; keep its workers out of these tests.
        REVIEW_WORKERS: 'false',
      },
    });
    org = await t.user('organizer');
    eventId = await createEvent(t, org.key, {
      name: 'Agents <Hack> & "Friends"',
      description: 'Judge **agent tools**, see the [rubric](https://rubric.example/r).\n\n<script>alert(1)</script>',
    });
    const a = await approvedTeam(t, eventId, org.key);
    const b = await approvedTeam(t, eventId, org.key);
    teamA = a.team;
    const submit = (key: string, name: string) =>
      t.api('POST', `/events/${eventId}/submit`, { key, body: { project_name: name, github_url: 'https://github.com/example/p' } });
    const pa = await submit(a.team.key, 'Project A');
    const pb = await submit(b.team.key, 'Project B');
    expect([pa.status, pb.status]).toEqual([201, 201]);
    projectA = pa.body.id;
    projectB = pb.body.id;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('invites by e-mail through SMTP: 201 without the token, one mail with the link, only the hash stored', async () => {
    const res = await invite('  Reviewer.One@Example.com ');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^inv_/),
      event_id: eventId,
      email: 'reviewer.one@example.com',
      name: null,
      status: 'pending',
      expires_at: new Date(T0.getTime() + 168 * HOUR).toISOString(),
      created_at: T0.toISOString(),
      accepted_at: null,
      delivery: 'smtp',
    });

    const mail = smtp.lastTo('reviewer.one@example.com');
    expect(mail.raw).toMatch(/^From: Judges <judges@hackathon\.test>/m);
    // The subject names the site; the event's Markdown description is rendered (safe) in the HTML
    // part and read as plain text in the other.
    expect(mailSubject(mail.raw)).toBe('[Hackathon platform] You are invited to review "Agents <Hack> & "Friends""');
    const body = decodeMail(mail.raw);
    const htmlPart = body.slice(body.indexOf('text/html'));
    const textPart = body.slice(body.indexOf('text/plain'), body.indexOf('text/html'));
    expect(htmlPart).toContain('Judge <strong>agent tools</strong>, see the <a href="https://rubric.example/r" rel="noopener nofollow ugc">rubric</a>.');
    expect(htmlPart).not.toContain('<script');
    expect(textPart).toContain('Judge agent tools, see the rubric.');
    expect(textPart).not.toContain('**');
    expect(mail.raw).toContain('text/plain');
    expect(mail.raw).toContain('text/html');
    // The event name is escaped in the HTML part.
    expect(unfold(mail.raw)).toContain('Agents &lt;Hack&gt; &amp; &quot;Friends&quot;');
    const token = tokenFrom(mail.raw);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(res.text).not.toContain(token);

    const row = await t.ctx.db.selectFrom('reviewer_invitations').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('describes a pending invitation publicly; the link opens the web app page without leaking the token', async () => {
    const token = tokenFrom(smtp.lastTo('reviewer.one@example.com').raw);
    const info = await t.api('GET', `/invitations/${token}`);
    expect(info.status).toBe(200);
    expect(info.body).toEqual({
      event_id: eventId,
      event_name: 'Agents <Hack> & "Friends"',
      email: 'reviewer.one@example.com',
      name: null,
      status: 'pending',
      expires_at: expect.any(String),
      account_exists: false,
    });

    // The link opens the web app's page (drawn in the browser from the API above; see test/browser/reviewer-pages.test.ts):
    // the token is in the path, so no Referer may carry it on and no cache may keep the page.
    const page = await t.request('GET', `/invitations/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.text).not.toContain(token);

    const unknown = 'A'.repeat(43);
    const missing = await t.api('GET', `/invitations/${unknown}`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('invitation_not_found');
    expect((await t.api('GET', '/invitations/not-a-token')).body.code).toBe('invitation_not_found');
  });

  it('accepts with a new account: a key shown once, the user becomes a reviewer; the link then answers 410', async () => {
    const token = tokenFrom(smtp.lastTo('reviewer.one@example.com').raw);
    const short = await accept(token, { password: 'short' });
    expect(short.status).toBe(422);
    const otherEmail = await accept(token, { email: 'someone@else.com', password: 'a good password' });
    expect(otherEmail.status).toBe(422);
    expect(otherEmail.body.errors[0].field).toBe('email');

    const res = await accept(token, { email: 'REVIEWER.ONE@example.com', password: 'a good password' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      event_id: eventId,
      event_name: 'Agents <Hack> & "Friends"',
      user: { email: 'reviewer.one@example.com', role: 'user' },
      account_created: true,
      api_key: { key: expect.stringMatching(/^hk_/), name: 'reviewer: Agents <Hack> & "Friends"' },
    });
    reviewerKey = res.body.api_key.key;
    reviewerId = res.body.user.id;

    const again = await accept(token, { password: 'a good password' });
    expect(again.status).toBe(410);
    expect(again.body.code).toBe('invitation_used');
    expect((await t.api('GET', `/invitations/${token}`)).body.code).toBe('invitation_used');
  });

  it('accepts for an existing account with its password; a wrong password is 401 and leaves the link usable', async () => {
    const token = await inviteAndGetToken(teamA.email);
    expect((await t.api('GET', `/invitations/${token}`)).body.account_exists).toBe(true);
    const wrong = await accept(token, { password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('unauthorized');

    const ok = await accept(token, { password: 'correct horse battery', name: 'my judging key' });
    expect(ok.status).toBe(200);
    expect(ok.body.account_created).toBe(false);
    expect(ok.body.user.id).toBe(teamA.id);
    expect(ok.body.api_key.name).toBe('my judging key');
    teamReviewerKey = ok.body.api_key.key;
  });

  it('of two concurrent accepts exactly one wins; the other gets 410', async () => {
    const token = await inviteAndGetToken('racer@example.com');
    const both = await Promise.all([accept(token, { password: 'a good password' }), accept(token, { password: 'a good password' })]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 410]);
    expect(both.find((r) => r.status === 410)!.body.code).toBe('invitation_used');
  });

  it('re-inviting an address replaces its unused invitation: the old link stops working', async () => {
    const first = await inviteAndGetToken('twice@example.com');
    const second = await inviteAndGetToken('twice@example.com');
    expect(second).not.toBe(first);
    expect((await t.api('GET', `/invitations/${first}`)).body.code).toBe('invitation_not_found');
    expect((await t.api('GET', `/invitations/${second}`)).status).toBe(200);

    const list = await t.api('GET', `/events/${eventId}/reviewers`, { key: org.key });
    expect(list.status).toBe(200);
    const pending = list.body.invitations.filter((i: { email: string }) => i.email === 'twice@example.com');
    expect(pending).toHaveLength(1);
    expect(pending[0].status).toBe('pending');
    expect(list.body.reviewers.map((r: { email: string }) => r.email)).toEqual(
      expect.arrayContaining(['reviewer.one@example.com', teamA.email, 'racer@example.com']),
    );
    expect(list.text).not.toMatch(/token/);

    // An organizer can withdraw it.
    const inv = pending[0].id as string;
    expect((await t.api('DELETE', `/events/${eventId}/reviewer-invitations/${inv}`, { key: org.key })).status).toBe(204);
    expect((await t.api('GET', `/invitations/${second}`)).body.code).toBe('invitation_not_found');
  });

  it('answers 503 when the mail cannot be sent, keeping the earlier invitation of that address valid', async () => {
    const earlier = await inviteAndGetToken('flaky@example.com');
    smtp.rejecting.add('flaky@example.com');
    try {
      const res = await invite('flaky@example.com');
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('service_unavailable');
    } finally {
      smtp.rejecting.delete('flaky@example.com');
    }
    const rows = await t.ctx.db.selectFrom('reviewer_invitations').select('token_hash').where('email', '=', 'flaky@example.com').execute();
    expect(rows).toEqual([{ token_hash: sha256(earlier) }]);
    expect((await t.api('GET', `/invitations/${earlier}`)).status).toBe(200);
  });

  it('refuses invitations from non-owners (403), unknown events (404) and bad addresses (422)', async () => {
    const stranger = await t.user('organizer');
    const res = await invite('x@example.com', stranger.key);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    expect((await invite('x@example.com', reviewerKey)).status).toBe(403);
    expect((await invite('x@example.com', org.key, 'evt_nope')).body.code).toBe('event_not_found');
    const bad = await invite('not-an-address');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ field: 'email', message: 'must be an e-mail address' }]);
    expect((await t.api('POST', `/events/${eventId}/reviewers`, { body: { email: 'x@example.com' } })).status).toBe(401);
    expect((await t.api('GET', `/events/${eventId}/reviewers`, { key: stranger.key })).status).toBe(403);
  });

  it('lists assignments with the dimensions; the own team is hidden; reviewing waits for judging (409)', async () => {
    const res = await t.api('GET', `/events/${eventId}/review-assignments`, { key: reviewerKey });
    expect(res.status).toBe(200);
    expect(res.body.event).toEqual({ id: eventId, name: 'Agents <Hack> & "Friends"', status: 'open' });
    expect(res.body.reviewing_open).toBe(false);
    expect(res.body.scale).toEqual({ min: 0, max: 10 });
    expect(res.body.dimensions).toEqual([
      { name: 'impact', weight: 2 },
      { name: 'craft', weight: 1 },
    ]);
    expect(res.body.projects.map((p: { project_id: string }) => p.project_id)).toEqual([projectA, projectB]);
    expect(res.body.projects[0]).toMatchObject({ project_name: 'Project A', name: 'Project A', my_review: null });
    expect(res.body.hidden_for_conflict_of_interest).toBe(0);

    const mine = await t.api('GET', `/events/${eventId}/review-assignments`, { key: teamReviewerKey });
    expect(mine.body.projects.map((p: { project_id: string }) => p.project_id)).toEqual([projectB]);
    expect(mine.body.hidden_for_conflict_of_interest).toBe(1);

    const early = await putReview(reviewerKey, projectA, { scores: { impact: 7, craft: 8 } });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('not_judging');
    // A reviewer cannot move the event: the next step is to wait for reviewing_open, not the organizer's PATCH.
    expect(early.body.action).toContain('reviewing_open');
    expect(early.body.action).not.toContain('PATCH');
  });

  it('takes a review in judging: 201 on create, 200 on update, stored as a human review row', async () => {
    const patch = await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'judging' } });
    expect(patch.status).toBe(200);

    const created = await putReview(reviewerKey, projectA, { scores: { craft: 8, impact: 7.5 }, comment: 'Solid.' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^rev_/),
      event_id: eventId,
      project_id: projectA,
      reviewer_id: reviewerId,
      scores: { impact: 7.5, craft: 8 },
      comment: 'Solid.',
      created_at: T0.toISOString(),
      updated_at: T0.toISOString(),
    });
    t.clock.advance(60_000);
    const updated = await putReview(reviewerKey, projectA, { scores: { impact: 9, craft: 0 } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, scores: { impact: 9, craft: 0 }, comment: null });
    expect(updated.body.updated_at).toBe(new Date(T0.getTime() + 60_000).toISOString());

    const own = await t.api('GET', `/events/${eventId}/projects/${projectA}/review`, { key: reviewerKey });
    expect(own.status).toBe(200);
    expect(own.body.scores).toEqual({ impact: 9, craft: 0 });
    expect((await t.api('GET', `/events/${eventId}/projects/${projectB}/review`, { key: reviewerKey })).status).toBe(404);

    const rows = await t.ctx.db.selectFrom('reviews').selectAll().where('project_id', '=', projectA).where('reviewer_kind', '=', 'human').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      reviewer_kind: 'human',
      reviewer: reviewerId,
      group_key: 'human',
      status: 'succeeded',
      summary: null,
      completed_at: updated.body.updated_at,
    });
    expect(JSON.parse(rows[0]!.scores!)).toEqual({ impact: 9, craft: 0 });

    const list = await t.api('GET', `/events/${eventId}/review-assignments`, { key: reviewerKey });
    expect(list.body.reviewing_open).toBe(true);
    expect(list.body.projects[0].my_review).toMatchObject({ id: created.body.id, scores: { impact: 9, craft: 0 } });
  });

  it('validates scores per dimension (422 with scores.<name> fields)', async () => {
    const res = await putReview(reviewerKey, projectB, { scores: { impact: 11, bogus: 3 } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'scores.impact', message: 'must be from 0 to 10' },
        { field: 'scores.craft', message: 'is required' },
        { field: 'scores.bogus', message: expect.stringContaining('is not a dimension') },
      ]),
    );
    expect(res.body.errors).toHaveLength(3);
    const negative = await putReview(reviewerKey, projectB, { scores: { impact: -1, craft: 5 } });
    expect(negative.body.errors).toEqual([{ field: 'scores.impact', message: 'must be from 0 to 10' }]);
    const text = await putReview(reviewerKey, projectB, { scores: { impact: '5', craft: 5 } });
    expect(text.status).toBe(422);
    expect(text.body.errors[0].field).toBe('scores.impact');
    const long = await putReview(reviewerKey, projectB, { scores: { impact: 5, craft: 5 }, comment: 'x'.repeat(10_001) });
    expect(long.status).toBe(422);
    expect(long.body.errors[0].field).toBe('comment');
    expect((await putReview(reviewerKey, projectB, { scores: { impact: 5, craft: 5 }, extra: 1 })).status).toBe(422);
    expect((await putReview(reviewerKey, projectB, { scores: { impact: 5, craft: 5 }, comment: 'x'.repeat(10_000) })).status).toBe(201);
  });

  it('refuses non-reviewers (403), conflicts of interest (403) and unknown projects (404)', async () => {
    const outsider = await t.user();
    const res = await putReview(outsider.key, projectA, { scores: { impact: 5, craft: 5 } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    expect((await t.api('GET', `/events/${eventId}/review-assignments`, { key: outsider.key })).status).toBe(403);
    expect((await t.api('GET', `/events/${eventId}/review-assignments`, { key: org.key })).status).toBe(403);
    expect((await putReview(reviewerKey, projectA, { scores: { impact: 5, craft: 5 } }, 'evt_nope')).body.code).toBe('event_not_found');
    expect((await putReview(reviewerKey, 'prj_nope', { scores: { impact: 5, craft: 5 } })).body.code).toBe('project_not_found');
    expect((await t.api('PUT', `/events/${eventId}/projects/${projectA}/review`, { body: { scores: {} } })).status).toBe(401);

    const coi = await putReview(teamReviewerKey, projectA, { scores: { impact: 10, craft: 10 } });
    expect(coi.status).toBe(403);
    expect(coi.body.code).toBe('conflict_of_interest');
    expect((await t.api('GET', `/events/${eventId}/projects/${projectA}/review`, { key: teamReviewerKey })).body.code).toBe('conflict_of_interest');
    expect((await putReview(teamReviewerKey, projectB, { scores: { impact: 4, craft: 6 } })).status).toBe(201);
  });

  it('lets an organizer remove a reviewer, with the reviews they gave', async () => {
    const token = await inviteAndGetToken('leaving@example.com');
    const joined = await accept(token, { password: 'a good password' });
    const key = joined.body.api_key.key as string;
    expect((await putReview(key, projectA, { scores: { impact: 1, craft: 1 } })).status).toBe(201);

    const del = await t.api('DELETE', `/events/${eventId}/reviewers/${joined.body.user.id}`, { key: org.key });
    expect(del.status).toBe(204);
    expect((await putReview(key, projectA, { scores: { impact: 1, craft: 1 } })).status).toBe(403);
    const left = await t.ctx.db.selectFrom('reviews').select('id').where('reviewer', '=', joined.body.user.id).execute();
    expect(left).toEqual([]);
    expect((await t.api('DELETE', `/events/${eventId}/reviewers/${joined.body.user.id}`, { key: org.key })).status).toBe(404);
  });

  it('expires invitations after INVITATION_TTL_HOURS on the injected clock (410 invitation_expired)', async () => {
    const token = await inviteAndGetToken('late@example.com');
    t.clock.advance(168 * HOUR - 1000);
    expect((await t.api('GET', `/invitations/${token}`)).status).toBe(200);
    t.clock.advance(1000);
    const res = await accept(token, { password: 'a good password' });
    expect(res.status).toBe(410);
    expect(res.body.code).toBe('invitation_expired');
    expect((await t.api('GET', `/invitations/${token}`)).body.code).toBe('invitation_expired');
    const list = await t.api('GET', `/events/${eventId}/reviewers`, { key: org.key });
    expect(list.body.invitations.find((i: { email: string }) => i.email === 'late@example.com').status).toBe('expired');
  });

  it('counts human reviews as the group "human" in the published result, then refuses reviews (409)', async () => {
    const published = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key });
    expect(published.status).toBe(200);
    const result = await t.api('GET', `/events/${eventId}/result`);
    expect(result.status).toBe(200);
    const byProject = new Map(result.body.map((e: { project_id: string }) => [e.project_id, e]));
    // A: one human (impact 9, craft 0); B: two humans (impact 5 and 4, craft 5 and 6); weights 2 and 1.
    expect(byProject.get(projectA)).toMatchObject({ rank: 1, scores_by_dimension: { impact: 9, craft: 0 } });
    expect((byProject.get(projectA) as { scores_by_model: { human: number } }).scores_by_model.human).toBeCloseTo(6, 3);
    expect(byProject.get(projectB)).toMatchObject({ rank: 2, scores_by_dimension: { impact: 4.5, craft: 5.5 } });
    expect((byProject.get(projectB) as { score: number }).score).toBeCloseTo(14.5 / 3, 3);

    const res = await putReview(reviewerKey, projectB, { scores: { impact: 5, craft: 5 } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('results_already_published');
    expect((await t.api('GET', `/events/${eventId}/projects/${projectA}/review`, { key: reviewerKey })).status).toBe(200);
    const inv = await invite('after@example.com');
    expect(inv.status).toBe(409);
    expect(inv.body.code).toBe('event_locked');
    expect((await t.api('DELETE', `/events/${eventId}/reviewers/${reviewerId}`, { key: org.key })).status).toBe(409);
  });
});

describe.each(DIALECTS)('invitations without SMTP: the outbox (%s)', (dialect) => {
  let app: App;
  let ctx: AppContext;
  let database: DatabaseHandle;
  let testDb: TestDatabase;
  let outbox: string;
  let url: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    outbox = mkdtempSync(join(tmpdir(), 'hk-outbox-'));
    testDb = await createTestDatabase(dialect);
    const config = loadConfig({
      DATABASE_URL: testDb.config.url,
      LOG_LEVEL: 'info',
      PUBLIC_URL: 'http://hackathon.test',
      OUTBOX_DIR: outbox,
      RATE_LIMIT_ENABLED: 'false',
      REVIEW_WORKERS: 'false',
      // As in the harness: the event names a model no provider is configured for.
      AI_ACCEPT_UNCONFIGURED_MODELS: 'true',
    });
    database = openDatabase(testDb.config);
    await migrateToLatest(database.db);
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const logger = { ...(loggerOptions(config) as object), stream } as Parameters<typeof buildApp>[0]['logger'];
    ({ app, ctx } = await buildApp({ config, database, clock: new ManualClock(T0), logger }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await testDb?.drop();
    rmSync(outbox, { recursive: true, force: true });
  });

  it('writes the mail as an .eml file, logs the link once, and never logs the token elsewhere', async () => {
    // An organizer and a key, as an operator makes them with the CLI.
    const org = await ctx.accounts.createUser({ email: 'org@example.com', password: 'correct horse battery', role: 'organizer' });
    const key = (await ctx.accounts.createKey(org.id)).key;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const ev = await fetch(`${url}/api/v1/events`, { method: 'POST', headers, body: JSON.stringify(eventBody(T0)) });
    expect(ev.status).toBe(201);
    const eventId = ((await ev.json()) as { id: string }).id;

    const res = await fetch(`${url}/api/v1/events/${eventId}/reviewers`, { method: 'POST', headers, body: JSON.stringify({ email: 'local@example.com' }) });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { delivery: string }).delivery).toBe('outbox');

    const files = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const eml = readFileSync(join(outbox, files[0]!), 'utf8');
    expect(eml).toMatch(/^To: local@example\.com/m);
    const token = tokenFrom(eml);

    // Use the token over HTTP so request logs would show it if they were not redacted.
    expect((await fetch(`${url}/invitations/${token}`)).status).toBe(200);
    expect((await fetch(`${url}/api/v1/invitations/${token}`)).status).toBe(200);
    const acc = await fetch(`${url}/api/v1/invitations/${token}/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'a good password' }),
    });
    expect(acc.status).toBe(200);

    const withToken = logLines.filter((l) => l.includes(token));
    expect(withToken).toHaveLength(1);
    const line = JSON.parse(withToken[0]!) as { level: number; msg: string; outbox_file: string };
    expect(line.level).toBe(30);
    expect(line.msg).toContain(`http://hackathon.test/invitations/${token}`);
    expect(line.outbox_file).toBe(join(outbox, files[0]!));
    expect(logLines.some((l) => l.includes('/invitations/[redacted]'))).toBe(true);
  });
});
