import { describe, expect, it } from 'vitest';
import { buildEventConfig, type EventConfigInput, type FormField } from '../../src/events/event-config.js';
import { validateRegistration } from '../../src/registrations/form.js';
import { rankProjects } from '../../src/results/ranking.js';
import { checkReviewReply, reviewReplySchema } from '../../src/reviews/review-reply.js';

/**
 * Names used as object keys (dimension names, form keys, track ids, answers, reply scores, result
 * maps) must never be special: "__proto__", "constructor" and "prototype" are refused when an event
 * is written, and every parser of untrusted keys keeps them as plain data anyway (events stored
 * before the rule, JSON.parse'd replies that carry an own "__proto__").
 */
const RESERVED = ['__proto__', 'constructor', 'prototype'];
const base: EventConfigInput = { name: 'Hack', registration_deadline: '2030-01-02T00:00:00Z', submission_deadline: '2030-01-03T00:00:00Z' };
const errorsOf = (input: EventConfigInput) => buildEventConfig(input).errors;

describe('buildEventConfig refuses reserved object-key names', () => {
  it.each(RESERVED)('dimension name %s (also with spaces around it)', (name) => {
    for (const n of [name, ` ${name} `]) {
      const errors = errorsOf({
        ...base,
        dimensions: [
          { name: 'impact', weight: 1 },
          { name: n, weight: 1 },
        ],
      });
      expect(errors).toEqual([{ field: 'dimensions.1.name', message: expect.stringMatching(new RegExp(`"${name}" is reserved`)) }]);
    }
  });

  it.each(RESERVED)('form field key %s, given as key or as name', (key) => {
    expect(errorsOf({ ...base, registration_config: { fields: [{ key }] } }).map((e) => e.field)).toEqual(['registration_config.fields.0.key']);
    expect(errorsOf({ ...base, registration_config: { fields: [{ key: 'ok' }, { name: key }] } }).map((e) => e.field)).toEqual([
      'registration_config.fields.1.key',
    ]);
  });

  it.each(RESERVED)('track id %s', (id) => {
    expect(errorsOf({ ...base, tracks: [{ id, name: 'T' }] }).map((e) => e.field)).toEqual(['tracks.0.id']);
  });

  it.each(RESERVED)('model provider %s', (provider) => {
    expect(errorsOf({ ...base, models: ['openai/gpt-4o-mini', `${provider}/m`] }).map((e) => e.field)).toEqual(['models.1']);
  });

  it('applies to updates too, and leaves look-alike names alone', () => {
    const stored = buildEventConfig(base).config;
    expect(buildEventConfig({ dimensions: [{ name: '__proto__', weight: 1 }] }, stored).errors.map((e) => e.field)).toEqual(['dimensions.0.name']);
    const fine = buildEventConfig({
      ...base,
      dimensions: [
        { name: 'Constructor', weight: 1 },
        { name: '__proto', weight: 1 },
        { name: 'toString', weight: 1 },
      ],
      tracks: [{ id: 'proto', name: 'p' }],
      registration_config: { fields: [{ key: 'prototypes' }] },
    });
    expect(fine.errors).toEqual([]);
  });
});

describe('validateRegistration keeps untrusted answer keys as plain data', () => {
  const tracks = [{ id: 'tools', name: 'Tools', prize: '' }];
  // An event stored before reserved names were refused.
  const legacy: FormField[] = RESERVED.map((key) => ({ key, label: key, type: 'text', required: true }));

  it('stores answers to fields named __proto__, constructor and prototype as own properties', () => {
    const fields = JSON.parse('{"__proto__": "a", "constructor": "b", "prototype": "c"}') as Record<string, unknown>;
    const { value, errors } = validateRegistration({ team_name: 'X', track_id: 'tools', fields }, { fields: legacy, tracks }, 'a@example.com');
    expect(errors).toEqual([]);
    expect(Object.keys(value.fields).sort()).toEqual(['__proto__', 'constructor', 'prototype']);
    expect(JSON.parse(JSON.stringify(value.fields))).toEqual(JSON.parse('{"__proto__": "a", "constructor": "b", "prototype": "c"}'));
    expect(Object.getPrototypeOf(value.fields)).toBeNull();
  });

  it('refuses an own "__proto__" answer the form does not have, without touching any prototype', () => {
    const fields = JSON.parse('{"__proto__": {"polluted": true}, "repo": "x"}') as Record<string, unknown>;
    const form = { fields: [{ key: 'repo', label: 'Repo', type: 'text' as const, required: true }], tracks };
    const { value, errors } = validateRegistration({ team_name: 'X', track_id: 'tools', fields }, form, 'a@example.com');
    expect(errors.map((e) => e.field)).toEqual(['fields.__proto__']);
    expect(Object.keys(value.fields)).toEqual(['repo']);
    expect((value.fields as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('review replies with reserved keys', () => {
  const dims = [{ name: 'impact', weight: 1 }];

  it('refuses a reply carrying an own "__proto__" or "constructor" score or member', () => {
    for (const reply of [
      '{"scores": {"impact": 5, "__proto__": 9}, "summary": "x"}',
      '{"scores": {"impact": 5, "constructor": 9}, "summary": "x"}',
      '{"scores": {"impact": 5}, "summary": "x", "__proto__": {"scores": 1}}',
    ]) {
      const r = checkReviewReply(reply, dims);
      expect(r.ok).toBe(false);
    }
  });

  it('does not take an inherited-looking value for a missing score', () => {
    const r = checkReviewReply('{"scores": {"__proto__": {"impact": 10}}, "summary": "x"}', dims);
    expect(r).toEqual({ ok: false, reason: 'invalid reply: score for unknown dimension "__proto__"' });
  });

  it('keeps a score for a legacy dimension named __proto__ as an ordinary key, and lists it in the schema', () => {
    const legacy = [
      { name: '__proto__', weight: 1 },
      { name: 'constructor', weight: 1 },
    ];
    const r = checkReviewReply('{"scores": {"__proto__": 4, "constructor": 6}, "summary": "x"}', legacy);
    expect(r.ok).toBe(true);
    const scores = r.ok ? r.value.scores : {};
    expect(Object.keys(scores)).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(scores)).toBe('{"__proto__":4,"constructor":6}');
    const schema = JSON.parse(JSON.stringify(reviewReplySchema(legacy))) as { properties: { scores: { properties: Record<string, unknown> } } };
    expect(Object.keys(schema.properties.scores.properties)).toEqual(['__proto__', 'constructor']);
  });
});

describe('rankProjects with reserved names', () => {
  it('publishes a legacy "__proto__" dimension in scores_by_dimension instead of dropping it', () => {
    const [entry] = rankProjects({
      dimensions: [
        { name: '__proto__', weight: 1 },
        { name: 'craft', weight: 1 },
      ],
      projects: [{ project_id: 'p1', project_name: 'P', team_name: 'T', track_id: null, first_submitted_at: '2030-01-01T00:00:00.000Z' }],
      reviews: [{ project_id: 'p1', group_key: 'a/m', scores: JSON.parse('{"__proto__": 4, "craft": 8}') }],
    });
    expect(entry!.score).toBe(6);
    expect(JSON.parse(JSON.stringify(entry!.scores_by_dimension))).toEqual(JSON.parse('{"__proto__": 4, "craft": 8}'));
    expect(Object.keys(entry!.scores_by_dimension)).toEqual(['__proto__', 'craft']);
    expect(Object.keys(entry!.scores_by_model)).toEqual(['a/m']);
  });
});
