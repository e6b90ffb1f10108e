import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { startFakeAnthropic, startFakeOpenAI, type Behaviour, type FakeProvider } from '../helpers/fake-providers.js';
import { createEvent, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';

const DAY = 86_400_000;
const GPT = 'openai/gpt-e2e';
const CLAUDE = 'anthropic/claude-e2e';

/** The model's answer for each project, picked by the project name the prompt carries. */
function byProject(table: Record<string, Behaviour>): Behaviour {
  return {
    kind: 'by-prompt',
    choose: (prompt) => {
      const hit = Object.keys(table).find((name) => prompt.includes(name));
      if (!hit) throw new Error('prompt names no known project');
      return table[hit]!;
    },
  };
}

/**
 * The whole judging story over HTTP with real model calls to local fakes: deadlines pass, the
 * reviews run (one invalid reply retried), a human scores, the organizer reads the leaderboard,
 * publishes, and everyone reads the frozen result, with the contract's numbers worked by hand.
 */
describe.each(DIALECTS)('judging end to end (%s)', (dialect) => {
  let db: TestDatabase;
  let t: TestApp;
  let oa: FakeProvider;
  let an: FakeProvider;
  let org: TestUser;
  let human: TestUser;
  let eventId: string;
  const projectIds: Record<string, string> = {};

  beforeAll(async () => {
    [oa, an] = await Promise.all([startFakeOpenAI(), startFakeAnthropic()]);
    db = await createTestDatabase(dialect);
    t = await startTestApp(dialect, {
      database: db,
      env: {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: `${oa.url}/v1`,
        ANTHROPIC_API_KEY: 'sk-ant-test',
        ANTHROPIC_BASE_URL: an.url,
        GITHUB_API_URL: 'http://127.0.0.1:9', // nothing listens: context fetching fails fast, reviews go on
        GITHUB_TIMEOUT_MS: '300',
        REVIEW_WORKERS: 'false',
        REVIEW_BACKOFF_MS: '0',
        REVIEW_TIMEOUT_MS: '2000',
      },
    });
    org = await t.user('organizer');
    human = await t.user();
    oa.setDefault(
      byProject({
        'Project Alpha': { kind: 'ok', scores: { impact: 8, craft: 6 } },
        'Project Beta': { kind: 'ok', scores: { impact: 6, craft: 9 } },
        'Project Gamma': { kind: 'ok', scores: { impact: 8, craft: 6 } },
      }),
      'gpt-e2e',
    );
    an.setDefault(
      byProject({
        'Project Alpha': { kind: 'ok', scores: { impact: 6, craft: 8 } },
        'Project Beta': { kind: 'ok', scores: { impact: 7, craft: 7 } },
        'Project Gamma': { kind: 'ok', scores: { impact: 6, craft: 8 } },
      }),
      'claude-e2e',
    );
    // Claude's first answer is garbage: it must be retried, never scored.
    an.script('claude-e2e', [{ kind: 'garbage' }]);
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
    await Promise.all([oa?.close(), an?.close()]);
  });

  it('runs from registration to a published, frozen result with exact numbers', async () => {
    eventId = await createEvent(t, org.key, {
      models: [GPT, CLAUDE],
      registration_config: { open: true, auto_approve: true, fields: [] },
    });
    const submit = async (name: string, track: string) => {
      const team = await t.user();
      const reg = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: { team_name: `Team ${name}`, track_id: track } });
      expect(reg.status).toBe(201);
      const res = await t.api('POST', `/events/${eventId}/submit`, {
        key: team.key,
        body: { project_name: `Project ${name}`, github_url: `https://github.com/acme/${name.toLowerCase()}` },
      });
      expect(res.status).toBe(201);
      projectIds[name] = res.body.id;
      t.clock.advance(60_000); // first submissions in order Alpha, Beta, Gamma: the tie-break
    };
    await submit('Alpha', 'tools');
    await submit('Beta', 'fun');
    await submit('Gamma', 'tools');
    await t.database.db.insertInto('event_reviewers').values({ event_id: eventId, user_id: human.id, created_at: t.clock.now().toISOString() }).execute();

    expect((await t.api('GET', `/events/${eventId}/result`)).body.code).toBe('results_not_published');

    // The submission deadline passes: the event is judging by the clock alone.
    t.clock.set(t.clock.now().getTime() + 2 * DAY);
    expect((await t.api('GET', `/events/${eventId}`)).body.status).toBe('judging');
    await t.ctx.reviews.drain();

    const reviews = (await t.api('GET', `/events/${eventId}/reviews`, { key: org.key })).body as any[];
    expect(reviews).toHaveLength(6);
    expect(reviews.every((r) => r.status === 'succeeded')).toBe(true);
    expect(oa.callsFor('gpt-e2e')).toHaveLength(3);
    expect(an.callsFor('claude-e2e')).toHaveLength(4); // one garbage reply, retried
    expect(reviews.map((r) => r.attempts).sort()).toEqual([1, 1, 1, 1, 1, 2]);

    const put = await t.api('PUT', `/events/${eventId}/projects/${projectIds.Beta}/review`, {
      key: human.key,
      body: { scores: { impact: 9, craft: 9 }, comment: 'Lovely' },
    });
    expect(put.status).toBe(201);

    // Worked by hand (weights impact 2, craft 1):
    //  Alpha: impact (8+6)/2 = 7, craft (6+8)/2 = 7 → 7; GPT (16+6)/3, Claude (12+8)/3
    //  Beta:  impact (6+7+9)/3, craft (9+7+9)/3 → (2·22/3 + 25/3)/3 = 69/9; GPT 7, Claude 7, human 9
    //  Gamma: as Alpha → 7, ties with Alpha, listed after it (later first submission)
    const entry = (name: string, rank: number, track: string, score: number, byModel: Record<string, number>, byDim: Record<string, number>) => ({
      rank,
      project_id: projectIds[name],
      project_name: `Project ${name}`,
      team_name: `Team ${name}`,
      track_id: track,
      score,
      scores_by_model: byModel,
      scores_by_dimension: byDim,
    });
    const expected = [
      entry('Beta', 1, 'fun', 7.6667, { [GPT]: 7, [CLAUDE]: 7, human: 9 }, { impact: 7.3333, craft: 8.3333 }),
      entry('Alpha', 2, 'tools', 7, { [GPT]: 7.3333, [CLAUDE]: 6.6667 }, { impact: 7, craft: 7 }),
      entry('Gamma', 2, 'tools', 7, { [GPT]: 7.3333, [CLAUDE]: 6.6667 }, { impact: 7, craft: 7 }),
    ];
    const board = await t.api('GET', `/events/${eventId}/leaderboard`, { key: org.key });
    expect(board.status).toBe(200);
    // The leaderboard adds each project's review coverage, and its raw and normalised scores, to the result's entry.
    expect(board.body.map(({ reviews: _coverage, score_raw: _raw, score_normalized: _normalized, ...entry }: any) => entry)).toEqual(expected);
    expect(board.body.map((e: any) => [e.score_raw, e.score_normalized])).toEqual(expected.map((e: any) => [e.score, null]));
    expect(board.body.map((e: any) => e.reviews)).toEqual([
      { expected: 2, succeeded: 2, failed: 0, pending: 0, human: 1 },
      { expected: 2, succeeded: 2, failed: 0, pending: 0, human: 0 },
      { expected: 2, succeeded: 2, failed: 0, pending: 0, human: 0 },
    ]);
    const tools = await t.api('GET', `/events/${eventId}/leaderboard?track_id=tools`, { key: org.key });
    expect(tools.body.map((e: any) => [e.project_name, e.rank])).toEqual([
      ['Project Alpha', 1],
      ['Project Gamma', 1],
    ]);

    // The human reviewer judged Beta only: Alpha and Gamma have no human review, so publishing
    // says so with the numbers and takes force.
    const refused = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'unfinished_judging', mode: 'every', projects_unfinished: 2, reviewers_unfinished: 0, open_assignments: null });
    const published = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key, body: { force: true } });
    expect(published.status).toBe(200);
    const result = await t.api('GET', `/events/${eventId}/result`);
    expect(result.status).toBe(200);
    // The published entries say each project's place in its track and the prize a track winner won
    // (Beta wins fun; Alpha and Gamma tie for tools and share its prize).
    const published_entries = expected.map((e) => ({ ...e, track_rank: 1, track_prize: e.track_id === 'fun' ? 'glory' : '$1000' }));
    expect(result.body).toEqual(published_entries);
    const etag = result.headers.get('etag');
    expect(etag).toBeTruthy();
    expect((await t.api('GET', `/events/${eventId}/result`, { headers: { 'if-none-match': etag! } })).status).toBe(304);

    const event = (await t.api('GET', `/events/${eventId}`)).body;
    expect(event.status).toBe('ended');
    expect(event.result_announced_at).toBe(t.clock.now().toISOString());

    // Frozen: the human can no longer change a review, and nothing moves the published ranking.
    const late = await t.api('PUT', `/events/${eventId}/projects/${projectIds.Alpha}/review`, {
      key: human.key,
      body: { scores: { impact: 10, craft: 10 } },
    });
    expect(late.status).toBe(409);
    expect((await t.api('GET', `/events/${eventId}/result`)).body).toEqual(published_entries);
  });
});
