import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { bundleHash, verifyBundle } from '../../src/results/result-bundle.js';
import { parseCsv } from '../helpers/csv.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, T0, type TestApp } from '../helpers/harness.js';
import { quickApprovedTeam, quickUser } from '../helpers/quick-users.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.each(DIALECTS)("people's choice voting (%s)", (dialect) => {
  let t: TestApp;
  let org: Awaited<ReturnType<typeof quickUser>>;
  let eventId: string;
  let submission: number;
  const teams: Array<{ key: string; project: string; track: string }> = [];
  /** A second member of the last team, joined before the submission deadline. */
  let member: Awaited<ReturnType<typeof quickUser>>;

  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { REVIEW_WORKERS: 'false' } });
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => t?.close());

  it('checks the settings: an enabled vote needs its closing time, and opens at or after the submission deadline', async () => {
    const noClose = await t.api<any>('POST', '/events', {
      key: org.key,
      body: {
        name: 'x',
        registration_deadline: new Date(T0.getTime() + DAY).toISOString(),
        submission_deadline: new Date(T0.getTime() + 2 * DAY).toISOString(),
        voting: { enabled: true },
      },
    });
    expect(noClose.status).toBe(422);
    expect(noClose.body.errors).toEqual([expect.objectContaining({ field: 'voting.closes_at' })]);
    const early = await t.api<any>('POST', '/events', {
      key: org.key,
      body: {
        name: 'x',
        registration_deadline: new Date(T0.getTime() + DAY).toISOString(),
        submission_deadline: new Date(T0.getTime() + 2 * DAY).toISOString(),
        voting: { enabled: true, opens_at: new Date(T0.getTime() + DAY).toISOString(), closes_at: new Date(T0.getTime() + 3 * DAY).toISOString() },
      },
    });
    expect(early.status).toBe(422);
    expect(early.body.errors).toEqual([expect.objectContaining({ field: 'voting.opens_at' })]);
  });

  it('sets up an event with a vote and five projects in two tracks', async () => {
    eventId = await createEvent(t, org.key, {
      models: [],
      voting: { enabled: true, closes_at: new Date(T0.getTime() + 4 * DAY).toISOString(), votes_per_person: 1, per_track: true },
    });
    const event = await t.api<any>('GET', `/events/${eventId}`);
    submission = Date.parse(event.body.submission_deadline);
    expect(event.body.voting).toEqual({
      enabled: true,
      opens_at: event.body.submission_deadline,
      closes_at: new Date(T0.getTime() + 4 * DAY).toISOString(),
      votes_per_person: 1,
      per_track: true,
      exclude_new_accounts: false,
    });
    for (const track of ['tools', 'tools', 'tools', 'fun', 'fun']) {
      const { team } = await quickApprovedTeam(t, eventId, org.key, { track_id: track });
      const res = await t.api<any>('POST', `/events/${eventId}/submit`, {
        key: team.key,
        body: { project_name: `P${teams.length}`, github_url: 'https://github.com/e/r' },
      });
      expect(res.status).toBe(201);
      teams.push({ key: team.key, project: res.body.id, track });
    }
    const invitation = await t.api<any>('POST', `/events/${eventId}/team/invitations`, { key: teams[4]!.key, body: {} });
    expect(invitation.status).toBe(201);
    member = await quickUser(t);
    expect((await t.api('POST', `/events/${eventId}/team/join`, { key: member.key, body: { join_code: invitation.body.join_code } })).status).toBe(200);
  });

  it('refuses votes before the window opens, with when it opens', async () => {
    const voter = await quickUser(t);
    const res = await t.api<any>('POST', `/events/${eventId}/gallery/${teams[0]!.project}/vote`, { key: voter.key });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'voting_closed', opens_at: new Date(submission).toISOString() });
  });

  it('takes one vote per track, lets it be withdrawn and moved, never for the own team', async () => {
    t.clock.set(submission + HOUR);
    const voter = await quickUser(t);
    const vote = (i: number) => t.api<any>('POST', `/events/${eventId}/gallery/${teams[i]!.project}/vote`, { key: voter.key });
    const first = await vote(0);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ project_id: teams[0]!.project, track_id: 'tools' });
    expect((await vote(0)).status).toBe(200);
    const second = await vote(1);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'vote_limit_reached', votes_per_person: 1, per_track: true });
    expect((await vote(3)).status).toBe(201);
    const mine = await t.api<any>('GET', `/events/${eventId}/votes/me`, { key: voter.key });
    expect(mine.body).toMatchObject({ open: true, votes_per_person: 1, per_track: true });
    expect(mine.body.votes.map((v: any) => v.project_id).sort()).toEqual([teams[0]!.project, teams[3]!.project].sort());
    expect(mine.body.own_project_ids).toEqual([]);
    expect((await t.api('DELETE', `/events/${eventId}/gallery/${teams[0]!.project}/vote`, { key: voter.key })).status).toBe(204);
    const again = await t.api<any>('DELETE', `/events/${eventId}/gallery/${teams[0]!.project}/vote`, { key: voter.key });
    expect(again.body.code).toBe('vote_not_found');
    expect((await vote(1)).status).toBe(201);

    const own = await t.api<any>('POST', `/events/${eventId}/gallery/${teams[2]!.project}/vote`, { key: teams[2]!.key });
    expect(own.status).toBe(403);
    expect(own.body.code).toBe('own_project');
    const unknown = await t.api<any>('POST', `/events/${eventId}/gallery/prj_nope/vote`, { key: voter.key });
    expect(unknown.body.code).toBe('project_not_found');
    const anonymous = await t.api<any>('POST', `/events/${eventId}/gallery/${teams[2]!.project}/vote`);
    expect(anonymous.status).toBe(401);
  });

  it('counts exactly under concurrency: 200 accounts at once, and one account bursting over its limit', async () => {
    const voters = await Promise.all(Array.from({ length: 200 }, () => quickUser(t)));
    const answers = await Promise.all(voters.map((v) => t.api('POST', `/events/${eventId}/gallery/${teams[2]!.project}/vote`, { key: v.key })));
    expect(answers.map((a) => a.status)).toEqual(Array(200).fill(201));

    // One account, 30 votes at once for the three tools projects with 1 vote per track: exactly one vote stands.
    const burster = await quickUser(t);
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) => t.api<any>('POST', `/events/${eventId}/gallery/${teams[i % 3]!.project}/vote`, { key: burster.key })),
    );
    const statuses = burst.map((b) => b.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.every((s) => s === 201 || s === 200 || s === 409)).toBe(true);
    const mine = await t.api<any>('GET', `/events/${eventId}/votes/me`, { key: burster.key });
    expect(mine.body.votes).toHaveLength(1);
    const winner = mine.body.votes[0].project_id;
    // The 200 answers are exactly the repeats of the one standing vote.
    expect(burst.filter((b) => b.status === 200).every((b) => b.body.project_id === winner)).toBe(true);
    expect(burst.filter((b) => b.status === 409).every((b) => b.body.code === 'vote_limit_reached')).toBe(true);

    const tally = await t.api<any>('GET', `/events/${eventId}/votes`, { key: org.key });
    expect(tally.status).toBe(200);
    const byProject = Object.fromEntries(tally.body.projects.map((p: any) => [p.project_id, p.votes]));
    expect(byProject[teams[2]!.project]).toBe(200 + (winner === teams[2]!.project ? 1 : 0));
    expect(tally.body.votes).toBe(203);
    expect(tally.body.voters).toBe(202);
    expect(tally.body.per_hour).toEqual([{ hour: new Date(Math.floor((submission + HOUR) / HOUR) * HOUR).toISOString(), votes: 203 }]);
  });

  it("never lets a team vote for itself through a member who left, and drops a disabled account's votes", async () => {
    const votesFor = async (project: string) =>
      (await t.api<any>('GET', `/events/${eventId}/votes`, { key: org.key })).body.projects.find((p: any) => p.project_id === project)?.votes ?? 0;
    // In the team: refused. Left the team after the deadline: still refused (a team of n would otherwise give itself n − 1 votes).
    const inTeam = await t.api<any>('POST', `/events/${eventId}/gallery/${teams[4]!.project}/vote`, { key: member.key });
    expect(inTeam.status).toBe(403);
    expect(inTeam.body.code).toBe('own_project');
    expect((await t.api('POST', `/events/${eventId}/team/leave`, { key: member.key })).status).toBe(204);
    const left = await t.api<any>('POST', `/events/${eventId}/gallery/${teams[4]!.project}/vote`, { key: member.key });
    expect(left.status).toBe(403);
    expect(left.body.code).toBe('own_project');
    expect(await votesFor(teams[4]!.project)).toBe(0);
    // votes/me names the project as not the member's to vote for, before and after leaving; a stranger has none.
    const mine = await t.api<any>('GET', `/events/${eventId}/votes/me`, { key: member.key });
    expect(mine.body.own_project_ids).toEqual([teams[4]!.project]);
    expect((await t.api<any>('GET', `/events/${eventId}/votes/me`, { key: teams[0]!.key })).body.own_project_ids).toEqual([teams[0]!.project]);

    // A vote counts while its account is active, and no longer once an admin disables the account.
    const voter = await quickUser(t);
    expect((await t.api('POST', `/events/${eventId}/gallery/${teams[4]!.project}/vote`, { key: voter.key })).status).toBe(201);
    expect(await votesFor(teams[4]!.project)).toBe(1);
    const admin = await quickUser(t, 'admin');
    expect((await t.api('PATCH', `/admin/users/${voter.id}`, { key: admin.key, body: { disabled: true } })).status).toBe(200);
    expect(await votesFor(teams[4]!.project)).toBe(0);
  });

  it('hides the counts from everyone but the owners, and lets them take a project out of the vote', async () => {
    const stranger = await quickUser(t);
    const hidden = await t.api<any>('GET', `/events/${eventId}/votes`, { key: stranger.key });
    expect(hidden.status).toBe(403);
    expect((await t.api('PUT', `/events/${eventId}/votes/exclusions/${teams[3]!.project}`, { key: stranger.key })).status).toBe(403);
    expect((await t.api('PUT', `/events/${eventId}/votes/exclusions/${teams[3]!.project}`, { key: org.key })).status).toBe(204);
    const tally = await t.api<any>('GET', `/events/${eventId}/votes`, { key: org.key });
    expect(tally.body.projects.find((p: any) => p.project_id === teams[3]!.project)).toMatchObject({ excluded: true, votes: null, rank: null });
    const refused = await t.api<any>('POST', `/events/${eventId}/gallery/${teams[3]!.project}/vote`, { key: stranger.key });
    expect(refused.body.code).toBe('project_not_in_vote');
    expect((await t.api<any>('GET', `/events/${eventId}/result/peoples-choice`)).body.code).toBe('results_not_published');
  });

  it('can count only accounts older than the window', async () => {
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { voting: { exclude_new_accounts: true } } })).status).toBe(200);
    const newcomer = await quickUser(t); // created now, after the window opened (the test clock)
    const res = await t.api<any>('POST', `/events/${eventId}/gallery/${teams[4]!.project}/vote`, { key: newcomer.key });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('account_too_new');
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { voting: { exclude_new_accounts: false } } })).status).toBe(200);
  });

  it('closes at closes_at, and publication carries the people’s choice separately from the ranking', async () => {
    t.clock.set(T0.getTime() + 4 * DAY + HOUR);
    const late = await quickUser(t);
    const closed = await t.api<any>('POST', `/events/${eventId}/gallery/${teams[4]!.project}/vote`, { key: late.key });
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe('voting_closed');

    const now = t.clock.now().toISOString();
    for (const [i, team] of teams.entries()) {
      await t.ctx.db
        .insertInto('reviews')
        .values({
          id: newId('rev'),
          event_id: eventId,
          project_id: team.project,
          reviewer_kind: 'human',
          reviewer: 'usr_judge',
          group_key: 'human',
          status: 'succeeded',
          scores: JSON.stringify({ impact: 9 - i, craft: 9 - i }),
          attempts: 1,
          created_at: now,
          updated_at: now,
          completed_at: now,
        })
        .execute();
    }
    const published = await t.api<any>('POST', `/events/${eventId}/results/publish`, { key: org.key });
    expect(published.status).toBe(200);
    const tally = published.body.peoples_choice as Array<{ rank: number; project_id: string; votes: number }>;
    expect(tally[0]).toMatchObject({ rank: 1, project_id: teams[2]!.project });
    expect(tally.map((e) => e.project_id)).not.toContain(teams[3]!.project);
    const served = await t.api<any>('GET', `/events/${eventId}/result/peoples-choice`);
    expect(served.status).toBe(200);
    expect(served.body).toEqual({ event_id: eventId, enabled: true, per_track: true, entries: published.body.peoples_choice });
    // The judged ranking is its own: P0 scored best.
    expect(published.body.entries[0].project_id).toBe(teams[0]!.project);
    // The verifiable bundle carries the same people's choice, under its hash: it verifies as
    // published, and a vote count changed afterwards is refused.
    const bundle = await t.api<any>('GET', `/events/${eventId}/result/bundle`);
    expect(bundle.status).toBe(200);
    expect(bundle.body.peoples_choice).toEqual(published.body.peoples_choice);
    const keys = (await t.request<any>('GET', '/.well-known/hackathon-results-keys.json')).body.keys;
    expect(verifyBundle(bundle.body, { keys }).ok).toBe(true);
    const tampered = structuredClone(bundle.body);
    tampered.peoples_choice[0].votes += 1;
    expect(verifyBundle(tampered, { keys }).sha256.ok).toBe(false);
    // 1,000 votes more and the hash recomputed: the site's signature refuses it.
    tampered.peoples_choice[0].votes += 999;
    tampered.sha256 = bundleHash(tampered);
    const forged = verifyBundle(tampered, { keys });
    expect(forged.sha256.ok).toBe(true);
    expect(forged.signature.status).toBe('invalid');
    expect(forged.ok).toBe(false);
    expect(forged.reason).toMatch(/^bad signature: the signature does not match the bundle under key rsk_/);
    // The organizer's CSV carries each project's people's choice place and votes next to its rank.
    const csv = await t.api('GET', `/events/${eventId}/leaderboard.csv`, { key: org.key });
    expect(csv.status).toBe(200);
    const [header, ...rows] = parseCsv(csv.text);
    expect(header!.slice(-4)).toEqual(['peoples_choice.rank', 'peoples_choice.votes', 'track_rank', 'prize']);
    const byProject = new Map(rows.map((r) => [r[1], r.slice(-4, -2)]));
    for (const e of tally) expect(byProject.get(e.project_id)).toEqual([String(e.rank), String(e.votes)]);
    // Excluded from the vote: empty cells.
    expect(byProject.get(teams[3]!.project)).toEqual(['', '']);
    const after = await t.api<any>('POST', `/events/${eventId}/gallery/${teams[4]!.project}/vote`, { key: late.key });
    expect(after.body.code).toBe('voting_closed');
  });
});
