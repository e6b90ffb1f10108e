import { describe, expect, it } from 'vitest';
import { validateScores } from '../../src/reviewers/review-input.js';
import { checkReviewReply } from '../../src/reviews/review-reply.js';

/**
 * One table of score values, checked against both doors a score comes in by: an AI model's reply
 * and a human reviewer's input. Whatever one refuses, the other refuses too.
 */
const dims = [
  { name: 'impact', weight: 2 },
  { name: 'craft', weight: 1 },
];

const invalid: Array<[string, unknown]> = [
  ['just above 10', 10.5],
  ['a hair above 10', 10.000001],
  ['below 0', -1],
  ['a hair below 0', -0.000001],
  ['the string "NaN"', 'NaN'],
  ['the string "Infinity"', 'Infinity'],
  ['a numeric string', '7'],
  ['an empty string', ''],
  ['NaN itself', Number.NaN],
  ['Infinity itself', Number.POSITIVE_INFINITY],
  ['null', null],
  ['a boolean', true],
  ['an array', [7]],
  ['an object', { value: 7 }],
];

describe('score bounds', () => {
  describe.each(invalid)('%s', (_label, bad) => {
    it('is refused in an AI reply, never becoming a score', () => {
      const r = checkReviewReply({ scores: { impact: bad, craft: 5 }, summary: 'x' }, dims);
      expect(r).toMatchObject({ ok: false, reason: expect.stringMatching(/"impact"/) });
      expect(r).not.toHaveProperty('value');
    });

    it('is refused in human review input, naming scores.impact', () => {
      const { value, errors } = validateScores({ impact: bad, craft: 5 }, dims);
      expect(errors).toEqual([{ field: 'scores.impact', message: expect.stringMatching(/must be/) }]);
      expect(value).not.toHaveProperty('impact');
    });
  });

  it('refuses a number beyond double range written in the reply text (it parses as Infinity)', () => {
    expect(checkReviewReply('{"scores": {"impact": 1e999, "craft": 5}, "summary": "x"}', dims)).toMatchObject({ ok: false });
    expect(checkReviewReply('{"scores": {"impact": NaN, "craft": 5}, "summary": "x"}', dims)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not JSON/),
    });
  });

  it('refuses a missing dimension at both doors', () => {
    expect(checkReviewReply({ scores: { impact: 5 }, summary: 'x' }, dims)).toEqual({
      ok: false,
      reason: 'invalid reply: missing score for dimension "craft"',
    });
    expect(validateScores({ impact: 5 }, dims).errors).toEqual([{ field: 'scores.craft', message: 'is required' }]);
  });

  it('accepts the bounds themselves, 0 and 10, and fractions between', () => {
    for (const [impact, craft] of [
      [0, 10],
      [10, 0],
      [9.99, 0.01],
    ] as const) {
      expect(checkReviewReply({ scores: { impact, craft }, summary: '' }, dims)).toEqual({ ok: true, value: { scores: { impact, craft }, summary: '' } });
      expect(validateScores({ impact, craft }, dims)).toEqual({ value: { impact, craft }, errors: [] });
    }
  });
});
