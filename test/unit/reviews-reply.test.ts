import { describe, expect, it } from 'vitest';
import { checkReviewReply, reviewReplySchema } from '../../src/reviews/review-reply.js';

const dims = [
  { name: 'impact', weight: 2 },
  { name: 'craft', weight: 1 },
];

describe('checkReviewReply', () => {
  it('accepts exactly the requested object, keeping fractions as they are', () => {
    const r = checkReviewReply('  {"scores": {"impact": 7.5, "craft": 0}, "summary": "Good."}\n', dims);
    expect(r).toEqual({ ok: true, value: { scores: { impact: 7.5, craft: 0 }, summary: 'Good.' } });
    expect(checkReviewReply({ scores: { impact: 10, craft: 3 }, summary: '' }, dims).ok).toBe(true);
  });

  it.each([
    ['not JSON', 'Sure! 9/10', /not JSON/],
    ['empty', '   ', /empty/],
    ['prose around JSON', 'Here: {"scores": {"impact": 1, "craft": 1}, "summary": "x"}', /not JSON/],
    ['a Markdown fence', '```json\n{"scores": {"impact": 1, "craft": 1}, "summary": "x"}\n```', /not JSON/],
    ['an array', '[1, 2]', /not a JSON object/],
    ['a number', '7', /not a JSON object/],
    ['null', 'null', /not a JSON object/],
    ['a missing dimension', '{"scores": {"impact": 7}, "summary": "x"}', /missing score for dimension "craft"/],
    ['a string score', '{"scores": {"impact": "7", "craft": 5}, "summary": "x"}', /"impact" is not a number/],
    ['a null score', '{"scores": {"impact": null, "craft": 5}, "summary": "x"}', /"impact" is not a number/],
    ['a score above 10', '{"scores": {"impact": 11, "craft": 5}, "summary": "x"}', /"impact" is 11, outside 0..10/],
    ['a negative score', '{"scores": {"impact": 5, "craft": -0.5}, "summary": "x"}', /"craft" is -0.5, outside/],
    ['an unknown dimension', '{"scores": {"impact": 5, "craft": 5, "vibes": 9}, "summary": "x"}', /unknown dimension "vibes"/],
    ['an extra member', '{"scores": {"impact": 5, "craft": 5}, "summary": "x", "note": 1}', /unexpected member "note"/],
    ['no summary', '{"scores": {"impact": 5, "craft": 5}}', /"summary" is missing/],
    ['scores as an array', '{"scores": [5, 5], "summary": "x"}', /"scores" is missing or not an object/],
    ['case-changed names', '{"scores": {"Impact": 5, "craft": 5}, "summary": "x"}', /unknown dimension "Impact"/],
  ])('refuses %s, never producing a score', (_label, reply, reason) => {
    const r = checkReviewReply(reply, dims);
    expect(r).toMatchObject({ ok: false, reason: expect.stringMatching(reason) });
    expect(r).not.toHaveProperty('value');
  });
});

describe('reviewReplySchema', () => {
  it('is a strict schema: every dimension required, nothing else allowed, 0..10', () => {
    const s = reviewReplySchema(dims) as any;
    expect(s.required).toEqual(['scores', 'summary']);
    expect(s.additionalProperties).toBe(false);
    expect(s.properties.scores.required).toEqual(['impact', 'craft']);
    expect(s.properties.scores.additionalProperties).toBe(false);
    expect(s.properties.scores.properties.impact).toMatchObject({ type: 'number', minimum: 0, maximum: 10 });
    expect(s.properties.summary.type).toBe('string');
    const loose = reviewReplySchema(dims, { withRange: false }) as any;
    expect(loose.properties.scores.properties.craft.minimum).toBeUndefined();
  });
});
