import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeReviews, pearson, reviewerAgreement, type ReviewerReview } from '../../src/results/normalization.js';
import { HUMAN_GROUP, rankProjects, type RankingDimension } from '../../src/results/ranking.js';
import { computeStandings } from '../../src/results/standings.js';

// Every expected number below is worked out by hand in the comment beside it.
const OVERALL: RankingDimension[] = [{ name: 'overall', weight: 1 }];

function human(reviewer: string, project: string, score: number, dim = 'overall'): ReviewerReview {
  return { project_id: project, group_key: HUMAN_GROUP, reviewer_key: `human:${reviewer}`, scores: { [dim]: score } };
}
const scoreOf = (r: ReviewerReview) => r.scores['overall'] as number;

describe('normalizeReviews', () => {
  it('none: the reviews as given', () => {
    const reviews = [human('a', 'p1', 2), human('a', 'p2', 4)];
    expect(normalizeReviews('none', OVERALL, reviews)).toEqual(reviews);
  });

  it('zscore: a lenient and a harsh reviewer with the same preferences score the same', () => {
    // a: 2, 4, 6 (mean 4, population SD √(8/3)); b: 6, 8, 10 (mean 8, same SD).
    // Panel: 2, 4, 6, 6, 8, 10: mean 6, variance (16+4+0+0+4+16)/6 = 20/3, SD √(20/3).
    // z = -√(3/2), 0, +√(3/2) for both; normalised = 6 ± √(20/3)·√(3/2) = 6 ± √10.
    const reviews = [human('a', 'p1', 2), human('a', 'p2', 4), human('a', 'p3', 6), human('b', 'p1', 6), human('b', 'p2', 8), human('b', 'p3', 10)];
    const out = normalizeReviews('zscore', OVERALL, reviews).map(scoreOf);
    const expected = [6 - Math.sqrt(10), 6, 6 + Math.sqrt(10)];
    for (const [i, v] of out.entries()) expect(v).toBeCloseTo(expected[i % 3]!, 12);
  });

  it('zscore: fewer than 3 scores stay raw, but count in the panel', () => {
    // c scored twice (10, 0): raw. Panel: 2, 4, 6, 6, 8, 10, 10, 0: mean 46/8 = 5.75,
    // mean of squares 356/8 = 44.5, variance 44.5 − 5.75² = 11.4375.
    // a's p1: 5.75 + √11.4375 · (−√(3/2)) = 5.75 − √17.15625.
    const reviews = [
      human('a', 'p1', 2),
      human('a', 'p2', 4),
      human('a', 'p3', 6),
      human('b', 'p1', 6),
      human('b', 'p2', 8),
      human('b', 'p3', 10),
      human('c', 'p1', 10),
      human('c', 'p2', 0),
    ];
    const out = normalizeReviews('zscore', OVERALL, reviews).map(scoreOf);
    expect(out[0]).toBeCloseTo(5.75 - Math.sqrt(17.15625), 12);
    expect(out[1]).toBeCloseTo(5.75, 12);
    expect(out[2]).toBeCloseTo(5.75 + Math.sqrt(17.15625), 12);
    expect(out.slice(6)).toEqual([10, 0]);
  });

  it('zscore: a reviewer who gives every project the same score maps to the panel mean', () => {
    // m (a model): 5, 5, 5 (SD 0). Panel with a (2, 4, 6): mean 27/6 = 4.5.
    const model = (p: string, v: number): ReviewerReview => ({ project_id: p, group_key: 'm/x', reviewer_key: 'model:m/x', scores: { overall: v } });
    const reviews = [model('p1', 5), model('p2', 5), model('p3', 5), human('a', 'p1', 2), human('a', 'p2', 4), human('a', 'p3', 6)];
    const out = normalizeReviews('zscore', OVERALL, reviews).map(scoreOf);
    expect(out.slice(0, 3)).toEqual([4.5, 4.5, 4.5]);
  });

  it('zscore: clamped to 0–10', () => {
    // a: 0, 0, 0, 0, 10: mean 2, SD √((4·4 + 64)/5) = 4, so p5 has z = 2.
    // b: 4, 6, 4, 6, 5: mean 5. Panel: mean 35/10 = 3.5, mean of squares 229/10, variance 22.9 − 12.25 = 10.65.
    // a's p5: 3.5 + 2·√10.65 ≈ 10.03 → 10; a's p1 (z = −0.5): 3.5 − √10.65 / 2.
    const a = [0, 0, 0, 0, 10].map((v, i) => human('a', `p${i}`, v));
    const b = [4, 6, 4, 6, 5].map((v, i) => human('b', `p${i}`, v));
    const out = normalizeReviews('zscore', OVERALL, [...a, ...b]).map(scoreOf);
    expect(out[4]).toBe(10);
    expect(out[0]).toBeCloseTo(3.5 - Math.sqrt(10.65) / 2, 12);
  });

  it('zscore: clamped at 0 from below too', () => {
    // a: 10, 10, 10, 10, 0: mean 8, SD √((4·4 + 64)/5) = 4, so p4 has z = −2.
    // b: 4, 6, 4, 6, 5. Panel: mean 65/10 = 6.5, mean of squares 529/10, variance 52.9 − 42.25 = 10.65.
    // a's p4: 6.5 − 2·√10.65 ≈ −0.027 → 0; a's p0 (z = 0.5): 6.5 + √10.65 / 2.
    const a = [10, 10, 10, 10, 0].map((v, i) => human('a', `p${i}`, v));
    const b = [4, 6, 4, 6, 5].map((v, i) => human('b', `p${i}`, v));
    const out = normalizeReviews('zscore', OVERALL, [...a, ...b]).map(scoreOf);
    expect(out[4]).toBe(0);
    expect(out[0]).toBeCloseTo(6.5 + Math.sqrt(10.65) / 2, 12);
  });

  it('zscore: each dimension on its own; invalid scores and unknown dimensions pass through untouched', () => {
    const dims: RankingDimension[] = [
      { name: 'impact', weight: 2 },
      { name: 'craft', weight: 1 },
    ];
    const r = (reviewer: string, p: string, impact: unknown, craft: unknown): ReviewerReview => ({
      project_id: p,
      group_key: HUMAN_GROUP,
      reviewer_key: reviewer,
      scores: { impact, craft, extra: 3 },
    });
    // impact of a: 1, 2, 3 (mean 2, SD √(2/3)); of b: 7, 8, 9. Panel impact: mean 5, variance (16+9+4+4+9+16)/6 = 58/6.
    // craft: a's third score is invalid, so a has 2 craft scores and keeps them raw.
    const out = normalizeReviews('zscore', dims, [
      r('a', 'p1', 1, 4),
      r('a', 'p2', 2, 6),
      r('a', 'p3', 3, 11),
      r('b', 'p1', 7, 5),
      r('b', 'p2', 8, 5),
      r('b', 'p3', 9, 5),
    ]);
    expect(out[0]!.scores['impact']).toBeCloseTo(5 - Math.sqrt(58 / 6) * Math.sqrt(3 / 2), 12);
    expect(out[0]!.scores['craft']).toBe(4);
    expect(out[2]!.scores['craft']).toBeUndefined();
    expect(out[0]!.scores['extra']).toBeUndefined();
    // b's craft 5, 5, 5: SD 0 → the panel mean of craft (4 + 6 + 5 + 5 + 5) / 5 = 5.
    expect(out[3]!.scores['craft']).toBe(5);
  });

  it('property: a reviewer who adds a constant (or scales) changes no ranking of a one-dimension event', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 3, max: 6 }),
        fc.array(fc.integer({ min: 0, max: 10 }), { minLength: 24, maxLength: 24 }),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom<[number, number]>([1, -2], [1, 1], [1, 0.5], [0.5, 0], [0.5, 2], [0.25, 4]),
        (R, P, values, shifted, [factor, shift]) => {
          const projects = Array.from({ length: P }, (_, i) => ({
            project_id: `p${i}`,
            project_name: '',
            team_name: '',
            track_id: null,
            first_submitted_at: `2030-01-0${i + 1}`,
          }));
          const reviews: ReviewerReview[] = [];
          for (let r = 0; r < R; r++) for (let p = 0; p < P; p++) reviews.push(human(`r${r}`, `p${p}`, values[(r * P + p) % values.length]!));
          const who = `human:r${shifted % R}`;
          const moved = reviews.map((r) => (r.reviewer_key === who ? { ...r, scores: { overall: scoreOf(r) * factor + shift } } : r));
          // Within 0–10 after the change, and no normalised score clamped either way (clamping is
          // the one place the affine map is not kept).
          fc.pre(moved.every((r) => scoreOf(r) >= 0 && scoreOf(r) <= 10));
          const before = normalizeReviews('zscore', OVERALL, reviews);
          const after = normalizeReviews('zscore', OVERALL, moved);
          fc.pre([...before, ...after].every((r) => scoreOf(r) > 0 && scoreOf(r) < 10));
          // The normalised scores move by one common affine map (the panel's mean and spread,
          // which include the raw scores, move; every reviewer's standardised scores do not).
          const xs = before.map(scoreOf);
          const ys = after.map(scoreOf);
          const i = xs.findIndex((x) => Math.abs(x - xs[0]!) > 1e-6);
          const a = i < 0 ? 1 : (ys[i]! - ys[0]!) / (xs[i]! - xs[0]!);
          expect(a).toBeGreaterThan(0);
          for (let k = 0; k < xs.length; k++) expect(ys[k]).toBeCloseTo(ys[0]! + a * (xs[k]! - xs[0]!), 9);
          // So the ranking (order and ties) is the same.
          const rank = (list: ReviewerReview[]) => rankProjects({ dimensions: OVERALL, projects, reviews: list }).map((e) => [e.project_id, e.rank]);
          expect(rank(after)).toEqual(rank(before));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: under zscore a reviewer’s standardised scores ignore a constant added to them', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 3, maxLength: 8 }), fc.integer({ min: 1, max: 3 }), (values, c) => {
        // One reviewer alone: the panel is that reviewer, so normalising gives the raw scores back,
        // before and after the shift (mean and spread both come from the same scores).
        const own = values.map((v, i) => human('a', `p${i}`, v));
        const moved = values.map((v, i) => human('a', `p${i}`, v + c));
        const x = normalizeReviews('zscore', OVERALL, own).map(scoreOf);
        const y = normalizeReviews('zscore', OVERALL, moved).map(scoreOf);
        for (let k = 0; k < x.length; k++) {
          expect(x[k]).toBeCloseTo(values[k]!, 9);
          expect(y[k]! - x[k]!).toBeCloseTo(c, 9);
        }
      }),
    );
  });
});

describe('computeStandings with zscore', () => {
  it('ranks by the normalised score and keeps the raw one beside it', () => {
    // The first example: raw p1 = 4, p2 = 6, p3 = 8; normalised 6 − √10 = 2.8377, 6, 9.1623.
    const facts = [
      ['a', 'p1', 2],
      ['a', 'p2', 4],
      ['a', 'p3', 6],
      ['b', 'p1', 6],
      ['b', 'p2', 8],
      ['b', 'p3', 10],
    ].map(([reviewer, p, v]) => ({
      project_id: p as string,
      reviewer_kind: 'human',
      reviewer: reviewer as string,
      group_key: HUMAN_GROUP,
      status: 'succeeded',
      scores: JSON.stringify({ overall: v }),
    }));
    const projects = ['p1', 'p2', 'p3'].map((id, i) => ({ id, track_id: null, first_submitted_at: `2030-01-0${i + 1}`, judged: true }));
    const z = new Map(computeStandings({ dimensions: OVERALL, models: [], normalization: 'zscore' }, projects, facts).map((s) => [s.project_id, s]));
    expect(z.get('p1')).toMatchObject({ score_key: 28377, raw_score_key: 40000, by_model: '{"human":2.8377}' });
    expect(z.get('p2')).toMatchObject({ score_key: 60000, raw_score_key: 60000 });
    expect(z.get('p3')).toMatchObject({ score_key: 91623, raw_score_key: 80000, by_dimension: '{"overall":9.1623}' });
    const none = computeStandings({ dimensions: OVERALL, models: [], normalization: 'none' }, projects, facts);
    expect(none.map((s) => [s.score_key, s.raw_score_key])).toEqual([
      [80000, 80000],
      [60000, 60000],
      [40000, 40000],
    ]);
  });
});

describe('reviewerAgreement', () => {
  it('offset from the others and correlation with them', () => {
    // a: 4, 5, 6; b: 5, 6, 7; h (harsh): 1, 2, 3.
    // h vs mean(a, b) = 4.5, 5.5, 6.5: offset −3.5 (flagged), r = 1.
    // a vs mean(b, h) = 3, 4, 5: offset +1; b vs mean(a, h) = 2.5, 3.5, 4.5: offset +2.5 (flagged).
    const reviews = [
      ...[4, 5, 6].map((v, i) => human('a', `p${i}`, v)),
      ...[5, 6, 7].map((v, i) => human('b', `p${i}`, v)),
      ...[1, 2, 3].map((v, i) => human('h', `p${i}`, v)),
    ];
    const out = new Map(reviewerAgreement(OVERALL, reviews).map((r) => [r.reviewer_key, r]));
    expect(out.get('human:h')).toMatchObject({ projects: 3, common_projects: 3, flags: ['offset'] });
    expect(out.get('human:h')!.mean_offset).toBeCloseTo(-3.5, 12);
    expect(out.get('human:h')!.correlation).toBeCloseTo(1, 12);
    expect(out.get('human:a')!.mean_offset).toBeCloseTo(1, 12);
    expect(out.get('human:a')!.flags).toEqual([]);
    expect(out.get('human:b')!.mean_offset).toBeCloseTo(2.5, 12);
    expect(out.get('human:b')!.flags).toEqual(['offset']);
  });

  it('flags a reviewer whose order disagrees with the panel; needs 3 common projects for a correlation', () => {
    // a and b: 5, 6, 7, 8; c: 9, 8, 7, 6. c vs 5, 6, 7, 8: offset (4 + 2 + 0 − 2)/4 = 1, r = −1.
    // a vs mean(b, c) = 7, 7, 7, 7: no variation, correlation null; offset (−2 −1 + 0 + 1)/4 = −0.5.
    const reviews = [
      ...[5, 6, 7, 8].map((v, i) => human('a', `p${i}`, v)),
      ...[5, 6, 7, 8].map((v, i) => human('b', `p${i}`, v)),
      ...[9, 8, 7, 6].map((v, i) => human('c', `p${i}`, v)),
    ];
    const out = new Map(reviewerAgreement(OVERALL, reviews).map((r) => [r.reviewer_key, r]));
    // d scored two of a's projects only (and one nobody else scored): no correlation.
    const d = [human('d', 'p0', 1), human('d', 'p1', 9), human('d', 'p9', 5)];
    out.set(
      'human:d',
      reviewerAgreement(OVERALL, [...reviews.slice(0, 4), ...d]).find((r) => r.reviewer_key === 'human:d')!,
    );
    expect(out.get('human:c')!.mean_offset).toBeCloseTo(1, 12);
    expect(out.get('human:c')!.correlation).toBeCloseTo(-1, 12);
    expect(out.get('human:c')!.flags).toEqual(['correlation']);
    expect(out.get('human:a')).toMatchObject({ correlation: null, flags: [] });
    expect(out.get('human:a')!.mean_offset).toBeCloseTo(-0.5, 12);
    expect(out.get('human:d')).toMatchObject({ projects: 3, common_projects: 2, correlation: null });
    expect(pearson([1, 2, 3], [2, 2, 2])).toBeNull();
  });
});
