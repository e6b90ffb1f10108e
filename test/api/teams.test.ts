import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool } from '../helpers/mcp-client.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const project = (over: Record<string, unknown> = {}) => ({ project_name: 'Rocket', github_url: 'https://github.com/team/rocket', ...over });

describe.each(DIALECTS)('teams (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => t?.close());

  const team = (key: string, eventId: string) => t.api('GET', `/events/${eventId}/team`, { key });
  const invite = (key: string, eventId: string, body: unknown = {}) => t.api('POST', `/events/${eventId}/team/invitations`, { key, body });
  const join = (key: string, eventId: string, code: string) => t.api('POST', `/events/${eventId}/team/join`, { key, body: { join_code: code } });
  const mine = (key: string, eventId: string) => t.api('GET', `/events/${eventId}/my-registration`, { key });
  const submit = (key: string, eventId: string, body: unknown = project()) => t.api('POST', `/events/${eventId}/submit`, { key, body });

  /** An event, a leader with an (approved unless told) registration, and a join code. */
  async function teamWithCode(opts: { config?: Record<string, unknown>; approve?: boolean } = {}) {
    const eventId = await createEvent(t, org.key, opts.config ? { registration_config: { open: true, auto_approve: false, fields: [], ...opts.config } } : {});
    const leader = await quickUser(t);
    const reg = await t.api('POST', `/events/${eventId}/register`, { key: leader.key, body: registrationBody(opts.config ? { fields: {} } : {}) });
    expect(reg.status).toBe(201);
    if (opts.approve !== false) {
      expect((await t.api('POST', `/events/${eventId}/registrations/${reg.body.id}/approve`, { key: org.key })).status).toBe(200);
    }
    const inv = await invite(leader.key, eventId);
    expect(inv.status).toBe(201);
    return { eventId, leader, registrationId: reg.body.id as string, code: inv.body.join_code as string, invitationId: inv.body.id as string };
  }

  it('an existing single-account registration is a team of one led by its registrant', async () => {
    const eventId = await createEvent(t, org.key);
    const leader = await quickUser(t);
    const reg = await t.api('POST', `/events/${eventId}/register`, { key: leader.key, body: registrationBody() });
    expect(reg.status).toBe(201);
    const res = await team(leader.key, eventId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      event_id: eventId,
      registration_id: reg.body.id,
      status: 'pending',
      your_role: 'leader',
      leader: { user_id: leader.id },
      member_count: 1,
      max_team_size: null,
      min_team_size: null,
      invitations: [],
      project: null,
      result: null,
    });
    expect(res.body.members).toEqual([
      { user_id: leader.id, name: leader.email.split('@')[0], email: leader.email, role: 'leader', joined_at: reg.body.created_at },
    ]);
  });

  it('a member joins with the code, reads the registration and submits; the project records who changed it', async () => {
    const { eventId, leader, registrationId, code, invitationId } = await teamWithCode();
    const member = await quickUser(t);
    const joined = await join(member.key, eventId, code);
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ registration_id: registrationId, your_role: 'member', member_count: 2, invitations: [] });
    expect(joined.body.members.map((m: { user_id: string; role: string }) => [m.user_id, m.role])).toEqual([
      [leader.id, 'leader'],
      [member.id, 'member'],
    ]);
    const leaderView = await team(leader.key, eventId);
    expect(leaderView.body.invitations).toEqual([expect.objectContaining({ id: invitationId, email: null })]);

    const read = await mine(member.key, eventId);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: registrationId, status: 'approved' });

    const first = await submit(member.key, eventId);
    expect(first.status).toBe(201);
    expect(first.body.updated_by).toEqual({ user_id: member.id, name: member.email.split('@')[0] });
    t.clock.set(T0.getTime() + 60_000);
    try {
      const second = await submit(leader.key, eventId, project({ project_name: 'Rocket 2' }));
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({
        project_name: 'Rocket 2',
        updated_by: { user_id: leader.id },
        updated_at: new Date(T0.getTime() + 60_000).toISOString(),
      });
    } finally {
      t.clock.set(T0);
    }
    const seen = await team(member.key, eventId);
    expect(seen.body.project).toMatchObject({ project_name: 'Rocket 2', updated_by: { user_id: leader.id } });
    expect((await mine(member.key, eventId)).body.project).toMatchObject({ updated_by: { user_id: leader.id } });
  });

  it('20 people joining at once with a maximum of 4: exactly 3 join', async () => {
    const { eventId, leader, code } = await teamWithCode({ config: { max_team_size: 4 } });
    const people = await Promise.all(Array.from({ length: 20 }, () => quickUser(t)));
    const answers = await Promise.all(people.map((p) => join(p.key, eventId, code)));
    const statuses = answers.map((a) => (a.status === 200 ? 'joined' : `${a.status} ${a.body.code}`));
    expect(statuses.filter((s) => s === 'joined')).toHaveLength(3);
    expect(statuses.filter((s) => s !== 'joined')).toEqual(Array(17).fill('409 team_full'));
    expect(answers.find((a) => a.status === 409)!.body.code).toBe('team_full');
    const res = await team(leader.key, eventId);
    expect(res.body.members).toHaveLength(4);
    expect(res.body.member_count).toBe(4);
  });

  it('a person is in one team per event: joining a second team or registering is refused', async () => {
    const a = await teamWithCode();
    const bLeader = await quickUser(t);
    const bReg = await t.api('POST', `/events/${a.eventId}/register`, { key: bLeader.key, body: registrationBody() });
    expect(bReg.status).toBe(201);
    const bCode = (await invite(bLeader.key, a.eventId)).body.join_code as string;
    const person = await quickUser(t);
    expect((await join(person.key, a.eventId, a.code)).status).toBe(200);
    const again = await join(person.key, a.eventId, a.code);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'already_in_team', registration_id: a.registrationId });
    const other = await join(person.key, a.eventId, bCode);
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 'already_in_team', registration_id: a.registrationId });
    const reg = await t.api('POST', `/events/${a.eventId}/register`, { key: person.key, body: registrationBody() });
    expect(reg.status).toBe(409);
    expect(reg.body).toMatchObject({ code: 'already_in_team', registration_id: a.registrationId });
    // The leader of one team cannot join another either.
    const leaderJoins = await join(bLeader.key, a.eventId, a.code);
    expect(leaderJoins.status).toBe(409);
    expect(leaderJoins.body).toMatchObject({ code: 'already_in_team', registration_id: bReg.body.id });
  });

  it('a member cannot remove, withdraw, invite, rename, revoke or hand over', async () => {
    const { eventId, leader, code, invitationId } = await teamWithCode({ approve: false });
    const member = await quickUser(t);
    expect((await join(member.key, eventId, code)).status).toBe(200);
    const tries = [
      t.api('DELETE', `/events/${eventId}/team/members/${leader.id}`, { key: member.key }),
      t.api('DELETE', `/events/${eventId}/team`, { key: member.key }),
      invite(member.key, eventId),
      t.api('PATCH', `/events/${eventId}/team`, { key: member.key, body: { team_name: 'Mine now' } }),
      t.api('DELETE', `/events/${eventId}/team/invitations/${invitationId}`, { key: member.key }),
      t.api('POST', `/events/${eventId}/team/leader`, { key: member.key, body: { user_id: member.id } }),
    ];
    for (const res of await Promise.all(tries)) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('not_team_leader');
    }
    const after = await team(leader.key, eventId);
    expect(after.body).toMatchObject({ status: 'pending', member_count: 2, leader: { user_id: leader.id } });
    expect(after.body.invitations).toHaveLength(1);
  });

  it('a removed member loses access at once and cannot submit', async () => {
    const { eventId, leader, code } = await teamWithCode();
    const member = await quickUser(t);
    expect((await join(member.key, eventId, code)).status).toBe(200);
    expect((await mine(member.key, eventId)).status).toBe(200);
    const removed = await t.api('DELETE', `/events/${eventId}/team/members/${member.id}`, { key: leader.key });
    expect(removed.status).toBe(204);
    const read = await mine(member.key, eventId);
    expect(read.status).toBe(404);
    expect(read.body.code).toBe('not_registered');
    const sub = await submit(member.key, eventId);
    expect(sub.status).toBe(404);
    expect(sub.body.code).toBe('not_registered');
    expect((await team(member.key, eventId)).body.code).toBe('not_registered');
    expect((await team(leader.key, eventId)).body.member_count).toBe(1);
    const twice = await t.api('DELETE', `/events/${eventId}/team/members/${member.id}`, { key: leader.key });
    expect(twice.status).toBe(404);
    expect(twice.body.code).toBe('team_member_not_found');
  });

  it('a member leaves; the leader must hand over first; after handing over, the old leader is a member', async () => {
    const { eventId, leader, registrationId, code } = await teamWithCode();
    const alone = await t.api('POST', `/events/${eventId}/team/leave`, { key: leader.key });
    expect(alone.status).toBe(409);
    expect(alone.body.code).toBe('leader_must_hand_over');
    const m1 = await quickUser(t);
    const m2 = await quickUser(t);
    expect((await join(m1.key, eventId, code)).status).toBe(200);
    expect((await join(m2.key, eventId, code)).status).toBe(200);
    expect((await t.api('POST', `/events/${eventId}/team/leave`, { key: m2.key })).status).toBe(204);
    expect((await mine(m2.key, eventId)).body.code).toBe('not_registered');
    const notMember = await t.api('POST', `/events/${eventId}/team/leader`, { key: leader.key, body: { user_id: m2.id } });
    expect(notMember.status).toBe(404);
    expect(notMember.body.code).toBe('team_member_not_found');
    const handed = await t.api('POST', `/events/${eventId}/team/leader`, { key: leader.key, body: { user_id: m1.id } });
    expect(handed.status).toBe(200);
    expect(handed.body).toMatchObject({ your_role: 'member', leader: { user_id: m1.id } });
    expect((await team(m1.key, eventId)).body.your_role).toBe('leader');
    // The organizer's list names the new leader's registration; the old leader may now leave.
    expect((await t.api('POST', `/events/${eventId}/team/leave`, { key: leader.key })).status).toBe(204);
    const list = await t.api('GET', `/events/${eventId}/registrations`, { key: org.key });
    expect(list.body.find((r: { id: string }) => r.id === registrationId)).toBeTruthy();
    expect((await team(m1.key, eventId)).body.members.map((m: { user_id: string }) => m.user_id)).toEqual([m1.id]);
  });

  it('join codes expire and can be revoked, by id or by code', async () => {
    const { eventId, leader, code, invitationId } = await teamWithCode();
    const short = await invite(leader.key, eventId, { expires_in_hours: 1 });
    expect(short.body.expires_at).toBe(new Date(T0.getTime() + HOUR).toISOString());
    expect(short.body.join_url).toBe(`${t.ctx.config.publicUrl}/hackathons/${eventId}/join?code=${short.body.join_code}`);
    const p = await quickUser(t);
    t.clock.set(T0.getTime() + HOUR);
    try {
      const expired = await join(p.key, eventId, short.body.join_code);
      expect(expired.status).toBe(404);
      expect(expired.body.code).toBe('join_code_invalid');
    } finally {
      t.clock.set(T0);
    }
    expect((await t.api('DELETE', `/events/${eventId}/team/invitations/${invitationId}`, { key: leader.key })).status).toBe(204);
    const revoked = await join(p.key, eventId, code);
    expect(revoked.status).toBe(404);
    expect(revoked.body.code).toBe('join_code_invalid');
    const third = await invite(leader.key, eventId);
    expect((await t.api('DELETE', `/events/${eventId}/team/invitations/${third.body.join_code}`, { key: leader.key })).status).toBe(204);
    expect((await join(p.key, eventId, third.body.join_code)).body.code).toBe('join_code_invalid');
    expect((await join(p.key, eventId, 'x'.repeat(32))).body.code).toBe('join_code_invalid');
    const unknown = await t.api('DELETE', `/events/${eventId}/team/invitations/tinv_nothing`, { key: leader.key });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('join_code_invalid');
  });

  it('a code of one event does not join a team of another, and nobody joins after the submission deadline', async () => {
    const a = await teamWithCode();
    const otherEvent = await createEvent(t, org.key);
    const p = await quickUser(t);
    const wrong = await join(p.key, otherEvent, a.code);
    expect(wrong.status).toBe(404);
    expect(wrong.body.code).toBe('join_code_invalid');
    t.clock.set(T0.getTime() + 2 * DAY + 1);
    try {
      const late = await join(p.key, a.eventId, a.code);
      expect(late.status).toBe(409);
      expect(late.body.code).toBe('submission_closed');
    } finally {
      t.clock.set(T0);
    }
  });

  it('min_team_size is enforced at submit and the event refuses min above max', async () => {
    const { eventId, leader, code } = await teamWithCode({ config: { min_team_size: 2, max_team_size: 3 } });
    const small = await submit(leader.key, eventId);
    expect(small.status).toBe(409);
    expect(small.body).toMatchObject({ code: 'team_too_small', members_needed: 1, min_team_size: 2 });
    const m = await quickUser(t);
    expect((await join(m.key, eventId, code)).status).toBe(200);
    expect((await submit(leader.key, eventId)).status).toBe(201);
    const bad = await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { registration_config: { min_team_size: 5 } } });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('validation_failed');
    const read = await t.api('GET', `/events/${eventId}`, { key: org.key });
    expect(read.body.registration_config).toMatchObject({ min_team_size: 2, max_team_size: 3 });
    const zero = await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { registration_config: { max_team_size: 0 } } });
    expect(zero.status).toBe(422);
  });

  it('the leader renames while pending only, and withdraws; a withdrawn team may register again', async () => {
    const { eventId, leader, registrationId, code } = await teamWithCode({ approve: false });
    const renamed = await t.api('PATCH', `/events/${eventId}/team`, { key: leader.key, body: { team_name: 'New Name' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.team_name).toBe('New Name');
    expect((await t.api('POST', `/events/${eventId}/registrations/${registrationId}/approve`, { key: org.key })).status).toBe(200);
    const late = await t.api('PATCH', `/events/${eventId}/team`, { key: leader.key, body: { team_name: 'Too Late' } });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('registration_not_pending');
    const gone = await t.api('DELETE', `/events/${eventId}/team`, { key: leader.key });
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ status: 'withdrawn', invitations: [] });
    const p = await quickUser(t);
    expect((await join(p.key, eventId, code)).body.code).toBe('join_code_invalid');
    expect((await submit(leader.key, eventId)).body.code).toBe('registration_not_approved');
    const again = await t.api('POST', `/events/${eventId}/register`, { key: leader.key, body: registrationBody() });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: registrationId, status: 'pending', reapplied: true, attempt: 2 });
  });

  it('strangers get 404 not_registered from every team route; another team cannot touch this one', async () => {
    const a = await teamWithCode();
    const b = await teamWithCode();
    const stranger = await quickUser(t);
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/events/${a.eventId}/team`],
      ['PATCH', `/events/${a.eventId}/team`, { team_name: 'X' }],
      ['DELETE', `/events/${a.eventId}/team`],
      ['POST', `/events/${a.eventId}/team/invitations`, {}],
      ['DELETE', `/events/${a.eventId}/team/invitations/${a.invitationId}`],
      ['POST', `/events/${a.eventId}/team/leave`],
      ['DELETE', `/events/${a.eventId}/team/members/${a.leader.id}`],
      ['POST', `/events/${a.eventId}/team/leader`, { user_id: stranger.id }],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.api(method, path, { key: stranger.key, ...(body !== undefined ? { body } : {}) });
      expect(`${method} ${path} ${res.status} ${res.body.code}`).toBe(`${method} ${path} 404 not_registered`);
    }
    // b's leader is in another event's team: in a's event they are a stranger too.
    expect((await team(b.leader.key, a.eventId)).body.code).toBe('not_registered');
    // Inside one event, a leader cannot remove another team's leader nor revoke its codes.
    const c = await quickUser(t);
    const cReg = await t.api('POST', `/events/${a.eventId}/register`, { key: c.key, body: registrationBody() });
    expect(cReg.status).toBe(201);
    const rm = await t.api('DELETE', `/events/${a.eventId}/team/members/${a.leader.id}`, { key: c.key });
    expect(rm.status).toBe(404);
    expect(rm.body.code).toBe('team_member_not_found');
    const rv = await t.api('DELETE', `/events/${a.eventId}/team/invitations/${a.invitationId}`, { key: c.key });
    expect(rv.status).toBe(404);
    expect(rv.body.code).toBe('join_code_invalid');
    const rvCode = await t.api('DELETE', `/events/${a.eventId}/team/invitations/${a.code}`, { key: c.key });
    expect(rvCode.body.code).toBe('join_code_invalid');
    const ho = await t.api('POST', `/events/${a.eventId}/team/leader`, { key: c.key, body: { user_id: a.leader.id } });
    expect(ho.status).toBe(404);
    expect(ho.body.code).toBe('team_member_not_found');
    expect((await team(a.leader.key, a.eventId)).body.invitations).toHaveLength(1);
    // Without a key: 401.
    expect((await t.api('GET', `/events/${a.eventId}/team`)).status).toBe(401);
  });
});

describe.each(DIALECTS)('teams: organizer list, webhooks and MCP (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  const clients: Client[] = [];

  beforeAll(async () => {
    // Workers off: deliveries stay queued, read through the deliveries route; nothing is sent.
    t = await startTestApp(dialect, { env: { WEBHOOKS_ALLOW_LOOPBACK: 'true', WEBHOOKS_WORKERS: 'false' } });
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await t?.close();
  });

  async function mcp(key: string): Promise<Client> {
    const client = new Client({ name: 'teams-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/api/v1/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    clients.push(client);
    return client;
  }
  const json = (r: CallToolResult) => JSON.parse((r.content[0] as { text: string }).text);

  it("the organizer's list shows each team's members and count", async () => {
    const eventId = await createEvent(t, org.key);
    const leader = await quickUser(t);
    const reg = await t.api('POST', `/events/${eventId}/register`, { key: leader.key, body: registrationBody() });
    const code = (await t.api('POST', `/events/${eventId}/team/invitations`, { key: leader.key, body: {} })).body.join_code;
    const member = await quickUser(t);
    expect((await t.api('POST', `/events/${eventId}/team/join`, { key: member.key, body: { join_code: code } })).status).toBe(200);
    const list = await t.api('GET', `/events/${eventId}/registrations`, { key: org.key });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ id: reg.body.id, member_count: 2 });
    expect(list.body[0].members.map((m: { user_id: string; email: string; role: string }) => [m.user_id, m.email, m.role])).toEqual([
      [leader.id, leader.email, 'leader'],
      [member.id, member.email, 'member'],
    ]);
  });

  it('the registrations CSV names every member; only owners read it', async () => {
    const eventId = await createEvent(t, org.key);
    const leader = await quickUser(t);
    const reg = await t.api('POST', `/events/${eventId}/register`, { key: leader.key, body: registrationBody({ team_name: '=Formula Team' }) });
    const code = (await t.api('POST', `/events/${eventId}/team/invitations`, { key: leader.key, body: {} })).body.join_code;
    const member = await quickUser(t);
    expect((await t.api('POST', `/events/${eventId}/team/join`, { key: member.key, body: { join_code: code } })).status).toBe(200);
    const res = await t.api('GET', `/events/${eventId}/registrations.csv`, { key: org.key });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = res.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'registration_id,team_name,status,track_id,contact_email,github_url,member_count,members,attempt,created_at,updated_at,field:repo,field:why',
    );
    expect(lines).toHaveLength(2);
    const leaderName = leader.email.split('@')[0];
    const memberName = member.email.split('@')[0];
    expect(lines[1]).toContain(`${reg.body.id},'=Formula Team,pending,tools,${leader.email},`);
    expect(lines[1]).toContain(`,2,${leaderName} <${leader.email}> (leader); ${memberName} <${member.email}> (member),1,`);
    const refused = await t.api('GET', `/events/${eventId}/registrations.csv`, { key: leader.key });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
  });

  it("team.member.joined / left reach the organizer's and every member's subscriptions, not another team's", async () => {
    const eventId = await createEvent(t, org.key);
    const leader = await quickUser(t);
    const other = await quickUser(t);
    const member = await quickUser(t);
    await t.api('POST', `/events/${eventId}/register`, { key: leader.key, body: registrationBody() });
    await t.api('POST', `/events/${eventId}/register`, { key: other.key, body: registrationBody() });
    const subscribe = async (key: string) => {
      const res = await t.api('POST', '/webhooks', {
        key,
        body: { url: 'http://127.0.0.1:9/hook', events: ['team.member.joined', 'team.member.left', 'project.submitted'], event_id: eventId },
      });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const hooks = {
      org: await subscribe(org.key),
      leader: await subscribe(leader.key),
      other: await subscribe(other.key),
      member: await subscribe(member.key),
    };
    const code = (await t.api('POST', `/events/${eventId}/team/invitations`, { key: leader.key, body: {} })).body.join_code;
    expect((await t.api('POST', `/events/${eventId}/team/join`, { key: member.key, body: { join_code: code } })).status).toBe(200);
    expect((await t.api('DELETE', `/events/${eventId}/team/members/${member.id}`, { key: leader.key })).status).toBe(204);
    const kinds = async (owner: string, hook: string) =>
      ((await t.api('GET', `/webhooks/${hook}/deliveries`, { key: owner })).body as Array<{ type: string; payload: { data: { removed: boolean } } }>)
        .map((d) => `${d.type}${d.type === 'team.member.left' ? ` removed=${d.payload.data.removed}` : ''}`)
        .sort();
    const both = ['team.member.joined', 'team.member.left removed=true'];
    expect(await kinds(org.key, hooks.org)).toEqual(both);
    expect(await kinds(leader.key, hooks.leader)).toEqual(both);
    expect(await kinds(member.key, hooks.member)).toEqual(both);
    expect(await kinds(other.key, hooks.other)).toEqual([]);
  });

  it('the MCP tools drive the team routes with the same answers and refusals', async () => {
    const eventId = await createEvent(t, org.key);
    const leader = await quickUser(t);
    const member = await quickUser(t);
    const reg = await t.api('POST', `/events/${eventId}/register`, { key: leader.key, body: registrationBody() });
    const lc = await mcp(leader.key);
    const mc = await mcp(member.key);
    const none = await callTool(mc, 'get_team', { event_id: eventId });
    expect(none.isError).toBe(true);
    expect(json(none)).toMatchObject({ code: 'not_registered', action: expect.stringContaining('join_team') });
    const inv = await callTool(lc, 'create_team_invitation', { event_id: eventId, expires_in_hours: 2 });
    expect(inv.isError).toBeFalsy();
    expect(inv.structuredContent).toMatchObject({ expires_at: new Date(T0.getTime() + 2 * HOUR).toISOString() });
    const joined = await callTool(mc, 'join_team', { event_id: eventId, join_code: (inv.structuredContent as { join_code: string }).join_code });
    expect(joined.structuredContent).toMatchObject({ registration_id: reg.body.id, your_role: 'member', member_count: 2 });
    const refused = await callTool(mc, 'remove_team_member', { event_id: eventId, user_id: leader.id });
    expect(refused.isError).toBe(true);
    expect(json(refused)).toMatchObject({ code: 'not_team_leader', status: 403, detail: expect.any(String), action: expect.stringContaining('get_team') });
    const renamed = await callTool(lc, 'rename_team', { event_id: eventId, team_name: 'Renamed By MCP' });
    expect(renamed.structuredContent).toMatchObject({ team_name: 'Renamed By MCP' });
    const handed = await callTool(lc, 'hand_over_team', { event_id: eventId, user_id: member.id });
    expect(handed.structuredContent).toMatchObject({ your_role: 'member', leader: { user_id: member.id } });
    const left = await callTool(lc, 'leave_team', { event_id: eventId });
    expect(left.structuredContent).toEqual({ done: true });
    const inv2 = await callTool(mc, 'create_team_invitation', { event_id: eventId });
    const revoked = await callTool(mc, 'revoke_team_invitation', { event_id: eventId, code: (inv2.structuredContent as { id: string }).id });
    expect(revoked.structuredContent).toEqual({ event_id: eventId, code: (inv2.structuredContent as { id: string }).id, deleted: true });
    const gone = await callTool(mc, 'withdraw_registration', { event_id: eventId });
    expect(gone.structuredContent).toMatchObject({ status: 'withdrawn', member_count: 1 });
    const stranger = await callTool(lc, 'get_team', { event_id: eventId });
    expect(json(stranger).code).toBe('not_registered');
    const notMember = await callTool(mc, 'remove_team_member', { event_id: eventId, user_id: leader.id });
    expect(json(notMember).code).toBe('team_member_not_found');
  });
});
