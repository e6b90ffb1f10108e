import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, T0, type TestApp } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';
import { seedProjects } from '../helpers/seed-projects.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Score normalisation through the API: the event option, the leaderboard's raw and normalised
 * scores side by side (hand-computed), the whole event moving when one score arrives under zscore,
 * the reviewers far from the panel, and the published result recording its normalisation.
 *
 * One dimension `overall`, no models, three projects p1..p3:
 *   reviewer a: 2, 4, 6 · reviewer b: 6, 8, 10  → raw p1 4, p2 6, p3 8.
 *   zscore: both have z = −√1.5, 0, +√1.5; panel mean 6, variance 20/3 → 6 ∓ √10: 2.8377, 6, 9.1623.
 */
describe.each(DIALECTS)('score normalisation (%s)', (dialect) => {
  let t: TestApp;
  let org: { id: string; key: string };
  let other: { id: string; key: string };
  let eventId: string;
  let p: string[];
  let users: Record<string, string>;

  async function review(reviewer: string, project: string, score: number) {
    const now = t.clock.now().toISOString();
    await t.ctx.db
      .insertInto('reviews')
      .values({
        id: newId('rev'),
        event_id: eventId,
        project_id: project,
        reviewer_kind: 'human',
        reviewer: users[reviewer]!,
        group_key: 'human',
        status: 'succeeded',
        scores: JSON.stringify({ overall: score }),
        attempts: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  const board = async () => {
    const res = await t.api('GET', `/events/${eventId}/leaderboard`, { key: org.key });
    expect(res.status).toBe(200);
    return new Map<string, any>(res.body.map((e: any) => [e.project_id, e]));
  };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
    other = await quickUser(t, 'organizer');
    eventId = await createEvent(t, org.key, { models: [], dimensions: [{ name: 'overall', weight: 1 }] });
    p = await seedProjects(t, eventId, [
      { track: 'tools', score: null },
      { track: 'tools', score: null },
      { track: 'fun', score: null },
    ]);
    users = {};
    for (const name of ['a', 'b', 'c']) {
      const u = await quickUser(t, 'user');
      users[name] = u.id;
    }
    for (const [i, v] of [2, 4, 6].entries()) await review('a', p[i]!, v);
    for (const [i, v] of [6, 8, 10].entries()) await review('b', p[i]!, v);
  });
  afterAll(async () => t?.close());

  it('is none by default; only none or zscore', async () => {
    const event = await t.api('GET', `/events/${eventId}`, { key: org.key });
    expect(event.body.normalization).toBe('none');
    const bad = await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { normalization: 'minmax' } });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('validation_failed');
    const id = await createEvent(t, org.key, { normalization: 'zscore' });
    expect((await t.api('GET', `/events/${id}`, { key: org.key })).body.normalization).toBe('zscore');
  });

  it('none: score is raw, score_raw beside it, score_normalized null', async () => {
    const b = await board();
    expect([...b.keys()]).toEqual([p[2], p[1], p[0]]);
    expect(b.get(p[2]!)).toMatchObject({ rank: 1, score: 8, score_raw: 8, score_normalized: null, scores_by_model: { human: 8 } });
    expect(b.get(p[0]!)).toMatchObject({ rank: 3, score: 4, score_raw: 4, score_normalized: null });
  });

  it('zscore: ranks by the normalised score, the raw one beside it (CSV too)', async () => {
    const patched = await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { normalization: 'zscore' } });
    expect(patched.status).toBe(200);
    expect(patched.body.normalization).toBe('zscore');
    const b = await board();
    // 6 + √10 = 9.16227… and 6 − √10 = 2.83772…
    expect(b.get(p[2]!)).toMatchObject({ rank: 1, score: 9.1623, score_raw: 8, score_normalized: 9.1623, scores_by_dimension: { overall: 9.1623 } });
    expect(b.get(p[1]!)).toMatchObject({ rank: 2, score: 6, score_raw: 6, score_normalized: 6 });
    expect(b.get(p[0]!)).toMatchObject({ rank: 3, score: 2.8377, score_raw: 4, score_normalized: 2.8377 });
    const csv = await t.request('GET', `/api/v1/events/${eventId}/leaderboard.csv`, { key: org.key });
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'rank,project_id,project_name,team_name,track_id,score,score_raw,score_normalized,scores_by_model.human,scores_by_dimension.overall,track_rank,prize',
    );
    expect(lines[1]).toBe(`1,${p[2]},Project 2,Team 2,fun,9.1623,8,9.1623,9.1623,9.1623,1,glory`);
  });

  it('zscore: one new score moves every project, the untouched ones too', async () => {
    await board(); // standings fresh
    // c scores p1 10 (one score: raw). Panel: 2, 4, 6, 6, 8, 10, 10: mean 46/7, mean of squares
    // 356/7, variance 356/7 − (46/7)² = 376/49. a's and b's p2 (z = 0) → 46/7 = 6.5714.
    // p3: 46/7 + √(376/49 · 1.5) = 9.9641; p1: (2·(46/7 − √(376/49 · 1.5)) + 10) / 3 = 5.4286.
    await review('c', p[0]!, 10);
    const b = await board();
    const shift = Math.sqrt((376 / 49) * 1.5);
    expect(b.get(p[1]!).score).toBeCloseTo(46 / 7, 4);
    expect(b.get(p[2]!).score).toBeCloseTo(46 / 7 + shift, 4);
    expect(b.get(p[0]!).score).toBeCloseTo((2 * (46 / 7 - shift) + 10) / 3, 4);
    // Raw: p1 (2 + 6 + 10) / 3 = 6.
    expect(b.get(p[0]!).score_raw).toBe(6);
    expect(b.get(p[1]!).score_raw).toBe(6);
  });

  it('flags reviewers far from the panel (owners only)', async () => {
    // a vs the others' mean (p1 (6+10)/2 = 8, p2 8, p3 10): offsets −6, −4, −4 → −4.6667; r(2 4 6; 8 8 10) = 4/√(8·8/3) = 0.866.
    // b vs (p1 (2+10)/2 = 6, p2 4, p3 6): offsets 0, 4, 4 → 2.6667; r = 0 (flagged both ways).
    // c: one common project (others 4): offset 6, no correlation.
    const res = await t.api('GET', `/events/${eventId}/leaderboard/reviewers`, { key: org.key });
    expect(res.status).toBe(200);
    expect(res.body.thresholds).toEqual({ mean_offset: 2, correlation: 0.2, min_common_projects: 3 });
    const by = new Map<string, any>(res.body.reviewers.map((r: any) => [r.reviewer_id, r]));
    expect(by.get(users['a']!)).toMatchObject({
      reviewer_kind: 'human',
      projects: 3,
      common_projects: 3,
      mean_offset: -4.6667,
      correlation: 0.866,
      flagged: true,
      flags: ['offset'],
    });
    expect(by.get(users['a']!).email).toMatch(/@/);
    expect(by.get(users['b']!)).toMatchObject({ mean_offset: 2.6667, correlation: 0, flags: ['offset', 'correlation'] });
    expect(by.get(users['c']!)).toMatchObject({ projects: 1, common_projects: 1, mean_offset: 6, correlation: null, flags: ['offset'] });
    // Largest offset first among the flagged.
    expect(res.body.reviewers.map((r: any) => r.reviewer_id)).toEqual([users['c'], users['a'], users['b']]);
    const foreign = await t.api('GET', `/events/${eventId}/leaderboard/reviewers`, { key: other.key });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('forbidden');
    const anonymous = await t.api('GET', `/events/${eventId}/leaderboard/reviewers`);
    expect(anonymous.status).toBe(401);
  });

  it('a switch racing a publication either lands before it (and the result uses it) or is refused', async () => {
    for (let round = 0; round < 3; round++) {
      t.clock.set(T0.getTime());
      const id = await createEvent(t, org.key, { models: [] });
      await seedProjects(t, id, [
        { track: 'tools', score: 5 },
        { track: 'tools', score: 7 },
        { track: 'fun', score: 9 },
      ]);
      t.clock.set(T0.getTime() + 2 * DAY + HOUR); // judging
      const [published, patched] = await Promise.all([
        t.api('POST', `/events/${id}/results/publish`, { key: org.key }),
        t.api('PATCH', `/events/${id}`, { key: org.key, body: { normalization: 'zscore' } }),
      ]);
      expect(published.status).toBe(200);
      expect([200, 409]).toContain(patched.status);
      const event = (await t.api('GET', `/events/${id}`, { key: org.key })).body;
      // Whatever the order: the event's setting is the one the result records.
      expect(event.normalization).toBe(published.body.normalization);
      expect(patched.status === 200 ? 'zscore' : 'none').toBe(published.body.normalization);
    }
  });

  it('switching back to none gives the raw ranking again; the result records the one used; no change after publication', async () => {
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { normalization: 'none' } })).status).toBe(200);
    let b = await board();
    expect(b.get(p[2]!)).toMatchObject({ score: 8, score_normalized: null });
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { normalization: 'zscore' } })).status).toBe(200);
    b = await board();
    t.clock.set(T0.getTime() + 2 * DAY + HOUR); // judging
    // Still changeable while judging.
    const judging = await t.api('GET', `/events/${eventId}`, { key: org.key });
    expect(judging.body.status).toBe('judging');
    const published = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key });
    expect(published.status).toBe(200);
    expect(published.body.normalization).toBe('zscore');
    expect(published.body.entries.map((e: any) => [e.project_id, e.score])).toEqual([...b.values()].map((e) => [e.project_id, e.score]));
    expect(published.body.entries[0]).not.toHaveProperty('score_raw');
    const result = await t.api('GET', `/events/${eventId}/result`);
    expect(result.status).toBe(200);
    expect(result.headers.get('result-normalization')).toBe('zscore');
    const locked = await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { normalization: 'none' } });
    expect(locked.status).toBe(409);
    expect(locked.body.code).toBe('event_locked');
    expect((await t.api('GET', `/events/${eventId}`, { key: org.key })).body.normalization).toBe('zscore');
  });
});
