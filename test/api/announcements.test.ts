import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';
import { callTool, connectMcp, toolOk } from '../helpers/mcp-client.js';
import { quickApprovedTeam, quickUser } from '../helpers/quick-users.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BODY = '**The deadlines moved.**\n\nRegistration closes 26 Nov, projects are due 28 Nov.\n\n- read the rules\n- submit early';

/**
 * Announcements: an organizer's Markdown update to a segment, by mail (the durable queue) in each
 * reader's language, exactly once per person, listed for the people it went to; scheduled ones go
 * out when the clock reaches them (the leased job queue), cancelled ones never.
 */
describe.each(DIALECTS)('announcements (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let otherOrg: TestUser;
  let eventId: string;
  let otherEventId: string;
  /** Approved, with a project. */
  let done: { leader: TestUser; member: TestUser };
  /** Approved, no project; its leader reads Chinese. */
  let open: { leader: TestUser; member: TestUser };
  /** Registered, still pending. */
  let pending: TestUser;
  let reviewer: TestUser;
  /** An approved team without a project in another event. */
  let elsewhere: TestUser;

  const post = (key: string, body: unknown, id = eventId, headers?: Record<string, string>) =>
    t.api('POST', `/events/${id}/announcements`, { key, body, ...(headers ? { headers } : {}) });
  const list = (key: string, id = eventId) => t.api('GET', `/events/${id}/announcements`, { key });
  const mails = (announcementTitle?: string) =>
    t.ctx.db
      .selectFrom('mail_queue')
      .select(['user_id', 'language', 'subject', 'text_body', 'html_body', 'event_id'])
      .where('kind', '=', 'announcement')
      .$if(announcementTitle !== undefined, (q) => q.where('subject', 'like', `%${announcementTitle}%`))
      .execute();
  const publishDue = async () => {
    await t.ctx.announcements.poll();
    await t.ctx.announcements.whenIdle();
  };

  async function teamWithMember(id: string) {
    const { team: leader } = await quickApprovedTeam(t, id, org.key);
    const inv = await t.api('POST', `/events/${id}/team/invitations`, { key: leader.key, body: {} });
    expect(inv.status).toBe(201);
    const member = await quickUser(t);
    expect((await t.api('POST', `/events/${id}/team/join`, { key: member.key, body: { join_code: inv.body.join_code } })).status).toBe(200);
    return { leader, member };
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
    otherOrg = await quickUser(t, 'organizer');
    eventId = await createEvent(t, org.key, { time_zone: 'Europe/Berlin' });
    otherEventId = await createEvent(t, otherOrg.key);
    done = await teamWithMember(eventId);
    open = await teamWithMember(eventId);
    expect((await t.api('PATCH', '/me/settings', { key: open.leader.key, body: { language: 'zh', time_zone: 'Asia/Shanghai' } })).status).toBe(200);
    const sub = await t.api('POST', `/events/${eventId}/submit`, {
      key: done.member.key,
      body: { project_name: 'Rocket', github_url: 'https://github.com/t/rocket' },
    });
    expect(sub.status).toBe(201);
    pending = await quickUser(t);
    expect((await t.api('POST', `/events/${eventId}/register`, { key: pending.key, body: registrationBody() })).status).toBe(201);
    reviewer = await quickUser(t);
    await t.database.db.insertInto('event_reviewers').values({ event_id: eventId, user_id: reviewer.id, created_at: T0.toISOString() }).execute();
    ({ team: elsewhere } = await quickApprovedTeam(t, otherEventId, otherOrg.key));
  });
  afterAll(async () => t?.close());

  it('to teams without a final submission: exactly those members, each in their language, once, and on their list', async () => {
    const res = await post(org.key, { title: 'New deadlines', body: BODY, segment: 'no_final_submission' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      event_id: eventId,
      title: 'New deadlines',
      segment: 'no_final_submission',
      state: 'published',
      publish_at: null,
      published_at: T0.toISOString(),
      recipients: 2,
    });
    expect(res.body.body_html).toContain('<strong>The deadlines moved.</strong>');

    const sent = await mails('New deadlines');
    expect(sent.map((m) => m.user_id).sort()).toEqual([open.leader.id, open.member.id].sort());
    const zh = sent.find((m) => m.user_id === open.leader.id)!;
    const en = sent.find((m) => m.user_id === open.member.id)!;
    expect(zh.language).toBe('zh');
    expect(zh.subject).toBe('【\u0001SITE_NAME\u0001】Agents Hack：New deadlines');
    expect(zh.text_body).toContain('发布了 Agents Hack 的通知');
    // The deadline in the reader's own zone (Shanghai), not ISO.
    expect(zh.text_body).toContain('（Asia/Shanghai）');
    expect(en.language).toBe('en');
    expect(en.subject).toBe('[\u0001SITE_NAME\u0001] Agents Hack: New deadlines');
    // Markdown: rendered for HTML, plain text (paragraphs and list items kept) for the text part.
    expect(en.html_body).toContain('<strong>The deadlines moved.</strong>');
    expect(en.html_body).toContain('<li>read the rules</li>');
    expect(en.text_body).toContain('The deadlines moved.\n\nRegistration closes 26 Nov, projects are due 28 Nov.\n\n- read the rules\n- submit early');
    expect(en.text_body).not.toContain('**');
    expect(en.text_body).toContain('(UTC)');

    // On the list of the people it went to, and nobody else's.
    for (const who of [open.leader, open.member]) {
      const mine = await list(who.key);
      expect(mine.status).toBe(200);
      expect(mine.body.announcements).toEqual([
        expect.objectContaining({
          id: res.body.id,
          title: 'New deadlines',
          state: 'published',
          recipients: null,
          body_html: expect.stringContaining('<li>submit early</li>'),
        }),
      ]);
    }
    for (const who of [done.leader, done.member, pending, reviewer]) expect((await list(who.key)).body.announcements).toEqual([]);
    expect((await list(elsewhere.key, otherEventId)).body.announcements).toEqual([]);

    // The audit log has it.
    const audit = await t.api('GET', `/events/${eventId}/audit`, { key: org.key });
    expect(audit.status).toBe(200);
    expect(JSON.stringify(audit.body)).toContain('announcement.published');
  });

  it('a retry with the same Idempotency-Key sends nothing twice', async () => {
    const headers = { 'idempotency-key': `ann-retry-${dialect}` };
    const body = { title: 'Retry me', body: 'Once only.', segment: 'approved' };
    const first = await post(org.key, body, eventId, headers);
    const again = await post(org.key, body, eventId, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(first.body.recipients).toBe(4);
    const sent = await mails('Retry me');
    expect(sent.map((m) => m.user_id).sort()).toEqual([done.leader.id, done.member.id, open.leader.id, open.member.id].sort());
    const rows = await t.ctx.db.selectFrom('announcements').select('id').where('title', '=', 'Retry me').execute();
    expect(rows).toHaveLength(1);
  });

  it('segments: registered takes pending teams too, reviewers the reviewers; never another event’s people', async () => {
    const all = await post(org.key, { title: 'Everyone registered', body: 'Hello.', segment: 'registered' });
    expect(all.status).toBe(201);
    expect(all.body.recipients).toBe(5);
    expect((await mails('Everyone registered')).map((m) => m.user_id).sort()).toEqual(
      [done.leader.id, done.member.id, open.leader.id, open.member.id, pending.id].sort(),
    );
    const rev = await post(org.key, { title: 'Reviewers only', body: 'Thanks.', segment: 'reviewers' });
    expect(rev.status).toBe(201);
    expect((await mails('Reviewers only')).map((m) => m.user_id)).toEqual([reviewer.id]);
    expect((await list(reviewer.key)).body.announcements.map((a: { title: string }) => a.title)).toEqual(['Reviewers only']);
    expect((await mails()).every((m) => m.event_id === eventId)).toBe(true);
  });

  it('one scheduled for later goes out when the clock reaches it, once, and not before', async () => {
    const at = new Date(T0.getTime() + HOUR).toISOString();
    const res = await post(org.key, { title: 'Later news', body: 'In an hour.', segment: 'approved', publish_at: at });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ state: 'scheduled', publish_at: at, published_at: null, recipients: null });

    t.clock.set(T0.getTime() + HOUR - 1000);
    await publishDue();
    expect(await mails('Later news')).toEqual([]);
    expect((await list(open.member.key)).body.announcements.map((a: { title: string }) => a.title)).not.toContain('Later news');

    t.clock.set(T0.getTime() + HOUR);
    await publishDue();
    await publishDue();
    expect((await mails('Later news')).map((m) => m.user_id).sort()).toEqual([done.leader.id, done.member.id, open.leader.id, open.member.id].sort());
    const orgList = await list(org.key);
    expect(orgList.body.announcements.find((a: { id: string }) => a.id === res.body.id)).toMatchObject({ state: 'published', published_at: at, recipients: 4 });
    expect((await list(open.member.key)).body.announcements[0]).toMatchObject({ title: 'Later news' });

    // A sent one cannot be unsent.
    const cancel = await t.api('DELETE', `/events/${eventId}/announcements/${res.body.id}`, { key: org.key });
    expect(cancel.status).toBe(409);
    expect(cancel.body.code).toBe('announcement_already_published');
  });

  it('a scheduled one cancelled before it is due sends nothing', async () => {
    const res = await post(org.key, {
      title: 'Never sent',
      body: 'Oops.',
      segment: 'registered',
      publish_at: new Date(t.clock.now().getTime() + HOUR).toISOString(),
    });
    expect(res.status).toBe(201);
    expect((await t.api('DELETE', `/events/${eventId}/announcements/${res.body.id}`, { key: org.key })).status).toBe(204);
    expect((await t.api('DELETE', `/events/${eventId}/announcements/${res.body.id}`, { key: org.key })).status).toBe(204);
    t.clock.advance(2 * HOUR);
    await publishDue();
    expect(await mails('Never sent')).toEqual([]);
    expect((await list(org.key)).body.announcements.find((a: { id: string }) => a.id === res.body.id)).toMatchObject({ state: 'cancelled', recipients: null });
    const audit = await t.api('GET', `/events/${eventId}/audit`, { key: org.key });
    expect(JSON.stringify(audit.body)).toContain('announcement.cancelled');
    expect(JSON.stringify(audit.body)).toContain('announcement.scheduled');

    const unknown = await t.api('DELETE', `/events/${eventId}/announcements/ann_nope`, { key: org.key });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('announcement_not_found');
  });

  it('permissions: a participant cannot post (403), another event’s organizer neither (403), nobody without a key (401)', async () => {
    const body = { title: 'x', body: 'y', segment: 'registered' };
    const member = await post(open.member.key, body);
    expect(member.status).toBe(403);
    expect(member.body.code).toBe('forbidden');
    const other = await post(otherOrg.key, body);
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('forbidden');
    expect((await t.api('POST', `/events/${eventId}/announcements`, { body })).status).toBe(401);
    const cancel = await t.api('DELETE', `/events/${eventId}/announcements/ann_nope`, { key: open.member.key });
    expect(cancel.status).toBe(403);
    const missing = await post(org.key, body, 'evt_missing');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('event_not_found');
  });

  it('validation: empty or long title, long body, unknown segment, a malformed time (422 validation_failed)', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: '', body: 'b', segment: 'registered' }, 'title'],
      [{ title: '   ', body: 'b', segment: 'registered' }, 'title'],
      [{ title: 'x'.repeat(121), body: 'b', segment: 'registered' }, 'title'],
      [{ title: 't', body: 'b'.repeat(10_001), segment: 'registered' }, 'body'],
      [{ title: 't', body: 'b', segment: 'everyone' }, 'segment'],
      [{ title: 't', body: 'b', segment: 'registered', publish_at: 'tomorrow' }, 'publish_at'],
    ];
    for (const [body, field] of cases) {
      const res = await post(org.key, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(JSON.stringify(res.body.errors)).toContain(field);
    }
    expect(await mails('t:')).toEqual([]);
  });

  it('MCP: post_announcement (organizer) and list_announcements (participant)', async () => {
    const orgClient = await connectMcp(t, org.key);
    const posted = toolOk(await callTool(orgClient, 'post_announcement', { event_id: eventId, title: 'Via MCP', body: 'From an agent.', segment: 'approved' }));
    expect(posted).toMatchObject({ title: 'Via MCP', state: 'published', recipients: 4 });
    await orgClient.close();
    const memberClient = await connectMcp(t, open.member.key);
    const listed = toolOk(await callTool(memberClient, 'list_announcements', { event_id: eventId }));
    expect(listed.announcements[0]).toMatchObject({ id: posted.id, title: 'Via MCP' });
    await memberClient.close();
  });

  it('winners: refused before the result is published (409 results_not_published), then the placed teams only', async () => {
    const early = await post(org.key, { title: 'Congrats', body: 'Well done.', segment: 'winners' });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('results_not_published');
    const later = await post(org.key, {
      title: 'Congrats',
      body: 'Well done.',
      segment: 'winners',
      publish_at: new Date(t.clock.now().getTime() + DAY).toISOString(),
    });
    expect(later.status).toBe(409);

    // Past the submission deadline: judging; publish (unscored: forced). Only the team with a project is placed.
    t.clock.set(T0.getTime() + 2 * DAY + HOUR);
    const pub = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key, body: { force: true } });
    expect(pub.status).toBe(200);
    const res = await post(org.key, { title: 'Congrats', body: 'Well done.', segment: 'winners' });
    expect(res.status).toBe(201);
    expect((await mails('Congrats')).map((m) => m.user_id).sort()).toEqual([done.leader.id, done.member.id].sort());
  });
});
