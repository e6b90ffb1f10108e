import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';
import { callTool, connectMcp, REVIEWER_MCP_TOOLS, toolOk, toolProblem } from '../helpers/mcp-client.js';
import { quickApprovedTeam, quickUser } from '../helpers/quick-users.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const LINK = /http:\/\/hackathon\.test\/invitations\/([A-Za-z0-9_-]{43})/;

describe.each(DIALECTS)("MCP: the organizer's reviewers and assignments, the reviewer's work, votes (%s)", (dialect) => {
  let t: TestApp;
  let outbox: string;
  let organizer: TestUser;
  let org: Client;
  const clients: Client[] = [];
  const seen = new Set<string>();

  const connect = async (key: string) => {
    const client = await connectMcp(t, key, 'mcp-reviewers-test');
    clients.push(client);
    return client;
  };

  /** The invitation token of the newest outbox mail (the invitee's link). */
  function newestToken(): string {
    const fresh = readdirSync(outbox).filter((f) => !seen.has(f));
    expect(fresh).toHaveLength(1);
    seen.add(fresh[0]!);
    const m = LINK.exec(readFileSync(join(outbox, fresh[0]!), 'utf8').replace(/=\r?\n/g, ''));
    if (!m) throw new Error('no invitation link in the outbox mail');
    return m[1]!;
  }

  /** An event with two approved teams' projects; the clock back at T0. */
  async function eventWithProjects(overrides: Record<string, unknown> = {}) {
    t.clock.set(T0);
    const eventId = await createEvent(t, organizer.key, { models: [], ...overrides });
    const projects: string[] = [];
    for (const track of ['tools', 'fun']) {
      const { team } = await quickApprovedTeam(t, eventId, organizer.key, { track_id: track });
      const res = await t.api('POST', `/events/${eventId}/submit`, {
        key: team.key,
        body: { project_name: `P ${track}`, github_url: 'https://github.com/e/r' },
      });
      expect(res.status).toBe(201);
      projects.push(res.body.id as string);
    }
    return { eventId, projects };
  }

  beforeAll(async () => {
    outbox = mkdtempSync(join(tmpdir(), 'hk-mcp-reviewers-'));
    t = await startTestApp(dialect, { env: { OUTBOX_DIR: outbox, REVIEW_WORKERS: 'false' } });
    organizer = await quickUser(t, 'organizer');
    org = await connect(organizer.key);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await t?.close();
    rmSync(outbox, { recursive: true, force: true });
  });

  it('an organizer invites, lists and revokes reviewers; the invitee accepts over MCP and reviews, declares a conflict; the organizer removes them', async () => {
    const { eventId, projects } = await eventWithProjects();
    const [p1, p2] = projects as [string, string];

    const invited = toolOk(await callTool(org, 'invite_reviewer', { event_id: eventId, email: 'Judge.One@Example.com' }));
    expect(invited).toMatchObject({ event_id: eventId, email: 'judge.one@example.com', status: 'pending', delivery: 'outbox' });
    const token = newestToken();
    const second = toolOk(await callTool(org, 'invite_reviewer', { event_id: eventId, email: 'judge.two@example.com' }));
    newestToken();
    expect(toolOk(await callTool(org, 'revoke_reviewer_invitation', { event_id: eventId, invitation_id: second.id }))).toEqual({
      event_id: eventId,
      invitation_id: second.id,
      deleted: true,
    });
    const pending = toolOk(await callTool(org, 'list_reviewers', { event_id: eventId }));
    expect(pending).toMatchObject({ event_id: eventId, reviewers: [], next_cursor: null });
    expect(pending.invitations.map((i: { email: string }) => i.email)).toEqual(['judge.one@example.com']);

    // The invitee, with a key of its own account, accepts over MCP: it becomes a reviewer of the event.
    const judge = await t.user('user', 'judge.one@example.com');
    const judgeClient = await connect(judge.key);
    const accepted = toolOk(await callTool(judgeClient, 'accept_review_invitation', { token, password: 'correct horse battery' }));
    expect(accepted).toMatchObject({ event_id: eventId, user: { id: judge.id }, account_created: false, api_key: { scope: 'review' } });
    const listed = toolOk(await callTool(org, 'list_reviewers', { event_id: eventId }));
    expect(listed.reviewers.map((r: { user_id: string }) => r.user_id)).toEqual([judge.id]);
    expect(listed.invitations).toEqual([]);
    expect(toolProblem(await callTool(judgeClient, 'accept_review_invitation', { token, password: 'correct horse battery' }))).toMatchObject({
      code: 'invitation_used',
    });

    // The review-scoped key from the answer sees the reviewer's tools only, and works with them.
    const reviewer = await connect(accepted.api_key.key as string);
    expect((await reviewer.listTools()).tools.map((x) => x.name).sort()).toEqual([...REVIEWER_MCP_TOOLS].sort());
    // A tool outside its list still runs as its REST call, and the route refuses a review key.
    expect(toolProblem(await callTool(reviewer, 'list_registrations', { event_id: eventId }))).toMatchObject({ code: 'forbidden', status: 403 });
    expect(toolOk(await callTool(reviewer, 'get_review_queue', { event_id: eventId }))).toMatchObject({ reviewing_open: false });

    toolOk(await callTool(org, 'start_judging', { event_id: eventId }));
    const reminded = toolOk(await callTool(org, 'remind_reviewers', { event_id: eventId }));
    expect(reminded.reminded.map((r: { user_id: string }) => r.user_id)).toEqual([judge.id]);
    expect(reminded.skipped_too_soon).toEqual([]);

    const queue = toolOk(await callTool(reviewer, 'get_review_queue', { event_id: eventId }));
    expect(queue).toMatchObject({ reviewing_open: true, next_cursor: null });
    expect(queue.projects.map((p: { project_id: string }) => p.project_id).sort()).toEqual([p1, p2].sort());
    const scores = Object.fromEntries(queue.dimensions.map((d: { name: string }, i: number) => [d.name, 6 + i]));
    expect(Object.keys(scores).sort()).toEqual(['craft', 'impact']);

    expect(toolProblem(await callTool(reviewer, 'get_my_review', { event_id: eventId, project_id: p1 }))).toMatchObject({ code: 'not_found' });
    const saved = toolOk(await callTool(reviewer, 'save_review', { event_id: eventId, project_id: p1, scores, comment: 'Solid work.' }));
    expect(saved).toMatchObject({ project_id: p1, reviewer_id: judge.id, scores, comment: 'Solid work.' });
    expect(toolOk(await callTool(reviewer, 'get_my_review', { event_id: eventId, project_id: p1 }))).toEqual(saved);

    // A declared conflict takes the project out of the queue; the organizer can lift it again.
    expect(toolOk(await callTool(reviewer, 'declare_conflict', { event_id: eventId, project_id: p2 }))).toEqual({ done: true });
    const afterConflict = toolOk(await callTool(reviewer, 'get_review_queue', { event_id: eventId }));
    expect(afterConflict.projects.map((p: { project_id: string }) => p.project_id)).toEqual([p1]);
    expect(toolOk(await callTool(org, 'remove_reviewer_conflict', { event_id: eventId, user_id: judge.id, project_id: p2 }))).toEqual({
      event_id: eventId,
      user_id: judge.id,
      project_id: p2,
      deleted: true,
    });
    const lifted = toolOk(await callTool(reviewer, 'get_review_queue', { event_id: eventId }));
    expect(lifted.projects.map((p: { project_id: string }) => p.project_id).sort()).toEqual([p1, p2].sort());

    // The organizer records a conflict with the reviewed project: it leaves the queue and the review goes.
    expect(toolOk(await callTool(org, 'add_reviewer_conflict', { event_id: eventId, user_id: judge.id, project_id: p1 }))).toEqual({ done: true });
    const recorded = toolOk(await callTool(reviewer, 'get_review_queue', { event_id: eventId }));
    expect(recorded.projects.map((p: { project_id: string }) => p.project_id)).toEqual([p2]);
    expect(toolOk(await callTool(org, 'list_reviewers', { event_id: eventId })).reviewers[0]).toMatchObject({ user_id: judge.id, reviews_count: 0 });

    // Removed: no longer a reviewer of the event.
    expect(toolOk(await callTool(org, 'remove_reviewer', { event_id: eventId, user_id: judge.id }))).toEqual({
      event_id: eventId,
      user_id: judge.id,
      deleted: true,
    });
    expect(toolOk(await callTool(org, 'list_reviewers', { event_id: eventId })).reviewers).toEqual([]);
    expect(toolProblem(await callTool(reviewer, 'get_review_queue', { event_id: eventId }))).toMatchObject({ code: 'forbidden' });
  });

  it('an organizer switches to assigned reviewing, assigns by hand and automatically, and reads how the assignments stand', async () => {
    const { eventId, projects } = await eventWithProjects();
    const [p1, p2] = projects as [string, string];
    const judges: TestUser[] = [];
    for (const n of [1, 2]) {
      const email = `assigned.${n}@example.com`;
      toolOk(await callTool(org, 'invite_reviewer', { event_id: eventId, email }));
      const token = newestToken();
      const judge = await t.user('user', email);
      expect((await t.api('POST', `/invitations/${token}/accept`, { body: { password: 'correct horse battery' } })).status).toBe(200);
      judges.push(judge);
    }
    const [j1, j2] = judges as [TestUser, TestUser];

    expect(toolOk(await callTool(org, 'get_assignment_summary', { event_id: eventId }))).toMatchObject({ review_mode: 'every' });
    // Assigned reviewing starts with an automatic assignment (it sets per_project).
    expect(toolProblem(await callTool(org, 'set_assignment_mode', { event_id: eventId, review_mode: 'assigned' }))).toMatchObject({
      code: 'validation_failed',
    });
    const auto = toolOk(await callTool(org, 'auto_assign_reviewers', { event_id: eventId, per_project: 1 }));
    expect(auto).toMatchObject({ review_mode: 'assigned', per_project: 1 });
    expect(toolOk(await callTool(org, 'get_assignment_summary', { event_id: eventId }))).toMatchObject({ review_mode: 'assigned', per_project: 1 });

    const set = toolOk(await callTool(org, 'set_assignment', { event_id: eventId, project_id: p1, reviewer_ids: [j2.id] }));
    expect(set).toMatchObject({ project_id: p1, reviewer_ids: [j2.id] });

    const listed = toolOk(await callTool(org, 'list_assignments', { event_id: eventId }));
    expect(listed.next_cursor).toBeNull();
    const byProject = Object.fromEntries(listed.items.map((a: { project_id: string }) => [a.project_id, a]));
    // Set by hand: kept as set; the other one assigned automatically to one reviewer.
    expect(byProject[p1]).toMatchObject({ reviewer_ids: [j2.id], manual: true });
    expect(byProject[p2].reviewer_ids).toHaveLength(1);
    expect([j1.id, j2.id]).toContain(byProject[p2].reviewer_ids[0]);

    // What a reviewer is given follows: j2 reviews p1 (by hand) and maybe p2.
    const queue = await t.api('GET', `/events/${eventId}/review-assignments`, { key: j2.key });
    expect(queue.status).toBe(200);
    expect(queue.body.projects.map((p: { project_id: string }) => p.project_id)).toContain(p1);

    // Back to every reviewer reviewing every project.
    expect(toolOk(await callTool(org, 'set_assignment_mode', { event_id: eventId, review_mode: 'every' }))).toMatchObject({ review_mode: 'every' });
    const everyQueue = await t.api('GET', `/events/${eventId}/review-assignments`, { key: j1.key });
    expect(everyQueue.body.projects.map((p: { project_id: string }) => p.project_id).sort()).toEqual([p1, p2].sort());
  });

  it("a participant votes, reads and withdraws its votes, and reads the people's choice once published", async () => {
    const { eventId, projects } = await eventWithProjects({ voting: { enabled: true, closes_at: new Date(T0.getTime() + 4 * DAY).toISOString() } });
    const [p1, p2] = projects as [string, string];
    const voter = await connect((await quickUser(t)).key);
    t.clock.set(T0.getTime() + 2 * DAY + HOUR);

    toolOk(await callTool(voter, 'vote_for_project', { event_id: eventId, project_id: p1 }));
    toolOk(await callTool(voter, 'vote_for_project', { event_id: eventId, project_id: p2 }));
    const mine = toolOk(await callTool(voter, 'get_my_votes', { event_id: eventId }));
    expect(mine).toMatchObject({ open: true });
    expect(mine.votes.map((v: { project_id: string }) => v.project_id).sort()).toEqual([p1, p2].sort());
    expect(toolOk(await callTool(voter, 'withdraw_vote', { event_id: eventId, project_id: p2 }))).toEqual({
      event_id: eventId,
      project_id: p2,
      deleted: true,
    });
    expect(toolOk(await callTool(voter, 'get_my_votes', { event_id: eventId })).votes.map((v: { project_id: string }) => v.project_id)).toEqual([p1]);
    expect(toolProblem(await callTool(voter, 'get_peoples_choice', { event_id: eventId }))).toMatchObject({ code: 'results_not_published' });

    // Judged (one human score per project) and published after the vote closed.
    t.clock.set(T0.getTime() + 4 * DAY + HOUR);
    const now = t.clock.now().toISOString();
    for (const project of projects) {
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
    expect((await t.api('POST', `/events/${eventId}/results/publish`, { key: organizer.key })).status).toBe(200);
    const choice = toolOk(await callTool(voter, 'get_peoples_choice', { event_id: eventId }));
    expect(choice).toMatchObject({ event_id: eventId, enabled: true });
    expect(choice.entries[0]).toMatchObject({ rank: 1, project_id: p1, votes: 1 });
  });
});
