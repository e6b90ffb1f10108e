import type { GalleryVisibility } from '../core/db/schema.js';
import type { FieldError } from '../core/errors.js';
import { parseTimestamp } from '../core/time.js';

/** How reviewers' scores are made comparable before they are averaged (src/results/normalization.ts). */
export type ScoreNormalization = 'none' | 'zscore';

/** The shapes an event's configuration takes once validated and normalised. */
export interface Track {
  id: string;
  name: string;
  prize: string;
}
export interface Dimension {
  name: string;
  weight: number;
}
export type FormFieldType = 'text' | 'textarea' | 'url' | 'email' | 'number';
export interface FormField {
  key: string;
  label: string;
  type: FormFieldType;
  required: boolean;
}

/** What a client may send for a form field: the seed's two shapes (key or name). */
export interface FormFieldInput {
  key?: string;
  name?: string;
  label?: string;
  type?: string;
  required?: boolean;
}

export interface EventConfigInput {
  name?: string;
  description?: string;
  tracks?: Array<{ id: string; name: string; prize?: string }>;
  dimensions?: Dimension[];
  models?: string[];
  registration_deadline?: string;
  submission_deadline?: string;
  /** When hacking starts; null clears it (then the registration deadline). */
  hacking_starts_at?: string | null;
  /** An IANA zone name; null clears it. */
  time_zone?: string | null;
  gallery_visibility?: GalleryVisibility;
  voting?: VotingInput;
  normalization?: ScoreNormalization;
  registration_config?: {
    open?: boolean;
    auto_approve?: boolean;
    fields?: FormFieldInput[];
    max_team_size?: number | null;
    min_team_size?: number | null;
  };
}

export interface EventConfig {
  name: string;
  description: string;
  tracks: Track[];
  dimensions: Dimension[];
  models: string[];
  registration_deadline: string;
  submission_deadline: string;
  /** When hacking starts (build-window checks compare repositories with it); null: the registration deadline. */
  hacking_starts_at: string | null;
  /** The IANA zone the organizer reads the deadlines in; the deadlines themselves are UTC instants. */
  time_zone: string | null;
  /** When the projects become public in the gallery. */
  gallery_visibility: GalleryVisibility;
  /** People's choice voting; disabled unless the organizer turns it on. */
  voting: VotingConfig;
  /** `none`: raw scores (default); `zscore`: each reviewer's scores standardised first. Changeable until publication. */
  normalization: ScoreNormalization;
  registration_open: boolean;
  auto_approve: boolean;
  fields: FormField[];
  /** Team-size limits, the leader counted; null = no limit. */
  max_team_size: number | null;
  min_team_size: number | null;
}

/** People's choice voting, as stored: times are ISO instants; opens_at null means the submission deadline. */
export interface VotingConfig {
  enabled: boolean;
  opens_at: string | null;
  closes_at: string | null;
  votes_per_person: number;
  per_track: boolean;
  exclude_new_accounts: boolean;
}
export type VotingInput = Partial<VotingConfig>;
export const DEFAULT_VOTING: VotingConfig = {
  enabled: false,
  opens_at: null,
  closes_at: null,
  votes_per_person: 1,
  per_track: true,
  exclude_new_accounts: false,
};

export const FIELD_TYPES: readonly FormFieldType[] = ['text', 'textarea', 'url', 'email', 'number'];
export const DEFAULT_DIMENSIONS: Dimension[] = [{ name: 'overall', weight: 1 }];
const MODEL_ID = /^[a-z0-9][a-z0-9._-]*\/\S+$/i;

/**
 * Names that are special as JavaScript object keys. Dimension names, form keys, track ids and model
 * identifiers all become keys of objects (scores, answers, result maps) built from untrusted
 * JSON; `obj["__proto__"] = 7` is silently dropped and `{}["constructor"]` exists without being set,
 * so such a name would make the event unusable. They are refused when the event is written.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
export function isReservedKey(name: string): boolean {
  return RESERVED_KEYS.has(name.trim());
}
const reservedMessage = (name: string) => `"${name.trim()}" is reserved (${[...RESERVED_KEYS].join(', ')} cannot be used as names)`;

function normaliseFields(input: FormFieldInput[], errors: FieldError[]): FormField[] {
  const seen = new Set<string>();
  return input.map((f, i) => {
    const key = f.key ?? f.name ?? '';
    if (f.key !== undefined && f.name !== undefined && f.key !== f.name) {
      errors.push({ field: `registration_config.fields.${i}`, message: 'key and name must be equal when both are given' });
    }
    if (!key) errors.push({ field: `registration_config.fields.${i}.key`, message: 'is required' });
    else if (isReservedKey(key)) errors.push({ field: `registration_config.fields.${i}.key`, message: reservedMessage(key) });
    else if (seen.has(key)) errors.push({ field: `registration_config.fields.${i}.key`, message: `duplicate field key "${key}"` });
    seen.add(key);
    const type = (f.type ?? 'text') as FormFieldType;
    if (!FIELD_TYPES.includes(type)) {
      errors.push({ field: `registration_config.fields.${i}.type`, message: `must be one of ${FIELD_TYPES.join(', ')}` });
    }
    return { key, label: f.label ?? key, type, required: f.required ?? false };
  });
}

/**
 * Validates the semantic rules a schema cannot express and returns the complete configuration
 * after applying `input` over `base` (for creation `base` is undefined and required fields apply).
 */
export function buildEventConfig(input: EventConfigInput, base?: EventConfig): { config: EventConfig; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const req = <T>(v: T | undefined, field: string, fallback: T): T => {
    if (v === undefined) {
      if (!base) errors.push({ field, message: 'is required' });
      return fallback;
    }
    return v;
  };

  const name = input.name ?? base?.name;
  const config: EventConfig = {
    name: req(name, 'name', ''),
    description: input.description ?? base?.description ?? '',
    tracks: input.tracks ? input.tracks.map((t) => ({ id: t.id, name: t.name, prize: t.prize ?? '' })) : (base?.tracks ?? []),
    dimensions: input.dimensions ?? base?.dimensions ?? DEFAULT_DIMENSIONS,
    models: input.models ?? base?.models ?? [],
    registration_deadline: req(input.registration_deadline ?? base?.registration_deadline, 'registration_deadline', ''),
    submission_deadline: req(input.submission_deadline ?? base?.submission_deadline, 'submission_deadline', ''),
    hacking_starts_at: input.hacking_starts_at !== undefined ? input.hacking_starts_at : (base?.hacking_starts_at ?? null),
    time_zone: input.time_zone !== undefined ? input.time_zone : (base?.time_zone ?? null),
    gallery_visibility: input.gallery_visibility ?? base?.gallery_visibility ?? 'after_deadline',
    voting: { ...DEFAULT_VOTING, ...base?.voting, ...input.voting },
    normalization: input.normalization ?? base?.normalization ?? 'none',
    registration_open: input.registration_config?.open ?? base?.registration_open ?? true,
    auto_approve: input.registration_config?.auto_approve ?? base?.auto_approve ?? false,
    fields: input.registration_config?.fields ? normaliseFields(input.registration_config.fields, errors) : (base?.fields ?? []),
    max_team_size: input.registration_config?.max_team_size !== undefined ? input.registration_config.max_team_size : (base?.max_team_size ?? null),
    min_team_size: input.registration_config?.min_team_size !== undefined ? input.registration_config.min_team_size : (base?.min_team_size ?? null),
  };
  for (const key of ['max_team_size', 'min_team_size'] as const) {
    const v = config[key];
    if (v !== null && (!Number.isInteger(v) || v < 1 || v > 100))
      errors.push({ field: `registration_config.${key}`, message: 'must be an integer from 1 to 100, or null for no limit' });
  }
  if (config.max_team_size !== null && config.min_team_size !== null && config.min_team_size > config.max_team_size) {
    errors.push({ field: 'registration_config.min_team_size', message: `must not be more than max_team_size (${config.max_team_size})` });
  }
  if (typeof config.name === 'string' && input.name !== undefined && config.name.trim() === '') {
    errors.push({ field: 'name', message: 'must not be blank' });
  }

  const trackIds = new Set<string>();
  config.tracks.forEach((t, i) => {
    if (isReservedKey(t.id)) errors.push({ field: `tracks.${i}.id`, message: reservedMessage(t.id) });
    if (trackIds.has(t.id)) errors.push({ field: `tracks.${i}.id`, message: `duplicate track id "${t.id}"` });
    trackIds.add(t.id);
  });
  const dimNames = new Set<string>();
  config.dimensions.forEach((d, i) => {
    const k = d.name.trim().toLowerCase();
    if (isReservedKey(d.name)) errors.push({ field: `dimensions.${i}.name`, message: reservedMessage(d.name) });
    if (dimNames.has(k)) errors.push({ field: `dimensions.${i}.name`, message: `duplicate dimension "${d.name}"` });
    dimNames.add(k);
    if (!(d.weight > 0) || !Number.isFinite(d.weight)) errors.push({ field: `dimensions.${i}.weight`, message: 'must be a number greater than 0' });
  });
  if (config.dimensions.length === 0) errors.push({ field: 'dimensions', message: 'needs at least one dimension' });
  const modelIds = new Set<string>();
  config.models.forEach((m, i) => {
    // The id always holds a "/", but its provider part is looked up by name on its own.
    const provider = m.split('/')[0]!;
    if (isReservedKey(provider)) errors.push({ field: `models.${i}`, message: reservedMessage(provider) });
    else if (!MODEL_ID.test(m)) errors.push({ field: `models.${i}`, message: 'must look like provider/model, e.g. openai/gpt-4o-mini' });
    if (modelIds.has(m)) errors.push({ field: `models.${i}`, message: `duplicate model "${m}"` });
    modelIds.add(m);
  });

  const reg = config.registration_deadline ? parseTimestamp(config.registration_deadline) : null;
  const sub = config.submission_deadline ? parseTimestamp(config.submission_deadline) : null;
  if (config.registration_deadline && !reg) {
    errors.push({ field: 'registration_deadline', message: 'must be an ISO 8601 date-time with a time zone' });
  }
  if (config.submission_deadline && !sub) {
    errors.push({ field: 'submission_deadline', message: 'must be an ISO 8601 date-time with a time zone' });
  }
  if (reg && sub && reg.getTime() > sub.getTime()) {
    errors.push({ field: 'submission_deadline', message: 'must not be before registration_deadline' });
  }
  const hack = config.hacking_starts_at ? parseTimestamp(config.hacking_starts_at) : null;
  if (config.hacking_starts_at && !hack) {
    errors.push({ field: 'hacking_starts_at', message: 'must be an ISO 8601 date-time with a time zone' });
  }
  if (hack && sub && hack.getTime() >= sub.getTime()) {
    errors.push({ field: 'hacking_starts_at', message: 'must be before submission_deadline' });
  }
  if (hack) config.hacking_starts_at = hack.toISOString();
  if (input.time_zone != null) {
    const zone = canonicalTimeZone(input.time_zone);
    if (zone) config.time_zone = zone;
    else errors.push({ field: 'time_zone', message: 'must be an IANA time zone name, e.g. Europe/Berlin or UTC' });
  }
  if (reg) config.registration_deadline = reg.toISOString();
  if (sub) config.submission_deadline = sub.toISOString();
  checkVoting(config.voting, sub, errors);
  return { config, errors };
}

/**
 * The voting window: it opens at or after the submission deadline (default: at it) and closes later;
 * an enabled vote needs its closing time. Times are normalised to ISO instants.
 */
function checkVoting(v: VotingConfig, submission: Date | null, errors: FieldError[]): void {
  const opens = v.opens_at ? parseTimestamp(v.opens_at) : null;
  const closes = v.closes_at ? parseTimestamp(v.closes_at) : null;
  if (v.opens_at && !opens) errors.push({ field: 'voting.opens_at', message: 'must be an ISO 8601 date-time with a time zone' });
  if (v.closes_at && !closes) errors.push({ field: 'voting.closes_at', message: 'must be an ISO 8601 date-time with a time zone' });
  if (opens && submission && opens.getTime() < submission.getTime()) {
    errors.push({ field: 'voting.opens_at', message: 'must not be before submission_deadline (people vote on submitted projects)' });
  }
  if (v.enabled && !v.closes_at) errors.push({ field: 'voting.closes_at', message: 'is required when voting is enabled' });
  const start = opens ?? submission;
  if (closes && start && closes.getTime() <= start.getTime()) {
    errors.push({ field: 'voting.closes_at', message: 'must be after the voting opens (voting.opens_at, or else submission_deadline)' });
  }
  if (opens) v.opens_at = opens.toISOString();
  if (closes) v.closes_at = closes.toISOString();
}

const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;
let zoneSpellings: Map<string, string> | null = null;

/**
 * The IANA zone `name` names, spelled as the runtime lists it (`europe/berlin` -> `Europe/Berlin`);
 * null when it is not one. Only names: offsets (`+05:00`) and abbreviations the runtime does not
 * know are refused, so every stored zone is one a browser can show the deadlines in.
 */
export function canonicalTimeZone(name: string): string | null {
  if (!ZONE_NAME.test(name)) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  if (!zoneSpellings) {
    zoneSpellings = new Map();
    for (const z of Intl.supportedValuesOf('timeZone')) zoneSpellings.set(z.toLowerCase(), z);
  }
  const lower = name.toLowerCase();
  // An alias the list does not carry (Asia/Kolkata beside Asia/Calcutta) keeps the caller's name.
  return zoneSpellings.get(lower) ?? (resolved.toLowerCase() === lower ? resolved : name);
}

/**
 * Deadline rules for an event that is (or becomes) published, checked against the clock: a
 * published `open` event must still take registrations, so its registration deadline (and, by the
 * ordering rule, its submission deadline) lies in the future; an event published straight into
 * `active` needs only its submission deadline ahead. Drafts may hold any dates until then.
 */
export function publicationDeadlineErrors(
  config: Pick<EventConfig, 'registration_deadline' | 'submission_deadline'>,
  status: 'open' | 'active',
  now: Date,
): FieldError[] {
  const field = status === 'open' ? 'registration_deadline' : 'submission_deadline';
  const at = parseTimestamp(config[field]);
  // An unparseable date is reported by buildEventConfig already.
  if (!at || at.getTime() > now.getTime()) return [];
  return [
    {
      field,
      message: `must be in the future when the event is ${status === 'open' ? 'published' : 'published as active'} (it is not after ${now.toISOString()}); a draft may hold any dates`,
    },
  ];
}
