import { describe, expect, it } from 'vitest';
import { buildEventConfig, DEFAULT_DIMENSIONS, type EventConfigInput } from '../../src/events/event-config.js';

const base: EventConfigInput = {
  name: 'Hack',
  registration_deadline: '2030-01-02T00:00:00Z',
  submission_deadline: '2030-01-03T00:00:00Z',
};

function fields(errs: { field: string }[]) {
  return errs.map((e) => e.field);
}

describe('buildEventConfig: creation', () => {
  it('applies the contract defaults and normalises deadlines to ISO UTC with milliseconds', () => {
    const { config, errors } = buildEventConfig(base);
    expect(errors).toEqual([]);
    expect(config).toEqual({
      name: 'Hack',
      description: '',
      tracks: [],
      dimensions: DEFAULT_DIMENSIONS,
      models: [],
      registration_deadline: '2030-01-02T00:00:00.000Z',
      submission_deadline: '2030-01-03T00:00:00.000Z',
      hacking_starts_at: null,
      registration_open: true,
      auto_approve: false,
      fields: [],
      time_zone: null,
      gallery_visibility: 'after_deadline',
      normalization: 'none',
      max_team_size: null,
      min_team_size: null,
      voting: { enabled: false, opens_at: null, closes_at: null, votes_per_person: 1, per_track: true, exclude_new_accounts: false },
    });
  });

  it('hacking_starts_at: optional, normalised, before the submission deadline (equal is refused), kept from the stored event', () => {
    expect(buildEventConfig({ ...base, hacking_starts_at: '2030-01-01T08:00:00+08:00' }).config.hacking_starts_at).toBe('2030-01-01T00:00:00.000Z');
    expect(buildEventConfig({ ...base, hacking_starts_at: '2030-01-03T00:00:00Z' }).errors).toEqual([
      { field: 'hacking_starts_at', message: 'must be before submission_deadline' },
    ]);
    const stored = buildEventConfig({ ...base, hacking_starts_at: '2030-01-01T00:00:00Z' }).config;
    expect(buildEventConfig({ name: 'Renamed' }, stored).config.hacking_starts_at).toBe('2030-01-01T00:00:00.000Z');
    expect(buildEventConfig({ hacking_starts_at: null }, stored).config.hacking_starts_at).toBeNull();
    expect(buildEventConfig({ submission_deadline: '2029-12-31T00:00:00Z', registration_deadline: '2029-12-30T00:00:00Z' }, stored).errors).toEqual([
      { field: 'hacking_starts_at', message: 'must be before submission_deadline' },
    ]);
  });

  it('converts offsets to UTC', () => {
    const { config, errors } = buildEventConfig({ ...base, registration_deadline: '2030-01-02T02:00:00+02:00' });
    expect(errors).toEqual([]);
    expect(config.registration_deadline).toBe('2030-01-02T00:00:00.000Z');
  });

  it('requires name and both deadlines', () => {
    const { errors } = buildEventConfig({});
    expect(fields(errors).sort()).toEqual(['name', 'registration_deadline', 'submission_deadline']);
  });

  it('refuses a blank name', () => {
    expect(fields(buildEventConfig({ ...base, name: '   ' }).errors)).toContain('name');
  });

  it('refuses deadlines without a zone or that are not dates', () => {
    for (const bad of ['2030-01-02', '2030-01-02T00:00:00', 'tomorrow', '2030-13-45T00:00:00Z']) {
      expect(fields(buildEventConfig({ ...base, registration_deadline: bad }).errors), bad).toContain('registration_deadline');
    }
  });

  it('refuses calendar dates that do not exist instead of rolling them over', () => {
    for (const bad of ['2030-02-30T00:00:00Z', '2030-04-31T00:00:00Z', '2031-02-29T00:00:00Z', '2030-01-01T24:00:00Z', '2030-01-01T12:60:00Z']) {
      expect(fields(buildEventConfig({ ...base, registration_deadline: bad }).errors), bad).toContain('registration_deadline');
    }
  });

  it('refuses a submission deadline before the registration deadline; equal is allowed', () => {
    const before = buildEventConfig({ ...base, submission_deadline: '2030-01-01T23:59:59.999Z' });
    expect(fields(before.errors)).toEqual(['submission_deadline']);
    const equal = buildEventConfig({ ...base, submission_deadline: base.registration_deadline! });
    expect(equal.errors).toEqual([]);
  });

  it('refuses weights that are not greater than 0 (0, negative, NaN, Infinity)', () => {
    for (const weight of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      const { errors } = buildEventConfig({ ...base, dimensions: [{ name: 'a', weight }] });
      expect(fields(errors), String(weight)).toEqual(['dimensions.0.weight']);
    }
    expect(buildEventConfig({ ...base, dimensions: [{ name: 'a', weight: 0.001 }] }).errors).toEqual([]);
  });

  it('needs at least one dimension', () => {
    expect(fields(buildEventConfig({ ...base, dimensions: [] }).errors)).toEqual(['dimensions']);
  });

  it('refuses duplicate dimension names, case- and space-insensitively', () => {
    const { errors } = buildEventConfig({
      ...base,
      dimensions: [
        { name: 'Impact', weight: 1 },
        { name: ' impact ', weight: 2 },
      ],
    });
    expect(fields(errors)).toEqual(['dimensions.1.name']);
  });

  it('refuses duplicate track ids and keeps prize optional', () => {
    const dup = buildEventConfig({
      ...base,
      tracks: [
        { id: 'a', name: 'A' },
        { id: 'b', name: 'B' },
        { id: 'a', name: 'A again' },
      ],
    });
    expect(fields(dup.errors)).toEqual(['tracks.2.id']);
    const ok = buildEventConfig({ ...base, tracks: [{ id: 'a', name: 'A' }] });
    expect(ok.errors).toEqual([]);
    expect(ok.config.tracks).toEqual([{ id: 'a', name: 'A', prize: '' }]);
  });

  it('checks model identifiers look like provider/model and are unique', () => {
    expect(buildEventConfig({ ...base, models: ['openai/gpt-4o-mini', 'ollama/llama3.1'] }).errors).toEqual([]);
    expect(fields(buildEventConfig({ ...base, models: ['gpt-4o'] }).errors)).toEqual(['models.0']);
    expect(fields(buildEventConfig({ ...base, models: ['openai/x', 'openai/x'] }).errors)).toEqual(['models.1']);
  });
});

describe('buildEventConfig: registration form', () => {
  const withFields = (f: NonNullable<NonNullable<EventConfigInput['registration_config']>['fields']>) =>
    buildEventConfig({ ...base, registration_config: { fields: f } });

  it('accepts key or name (the two seed shapes) and fills label, type and required', () => {
    const { config, errors } = withFields([{ key: 'repo' }, { name: 'why', label: 'Why', type: 'textarea', required: true }]);
    expect(errors).toEqual([]);
    expect(config.fields).toEqual([
      { key: 'repo', label: 'repo', type: 'text', required: false },
      { key: 'why', label: 'Why', type: 'textarea', required: true },
    ]);
  });

  it('accepts key and name when they are equal, refuses them when they differ', () => {
    expect(withFields([{ key: 'a', name: 'a' }]).errors).toEqual([]);
    expect(fields(withFields([{ key: 'a', name: 'b' }]).errors)).toEqual(['registration_config.fields.0']);
  });

  it('needs a key', () => {
    expect(fields(withFields([{ label: 'nameless' }]).errors)).toEqual(['registration_config.fields.0.key']);
  });

  it('refuses duplicate keys, also when one is given as name', () => {
    expect(fields(withFields([{ key: 'a' }, { key: 'a' }]).errors)).toEqual(['registration_config.fields.1.key']);
    expect(fields(withFields([{ key: 'a' }, { name: 'a' }]).errors)).toEqual(['registration_config.fields.1.key']);
  });

  it('refuses unknown field types', () => {
    expect(fields(withFields([{ key: 'a', type: 'checkbox' }]).errors)).toEqual(['registration_config.fields.0.type']);
    for (const type of ['text', 'textarea', 'url', 'email', 'number']) expect(withFields([{ key: 'a', type }]).errors).toEqual([]);
  });

  it('takes open and auto_approve from registration_config', () => {
    const { config } = buildEventConfig({ ...base, registration_config: { open: false, auto_approve: true } });
    expect(config.registration_open).toBe(false);
    expect(config.auto_approve).toBe(true);
  });
});

describe('buildEventConfig: update over an existing config', () => {
  const existing = buildEventConfig({
    ...base,
    tracks: [{ id: 't', name: 'T', prize: 'p' }],
    registration_config: { open: false, auto_approve: true, fields: [{ key: 'repo', type: 'url', required: true }] },
  }).config;

  it('keeps every field not given and needs nothing', () => {
    const { config, errors } = buildEventConfig({ description: 'new' }, existing);
    expect(errors).toEqual([]);
    expect(config).toEqual({ ...existing, description: 'new' });
  });

  it('keeps the form when registration_config changes only a flag', () => {
    const { config } = buildEventConfig({ registration_config: { open: true } }, existing);
    expect(config.registration_open).toBe(true);
    expect(config.auto_approve).toBe(true);
    expect(config.fields).toEqual(existing.fields);
  });

  it('checks deadline order against the stored other deadline', () => {
    expect(fields(buildEventConfig({ submission_deadline: '2030-01-01T00:00:00Z' }, existing).errors)).toEqual(['submission_deadline']);
    expect(fields(buildEventConfig({ registration_deadline: '2030-01-04T00:00:00Z' }, existing).errors)).toEqual(['submission_deadline']);
  });
});
