import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';
import { callTool, connectMcp, toolProblem } from '../helpers/mcp-client.js';
import { quickApprovedTeam, quickUser } from '../helpers/quick-users.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The rules that keep the people's choice from being gamed, each broken on purpose once and caught
 * here: every member (not only the leader) is refused a vote for the own team, before and after
 * leaving or being removed, over HTTP and MCP; the window is closed at closes_at itself; and the
 * counting (the organizer's tally and the people's choice frozen at publication alike) leaves out
 * disabled accounts, own or former teams, new accounts when exclude_new_accounts is on and
 * projects taken out, telling the organizer how many votes each reason left out.
 */
describe.each(DIALECTS)('votes that cannot be gamed (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let eventId: string;
  let closesAt: number;
  /** A: a team of three (leader, and two members who joined before the deadline); B, C, D: teams of one. */
  const p: Record<'A' | 'B' | 'C' | 'D', string> = { A: '', B: '', C: '', D: '' };
  const leaders: Record<string, TestUser> = {};
  let regD: string;
  let member1: TestUser;
  let member2: TestUser;
  /** Accounts created before the vote opens. */
  let v1: TestUser;
  let v2: TestUser;
  let v3: TestUser;
  let vDisabled: TestUser;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { REVIEW_WORKERS: 'false' } });
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await t?.close();
  });

  const vote = (key: string, project: string) => t.api<any>('POST', `/events/${eventId}/gallery/${project}/vote`, { key });
  const tally = async () => {
    const res = await t.api<any>('GET', `/events/${eventId}/votes`, { key: org.key });
    expect(res.status).toBe(200);
    return res.body;
  };
  const row = (body: any, project: string) => body.projects.find((x: any) => x.project_id === project);
  const none = { disabled_account: 0, own_or_former_team: 0, new_account: 0, project_excluded: 0 };

  it('sets up a vote with four projects; team A has two members besides its leader', async () => {
    closesAt = T0.getTime() + 4 * DAY;
    eventId = await createEvent(t, org.key, {
      models: [],
      voting: { enabled: true, closes_at: new Date(closesAt).toISOString(), votes_per_person: 3, per_track: false },
    });
    for (const name of ['A', 'B', 'C', 'D'] as const) {
      const { team, registrationId } = await quickApprovedTeam(t, eventId, org.key, { track_id: 'tools' });
      leaders[name] = team;
      if (name === 'D') regD = registrationId;
      if (name === 'A') {
        for (const i of [1, 2]) {
          const inv = await t.api<any>('POST', `/events/${eventId}/team/invitations`, { key: team.key, body: {} });
          const m = await quickUser(t);
          expect((await t.api('POST', `/events/${eventId}/team/join`, { key: m.key, body: { join_code: inv.body.join_code } })).status).toBe(200);
          if (i === 1) member1 = m;
          else member2 = m;
        }
      }
      const res = await t.api<any>('POST', `/events/${eventId}/submit`, {
        key: team.key,
        body: { project_name: `P${name}`, github_url: 'https://github.com/e/r' },
      });
      expect(res.status).toBe(201);
      p[name] = res.body.id;
    }
    [v1, v2, v3, vDisabled] = await Promise.all([quickUser(t), quickUser(t), quickUser(t), quickUser(t)]);
    const event = await t.api<any>('GET', `/events/${eventId}`);
    t.clock.set(Date.parse(event.body.submission_deadline) + HOUR);
  });

  it('refuses an ordinary member (not only the leader) a vote for the own team, over HTTP and MCP', async () => {
    for (const who of [member1, member2, leaders.A!]) {
      const res = await vote(who.key, p.A);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('own_project');
    }
    const client = await connectMcp(t, member2.key, 'voting-rules-test');
    clients.push(client);
    expect(toolProblem(await callTool(client, 'vote_for_project', { event_id: eventId, project_id: p.A }))).toMatchObject({ status: 403, code: 'own_project' });
    expect((await t.api<any>('GET', `/events/${eventId}/votes/me`, { key: member1.key })).body).toMatchObject({ votes: [], own_project_ids: [p.A] });
  });

  it('refuses the vote for the former team after leaving it and after being removed from it (HTTP and MCP)', async () => {
    expect((await t.api('POST', `/events/${eventId}/team/leave`, { key: member1.key })).status).toBe(204);
    expect((await t.api('DELETE', `/events/${eventId}/team/members/${member2.id}`, { key: leaders.A!.key })).status).toBe(204);
    for (const who of [member1, member2]) {
      const res = await vote(who.key, p.A);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('own_project');
    }
    expect(toolProblem(await callTool(clients[0]!, 'vote_for_project', { event_id: eventId, project_id: p.A }))).toMatchObject({
      status: 403,
      code: 'own_project',
    });
    // Another team's project is still theirs to vote for (and counts).
    expect((await vote(member1.key, p.B)).status).toBe(201);
    expect((await t.api<any>('GET', `/events/${eventId}/votes/me`, { key: member2.key })).body.own_project_ids).toEqual([p.A]);
  });

  it('is open until just before closes_at and closed at closes_at itself', async () => {
    for (const [who, project] of [
      [v1, p.B],
      [v1, p.C],
      [v1, p.D],
      [v2, p.B],
      [v2, p.A],
      [vDisabled, p.B],
    ] as const) {
      expect((await vote(who.key, project)).status).toBe(201);
    }
    // An account made after the vote opened votes while exclude_new_accounts is off.
    const newcomer = await quickUser(t);
    expect((await vote(newcomer.key, p.B)).status).toBe(201);
    // A vote by a team's own leader from before the rule (as stored by an older version): kept, never counted.
    await t.ctx.db
      .insertInto('votes')
      .values({ event_id: eventId, project_id: p.B, user_id: leaders.B!.id, scope: '', slot: 1, created_at: t.clock.now().toISOString() })
      .execute();

    t.clock.set(closesAt - 1);
    expect((await vote(v3.key, p.A)).status).toBe(201);
    expect((await t.api<any>('GET', `/events/${eventId}/votes/me`, { key: v3.key })).body.open).toBe(true);
    t.clock.set(closesAt);
    const late = await vote(v1.key, p.A);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'voting_closed', closes_at: new Date(closesAt).toISOString() });
    const withdraw = await t.api<any>('DELETE', `/events/${eventId}/gallery/${p.A}/vote`, { key: v3.key });
    expect(withdraw.status).toBe(409);
    expect(withdraw.body.code).toBe('voting_closed');
    expect((await t.api<any>('GET', `/events/${eventId}/votes/me`, { key: v3.key })).body.open).toBe(false);
  });

  it('tells the organizer, per project and in total, how many votes were cast, counted and left out, and why', async () => {
    const before = await tally();
    expect(before).toMatchObject({ votes: 10, counted: 9, excluded_votes: { ...none, team_not_approved: 0, own_or_former_team: 1 } });
    expect(row(before, p.B)).toMatchObject({ rank: 1, cast: 6, votes: 5, excluded_votes: { ...none, own_or_former_team: 1 }, excluded: false });

    // A disabled voter, a project taken out, a team no longer approved, and only accounts older than the window.
    const admin = await quickUser(t, 'admin');
    expect((await t.api('PATCH', `/admin/users/${vDisabled.id}`, { key: admin.key, body: { disabled: true } })).status).toBe(200);
    expect((await t.api('PUT', `/events/${eventId}/votes/exclusions/${p.C}`, { key: org.key })).status).toBe(204);
    expect((await t.api('POST', `/events/${eventId}/registrations/${regD}/reject`, { key: org.key, body: {} })).status).toBe(200);
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { voting: { exclude_new_accounts: true } } })).status).toBe(200);

    const after = await tally();
    expect(after).toMatchObject({
      votes: 10,
      voters: 7,
      counted: 5,
      excluded_votes: { team_not_approved: 1, project_excluded: 1, disabled_account: 1, own_or_former_team: 1, new_account: 1 },
    });
    expect(after.projects).toEqual([
      {
        rank: 1,
        project_id: p.B,
        project_name: 'PB',
        team_name: expect.any(String),
        track_id: 'tools',
        cast: 6,
        votes: 3,
        excluded: false,
        excluded_votes: { disabled_account: 1, own_or_former_team: 1, new_account: 1, project_excluded: 0 },
      },
      {
        rank: 2,
        project_id: p.A,
        project_name: 'PA',
        team_name: expect.any(String),
        track_id: 'tools',
        cast: 2,
        votes: 2,
        excluded: false,
        excluded_votes: none,
      },
      {
        rank: null,
        project_id: p.C,
        project_name: 'PC',
        team_name: expect.any(String),
        track_id: 'tools',
        cast: 1,
        votes: null,
        excluded: true,
        excluded_votes: { ...none, project_excluded: 1 },
      },
    ]);

    // Putting the switch off counts the new account's vote again: the counting applies the switch, not only the voting.
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { voting: { exclude_new_accounts: false } } })).status).toBe(200);
    expect(row(await tally(), p.B)).toMatchObject({
      votes: 4,
      excluded_votes: { disabled_account: 1, own_or_former_team: 1, new_account: 0, project_excluded: 0 },
    });
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { voting: { exclude_new_accounts: true } } })).status).toBe(200);
  });

  it("publishes the people's choice counted by the same rules as the tally", async () => {
    t.clock.set(closesAt + HOUR);
    const now = t.clock.now().toISOString();
    for (const project of [p.A, p.B, p.C]) {
      await t.ctx.db
        .insertInto('reviews')
        .values({
          id: newId('rev'),
          event_id: eventId,
          project_id: project,
          reviewer_kind: 'human',
          reviewer: 'usr_judge',
          group_key: 'human',
          status: 'succeeded',
          scores: JSON.stringify({ impact: 7, craft: 7 }),
          attempts: 1,
          created_at: now,
          updated_at: now,
          completed_at: now,
        })
        .execute();
    }
    const counted = (await tally()).projects.filter((x: any) => x.rank !== null).map((x: any) => ({ rank: x.rank, project_id: x.project_id, votes: x.votes }));
    const published = await t.api<any>('POST', `/events/${eventId}/results/publish`, { key: org.key });
    expect(published.status).toBe(200);
    const choice = published.body.peoples_choice.map((e: any) => ({ rank: e.rank, project_id: e.project_id, votes: e.votes }));
    // Not the disabled account, the team's own leader, the new account, the project taken out, nor the rejected team.
    expect(choice).toEqual([
      { rank: 1, project_id: p.B, votes: 3 },
      { rank: 2, project_id: p.A, votes: 2 },
    ]);
    expect(choice).toEqual(counted);
    const served = await t.api<any>('GET', `/events/${eventId}/result/peoples-choice`);
    expect(served.body.entries).toEqual(published.body.peoples_choice);
  });
});
