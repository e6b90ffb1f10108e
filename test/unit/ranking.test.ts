import { describe, expect, it } from 'vitest';
import {
  orderGroups,
  rankProjects,
  rerank,
  roundScore,
  type RankingDimension,
  type RankingProject,
  type RankingReview,
  type ResultEntry,
} from '../../src/results/ranking.js';

// Every expected number below is worked out by hand in the comment beside it.
const GPT = 'openai/gpt-4o-mini';
const CLAUDE = 'anthropic/claude-sonnet-4-5';
const IMPACT_CRAFT: RankingDimension[] = [
  { name: 'impact', weight: 2 },
  { name: 'craft', weight: 1 },
];

let minute = 0;
function project(id: string, overrides: Partial<RankingProject> = {}): RankingProject {
  minute++;
  return {
    project_id: id,
    project_name: `Project ${id}`,
    team_name: `Team ${id}`,
    track_id: null,
    first_submitted_at: new Date(Date.UTC(2030, 0, 1, 12, minute)).toISOString(),
    ...overrides,
  };
}
const review = (project_id: string, group_key: string, scores: Record<string, unknown>): RankingReview => ({ project_id, group_key, scores });
const brief = (entries: ResultEntry[]) => entries.map((e) => [e.rank, e.project_id, e.score]);

describe('rankProjects: scores', () => {
  it('humans and two models: group means, per-dimension means, per-model weighted averages', () => {
    const [entry] = rankProjects({
      dimensions: IMPACT_CRAFT,
      projects: [project('p1')],
      groupOrder: [GPT, CLAUDE],
      reviews: [
        review('p1', GPT, { impact: 8, craft: 6 }),
        review('p1', CLAUDE, { impact: 6, craft: 9 }),
        review('p1', 'human', { impact: 7, craft: 7 }),
        review('p1', 'human', { impact: 9, craft: 5 }),
      ],
    });
    // human group: impact (7+9)/2 = 8, craft (7+5)/2 = 6
    // impact: (8 + 6 + 8) / 3 = 7.3333; craft: (6 + 9 + 6) / 3 = 7
    // gpt: (2×8 + 6)/3 = 7.3333; claude: (2×6 + 9)/3 = 7; human: (2×8 + 6)/3 = 7.3333
    // score: (2 × 22/3 + 7) / 3 = 65/9 = 7.2222
    expect(entry).toEqual({
      rank: 1,
      project_id: 'p1',
      project_name: 'Project p1',
      team_name: 'Team p1',
      track_id: null,
      score: 7.2222,
      scores_by_model: { [GPT]: 7.3333, [CLAUDE]: 7, human: 7.3333 },
      scores_by_dimension: { impact: 7.3333, craft: 7 },
    });
    // Key order: the preferred order (the event's models), then `human`.
    expect(Object.keys(entry!.scores_by_model)).toEqual([GPT, CLAUDE, 'human']);
    expect(Object.keys(entry!.scores_by_dimension)).toEqual(['impact', 'craft']);
  });

  it('a single group: every number is that group’s', () => {
    const [entry] = rankProjects({
      dimensions: IMPACT_CRAFT,
      projects: [project('p')],
      reviews: [review('p', GPT, { impact: 9, craft: 3 })],
    });
    // (2×9 + 3) / 3 = 7
    expect(entry).toMatchObject({ score: 7, scores_by_model: { [GPT]: 7 }, scores_by_dimension: { impact: 9, craft: 3 } });
  });

  it('a group that skipped a dimension is averaged over the dimensions it scored', () => {
    const [entry] = rankProjects({
      dimensions: IMPACT_CRAFT,
      projects: [project('p')],
      groupOrder: [GPT, CLAUDE],
      reviews: [review('p', GPT, { impact: 7, craft: 8 }), review('p', CLAUDE, { impact: 7.5 })],
    });
    // impact: (7 + 7.5)/2 = 7.25; craft: only gpt, 8
    // gpt: (2×7 + 8)/3 = 7.3333; claude: 7.5 (its weights normalised over impact alone)
    // score: (2×7.25 + 8)/3 = 7.5
    expect(entry).toMatchObject({
      score: 7.5,
      scores_by_model: { [GPT]: 7.3333, [CLAUDE]: 7.5 },
      scores_by_dimension: { impact: 7.25, craft: 8 },
    });
  });

  it('missing groups: a project only some groups reviewed uses the groups that did', () => {
    const entries = rankProjects({
      dimensions: IMPACT_CRAFT,
      projects: [project('a'), project('b')],
      groupOrder: [GPT, CLAUDE],
      reviews: [review('a', GPT, { impact: 6, craft: 6 }), review('a', CLAUDE, { impact: 9, craft: 9 }), review('b', CLAUDE, { impact: 9, craft: 3 })],
    });
    // a: impact 7.5, craft 7.5, score 7.5; b: claude alone, (2×9 + 3)/3 = 7
    expect(entries.map((e) => [e.project_id, e.score, e.scores_by_model])).toEqual([
      ['a', 7.5, { [GPT]: 6, [CLAUDE]: 9 }],
      ['b', 7, { [CLAUDE]: 7 }],
    ]);
  });

  it('a dimension nobody scored is left out of the score, not counted as 0', () => {
    const [entry] = rankProjects({
      dimensions: IMPACT_CRAFT,
      projects: [project('p')],
      reviews: [review('p', GPT, { craft: 4 })],
    });
    // Only craft has a score: 1×4 / 1 = 4 (counting impact as 0 would give (0 + 4)/3 = 1.3333)
    expect(entry).toMatchObject({ score: 4, scores_by_model: { [GPT]: 4 }, scores_by_dimension: { craft: 4 } });
    expect(entry!.scores_by_dimension).not.toHaveProperty('impact');
  });

  it('weights that do not sum to 1 are normalised by their sum', () => {
    const scores = { impact: 8, craft: 4 };
    const rank = (dimensions: RankingDimension[]) => rankProjects({ dimensions, projects: [project('p')], reviews: [review('p', GPT, scores)] })[0]!.score;
    // (3×8 + 1×4) / 4 = 7
    expect(
      rank([
        { name: 'impact', weight: 3 },
        { name: 'craft', weight: 1 },
      ]),
    ).toBe(7);
    expect(
      rank([
        { name: 'impact', weight: 0.75 },
        { name: 'craft', weight: 0.25 },
      ]),
    ).toBe(7);
    expect(
      rank([
        { name: 'impact', weight: 30 },
        { name: 'craft', weight: 10 },
      ]),
    ).toBe(7);
    // (0.2×8 + 0.3×4) / 0.5 = 5.6
    expect(
      rank([
        { name: 'impact', weight: 0.2 },
        { name: 'craft', weight: 0.3 },
      ]),
    ).toBe(5.6);
  });

  it('six dimensions with uneven weights', () => {
    const dims = [1, 2, 3, 4, 5, 6].map((w) => ({ name: `d${w}`, weight: w }));
    const [entry] = rankProjects({
      dimensions: dims,
      projects: [project('p')],
      reviews: [review('p', GPT, { d1: 10, d2: 9, d3: 8, d4: 7, d5: 6, d6: 5 })],
    });
    // (10 + 18 + 24 + 28 + 30 + 30) / 21 = 140/21 = 6.6667
    expect(entry!.score).toBe(6.6667);
  });

  it('rounds to 4 decimals only at the output, half up', () => {
    const [entry] = rankProjects({
      dimensions: [{ name: 'overall', weight: 1 }],
      projects: [project('p')],
      reviews: [review('p', GPT, { overall: 7.1234 }), review('p', CLAUDE, { overall: 7.1235 })],
    });
    // (7.1234 + 7.1235)/2 = 7.12345 -> 7.1235
    expect(entry!.score).toBe(7.1235);
    expect(roundScore(2 / 3)).toBe(0.6667);
    expect(roundScore(7.199999999999999)).toBe(7.2);
  });

  it('never turns a bad value into a score', () => {
    const [entry] = rankProjects({
      dimensions: IMPACT_CRAFT,
      projects: [project('p')],
      reviews: [
        review('p', GPT, { impact: 11, craft: '8', novelty: 9 }),
        review('p', GPT, { impact: -1, craft: null }),
        review('p', GPT, { impact: Number.NaN, craft: Number.POSITIVE_INFINITY }),
        review('p', CLAUDE, { impact: 6 }),
        review('ghost', GPT, { impact: 10, craft: 10 }),
      ],
    });
    // Only claude's impact 6 counts; gpt contributed nothing valid, so it has no scores_by_model key.
    expect(entry).toMatchObject({ score: 6, scores_by_model: { [CLAUDE]: 6 }, scores_by_dimension: { impact: 6 } });
  });

  it('matches dimension names case-insensitively, counting a review once per dimension', () => {
    const [entry] = rankProjects({
      dimensions: IMPACT_CRAFT,
      projects: [project('p')],
      reviews: [review('p', GPT, { Impact: 9, impact: 9, ' CRAFT ': 6 }), review('p', GPT, { impact: 6, craft: 6 })],
    });
    // gpt impact (9 + 6)/2 = 7.5 (the first review counted once), craft 6; score (15 + 6)/3 = 7
    expect(entry).toMatchObject({ score: 7, scores_by_dimension: { impact: 7.5, craft: 6 } });
  });
});

describe('rankProjects: ranks', () => {
  const overall = [{ name: 'overall', weight: 1 }];

  it('equal scores share a rank and the next rank skips (1, 2, 2, 4), earlier submission first', () => {
    const a = project('a');
    const c = project('c'); // submitted before b
    const b = project('b');
    const d = project('d');
    const entries = rankProjects({
      dimensions: overall,
      projects: [a, b, c, d],
      reviews: [review('a', GPT, { overall: 8 }), review('b', GPT, { overall: 7 }), review('c', GPT, { overall: 7 }), review('d', GPT, { overall: 5 })],
    });
    expect(brief(entries)).toEqual([
      [1, 'a', 8],
      [2, 'c', 7],
      [2, 'b', 7],
      [4, 'd', 5],
    ]);
  });

  it('orders equal scores submitted at the same instant by project id', () => {
    const at = '2030-01-01T12:00:00.000Z';
    const entries = rankProjects({
      dimensions: overall,
      projects: [project('prj_b', { first_submitted_at: at }), project('prj_a', { first_submitted_at: at })],
      reviews: [review('prj_b', GPT, { overall: 5 }), review('prj_a', GPT, { overall: 5 })],
    });
    expect(brief(entries)).toEqual([
      [1, 'prj_a', 5],
      [1, 'prj_b', 5],
    ]);
  });

  it('float noise never splits a tie: equal published scores share a rank', () => {
    // (7.1 + 7.3)/2 is 7.199999999999999 in binary floating point, (7.2 + 7.2)/2 is 7.2.
    const entries = rankProjects({
      dimensions: overall,
      projects: [project('x'), project('y')],
      reviews: [
        review('x', GPT, { overall: 7.1 }),
        review('x', CLAUDE, { overall: 7.3 }),
        review('y', GPT, { overall: 7.2 }),
        review('y', CLAUDE, { overall: 7.2 }),
      ],
    });
    expect(brief(entries)).toEqual([
      [1, 'x', 7.2],
      [1, 'y', 7.2],
    ]);
  });

  it('ties reached by different paths (three groups vs three humans) share a rank', () => {
    const entries = rankProjects({
      dimensions: IMPACT_CRAFT,
      projects: [project('p1'), project('p3')],
      reviews: [
        review('p1', GPT, { impact: 8, craft: 6 }),
        review('p1', CLAUDE, { impact: 6, craft: 9 }),
        review('p1', 'human', { impact: 7, craft: 7 }),
        review('p1', 'human', { impact: 9, craft: 5 }),
        // humans: impact (7 + 8 + 7.5)/3 = 7.5, craft (6 + 7 + 7)/3 = 6.6667; (15 + 20/3)/3 = 65/9
        review('p3', 'human', { impact: 7, craft: 6 }),
        review('p3', 'human', { impact: 8, craft: 7 }),
        review('p3', 'human', { impact: 7.5, craft: 7 }),
      ],
    });
    expect(brief(entries)).toEqual([
      [1, 'p1', 7.2222],
      [1, 'p3', 7.2222],
    ]);
  });

  it('lists projects without any score last, with score 0, after a project really scored 0', () => {
    const entries = rankProjects({
      dimensions: overall,
      projects: [project('none1'), project('zero'), project('none2'), project('good')],
      reviews: [review('zero', GPT, { overall: 0 }), review('good', GPT, { overall: 6 })],
    });
    expect(brief(entries)).toEqual([
      [1, 'good', 6],
      [2, 'zero', 0],
      [3, 'none1', 0],
      [3, 'none2', 0],
    ]);
    expect(entries[2]).toMatchObject({ scores_by_model: {}, scores_by_dimension: {} });
  });

  it('handles an event with no projects or no reviews', () => {
    expect(rankProjects({ dimensions: overall, projects: [], reviews: [] })).toEqual([]);
    expect(brief(rankProjects({ dimensions: overall, projects: [project('p')], reviews: [] }))).toEqual([[1, 'p', 0]]);
  });
});

describe('rerank (per-track rankings)', () => {
  const overall = [{ name: 'overall', weight: 1 }];
  const entries = rankProjects({
    dimensions: overall,
    projects: [
      project('t1', { track_id: 'tools' }),
      project('f1', { track_id: 'fun' }),
      project('t2', { track_id: 'tools' }),
      project('t3', { track_id: 'tools' }),
      project('f2', { track_id: 'fun' }),
      project('t4', { track_id: 'tools' }),
      project('t5', { track_id: 'tools' }),
    ],
    reviews: [
      review('f1', GPT, { overall: 9 }),
      review('t1', GPT, { overall: 8 }),
      review('t2', GPT, { overall: 8 }),
      review('f2', GPT, { overall: 7 }),
      review('t3', GPT, { overall: 6 }),
      review('t4', GPT, { overall: 0 }),
    ],
  });

  it('recomputes ranks within the subset and keeps ties as in the full ranking', () => {
    expect(brief(entries)).toEqual([
      [1, 'f1', 9],
      [2, 't1', 8],
      [2, 't2', 8],
      [4, 'f2', 7],
      [5, 't3', 6],
      [6, 't4', 0],
      [7, 't5', 0],
    ]);
    expect(brief(rerank(entries, (e) => e.track_id === 'tools'))).toEqual([
      [1, 't1', 8],
      [1, 't2', 8],
      [3, 't3', 6],
      [4, 't4', 0],
      [5, 't5', 0], // unscored stays behind a real 0
    ]);
    expect(brief(rerank(entries, (e) => e.track_id === 'fun'))).toEqual([
      [1, 'f1', 9],
      [2, 'f2', 7],
    ]);
  });

  it('equals ranking the subset directly', () => {
    const again = rerank(entries, () => true);
    expect(again).toEqual(entries);
    expect(again[0]).not.toBe(entries[0]);
  });
});

describe('orderGroups', () => {
  it('puts preferred groups first, then the rest alphabetically, human last', () => {
    expect(orderGroups(['human', 'z/m', 'a/m', GPT, CLAUDE], [GPT, CLAUDE])).toEqual([GPT, CLAUDE, 'a/m', 'z/m', 'human']);
    expect(orderGroups(['human', 'b/x', 'a/y'])).toEqual(['a/y', 'b/x', 'human']);
  });
});
