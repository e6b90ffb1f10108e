import type { FieldError } from '../core/errors.js';
import { normaliseEmailAddress } from '../core/email-address.js';
import { GITHUB_URL_MESSAGE, isGithubRepoUrl, isHttpUrl } from '../core/urls.js';
import type { FormField, Track } from '../events/event-config.js';

export const LIMITS = { teamName: 80, answers: 50, answerLength: 2000, url: 2048 } as const;

export interface RegistrationInput {
  team_name: string;
  contact_email?: string;
  github_url?: string;
  track_id?: string;
  fields?: Record<string, unknown>;
}

export interface NormalisedRegistration {
  team_name: string;
  team_name_key: string;
  contact_email: string;
  github_url: string | null;
  track_id: string | null;
  fields: Record<string, string | number>;
}

/** Case- and width-insensitive form of a team name, used for the per-event uniqueness constraint. */
export function teamNameKey(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Checks a registration against the event's form: required fields present, unknown keys refused,
 * types respected, the track one of the event's. Returns every problem at once.
 */
export function validateRegistration(
  input: RegistrationInput,
  form: { fields: FormField[]; tracks: Track[] },
  accountEmail: string,
): { value: NormalisedRegistration; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const teamName = input.team_name.trim().replace(/\s+/g, ' ');
  if (!teamName) errors.push({ field: 'team_name', message: 'must not be blank' });
  else if (teamName.length > LIMITS.teamName) errors.push({ field: 'team_name', message: `must be at most ${LIMITS.teamName} characters` });

  const contact = normaliseEmailAddress(input.contact_email?.trim() || accountEmail) ?? '';
  if (!contact) errors.push({ field: 'contact_email', message: 'must be an e-mail address' });

  const github = input.github_url?.trim() || null;
  if (github !== null && (!isGithubRepoUrl(github) || github.length > LIMITS.url)) {
    errors.push({ field: 'github_url', message: GITHUB_URL_MESSAGE });
  }

  let track: string | null = input.track_id ?? null;
  if (form.tracks.length > 0) {
    if (!track) errors.push({ field: 'track_id', message: `is required; one of: ${form.tracks.map((t) => t.id).join(', ')}` });
    else if (!form.tracks.some((t) => t.id === track)) {
      errors.push({ field: 'track_id', message: `unknown track; one of: ${form.tracks.map((t) => t.id).join(', ')}` });
    }
  } else if (track) {
    errors.push({ field: 'track_id', message: 'this event has no tracks' });
    track = null;
  }

  const answers = input.fields ?? {};
  // Keys come from the client: a null-prototype object stores "__proto__" or "constructor" as plain
  // data instead of touching Object.prototype behaviour.
  const out = Object.create(null) as Record<string, string | number>;
  const byKey = new Map(form.fields.map((f) => [f.key, f]));
  const keys = Object.keys(answers);
  if (keys.length > LIMITS.answers) errors.push({ field: 'fields', message: `at most ${LIMITS.answers} answers` });
  for (const key of keys) {
    const def = byKey.get(key);
    if (!def) {
      errors.push({ field: `fields.${key}`, message: `unknown field; this form has: ${[...byKey.keys()].join(', ') || 'no fields'}` });
      continue;
    }
    const raw = answers[key];
    if (raw === null || raw === undefined || raw === '') continue;
    if (def.type === 'number') {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      if (!Number.isFinite(n)) errors.push({ field: `fields.${key}`, message: 'must be a number' });
      else out[key] = n;
      continue;
    }
    if (typeof raw !== 'string') {
      errors.push({ field: `fields.${key}`, message: 'must be a string' });
      continue;
    }
    const value = raw.trim();
    if (value.length > LIMITS.answerLength) {
      errors.push({ field: `fields.${key}`, message: `must be at most ${LIMITS.answerLength} characters` });
    } else if (def.type === 'url' && !isHttpUrl(value)) {
      errors.push({ field: `fields.${key}`, message: 'must be an absolute http(s) URL' });
    } else if (def.type === 'email' && value) {
      const email = normaliseEmailAddress(value);
      if (email) out[key] = email;
      else errors.push({ field: `fields.${key}`, message: 'must be an e-mail address' });
    } else if (value) {
      out[key] = value;
    }
  }
  for (const def of form.fields) {
    if (def.required && !Object.hasOwn(out, def.key) && !errors.some((e) => e.field === `fields.${def.key}`)) {
      errors.push({ field: `fields.${def.key}`, message: `is required (${def.label})` });
    }
  }

  return {
    value: {
      team_name: teamName,
      team_name_key: teamNameKey(teamName),
      contact_email: contact,
      github_url: github,
      track_id: track,
      fields: out,
    },
    errors,
  };
}
