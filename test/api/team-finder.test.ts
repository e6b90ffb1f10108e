import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectMcp, toolOk, toolProblem } from '../helpers/mcp-client.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';
import { decodeMail, mailSubject, startSmtpReceiver } from '../helpers/smtp-receiver.js';

const DAY = 24 * 3_600_000;

/**
 * The team finder: a person looking for a team is found by a leader, asks to join, is accepted and
 * is a member (mails both ways); who may see the lists; one pending request per team; a full team
 * refuses; concurrent accepts never exceed the maximum; withdraw and decline; the deadline.
 */
describe.each(DIALECTS)('team finder (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await startTestApp(dialect, {
      env: { MAIL_WORKERS: 'true', SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Site <no-reply@hackathon.test>', MAIL_POLL_MS: '50' },
    });
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const finder = (key: string | undefined, eventId: string, query = '') => t.api('GET', `/events/${eventId}/team-finder${query}`, { key });
  const look = (key: string, eventId: string, body: unknown) => t.api('PUT', `/events/${eventId}/team-finder/me`, { key, body });
  const needs = look;
  const ask = (key: string, eventId: string, rid: string, message = 'I can help') =>
    t.api('POST', `/events/${eventId}/team-finder/teams/${rid}/requests`, { key, body: { message } });
  const answer = (key: string, eventId: string, id: string, status: string) =>
    t.api('PATCH', `/events/${eventId}/join-requests/${id}`, { key, body: { status } });
  const named = async (u: TestUser, name: string, extra: Record<string, unknown> = {}) => {
    expect((await t.api('PATCH', '/me/settings', { key: u.key, body: { name, ...extra } })).status).toBe(200);
    return u;
  };

  async function eventWithTeam(max: number | null = 4) {
    const eventId = await createEvent(t, org.key, { registration_config: { open: true, auto_approve: true, fields: [], max_team_size: max } });
    const leader = await named(await quickUser(t), 'Lena Leader');
    const reg = await t.api('POST', `/events/${eventId}/register`, {
      key: leader.key,
      body: registrationBody({ fields: {}, team_name: `Otters ${Math.random().toString(36).slice(2, 6)}` }),
    });
    expect(reg.status).toBe(201);
    return { eventId, leader, rid: reg.body.id as string, teamName: reg.body.team_name as string };
  }

  it('the Bar: a person looking is found by a leader, asks to join, is accepted and is a member; mails both ways in each reader’s language', async () => {
    const { eventId, leader, rid, teamName } = await eventWithTeam();
    const seeker = await named(await quickUser(t), 'Sam Seeker', { language: 'zh', time_zone: 'Asia/Shanghai' });
    const me = await look(seeker.key, eventId, { line: '  Backend dev, likes Rust  ', skills: [' Rust ', '#Machine Learning', 'rust', 'Go_Lang'] });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      as: 'person',
      registration_id: null,
      line: 'Backend dev, likes Rust',
      skills: ['rust', 'machine-learning', 'go-lang'],
      updated_at: T0.toISOString(),
    });

    const set = await needs(leader.key, eventId, { line: 'We need ML', skills: ['Machine learning', 'Design'] });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ as: 'team', registration_id: rid, line: 'We need ML', skills: ['machine-learning', 'design'], updated_at: T0.toISOString() });

    // The leader finds the person by skill; someone looking for other things is filtered out.
    const other = await named(await quickUser(t), 'Olga Other');
    expect((await look(other.key, eventId, { line: 'Designer', skills: ['figma'] })).status).toBe(200);
    const found = await finder(leader.key, eventId, '?skill=Machine%20Learning');
    expect(found.status).toBe(200);
    expect(found.body.people.map((p: { user_id: string }) => p.user_id)).toEqual([seeker.id]);
    expect(found.body.you).toMatchObject({ looking: null, registration_id: rid, role: 'leader', team_needs: { skills: ['machine-learning', 'design'] } });
    expect(found.body.teams[0]).toMatchObject({ registration_id: rid, skills: ['machine-learning', 'design'] });
    // No addresses anywhere in the lists.
    expect(JSON.stringify(found.body)).not.toContain('@');

    // The person sees the team with its free places and asks to join.
    const seen = await finder(seeker.key, eventId);
    expect(seen.status).toBe(200);
    expect(seen.body.teams).toEqual([
      {
        registration_id: rid,
        team_name: teamName,
        leader_name: 'Lena Leader',
        member_count: 1,
        free_places: 3,
        line: 'We need ML',
        skills: ['machine-learning', 'design'],
      },
    ]);
    expect(JSON.stringify(seen.body)).not.toContain('@');
    const before = smtp.count();
    const req = await ask(seeker.key, eventId, rid, 'I did ML at uni');
    expect(req.status).toBe(201);
    expect(req.body).toMatchObject({
      registration_id: rid,
      team_name: teamName,
      user_id: seeker.id,
      name: 'Sam Seeker',
      status: 'pending',
      message: 'I did ML at uni',
    });
    const toLeader = await smtp.nextTo(leader.email, before);
    expect(mailSubject(toLeader.raw)).toContain(`Sam Seeker asks to join ${teamName}`);
    const leaderMail = decodeMail(toLeader.raw);
    expect(leaderMail).toContain('Message: I did ML at uni');
    expect(leaderMail).toContain('Skills: rust, machine-learning, go-lang');
    expect(leaderMail).toContain(`/hackathons/${eventId}/team`);
    expect(leaderMail).not.toContain(seeker.email);

    // The leader sees it and accepts: the person is a member, their entry is gone.
    const incoming = await finder(leader.key, eventId);
    expect(incoming.body.team_requests).toEqual([expect.objectContaining({ id: req.body.id, status: 'pending', name: 'Sam Seeker' })]);
    const before2 = smtp.count();
    const ok = await answer(leader.key, eventId, req.body.id, 'accepted');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: req.body.id, status: 'accepted', decided_at: T0.toISOString() });
    const team = await t.api('GET', `/events/${eventId}/team`, { key: seeker.key });
    expect(team.status).toBe(200);
    expect(team.body).toMatchObject({ registration_id: rid, your_role: 'member', member_count: 2 });
    const toSeeker = await smtp.nextTo(seeker.email, before2);
    expect(mailSubject(toSeeker.raw)).toContain(`你已加入「${teamName}」`);
    expect(decodeMail(toSeeker.raw)).toContain('接受了你的申请');
    const after = await finder(leader.key, eventId);
    expect(after.body.people.map((p: { user_id: string }) => p.user_id)).toEqual([other.id]);
    expect(after.body.teams[0]).toMatchObject({ member_count: 2, free_places: 2 });
    // Now a member: the team's entry is the leader's to set.
    const again = await look(seeker.key, eventId, { line: 'x' });
    expect(again.status).toBe(403);
    expect(again.body.code).toBe('not_team_leader');
    // The seeker sees their team's needs, and people who are looking, in their own list.
    expect((await finder(seeker.key, eventId)).body.you).toMatchObject({ looking: null, registration_id: rid, role: 'member' });
    // Accepting twice: already decided.
    const twice = await answer(leader.key, eventId, req.body.id, 'accepted');
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'join_request_not_pending', request_status: 'accepted' });
  });

  it('the lists are for people in a team of the event or looking: anonymous 401, outsiders 403', async () => {
    const { eventId } = await eventWithTeam();
    const anon = await finder(undefined, eventId);
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe('unauthorized');
    const outsider = await quickUser(t);
    const refused = await finder(outsider.key, eventId);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
    expect((await look(outsider.key, eventId, { skills: ['x'] })).status).toBe(200);
    expect((await finder(outsider.key, eventId)).status).toBe(200);
    // Stopping looking closes the lists again.
    expect((await t.api('DELETE', `/events/${eventId}/team-finder/me`, { key: outsider.key })).status).toBe(204);
    expect((await finder(outsider.key, eventId)).status).toBe(403);
    const unknown = await finder(outsider.key, 'evt_nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('event_not_found');
    const bad = await look(outsider.key, eventId, { skills: Array.from({ length: 11 }, (_, i) => `s${i}`) });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('validation_failed');
  });

  it('one pending request per person per team; withdraw, then ask again; decline mails the person; only the leader decides', async () => {
    const { eventId, leader, rid, teamName } = await eventWithTeam();
    const p = await named(await quickUser(t), 'Pat');
    expect((await look(p.key, eventId, { line: 'hi' })).status).toBe(200);
    const first = await ask(p.key, eventId, rid);
    expect(first.status).toBe(201);
    const dup = await ask(p.key, eventId, rid);
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('join_request_exists');
    // The requester cannot accept their own; a stranger cannot see it.
    const self = await answer(p.key, eventId, first.body.id, 'accepted');
    expect(self.status).toBe(403);
    expect(self.body.code).toBe('not_team_leader');
    const stranger = await quickUser(t);
    const nope = await answer(stranger.key, eventId, first.body.id, 'withdrawn');
    expect(nope.status).toBe(404);
    expect(nope.body.code).toBe('join_request_not_found');
    const gone = await answer(p.key, eventId, first.body.id, 'withdrawn');
    expect(gone.status).toBe(200);
    expect(gone.body.status).toBe('withdrawn');
    const late = await answer(leader.key, eventId, first.body.id, 'accepted');
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('join_request_not_pending');
    const second = await ask(p.key, eventId, rid);
    expect(second.status).toBe(201);
    const before = smtp.count();
    const no = await answer(leader.key, eventId, second.body.id, 'declined');
    expect(no.status).toBe(200);
    expect(no.body.status).toBe('declined');
    const mail = await smtp.nextTo(p.email, before);
    expect(mailSubject(mail.raw)).toContain(`${teamName} declined your request`);
    expect((await t.api('GET', `/events/${eventId}/team`, { key: p.key })).body.code).toBe('not_registered');
    const mine = await finder(p.key, eventId);
    expect(mine.body.my_requests.map((r: { status: string }) => r.status)).toEqual(['declined', 'withdrawn']);
    const noTeam = await ask(p.key, eventId, 'reg_nope');
    expect(noTeam.status).toBe(404);
    expect(noTeam.body.code).toBe('team_not_found');
  });

  it('a person who turned team mails off gets no request mail', async () => {
    const { eventId, leader, rid } = await eventWithTeam();
    expect((await t.api('PATCH', '/me/settings', { key: leader.key, body: { notifications: { team: false } } })).status).toBe(200);
    const p = await quickUser(t);
    expect((await ask(p.key, eventId, rid)).status).toBe(201);
    const queued = await t.ctx.db.selectFrom('mail_queue').select('kind').where('to_address', '=', leader.email).execute();
    expect(queued).toEqual([]);
  });

  it('a full team refuses requests; two accepts at once never exceed max_team_size', async () => {
    const { eventId, leader, rid } = await eventWithTeam(2);
    const a = await quickUser(t);
    const b = await quickUser(t);
    const ra = await ask(a.key, eventId, rid);
    const rb = await ask(b.key, eventId, rid);
    expect([ra.status, rb.status]).toEqual([201, 201]);
    const [x, y] = await Promise.all([answer(leader.key, eventId, ra.body.id, 'accepted'), answer(leader.key, eventId, rb.body.id, 'accepted')]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    expect([x, y].find((r) => r.status === 409)!.body.code).toBe('team_full');
    const team = await t.api('GET', `/events/${eventId}/team`, { key: leader.key });
    expect(team.body.member_count).toBe(2);
    expect(team.body.members).toHaveLength(2);
    // The loser's request stays pending; the full team is out of the list and refuses new requests.
    const c = await quickUser(t);
    expect((await look(c.key, eventId, {})).status).toBe(200);
    expect((await finder(c.key, eventId)).body.teams).toEqual([]);
    const full = await ask(c.key, eventId, rid);
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ code: 'team_full', max_team_size: 2 });
  });

  it('a member of another team cannot ask; after the submission deadline nothing changes (submission_closed)', async () => {
    const { eventId, leader, rid } = await eventWithTeam();
    const other = await eventWithTeam();
    const inTeam = await ask(other.leader.key, eventId, other.rid);
    expect(inTeam.status).toBe(404);
    expect(inTeam.body.code).toBe('team_not_found');
    const otherLeaderHere = await quickUser(t);
    const reg = await t.api('POST', `/events/${eventId}/register`, { key: otherLeaderHere.key, body: registrationBody({ fields: {}, team_name: 'Badgers' }) });
    expect(reg.status).toBe(201);
    const busy = await ask(otherLeaderHere.key, eventId, rid);
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('already_in_team');
    const p = await quickUser(t);
    const pending = await ask(p.key, eventId, rid);
    expect(pending.status).toBe(201);
    t.clock.set(T0.getTime() + 2 * DAY + 1);
    try {
      for (const res of [
        await answer(leader.key, eventId, pending.body.id, 'accepted'),
        await ask(p.key, eventId, reg.body.id as string),
        await look(p.key, eventId, { line: 'late' }),
        await needs(leader.key, eventId, { skills: ['x'] }),
      ]) {
        expect(res.status).toBe(409);
        expect(res.body.code).toBe('submission_closed');
      }
    } finally {
      t.clock.set(T0);
    }
  });

  it('over MCP: an agent looks, finds a team, asks; the leader sets needs and accepts', async () => {
    const { eventId, leader, rid } = await eventWithTeam();
    const agent = await quickUser(t);
    const ac = await connectMcp(t, agent.key);
    const lc = await connectMcp(t, leader.key);
    try {
      expect(toolOk(await callTool(ac, 'set_team_finder_entry', { event_id: eventId, line: 'An agent that writes tests', skills: ['Testing'] }))).toMatchObject(
        {
          as: 'person',
          skills: ['testing'],
        },
      );
      expect(toolOk(await callTool(lc, 'set_team_finder_entry', { event_id: eventId, skills: ['testing'] }))).toMatchObject({
        as: 'team',
        skills: ['testing'],
      });
      const people = toolOk(await callTool(lc, 'find_team', { event_id: eventId, skill: 'TESTING' }));
      expect(people.people.map((x: { user_id: string }) => x.user_id)).toEqual([agent.id]);
      const found = toolOk(await callTool(ac, 'find_team', { event_id: eventId, skill: 'testing' }));
      expect(found.teams.map((x: { registration_id: string }) => x.registration_id)).toEqual([rid]);
      const req = toolOk(await callTool(ac, 'request_to_join_team', { event_id: eventId, registration_id: rid, message: 'hello' }));
      const notMine = toolProblem(await callTool(ac, 'answer_join_request', { event_id: eventId, request_id: req.id, status: 'accepted' }));
      expect(notMine.code).toBe('not_team_leader');
      expect(toolOk(await callTool(lc, 'answer_join_request', { event_id: eventId, request_id: req.id, status: 'accepted' }))).toMatchObject({
        status: 'accepted',
      });
      expect((await t.api('GET', `/events/${eventId}/team`, { key: agent.key })).body).toMatchObject({ registration_id: rid, your_role: 'member' });
    } finally {
      await ac.close();
      await lc.close();
    }
  });
});
