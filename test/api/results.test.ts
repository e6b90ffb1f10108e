import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { approvedTeam, createEvent, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const GPT = 'openai/gpt-4o-mini';
const CLAUDE = 'anthropic/claude-sonnet-4-5';
const LLAMA = 'ollama/llama3.1';

/**
 * Ranking and publication over HTTP. Events, teams and projects are built through the API; reviews
 * are inserted as rows (the AI pipeline is tested on its own). The event has no models configured,
 * so no AI review is queued for it and the rows below are the only reviews there are.
 *
 * Dimensions: impact (weight 2), craft (weight 1). Expected numbers, worked out by hand:
 * - Beta (tools): gpt {7, 8}, claude {impact 7.5}: impact 7.25, craft 8, score (14.5 + 8)/3 = 7.5;
 *   gpt (14 + 8)/3 = 7.3333, claude 7.5 (over impact alone).
 * - Alpha (tools): gpt {8, 6}, claude {6, 9}, humans {7, 7} and {9, 5} (group mean {8, 6}):
 *   impact 22/3 = 7.3333, craft 7, score 65/9 = 7.2222; gpt 7.3333, claude 7, human 7.3333.
 * - Gamma (fun): three humans {7, 6}, {8, 7}, {7.5, 7}: impact 7.5, craft 20/3 = 6.6667,
 *   score (15 + 20/3)/3 = 65/9 = 7.2222 — the same score as Alpha, reached another way (a tie).
 * - Epsilon (fun): gpt {craft 4} only: impact has no score and is left out, score 4.
 * - Delta (fun): no review: listed last with score 0.
 * - Rejected (tools): reviewed 10/10 but its registration was rejected: not ranked.
 * Ignored rows: a failed and a queued review (llama) that carry scores.
 */
/** Leaderboard entries without their review coverage: the result's entry shape. */
/** A leaderboard entry as the result's: without coverage, and (normalization none) the raw score is the score. */
function withoutCoverage(entries: Array<Record<string, unknown>>) {
  return entries.map(({ reviews: _coverage, score_raw, score_normalized, ...entry }) => {
    expect([score_raw, score_normalized]).toEqual([entry['score'], null]);
    return entry;
  });
}

describe.each(DIALECTS)('ranking and publication (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let stranger: TestUser;
  let eventId: string;
  const ids: Record<string, string> = {};
  let leaderboardAtPublish: unknown;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await t.user('organizer');
    stranger = await t.user('organizer');
    eventId = await createEvent(t, org.key, { models: [] });
  });
  afterAll(async () => t?.close());

  async function insertReview(
    project: string,
    reviewer: string,
    kind: 'model' | 'human',
    scores: Record<string, number> | string | null,
    status = 'succeeded',
    groupKey = kind === 'human' ? 'human' : reviewer,
  ) {
    const now = t.clock.now().toISOString();
    await t.ctx.db
      .insertInto('reviews')
      .values({
        id: newId('rev'),
        event_id: eventId,
        project_id: ids[project]!,
        reviewer_kind: kind,
        reviewer,
        group_key: groupKey,
        status: status as 'succeeded',
        scores: typeof scores === 'string' ? scores : scores ? JSON.stringify(scores) : null,
        attempts: 1,
        created_at: now,
        updated_at: now,
        completed_at: status === 'succeeded' || status === 'failed' ? now : null,
      })
      .execute();
  }

  const expected = () => ({
    beta: {
      rank: 1,
      project_id: ids.beta,
      project_name: 'Beta',
      team_name: 'Beta Team',
      track_id: 'tools',
      score: 7.5,
      scores_by_model: { [GPT]: 7.3333, [CLAUDE]: 7.5 },
      scores_by_dimension: { impact: 7.25, craft: 8 },
    },
    alpha: {
      rank: 2,
      project_id: ids.alpha,
      project_name: 'Alpha, "the first"',
      team_name: 'Alpha Team',
      track_id: 'tools',
      score: 7.2222,
      scores_by_model: { [GPT]: 7.3333, [CLAUDE]: 7, human: 7.3333 },
      scores_by_dimension: { impact: 7.3333, craft: 7 },
    },
    gamma: {
      rank: 2,
      project_id: ids.gamma,
      project_name: '=1+1 Gamma',
      team_name: 'Gamma Team',
      track_id: 'fun',
      score: 7.2222,
      scores_by_model: { human: 7.2222 },
      scores_by_dimension: { impact: 7.5, craft: 6.6667 },
    },
    epsilon: {
      rank: 4,
      project_id: ids.epsilon,
      project_name: 'Epsilon',
      team_name: 'Epsilon Team',
      track_id: 'fun',
      score: 4,
      scores_by_model: { [GPT]: 4 },
      scores_by_dimension: { craft: 4 },
    },
    delta: {
      rank: 5,
      project_id: ids.delta,
      project_name: 'Delta',
      team_name: 'Delta Team',
      track_id: 'fun',
      score: 0,
      scores_by_model: {},
      scores_by_dimension: {},
    },
  });

  /** Published entries: the leaderboard's plus each one's place in its track and the prize it won (tools: $1000, fun: glory). */
  const asPublished = (entries: Array<Record<string, unknown>>) => {
    const places: Record<string, [number, string | null]> = {
      [ids.beta!]: [1, '$1000'],
      [ids.alpha!]: [2, null],
      [ids.gamma!]: [1, 'glory'],
      [ids.epsilon!]: [2, null],
      [ids.delta!]: [3, null],
    };
    return entries.map((e) => ({ ...e, track_rank: places[e['project_id'] as string]![0], track_prize: places[e['project_id'] as string]![1] }));
  };

  it('answers the leaderboard at any time, even before anything is submitted', async () => {
    const res = await t.api('GET', `/events/${eventId}/leaderboard`, { key: org.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
  });

  it('lists submitted projects of approved teams, unscored, while the event is active', async () => {
    const teams: Array<[key: string, team: string, track: string, project: string]> = [
      ['alpha', 'Alpha Team', 'tools', 'Alpha, "the first"'],
      ['beta', 'Beta Team', 'tools', 'Beta'],
      ['gamma', 'Gamma Team', 'fun', '=1+1 Gamma'],
      ['delta', 'Delta Team', 'fun', 'Delta'],
      ['epsilon', 'Epsilon Team', 'fun', 'Epsilon'],
      ['rejected', 'Rejected Team', 'tools', 'Rejected'],
    ];
    const regs: Record<string, string> = {};
    const keys: Record<string, string> = {};
    for (const [k, team, track] of teams) {
      const { team: user, registrationId } = await approvedTeam(t, eventId, org.key, { team_name: team, track_id: track });
      regs[k] = registrationId;
      keys[k] = user.key;
    }
    t.clock.set(T0.getTime() + DAY + HOUR); // registration closed, event active
    for (const [k, , , project] of teams) {
      t.clock.advance(HOUR); // first submissions one hour apart, in the order above
      const res = await t.api('POST', `/events/${eventId}/submit`, {
        key: keys[k],
        body: { project_name: project, github_url: `https://github.com/example/${k}` },
      });
      expect(res.status).toBe(201);
      ids[k] = res.body.id;
    }
    const rejected = await t.api('POST', `/events/${eventId}/registrations/${regs.rejected}/reject`, { key: org.key, body: { reason: 'late' } });
    expect(rejected.status).toBe(200);

    const res = await t.api('GET', `/events/${eventId}/leaderboard`, { key: org.key });
    expect(res.status).toBe(200);
    expect(res.body.map((e: { project_id: string; rank: number; score: number }) => [e.project_id, e.rank, e.score])).toEqual(
      ['alpha', 'beta', 'gamma', 'delta', 'epsilon'].map((k) => [ids[k], 1, 0]),
    );
  });

  it('refuses to publish before judging (409 not_judging)', async () => {
    const res = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'not_judging', status: 409 });
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });

  it('ranks from succeeded reviews with the contract arithmetic, exactly', async () => {
    t.clock.set(T0.getTime() + 2 * DAY + HOUR); // past the submission deadline: judging
    await insertReview('beta', GPT, 'model', { impact: 7, craft: 8 });
    await insertReview('beta', CLAUDE, 'model', { impact: 7.5 });
    await insertReview('beta', LLAMA, 'model', { impact: 0, craft: 0 }, 'failed');
    await insertReview('alpha', GPT, 'model', { impact: 8, craft: 6 });
    await insertReview('alpha', CLAUDE, 'model', { impact: 6, craft: 9 });
    await insertReview('alpha', 'usr_h1', 'human', { impact: 7, craft: 7 });
    await insertReview('alpha', 'usr_h2', 'human', { impact: 9, craft: 5 });
    await insertReview('alpha', LLAMA, 'model', null, 'queued');
    await insertReview('gamma', 'usr_h1', 'human', { impact: 7, craft: 6 });
    await insertReview('gamma', 'usr_h2', 'human', { impact: 8, craft: 7 });
    // A human is in the `human` group whatever group_key a writer stored.
    await insertReview('gamma', 'usr_h3', 'human', { impact: 7.5, craft: 7 }, 'succeeded', 'usr_h3');
    await insertReview('epsilon', GPT, 'model', { craft: 4 });
    await insertReview('rejected', GPT, 'model', { impact: 10, craft: 10 });

    const res = await t.api('GET', `/events/${eventId}/leaderboard`, { key: org.key });
    expect(res.status).toBe(200);
    const e = expected();
    expect(withoutCoverage(res.body)).toEqual([e.beta, e.alpha, e.gamma, e.epsilon, e.delta]);
  });

  it('ignores stored scores that are not a JSON object of scores, never making one up', async () => {
    await insertReview('delta', 'usr_bad1', 'human', '{not json');
    await insertReview('delta', 'usr_bad2', 'human', '[9, 9]');
    await insertReview('delta', 'usr_bad3', 'human', '{"impact": 9}],["x", "human", {"impact": 9}');
    await insertReview('delta', 'usr_bad4', 'human', '{"impact": "9", "craft": 11}');
    try {
      const res = await t.api('GET', `/events/${eventId}/leaderboard`, { key: org.key });
      const e = expected();
      expect(withoutCoverage(res.body)).toEqual([e.beta, e.alpha, e.gamma, e.epsilon, e.delta]);
    } finally {
      await t.ctx.db.deleteFrom('reviews').where('reviewer', 'like', 'usr_bad%').execute();
    }
  });

  it('ranks one track within itself (?track_id=), 422 for an unknown track', async () => {
    const e = expected();
    const tools = await t.api('GET', `/events/${eventId}/leaderboard?track_id=tools`, { key: org.key });
    expect(tools.status).toBe(200);
    expect(withoutCoverage(tools.body)).toEqual([e.beta, e.alpha]);
    const fun = await t.api('GET', `/events/${eventId}/leaderboard?track_id=fun`, { key: org.key });
    expect(withoutCoverage(fun.body)).toEqual([
      { ...e.gamma, rank: 1 },
      { ...e.epsilon, rank: 2 },
      { ...e.delta, rank: 3 },
    ]);
    const unknown = await t.api('GET', `/events/${eventId}/leaderboard?track_id=nope`, { key: org.key });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'track_id' }] });
    const badFormat = await t.api('GET', `/events/${eventId}/leaderboard?format=xml`, { key: org.key });
    expect(badFormat.status).toBe(422);
  });

  it('exports CSV for organizers (leaderboard.csv and ?format=csv), escaped', async () => {
    const header =
      'rank,project_id,project_name,team_name,track_id,score,score_raw,score_normalized,' +
      `scores_by_model.${CLAUDE},scores_by_model.${GPT},scores_by_model.human,scores_by_dimension.impact,scores_by_dimension.craft,track_rank,prize`;
    // The last two columns: the place within the track, and the prize of the track for its winner (unscored Delta wins nothing).
    const rows = [
      `1,${ids.beta},Beta,Beta Team,tools,7.5,7.5,,7.5,7.3333,,7.25,8,1,$1000`,
      `2,${ids.alpha},"Alpha, ""the first""",Alpha Team,tools,7.2222,7.2222,,7,7.3333,7.3333,7.3333,7,2,`,
      `2,${ids.gamma},'=1+1 Gamma,Gamma Team,fun,7.2222,7.2222,,,,7.2222,7.5,6.6667,1,glory`,
      `4,${ids.epsilon},Epsilon,Epsilon Team,fun,4,4,,,4,,,4,2,`,
      `5,${ids.delta},Delta,Delta Team,fun,0,0,,,,,,,3,`,
    ];
    const csv = await t.api('GET', `/events/${eventId}/leaderboard.csv`, { key: org.key });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="${eventId}-leaderboard.csv"`);
    expect(csv.text).toBe([header, ...rows, ''].join('\r\n'));

    const viaQuery = await t.api('GET', `/events/${eventId}/leaderboard?format=csv`, { key: org.key });
    expect(viaQuery.status).toBe(200);
    expect(viaQuery.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(viaQuery.text).toBe(csv.text);

    const fun = await t.api('GET', `/events/${eventId}/leaderboard.csv?track_id=fun`, { key: org.key });
    expect(fun.text).toBe([header, rows[2]!.replace(/^2,/, '1,'), rows[3]!.replace(/^4,/, '2,'), rows[4]!.replace(/^5,/, '3,'), ''].join('\r\n'));
  });

  it('keeps the leaderboard to owners: 401 without a key, 403 for others, 404 for an unknown event; admins may read', async () => {
    for (const path of [`/events/${eventId}/leaderboard`, `/events/${eventId}/leaderboard.csv`]) {
      expect((await t.api('GET', path)).status).toBe(401);
      const other = await t.api('GET', path, { key: stranger.key });
      expect(other.status).toBe(403);
      expect(other.body).toMatchObject({ code: 'forbidden' });
    }
    const missing = await t.api('GET', '/events/evt_doesnotexist/leaderboard', { key: org.key });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'event_not_found' });
    const admin = await t.user('admin');
    expect((await t.api('GET', `/events/${eventId}/leaderboard`, { key: admin.key })).status).toBe(200);
  });

  it('answers 409 results_not_published for the result before publication', async () => {
    const res = await t.api('GET', `/events/${eventId}/result`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'results_not_published' });
    expect(res.headers.get('etag')).toBeNull();
  });

  it('lets only owners publish', async () => {
    expect((await t.api('POST', `/events/${eventId}/results/publish`)).status).toBe(401);
    const res = await t.api('POST', `/events/${eventId}/results/publish`, { key: stranger.key });
    expect(res.status).toBe(403);
    expect(await t.ctx.db.selectFrom('results').select('event_id').execute()).toEqual([]);
  });

  it('publishes exactly once under concurrent calls, freezing the ranking and ending the event', async () => {
    leaderboardAtPublish = asPublished(withoutCoverage((await t.api('GET', `/events/${eventId}/leaderboard`, { key: org.key })).body));
    // Delta has no score: publishing it at 0 takes force (unscored_projects otherwise).
    const calls = await Promise.all([0, 1, 2].map(() => t.api('POST', `/events/${eventId}/results/publish`, { key: org.key, body: { force: true } })));
    const ok = calls.filter((c) => c.status === 200);
    const refused = calls.filter((c) => c.status !== 200);
    expect(ok).toHaveLength(1);
    expect(refused.map((c) => [c.status, c.body.code])).toEqual([
      [409, 'results_already_published'],
      [409, 'results_already_published'],
    ]);
    const stamp = t.clock.now().toISOString();
    expect(ok[0]!.body).toMatchObject({
      event_id: eventId,
      status: 'ended',
      result_announced_at: stamp,
      published_at: stamp,
      result_url: `http://hackathon.test/api/v1/events/${eventId}/result`,
    });
    expect(ok[0]!.body.entries).toEqual(leaderboardAtPublish);

    const snapshots = await t.ctx.db.selectFrom('results').selectAll().execute();
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0]).toMatchObject({ event_id: eventId, published_by: org.id, published_at: stamp });
    expect(`"${snapshots[0]!.etag}"`).toBe(ok[0]!.body.etag);

    const event = await t.api('GET', `/events/${eventId}`);
    expect(event.body).toMatchObject({ status: 'ended', result_announced_at: stamp });
  });

  it('serves the frozen result to everyone, cacheable, with 304 on If-None-Match', async () => {
    const res = await t.api('GET', `/events/${eventId}/result`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual(leaderboardAtPublish);
    const e = expected();
    expect(res.body).toEqual(asPublished([e.beta, e.alpha, e.gamma, e.epsilon, e.delta]));
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');

    const again = await t.api('GET', `/events/${eventId}/result`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('public, max-age=60');
    const weak = await t.api('GET', `/events/${eventId}/result`, { headers: { 'if-none-match': `"other", W/${etag}` } });
    expect(weak.status).toBe(304);
    const stale = await t.api('GET', `/events/${eventId}/result`, { headers: { 'if-none-match': '"other"' } });
    expect(stale.status).toBe(200);

    // Signed-in callers get the same document.
    const signedIn = await t.api('GET', `/events/${eventId}/result`, { key: stranger.key });
    expect(signedIn.body).toEqual(res.body);
  });

  it('serves one track of the frozen result, ranked within it, with its own ETag', async () => {
    const e = expected();
    const full = await t.api('GET', `/events/${eventId}/result`);
    const tools = await t.api('GET', `/events/${eventId}/result?track_id=tools`);
    expect(tools.status).toBe(200);
    expect(tools.body).toEqual(asPublished([e.beta, e.alpha]));
    const fun = await t.api('GET', `/events/${eventId}/result?track_id=fun`);
    expect(fun.body).toEqual(
      asPublished([
        { ...e.gamma, rank: 1 },
        { ...e.epsilon, rank: 2 },
        { ...e.delta, rank: 3 },
      ]),
    );
    const tag = fun.headers.get('etag')!;
    expect(tag).not.toBe(full.headers.get('etag'));
    expect(tag).not.toBe(tools.headers.get('etag'));
    expect((await t.api('GET', `/events/${eventId}/result?track_id=fun`, { headers: { 'if-none-match': tag } })).status).toBe(304);
    expect((await t.api('GET', `/events/${eventId}/result?track_id=nope`)).status).toBe(422);
  });

  it('keeps the published result frozen when reviews change later', async () => {
    const before = await t.api('GET', `/events/${eventId}/result`);
    await t.ctx.db
      .updateTable('reviews')
      .set({ scores: JSON.stringify({ impact: 0, craft: 0 }) })
      .where('project_id', '=', ids.beta!)
      .execute();
    await insertReview('delta', GPT, 'model', { impact: 10, craft: 10 });

    const live = await t.api('GET', `/events/${eventId}/leaderboard`, { key: org.key });
    expect(live.body[0]).toMatchObject({ project_id: ids.delta, rank: 1, score: 10 });
    expect(asPublished(withoutCoverage(live.body))).not.toEqual(leaderboardAtPublish);

    const after = await t.api('GET', `/events/${eventId}/result`);
    expect(after.body).toEqual(leaderboardAtPublish);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    const tools = await t.api('GET', `/events/${eventId}/result?track_id=tools`);
    expect(tools.body.map((x: { project_id: string }) => x.project_id)).toEqual([ids.beta, ids.alpha]);
  });

  it('refuses a second publication (409 results_already_published)', async () => {
    const res = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'results_already_published' });
    expect(await t.ctx.db.selectFrom('results').select('event_id').execute()).toHaveLength(1);
  });

  it('refuses to publish a cancelled event (409 not_judging) and has no result for it', async () => {
    const other = await createEvent(t, org.key, { models: [] });
    const cancel = await t.api('PATCH', `/events/${other}`, { key: org.key, body: { status: 'cancelled' } });
    expect(cancel.status).toBe(200);
    const res = await t.api('POST', `/events/${other}/results/publish`, { key: org.key });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'not_judging', event_status: 'cancelled' });
    expect((await t.api('GET', `/events/${other}/result`)).body).toMatchObject({ code: 'results_not_published' });
  });

  it('hides a draft event’s leaderboard and result from others (404)', async () => {
    const draft = await createEvent(t, org.key, { models: [], status: 'draft' });
    expect((await t.api('GET', `/events/${draft}/leaderboard`, { key: stranger.key })).status).toBe(404);
    expect((await t.api('GET', `/events/${draft}/result`)).status).toBe(404);
    expect((await t.api('GET', `/events/${draft}/leaderboard`, { key: org.key })).body).toEqual([]);
  });
});

describe.each(DIALECTS)('publication across two server instances on one database (%s)', (dialect) => {
  let db: TestDatabase;
  let t1: TestApp;
  let t2: TestApp;
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    t1 = await startTestApp(dialect, { database: db });
    t2 = await startTestApp(dialect, { database: db });
  });
  afterAll(async () => {
    await t1?.close();
    await t2?.close();
    await db?.drop();
  });

  it('produces exactly one snapshot when both publish at once', async () => {
    const org = await t1.user('organizer');
    const eventId = await createEvent(t1, org.key, { models: [] });
    const { team } = await approvedTeam(t1, eventId, org.key);
    t1.clock.advance(DAY + HOUR);
    expect((await t1.api('POST', `/events/${eventId}/submit`, { key: team.key, body: { name: 'Solo', github_url: 'https://github.com/x/solo' } })).status).toBe(
      201,
    );
    for (const t of [t1, t2]) t.clock.set(T0.getTime() + 2 * DAY + HOUR);

    const publish = (t: TestApp) => () => t.api('POST', `/events/${eventId}/results/publish`, { key: org.key, body: { force: true } });
    // PostgreSQL: truly concurrent. Two SQLite connections in one process cannot wait for each
    // other's write lock without blocking the thread both need, so there they take turns.
    const calls =
      dialect === 'postgres' ? await Promise.all([publish(t1)(), publish(t2)(), publish(t1)(), publish(t2)()]) : [await publish(t1)(), await publish(t2)()];
    expect(calls.filter((c) => c.status === 200)).toHaveLength(1);
    for (const c of calls.filter((x) => x.status !== 200)) expect([c.status, c.body.code]).toEqual([409, 'results_already_published']);
    expect(await t1.ctx.db.selectFrom('results').select('event_id').execute()).toHaveLength(1);

    const [a, b] = await Promise.all([t1.api('GET', `/events/${eventId}/result`), t2.api('GET', `/events/${eventId}/result`)]);
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(b.headers.get('etag')).toBe(a.headers.get('etag'));
    expect(a.body).toMatchObject([{ rank: 1, project_name: 'Solo', score: 0 }]);
  });
});
