import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { DIALECTS } from '../helpers/databases.js';
import { approvedTeam, createEvent, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';
import { decodeMail, mailSubject, startSmtpReceiver } from '../helpers/smtp-receiver.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const GPT = 'openai/gpt-4o-mini';
const CLAUDE = 'anthropic/claude-sonnet-4-5';
const LLAMA = 'ollama/llama3.1';

/**
 * A team's own result (`result` on my-registration) and the organizer's feedback release. Reviews
 * are inserted as rows (the event has no models, so none is queued): a named human reviewer with a
 * comment, two models with summaries, and reviews that must never show (failed, queued).
 */
describe.each(DIALECTS)('team result and feedback release (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let otherOrg: TestUser;
  let stranger: TestUser;
  let reviewer: TestUser;
  let member: TestUser;
  let eventId: string;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  const teams: Record<string, { user: TestUser; registrationId: string; projectId?: string }> = {};

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await startTestApp(dialect, { env: { MAIL_WORKERS: 'true', SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_POLL_MS: '50' } });
    org = await t.user('organizer');
    otherOrg = await t.user('organizer');
    stranger = await t.user();
    reviewer = await t.user('user', `ada-reviewer-${Math.random().toString(36).slice(2, 8)}@example.com`);
    await t.ctx.db.updateTable('users').set({ name: 'Ada Reviewerson' }).where('id', '=', reviewer.id).execute();
    eventId = await createEvent(t, org.key, { models: [] });
    for (const [k, track] of [
      ['alpha', 'tools'],
      ['beta', 'tools'],
      ['gamma', 'fun'],
      ['idle', 'fun'],
    ] as const) {
      const { team, registrationId } = await approvedTeam(t, eventId, org.key, { team_name: `${k} team`, track_id: track });
      teams[k] = { user: team, registrationId };
    }
    // alpha has a second member, who joined with a code.
    member = await t.user();
    const code = await t.api('POST', `/events/${eventId}/team/invitations`, { key: teams.alpha!.user.key, body: {} });
    expect(code.status).toBe(201);
    const joined = await t.api('POST', `/events/${eventId}/team/join`, { key: member.key, body: { join_code: code.body.join_code } });
    expect(joined.status).toBe(200);
    t.clock.set(T0.getTime() + DAY + HOUR);
    for (const k of ['alpha', 'beta', 'gamma']) {
      t.clock.advance(HOUR);
      const res = await t.api('POST', `/events/${eventId}/submit`, {
        key: teams[k]!.user.key,
        body: { project_name: `${k} project`, github_url: `https://github.com/example/${k}` },
      });
      expect(res.status).toBe(201);
      teams[k]!.projectId = res.body.id;
    }
    t.clock.set(T0.getTime() + 2 * DAY + HOUR); // judging
    await insertReview('alpha', reviewer.id, 'human', { impact: 9, craft: 7 }, 'Great demo, tighten the README.');
    await insertReview('alpha', GPT, 'model', { impact: 8, craft: 8, bogus: 3 }, 'Solid tool with clear value.');
    await insertReview('alpha', CLAUDE, 'model', { impact: 1, craft: 1 }, 'FAILED-SUMMARY-MUST-NOT-SHOW', 'failed');
    await insertReview('alpha', LLAMA, 'model', null, null, 'queued');
    await insertReview('beta', GPT, 'model', { impact: 6, craft: 5 }, null);
    await insertReview('gamma', reviewer.id, 'human', { impact: 7, craft: 9 }, 'Fun!');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function insertReview(
    team: string,
    who: string,
    kind: 'model' | 'human',
    scores: Record<string, number> | null,
    summary: string | null,
    status: 'succeeded' | 'failed' | 'queued' = 'succeeded',
  ) {
    const now = t.clock.now().toISOString();
    await t.ctx.db
      .insertInto('reviews')
      .values({
        id: newId('rev'),
        event_id: eventId,
        project_id: teams[team]!.projectId!,
        reviewer_kind: kind,
        reviewer: who,
        group_key: kind === 'human' ? 'human' : who,
        status,
        scores: scores ? JSON.stringify(scores) : null,
        summary,
        attempts: 1,
        created_at: now,
        updated_at: now,
        completed_at: status === 'queued' ? null : now,
      })
      .execute();
  }

  /** The results mail to `user` (they got the approval mail before it), waited for. */
  async function resultMail(user: TestUser): Promise<string> {
    let after = 0;
    for (;;) {
      const mail = await smtp.nextTo(user.email, after);
      const text = decodeMail(mail.raw);
      if (mailSubject(mail.raw).endsWith('results are out')) return text;
      after = smtp.mails.indexOf(mail) + 1;
    }
  }

  const mine = (team: string) => t.api('GET', `/events/${eventId}/my-registration`, { key: teams[team]!.user.key });

  it('shows no result before publication', async () => {
    const res = await mine('alpha');
    expect(res.status).toBe(200);
    expect(res.body.result).toBeNull();
  });

  it('refuses the feedback switch before publication (409 results_not_published) and to strangers', async () => {
    const early = await t.api('PUT', `/events/${eventId}/results/feedback`, { key: org.key, body: { released: true } });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 'results_not_published' });
    const foreign = await t.api('PUT', `/events/${eventId}/results/feedback`, { key: otherOrg.key, body: { released: true } });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ code: 'forbidden' });
    const bad = await t.api('PUT', `/events/${eventId}/results/feedback`, { key: org.key, body: { released: 'yes' } });
    expect(bad.status).toBe(422);
  });

  it('publishes without feedback by default; the organizer sees feedback_released', async () => {
    const res = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key });
    expect(res.status).toBe(200);
    expect(res.body.feedback_released).toBe(false);
    const event = await t.api('GET', `/events/${eventId}`, { key: org.key });
    expect(event.body.feedback_released).toBe(false);
    const anon = await t.api('GET', `/events/${eventId}`);
    expect(anon.body).not.toHaveProperty('feedback_released');
  });

  it('gives each team its rank, score and per-dimension scores as the published result has them, without feedback', async () => {
    const published = await t.api('GET', `/events/${eventId}/result`);
    expect(published.status).toBe(200);
    const tools = await t.api('GET', `/events/${eventId}/result?track_id=tools`);
    for (const k of ['alpha', 'beta', 'gamma']) {
      const entry = published.body.find((e: { project_id: string }) => e.project_id === teams[k]!.projectId);
      const res = await mine(k);
      expect(res.status).toBe(200);
      expect(res.body.result).toMatchObject({
        rank: entry.rank,
        score: entry.score,
        track_id: entry.track_id,
        scores_by_dimension: entry.scores_by_dimension,
        ranked_teams: 3,
        feedback: null,
      });
    }
    // alpha: human {9,7}, gpt {8,8}: impact 8.5, craft 7.5 → (17 + 7.5)/3 = 8.1667; gamma 7.6667; beta 5.6667.
    expect((await mine('alpha')).body.result).toMatchObject({ rank: 1, score: 8.1667, track_rank: 1, scores_by_dimension: { impact: 8.5, craft: 7.5 } });
    expect((await mine('beta')).body.result).toMatchObject({ rank: 3, score: 5.6667, track_rank: 2 });
    expect((await mine('gamma')).body.result).toMatchObject({ rank: 2, track_rank: 1 });
    expect(tools.body.map((e: { project_id: string }) => e.project_id)).toEqual([teams.alpha!.projectId, teams.beta!.projectId]);
  });

  it('gives every member the same result, on my-registration and on the team', async () => {
    const leader = await mine('alpha');
    const mineAsMember = await t.api('GET', `/events/${eventId}/my-registration`, { key: member.key });
    expect(mineAsMember.status).toBe(200);
    expect(mineAsMember.body.result).toEqual(leader.body.result);
    const team = await t.api('GET', `/events/${eventId}/team`, { key: member.key });
    expect(team.status).toBe(200);
    expect(team.body.result).toEqual(leader.body.result);
    const strangerTeam = await t.api('GET', `/events/${eventId}/team`, { key: stranger.key });
    expect(strangerTeam.status).toBe(404);
    expect(strangerTeam.body).toMatchObject({ code: 'not_registered' });
  });

  it('mails every member of every ranked team its rank at publication, and no one else', async () => {
    const mailOf = resultMail;
    const alphaLeader = await mailOf(teams.alpha!.user);
    // First in its track: the track's win and prize first, the overall place beside it.
    expect(alphaLeader).toContain('alpha team placed 1st in Developer tools (prize $1000).');
    expect(alphaLeader).toContain('Overall: 1st.');
    // Two decimals at most, as the web shows it (8.1667 stored).
    expect(alphaLeader).toMatch(/Score: 8\.17\r?\n/);
    expect(await mailOf(member)).toContain('alpha team placed 1st in Developer tools (prize $1000).');
    const beta = await mailOf(teams.beta!.user);
    expect(beta).toContain('beta team placed #3');
    expect(beta).toContain('In the track Developer tools: #2.');
    const gamma = await mailOf(teams.gamma!.user);
    expect(gamma).toContain('gamma team placed 1st in Just for fun (prize glory).');
    expect(gamma).toContain('Overall: 2nd.');
    // Queued in the publication's transaction: exactly one per member of a ranked team.
    const queued = await t.ctx.db.selectFrom('mail_queue').select('user_id').where('event_id', '=', eventId).where('kind', '=', 'results_published').execute();
    expect(queued.map((r) => r.user_id).sort()).toEqual([teams.alpha!.user.id, member.id, teams.beta!.user.id, teams.gamma!.user.id].sort());
  });

  it('gives a team without a project no rank', async () => {
    const res = await mine('idle');
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ rank: null, score: null, track_rank: null, scores_by_dimension: {}, feedback: null, ranked_teams: 3 });
  });

  it('releases the feedback by the switch: succeeded reviews only, no reviewer or model named', async () => {
    const on = await t.api('PUT', `/events/${eventId}/results/feedback`, { key: org.key, body: { released: true } });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ event_id: eventId, feedback_released: true });
    expect((await t.api('GET', `/events/${eventId}`, { key: org.key })).body.feedback_released).toBe(true);

    const res = await mine('alpha');
    expect(res.body.result.feedback).toEqual([
      { source: 'human', scores: { impact: 9, craft: 7 }, comment: 'Great demo, tighten the README.' },
      { source: 'model', scores: { impact: 8, craft: 8 }, comment: 'Solid tool with clear value.' },
    ]);
    for (const secret of [
      reviewer.id,
      reviewer.email,
      'Ada Reviewerson',
      GPT,
      CLAUDE,
      LLAMA,
      'openai',
      'anthropic',
      'ollama',
      'FAILED-SUMMARY-MUST-NOT-SHOW',
    ]) {
      expect(res.text).not.toContain(secret);
    }
    expect((await mine('beta')).body.result.feedback).toEqual([{ source: 'model', scores: { impact: 6, craft: 5 }, comment: null }]);
    expect((await mine('idle')).body.result.feedback).toEqual([]);
  });

  it('hides the feedback again when switched off', async () => {
    const off = await t.api('PUT', `/events/${eventId}/results/feedback`, { key: org.key, body: { released: false } });
    expect(off.status).toBe(200);
    expect(off.body.feedback_released).toBe(false);
    const res = await mine('alpha');
    expect(res.body.result.feedback).toBeNull();
    expect(res.text).not.toContain('Great demo');
  });

  it("lets no one else read a team's result: another team reads its own, a stranger is not registered", async () => {
    const beta = await mine('beta');
    expect(beta.body.result.rank).toBe(3);
    expect(beta.body.id).toBe(teams.beta!.registrationId);
    const s = await t.api('GET', `/events/${eventId}/my-registration`, { key: stranger.key });
    expect(s.status).toBe(404);
    expect(s.body).toMatchObject({ code: 'not_registered' });
    const anon = await t.api('GET', `/events/${eventId}/my-registration`);
    expect(anon.status).toBe(401);
    const foreign = await t.api('PUT', `/events/${eventId}/results/feedback`, { key: teams.alpha!.user.key, body: { released: true } });
    expect(foreign.status).toBe(403);
  });

  it('takes release_feedback at publication', async () => {
    const other = await createEvent(t, org.key, {
      models: [],
      registration_deadline: new Date(t.clock.now().getTime() + DAY).toISOString(),
      submission_deadline: new Date(t.clock.now().getTime() + 2 * DAY).toISOString(),
    });
    const { team } = await approvedTeam(t, other, org.key, { team_name: 'solo team', track_id: 'fun' });
    t.clock.advance(DAY + HOUR);
    const sub = await t.api('POST', `/events/${other}/submit`, {
      key: team.key,
      body: { project_name: 'Solo', github_url: 'https://github.com/example/solo' },
    });
    expect(sub.status).toBe(201);
    await t.ctx.db
      .insertInto('reviews')
      .values({
        id: newId('rev'),
        event_id: other,
        project_id: sub.body.id,
        reviewer_kind: 'human',
        reviewer: reviewer.id,
        group_key: 'human',
        status: 'succeeded',
        scores: JSON.stringify({ impact: 5, craft: 5 }),
        summary: 'Keep going.',
        attempts: 1,
        created_at: t.clock.now().toISOString(),
        updated_at: t.clock.now().toISOString(),
        completed_at: t.clock.now().toISOString(),
      })
      .execute();
    t.clock.advance(DAY);
    const pub = await t.api('POST', `/events/${other}/results/publish`, { key: org.key, body: { release_feedback: true } });
    expect(pub.status).toBe(200);
    expect(pub.body.feedback_released).toBe(true);
    const res = await t.api('GET', `/events/${other}/my-registration`, { key: team.key });
    expect(await resultMail(team)).toContain('solo team placed 1st in Just for fun (prize glory).');
    expect(res.body.result).toMatchObject({
      rank: 1,
      score: 5,
      track_rank: 1,
      feedback: [{ source: 'human', scores: { impact: 5, craft: 5 }, comment: 'Keep going.' }],
    });
  });
});
