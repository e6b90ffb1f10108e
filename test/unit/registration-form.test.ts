import { describe, expect, it } from 'vitest';
import type { FormField, Track } from '../../src/events/event-config.js';
import { LIMITS, teamNameKey, validateRegistration, type RegistrationInput } from '../../src/registrations/form.js';

const tracks: Track[] = [
  { id: 'tools', name: 'Tools', prize: '' },
  { id: 'fun', name: 'Fun', prize: '' },
];
const formFields: FormField[] = [
  { key: 'repo', label: 'Repository', type: 'url', required: true },
  { key: 'why', label: 'Why', type: 'text', required: false },
  { key: 'size', label: 'Team size', type: 'number', required: false },
  { key: 'mail', label: 'Second contact', type: 'email', required: false },
];
const form = { fields: formFields, tracks };
const ACCOUNT = 'owner@example.com';

const valid = (over: Partial<RegistrationInput> = {}): RegistrationInput => ({
  team_name: 'Rocket',
  track_id: 'tools',
  fields: { repo: 'https://github.com/a/b' },
  ...over,
});
const check = (input: RegistrationInput, f = form) => validateRegistration(input, f, ACCOUNT);
const errorFields = (input: RegistrationInput, f = form) => check(input, f).errors.map((e) => e.field);

describe('validateRegistration', () => {
  it('accepts a complete registration and defaults contact_email to the account e-mail', () => {
    const { value, errors } = check(valid());
    expect(errors).toEqual([]);
    expect(value).toEqual({
      team_name: 'Rocket',
      team_name_key: 'rocket',
      contact_email: ACCOUNT,
      github_url: null,
      track_id: 'tools',
      fields: { repo: 'https://github.com/a/b' },
    });
  });

  it('keeps a given contact_email and github_url', () => {
    const { value, errors } = check(valid({ contact_email: 'team@example.org', github_url: 'https://github.com/t/r' }));
    expect(errors).toEqual([]);
    expect(value.contact_email).toBe('team@example.org');
    expect(value.github_url).toBe('https://github.com/t/r');
  });

  it('requires every required form field', () => {
    expect(errorFields(valid({ fields: {} }))).toEqual(['fields.repo']);
    expect(errorFields(valid({ fields: undefined }))).toEqual(['fields.repo']);
    expect(errorFields(valid({ fields: { repo: '' } }))).toEqual(['fields.repo']);
    expect(errorFields(valid({ fields: { repo: null } }))).toEqual(['fields.repo']);
    expect(errorFields(valid({ fields: { repo: '   ' } }))).toEqual(['fields.repo']);
  });

  it('treats a required field whose key is an Object.prototype name as missing when not answered', () => {
    const proto: FormField[] = ['constructor', 'toString', 'hasOwnProperty'].map((key) => ({ key, label: key, type: 'text', required: true }));
    const { errors } = check({ team_name: 'X', track_id: 'tools', fields: {} }, { fields: proto, tracks });
    expect(errors.map((e) => e.field).sort()).toEqual(['fields.constructor', 'fields.hasOwnProperty', 'fields.toString']);
    const answered = check({ team_name: 'X', track_id: 'tools', fields: { constructor: 'a', toString: 'b', hasOwnProperty: 'c' } }, { fields: proto, tracks });
    expect(answered.errors).toEqual([]);
    expect(answered.value.fields).toEqual({ constructor: 'a', toString: 'b', hasOwnProperty: 'c' });
  });

  it('rejects unknown form keys rather than storing them', () => {
    const { errors, value } = check(valid({ fields: { repo: 'https://x.dev', evil: 'x' } }));
    expect(errors.map((e) => e.field)).toEqual(['fields.evil']);
    expect(value.fields).not.toHaveProperty('evil');
    expect(errorFields(valid({ fields: { repo: 'https://x.dev', __proto__x: 'x', toString: 'y' } }))).toEqual(['fields.__proto__x', 'fields.toString']);
  });

  it('checks url fields are absolute http(s) URLs', () => {
    for (const bad of ['github.com/a/b', '/relative', 'javascript:alert(1)', 'ftp://x.org/f', 'https://', 'mailto:a@b.c']) {
      expect(errorFields(valid({ fields: { repo: bad } })), bad).toEqual(['fields.repo']);
    }
    expect(errorFields(valid({ fields: { repo: 'HTTPS://Example.com/x?y=1#z' } }))).toEqual([]);
  });

  it('checks github_url is an absolute http(s) URL of at most 2048 characters', () => {
    expect(errorFields(valid({ github_url: 'git@github.com:a/b.git' }))).toEqual(['github_url']);
    expect(errorFields(valid({ github_url: 'https://github.com/' + 'a'.repeat(LIMITS.url) }))).toEqual(['github_url']);
  });

  it('checks email fields and contact_email', () => {
    expect(errorFields(valid({ fields: { repo: 'https://x.dev', mail: 'not-an-email' } }))).toEqual(['fields.mail']);
    expect(errorFields(valid({ contact_email: 'nope' }))).toEqual(['contact_email']);
    expect(errorFields(valid({ fields: { repo: 'https://x.dev', mail: 'a@b.co' } }))).toEqual([]);
  });

  it('checks number fields and stores numbers', () => {
    expect(errorFields(valid({ fields: { repo: 'https://x.dev', size: 'four' } }))).toEqual(['fields.size']);
    const { value, errors } = check(valid({ fields: { repo: 'https://x.dev', size: '4' } }));
    expect(errors).toEqual([]);
    expect(value.fields.size).toBe(4);
    expect(check(valid({ fields: { repo: 'https://x.dev', size: 3.5 } })).value.fields.size).toBe(3.5);
  });

  it('refuses non-string answers to text fields', () => {
    expect(errorFields(valid({ fields: { repo: 'https://x.dev', why: 42 } }))).toEqual(['fields.why']);
    expect(errorFields(valid({ fields: { repo: 'https://x.dev', why: ['a'] } }))).toEqual(['fields.why']);
  });

  it('limits answers to 2000 characters and 50 answers', () => {
    expect(errorFields(valid({ fields: { repo: 'https://x.dev', why: 'x'.repeat(LIMITS.answerLength + 1) } }))).toEqual(['fields.why']);
    expect(errorFields(valid({ fields: { repo: 'https://x.dev', why: 'x'.repeat(LIMITS.answerLength) } }))).toEqual([]);
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    expect(errorFields(valid({ fields: many }))).toContain('fields');
  });

  it('requires a track when the event has tracks, and it must be one of them', () => {
    expect(errorFields(valid({ track_id: undefined }))).toEqual(['track_id']);
    expect(errorFields(valid({ track_id: 'nope' }))).toEqual(['track_id']);
    expect(errorFields(valid({ track_id: 'fun' }))).toEqual([]);
  });

  it('refuses a track when the event has none, and needs none', () => {
    const noTracks = { fields: formFields, tracks: [] };
    expect(errorFields(valid({ track_id: undefined }), noTracks)).toEqual([]);
    expect(errorFields(valid({ track_id: 'tools' }), noTracks)).toEqual(['track_id']);
  });

  it('normalises the team name: trims, collapses spaces, refuses blank and over-long names', () => {
    expect(check(valid({ team_name: '  Rocket   Team  ' })).value.team_name).toBe('Rocket Team');
    expect(errorFields(valid({ team_name: '   ' }))).toEqual(['team_name']);
    expect(errorFields(valid({ team_name: 'x'.repeat(LIMITS.teamName + 1) }))).toEqual(['team_name']);
    expect(errorFields(valid({ team_name: 'x'.repeat(LIMITS.teamName) }))).toEqual([]);
  });

  it('reports every problem at once', () => {
    expect(errorFields({ team_name: ' ', contact_email: 'x', github_url: 'y', fields: { z: 1 } }).sort()).toEqual(
      ['contact_email', 'fields.repo', 'fields.z', 'github_url', 'team_name', 'track_id'].sort(),
    );
  });
});

describe('teamNameKey', () => {
  it('compares case-, space- and width-insensitively', () => {
    expect(teamNameKey('Rocket Team')).toBe(teamNameKey('  rocket   TEAM '));
    expect(teamNameKey('ＲＯＣＫＥＴ')).toBe(teamNameKey('rocket'));
    expect(teamNameKey('Rocket')).not.toBe(teamNameKey('Rockets'));
  });
});
