import { describe, expect, it } from 'vitest';
import { changedFields, emptyValues, formPath, parseWeight, payloadFromValues, valuesFromEvent, type EventDoc } from './event-form-payload';

const event: EventDoc = {
  id: 'evt_1',
  name: 'Agents Hack',
  description: 'Build agents',
  status: 'draft',
  registration_deadline: '2026-12-01T03:30:00.000Z',
  submission_deadline: '2026-12-08T03:30:00.000Z',
  result_announced_at: null,
  tracks: [{ id: 'tools', name: 'Tools', prize: '$1000' }],
  dimensions: [
    { name: 'impact', weight: 2 },
    { name: 'craft', weight: 1 },
  ],
  models: ['openai/gpt-4o-mini'],
  registration_config: { open: true, auto_approve: false, fields: [{ key: 'repo', label: 'Repository', type: 'url', required: true }] },
  co_organizers: ['co@example.com'],
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};

describe('values <-> payload', () => {
  it('round-trips an event through the form unchanged', () => {
    const values = valuesFromEvent(event, 'Asia/Kolkata');
    expect(values.registration_deadline).toEqual({ date: '2026-12-01', time: '09:00' });
    expect(values.dimensions).toEqual([
      { name: 'impact', weight: '2' },
      { name: 'craft', weight: '1' },
    ]);
    expect(changedFields(event, payloadFromValues(values))).toEqual({});
  });

  it('does not count seconds the form cannot show as a change', () => {
    const precise = { ...event, registration_deadline: '2026-12-01T03:30:42.123Z' };
    expect(changedFields(precise, payloadFromValues(valuesFromEvent(precise, 'UTC')))).toEqual({});
  });

  it('sends only what changed', () => {
    const values = valuesFromEvent(event, 'UTC');
    values.name = '  Agents Hack 2 ';
    values.dimensions[1]!.weight = '1,5';
    values.co_organizers = [{ value: 'CO@example.com' }];
    values.registration_deadline = { date: '2026-12-01', time: '04:00' };
    expect(changedFields(event, payloadFromValues(values))).toEqual({
      name: 'Agents Hack 2',
      registration_deadline: '2026-12-01T04:00:00.000Z',
      dimensions: [
        { name: 'impact', weight: 2 },
        { name: 'craft', weight: 1.5 },
      ],
    });
  });

  it('builds a creation body from new values, leaving out unparseable deadlines and blank rows', () => {
    const v = emptyValues('America/New_York');
    v.name = 'X';
    v.registration_deadline = { date: '2026-07-01', time: '09:00' };
    v.models = [{ value: ' openai/gpt-4o ' }, { value: '' }];
    const body = payloadFromValues(v);
    expect(body.registration_deadline).toBe('2026-07-01T13:00:00.000Z');
    expect('submission_deadline' in body).toBe(false);
    expect(body.models).toEqual(['openai/gpt-4o']);
    expect(body.dimensions).toEqual([{ name: 'overall', weight: 1 }]);
  });

  it('parses weights', () => {
    expect(parseWeight('2.5')).toBe(2.5);
    expect(parseWeight('')).toBeNaN();
    expect(parseWeight('abc')).toBeNaN();
  });
});

describe('formPath', () => {
  it('maps API problem fields to form inputs', () => {
    expect(formPath('name')).toBe('name');
    expect(formPath('submission_deadline')).toBe('submission_deadline.date');
    expect(formPath('dimensions.1.weight')).toBe('dimensions.1.weight');
    expect(formPath('dimensions.0')).toBe('dimensions.0.name');
    expect(formPath('tracks.2.id')).toBe('tracks.2.id');
    expect(formPath('models.3')).toBe('models.3.value');
    expect(formPath('co_organizers.1')).toBe('co_organizers.1.value');
    expect(formPath('registration_config.fields.0.name')).toBe('fields.0.key');
    expect(formPath('registration_config.fields.4')).toBe('fields.4.key');
    expect(formPath('registration_config.fields.4.type')).toBe('fields.4.type');
    expect(formPath('status')).toBeNull();
    expect(formPath('tracks')).toBeNull();
  });
});
