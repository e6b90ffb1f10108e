import { describe, expect, it } from 'vitest';
import { weightShares } from './event-form-shares';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('weightShares', () => {
  it('gives each weight its share in whole percents', () => {
    expect(weightShares([2, 1, 1])).toEqual([50, 25, 25]);
    expect(weightShares([1])).toEqual([100]);
    expect(weightShares([0.5, 1.5])).toEqual([25, 75]);
  });

  it('rounds so the shares shown add up to 100', () => {
    expect(weightShares([1, 1, 1])).toEqual([34, 33, 33]);
    expect(weightShares([1, 1, 1, 1, 1, 1, 1])).toEqual([15, 15, 14, 14, 14, 14, 14]);
    expect(weightShares([3, 2, 2])).toEqual([43, 29, 28]);
    for (const ws of [
      [1, 2, 3, 4, 5, 6],
      [7, 7, 7],
      [0.1, 0.2, 0.3],
      [999_999, 1, 1],
    ])
      expect(sum(weightShares(ws))).toBe(100);
  });

  it('counts a missing, zero, negative or non-numeric weight as 0', () => {
    expect(weightShares([2, 0, '', 'x', -1, null, undefined, '2'])).toEqual([50, 0, 0, 0, 0, 0, 0, 50]);
  });

  it('shows 0 everywhere when the total is 0 (and for no rows)', () => {
    expect(weightShares([0, 0])).toEqual([0, 0]);
    expect(weightShares([])).toEqual([]);
  });

  it('never gives a rounding point to a zero-weight row', () => {
    expect(weightShares([1, 1, 1, 0])).toEqual([34, 33, 33, 0]);
  });
});
