import { describe, expect, it } from 'vitest';
import {
  changedFields,
  deadlineInstant,
  emptyValues,
  formPath,
  parseWeight,
  payloadFromValues,
  rezoneWall,
  valuesFromEvent,
  type EventDoc,
} from './event-form-payload';

const event: EventDoc = {
  id: 'evt_1',
  name: 'Agents Hack',
  description: 'Build agents',
  description_html: '<p>Build agents</p>',
  gallery_visibility: 'after_deadline',
  cover_url: null,
  logo_url: null,
  normalization: 'none',
  voting: { enabled: false, opens_at: '2026-12-08T03:30:00.000Z', closes_at: null, votes_per_person: 1, per_track: true, exclude_new_accounts: false },
  status: 'draft',
  registration_deadline: '2026-12-01T03:30:00.000Z',
  submission_deadline: '2026-12-08T03:30:00.000Z',
  result_announced_at: null,
  time_zone: null,
  hacking_starts_at: null,
  timeline: { registration_deadline: '2026-12-01T03:30:00.000Z', submission_deadline: '2026-12-08T03:30:00.000Z', result_announced_at: null },
  tracks: [{ id: 'tools', name: 'Tools', prize: '$1000' }],
  dimensions: [
    { name: 'impact', weight: 2 },
    { name: 'craft', weight: 1 },
  ],
  models: ['openai/gpt-4o-mini'],
  registration_config: {
    open: true,
    auto_approve: false,
    fields: [{ key: 'repo', name: 'repo', label: 'Repository', type: 'url', required: true }],
    max_team_size: null,
    min_team_size: null,
  },
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

  it('edits the team sizes: empty is no limit, a change sends the registration settings', () => {
    const values = valuesFromEvent({ ...event, registration_config: { ...event.registration_config, max_team_size: 4 } }, 'UTC');
    expect([values.min_team_size, values.max_team_size]).toEqual(['', '4']);
    values.min_team_size = '2';
    values.max_team_size = '';
    expect(changedFields(event, payloadFromValues(values, event), 'UTC').registration_config).toMatchObject({ min_team_size: 2, max_team_size: null });
    expect(formPath('registration_config.min_team_size')).toBe('min_team_size');
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
    expect(changedFields(event, payloadFromValues(values, event), 'UTC')).toEqual({
      name: 'Agents Hack 2',
      registration_deadline: '2026-12-01T04:00:00.000Z',
      // The event had no zone: the one its deadlines were read in goes with the change.
      time_zone: 'UTC',
      dimensions: [
        { name: 'impact', weight: 2 },
        { name: 'craft', weight: 1.5 },
      ],
    });
  });

  it("reopens in the event's own zone, whatever the browser's", () => {
    const zoned = { ...event, time_zone: 'America/New_York' };
    const values = valuesFromEvent(zoned, 'Asia/Kolkata');
    expect(values.timeZone).toBe('America/New_York');
    expect(values.registration_deadline).toEqual({ date: '2026-11-30', time: '22:30' });
    expect(changedFields(zoned, payloadFromValues(values, zoned), 'Asia/Kolkata')).toEqual({});
  });

  it("a zone-less event: keeping the browser's zone is no change, picking another is", () => {
    const values = valuesFromEvent(event, 'Asia/Kolkata');
    expect(changedFields(event, payloadFromValues(values, event), 'Asia/Kolkata')).toEqual({});
    values.timeZone = 'UTC';
    values.registration_deadline = rezoneWall(values.registration_deadline, 'Asia/Kolkata', 'UTC', event.registration_deadline);
    values.submission_deadline = rezoneWall(values.submission_deadline, 'Asia/Kolkata', 'UTC', event.submission_deadline);
    expect(changedFields(event, payloadFromValues(values, event), 'Asia/Kolkata')).toEqual({ time_zone: 'UTC' });
  });

  it('converts the digits when the zone changes, keeping the instants', () => {
    const wall = { date: '2026-12-01', time: '09:00' };
    expect(rezoneWall(wall, 'Asia/Kolkata', 'America/New_York')).toEqual({ date: '2026-11-30', time: '22:30' });
    expect(rezoneWall(wall, 'Asia/Kolkata', 'Asia/Kolkata')).toEqual(wall);
    // Not a date yet: left as typed.
    expect(rezoneWall({ date: '', time: '09:00' }, 'UTC', 'Asia/Kolkata')).toEqual({ date: '', time: '09:00' });
  });

  it('keeps a stored instant the inputs still show, even where the digits alone would mean another', () => {
    // 01:30 on 2026-11-01 happens twice in New York; the stored one is the later (EST, 06:30Z).
    const later = '2026-11-01T06:30:00.000Z';
    const wall = { date: '2026-11-01', time: '01:30' };
    expect(deadlineInstant(wall, 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
    expect(deadlineInstant(wall, 'America/New_York', later)).toBe(later);
    const stored = { ...event, time_zone: 'America/New_York', registration_deadline: later, submission_deadline: '2026-11-02T06:30:15.000Z' };
    const values = valuesFromEvent(stored, 'UTC');
    expect(values.registration_deadline).toEqual(wall);
    expect(changedFields(stored, payloadFromValues(values, stored))).toEqual({});
    // To UTC and back: the same instants all the way.
    const utc = rezoneWall(values.registration_deadline, 'America/New_York', 'UTC', later);
    expect(utc).toEqual({ date: '2026-11-01', time: '06:30' });
    expect(rezoneWall(utc, 'UTC', 'America/New_York', later)).toEqual(wall);
    // An edited deadline is read from its digits.
    expect(deadlineInstant({ date: '2026-11-01', time: '02:30' }, 'America/New_York', later)).toBe('2026-11-01T07:30:00.000Z');
  });

  it('builds a creation body from new values, leaving out unparseable deadlines and blank rows', () => {
    const v = emptyValues('America/New_York');
    v.name = 'X';
    v.registration_deadline = { date: '2026-07-01', time: '09:00' };
    v.models = [{ value: ' openai/gpt-4o ' }, { value: '' }];
    const body = payloadFromValues(v);
    expect(body.registration_deadline).toBe('2026-07-01T13:00:00.000Z');
    expect(body.time_zone).toBe('America/New_York');
    expect('submission_deadline' in body).toBe(false);
    expect(body.models).toEqual(['openai/gpt-4o']);
    expect(body.dimensions).toEqual([{ name: 'overall', weight: 1 }]);
  });

  it('hacking start: empty means none; a date is sent, clearing it sends null', () => {
    const values = valuesFromEvent(event, 'UTC');
    expect(values.hacking_starts_at.date).toBe('');
    expect(payloadFromValues(values, event).hacking_starts_at).toBeNull();
    values.hacking_starts_at = { date: '2026-12-02', time: '09:00' };
    expect(changedFields(event, payloadFromValues(values, event), 'UTC')).toEqual({ hacking_starts_at: '2026-12-02T09:00:00.000Z', time_zone: 'UTC' });
    const set = { ...event, time_zone: 'UTC', hacking_starts_at: '2026-12-02T09:00:00.000Z' };
    expect(changedFields(set, payloadFromValues(valuesFromEvent(set, 'UTC'), set))).toEqual({});
    const cleared = valuesFromEvent(set, 'UTC');
    cleared.hacking_starts_at = { date: '', time: '09:00' };
    expect(changedFields(set, payloadFromValues(cleared, set))).toEqual({ hacking_starts_at: null });
    expect(formPath('hacking_starts_at')).toBe('hacking_starts_at.date');
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
