import { describe, expect, it } from 'vitest';
import { nextUnreviewed, parseScore, weightedTotal, weightShares } from './scoring';

const DIMS = [
  { name: 'impact', weight: 2 },
  { name: 'craft', weight: 1 },
  { name: 'demo', weight: 1 },
];

describe('weight shares', () => {
  it('normalises weights by their sum', () => {
    expect(weightShares(DIMS)).toEqual([0.5, 0.25, 0.25]);
    expect(weightShares([{ name: 'overall', weight: 1 }])).toEqual([1]);
    expect(weightShares([])).toEqual([]);
  });
});

describe('weighted total', () => {
  it('is the weighted mean of every dimension', () => {
    expect(weightedTotal(DIMS, { impact: 8, craft: 6, demo: 4 })).toBe(6.5);
    expect(weightedTotal(DIMS, { impact: 10, craft: 10, demo: 10 })).toBe(10);
    expect(weightedTotal(DIMS, { impact: 0, craft: 0, demo: 0 })).toBe(0);
    expect(
      weightedTotal(
        [
          { name: 'a', weight: 0.3 },
          { name: 'b', weight: 0.7 },
        ],
        { a: 5, b: 10 },
      ),
    ).toBeCloseTo(8.5, 10);
  });

  it('is null while a score is missing or out of range', () => {
    expect(weightedTotal(DIMS, { impact: 8, craft: 6 })).toBeNull();
    expect(weightedTotal(DIMS, { impact: 8, craft: 6, demo: null })).toBeNull();
    expect(weightedTotal(DIMS, { impact: 11, craft: 6, demo: 1 })).toBeNull();
    expect(weightedTotal(DIMS, { impact: Number.NaN, craft: 6, demo: 1 })).toBeNull();
    expect(weightedTotal([], {})).toBeNull();
  });
});

describe('parse score', () => {
  it('reads numbers from 0 to 10, empty as not scored, the rest as invalid', () => {
    expect(parseScore('7')).toBe(7);
    expect(parseScore(' 7.5 ')).toBe(7.5);
    expect(parseScore('7,5')).toBe(7.5);
    expect(parseScore('0')).toBe(0);
    expect(parseScore('10')).toBe(10);
    expect(parseScore('')).toBeNull();
    expect(parseScore('10.5')).toBeNaN();
    expect(parseScore('-1')).toBeNaN();
    expect(parseScore('abc')).toBeNaN();
  });
});

describe('next unreviewed project', () => {
  const list = [
    { project_id: 'a', reviewed: true },
    { project_id: 'b', reviewed: false },
    { project_id: 'c', reviewed: true },
    { project_id: 'd', reviewed: false },
  ];

  it('takes the first unreviewed after the current one, wrapping to the start', () => {
    expect(nextUnreviewed(list, 'b')?.project_id).toBe('d');
    expect(nextUnreviewed(list, 'c')?.project_id).toBe('d');
    expect(nextUnreviewed(list, 'd')?.project_id).toBe('b');
    expect(nextUnreviewed(list, 'a')?.project_id).toBe('b');
  });

  it('starts from the top for a project not in the list, and is null when all others are reviewed', () => {
    expect(nextUnreviewed(list, 'zzz')?.project_id).toBe('b');
    expect(nextUnreviewed([{ project_id: 'a', reviewed: false }], 'a')).toBeNull();
    expect(
      nextUnreviewed(
        list.map((p) => ({ ...p, reviewed: true })),
        'a',
      ),
    ).toBeNull();
    expect(nextUnreviewed([], 'a')).toBeNull();
  });
});

describe('project links', () => {
  it('keeps http(s) URLs only', async () => {
    const { safeHttpUrl } = await import('./scoring');
    expect(safeHttpUrl('https://github.com/a/b')).toBe('https://github.com/a/b');
    expect(safeHttpUrl('http://demo.example/x?y=1')).toBe('http://demo.example/x?y=1');
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull();
    expect(safeHttpUrl('not a url')).toBeNull();
    expect(safeHttpUrl(null)).toBeNull();
  });
});
