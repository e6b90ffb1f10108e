import type { Answer } from '../../lib/api';
import { FIELD_TYPES, type BuilderField, type FieldType } from './event-form-builder';
import { isTimeZone, utcToWall, wallToUtc, type WallTime } from './event-form-time';

/** An event as GET /events/:id answers it to an owner. */
export type EventDoc = Answer<'/events/{id}'>;

export interface TrackRow {
  id: string;
  name: string;
  prize: string;
  idEdited: boolean;
}

/** The editor's values (react-hook-form): text inputs hold strings, lists are rows. */
export interface EventFormValues {
  name: string;
  description: string;
  timeZone: string;
  registration_deadline: WallTime;
  submission_deadline: WallTime;
  /** Optional: an empty date means none (the registration deadline counts). */
  hacking_starts_at: WallTime;
  tracks: TrackRow[];
  dimensions: { name: string; weight: string }[];
  models: { value: string }[];
  fields: BuilderField[];
  open: boolean;
  auto_approve: boolean;
  /** Team size limits as typed (the leader counted); empty: no limit. */
  min_team_size: string;
  max_team_size: string;
  gallery_visibility: GalleryVisibility;
  normalization: Normalization;
  co_organizers: { value: string }[];
}

export type GalleryVisibility = 'after_deadline' | 'after_results' | 'never';
export const GALLERY_VISIBILITIES: readonly GalleryVisibility[] = ['after_deadline', 'after_results', 'never'];

/** How reviewers' scores are made comparable before they are averaged (changeable until publication). */
export type Normalization = 'none' | 'zscore';
export const NORMALIZATIONS: readonly Normalization[] = ['none', 'zscore'];

/** The body of POST /events (and, after diffing, of PATCH). */
export interface EventPayload {
  name: string;
  description: string;
  registration_deadline?: string;
  submission_deadline?: string;
  hacking_starts_at?: string | null;
  time_zone: string;
  tracks: { id: string; name: string; prize: string }[];
  dimensions: { name: string; weight: number }[];
  models: string[];
  registration_config: {
    open: boolean;
    auto_approve: boolean;
    fields: { key: string; label: string; type: string; required: boolean }[];
    max_team_size: number | null;
    min_team_size: number | null;
  };
  gallery_visibility: GalleryVisibility;
  normalization: Normalization;
  co_organizers: string[];
}

export function emptyValues(timeZone: string): EventFormValues {
  return {
    name: '',
    description: '',
    timeZone,
    registration_deadline: { date: '', time: '18:00' },
    submission_deadline: { date: '', time: '18:00' },
    hacking_starts_at: { date: '', time: '09:00' },
    tracks: [],
    dimensions: [{ name: 'overall', weight: '1' }],
    models: [],
    fields: [],
    open: true,
    auto_approve: false,
    min_team_size: '',
    max_team_size: '',
    gallery_visibility: 'after_deadline',
    normalization: 'none',
    co_organizers: [],
  };
}

/** The zone the editor shows an event in: its own, or `fallback` (the browser's) when it has none. */
export function eventZone(event: Pick<EventDoc, 'time_zone'>, fallback: string): string {
  return event.time_zone && isTimeZone(event.time_zone) ? event.time_zone : fallback;
}

export function valuesFromEvent(event: EventDoc, fallbackZone: string): EventFormValues {
  const timeZone = eventZone(event, fallbackZone);
  const wall = (iso: string): WallTime => utcToWall(iso, timeZone) ?? { date: '', time: '' };
  return {
    name: event.name,
    description: event.description,
    timeZone,
    registration_deadline: wall(event.registration_deadline),
    submission_deadline: wall(event.submission_deadline),
    hacking_starts_at: event.hacking_starts_at ? wall(event.hacking_starts_at) : { date: '', time: '09:00' },
    tracks: event.tracks.map((t) => ({ id: t.id, name: t.name, prize: t.prize, idEdited: true })),
    dimensions: event.dimensions.map((d) => ({ name: d.name, weight: String(d.weight) })),
    models: event.models.map((value) => ({ value })),
    fields: event.registration_config.fields.map((f) => ({
      key: f.key,
      label: f.label,
      type: (FIELD_TYPES as readonly string[]).includes(f.type) ? (f.type as FieldType) : 'text',
      required: f.required,
      keyEdited: true,
    })),
    open: event.registration_config.open,
    auto_approve: event.registration_config.auto_approve,
    min_team_size: event.registration_config.min_team_size == null ? '' : String(event.registration_config.min_team_size),
    max_team_size: event.registration_config.max_team_size == null ? '' : String(event.registration_config.max_team_size),
    gallery_visibility: event.gallery_visibility,
    normalization: event.normalization,
    co_organizers: (event.co_organizers ?? []).map((value) => ({ value })),
  };
}

/** A team size as typed: empty is no limit (null); anything else is read as a number (the form checks it is a whole one). */
export function parseTeamSize(text: string): number | null {
  const t = text.trim();
  return t === '' ? null : Number(t);
}

/** A weight as typed: "1,5" is read as 1.5 (a decimal comma); anything else non-numeric is NaN. */
export function parseWeight(text: string): number {
  const t = text.trim().replace(',', '.');
  return t === '' ? NaN : Number(t);
}

const sameWall = (a: WallTime | null, b: WallTime) => a !== null && a.date === b.date && a.time === b.time;

/**
 * The instant a deadline's inputs mean in `zone`. While they still show `stored` (the event's
 * instant, to the minute, in that zone) they mean exactly `stored`: reading the digits back would
 * drop its seconds or, in the hour repeated when clocks go back, pick the other instant, and so move
 * a deadline nobody touched. Null when the inputs are not a date and time.
 */
export function deadlineInstant(wall: WallTime, zone: string, stored?: string): string | null {
  if (stored && sameWall(utcToWall(stored, zone), wall)) return stored;
  return wallToUtc(wall, zone)?.iso ?? null;
}

/**
 * The same deadline's inputs in another zone: the same instant, other digits (the organizer picked
 * the zone they think in, not new deadlines). Inputs that are not a date and time stay as typed.
 */
export function rezoneWall(wall: WallTime, from: string, to: string, stored?: string): WallTime {
  const at = deadlineInstant(wall, from, stored);
  return (at && utcToWall(at, to)) || wall;
}

/**
 * The request body the values describe. Deadlines that do not parse are left out (the form says
 * why); deadlines still showing the stored event's instants are that event's instants, unchanged.
 */
export function payloadFromValues(v: EventFormValues, stored?: EventDoc | null): EventPayload {
  const reg = deadlineInstant(v.registration_deadline, v.timeZone, stored?.registration_deadline);
  const sub = deadlineInstant(v.submission_deadline, v.timeZone, stored?.submission_deadline);
  // No date: none (null). A date that does not parse is left out (the form says why).
  const hack = v.hacking_starts_at.date.trim() === '' ? null : deadlineInstant(v.hacking_starts_at, v.timeZone, stored?.hacking_starts_at ?? undefined);
  return {
    name: v.name.trim(),
    description: v.description,
    ...(reg ? { registration_deadline: reg } : {}),
    ...(sub ? { submission_deadline: sub } : {}),
    ...(hack !== null || v.hacking_starts_at.date.trim() === '' ? { hacking_starts_at: hack } : {}),
    time_zone: v.timeZone,
    tracks: v.tracks.map((t) => ({ id: t.id.trim(), name: t.name.trim(), prize: t.prize.trim() })),
    dimensions: v.dimensions.map((d) => ({ name: d.name.trim(), weight: parseWeight(d.weight) })),
    models: v.models.map((m) => m.value.trim()).filter(Boolean),
    registration_config: {
      open: v.open,
      auto_approve: v.auto_approve,
      fields: v.fields.map((f) => ({ key: f.key.trim(), label: f.label.trim(), type: f.type, required: f.required })),
      max_team_size: parseTeamSize(v.max_team_size),
      min_team_size: parseTeamSize(v.min_team_size),
    },
    gallery_visibility: v.gallery_visibility,
    normalization: v.normalization,
    co_organizers: v.co_organizers.map((c) => c.value.trim()).filter(Boolean),
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** The form edits deadlines to the minute: a stored 09:00:30 shown as 09:00 is not a change. */
const sameMinute = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && Math.floor(Date.parse(a) / 60_000) === Math.floor(Date.parse(b) / 60_000);

/**
 * Only what changed against the stored event (PATCH sends those members and nothing else).
 * `shownZone` is the zone the editor opened a zone-less event in (the browser's): keeping it is no
 * change on its own, but it is recorded with any other change, since the deadlines were read in it.
 */
export function changedFields(event: EventDoc, next: EventPayload, shownZone?: string): Partial<EventPayload> {
  const before: EventPayload = {
    name: event.name,
    description: event.description,
    registration_deadline: event.registration_deadline,
    submission_deadline: event.submission_deadline,
    hacking_starts_at: event.hacking_starts_at,
    time_zone: event.time_zone ?? shownZone ?? next.time_zone,
    tracks: event.tracks.map((t) => ({ id: t.id, name: t.name, prize: t.prize })),
    dimensions: event.dimensions.map((d) => ({ name: d.name, weight: d.weight })),
    models: event.models,
    registration_config: {
      open: event.registration_config.open,
      auto_approve: event.registration_config.auto_approve,
      fields: event.registration_config.fields.map((f) => ({ key: f.key, label: f.label, type: f.type, required: f.required })),
      max_team_size: event.registration_config.max_team_size ?? null,
      min_team_size: event.registration_config.min_team_size ?? null,
    },
    gallery_visibility: event.gallery_visibility,
    normalization: event.normalization,
    co_organizers: [...(event.co_organizers ?? [])].map((e) => e.toLowerCase()).sort(),
  };
  const after = { ...next, co_organizers: next.co_organizers.map((e) => e.toLowerCase()).sort() };
  const out: Partial<EventPayload> = {};
  for (const key of Object.keys(next) as (keyof EventPayload)[]) {
    if (key === 'registration_deadline' || key === 'submission_deadline') {
      if (!sameMinute(before[key], next[key])) out[key] = next[key];
    } else if (key === 'hacking_starts_at') {
      const a = before.hacking_starts_at ?? null;
      const b = next.hacking_starts_at ?? null;
      if (a === null || b === null ? a !== b : !sameMinute(a, b)) out.hacking_starts_at = b;
    } else if (key === 'co_organizers') {
      if (!same(before.co_organizers, after.co_organizers)) out.co_organizers = next.co_organizers;
    } else if (!same(before[key], next[key])) {
      (out as Record<string, unknown>)[key] = next[key];
    }
  }
  if (!event.time_zone && Object.keys(out).length > 0) out.time_zone = next.time_zone;
  return out;
}

/**
 * Where a problem's `field` (as the API names it) lives in the form: `registration_config.fields.2.key`
 * -> `fields.2.key`, `models.1` -> `models.1.value`, `registration_deadline` -> its date input.
 * Null when the problem belongs to no input (it goes into the alert above the actions).
 */
export function formPath(apiField: string): string | null {
  const f = apiField
    .replace(/^body\./, '')
    .replace(/^\//, '')
    .replace(/\//g, '.');
  let m: RegExpExecArray | null;
  if (f === 'name' || f === 'description') return f;
  if (f === 'registration_deadline' || f === 'submission_deadline' || f === 'hacking_starts_at') return `${f}.date`;
  if ((m = /^tracks\.(\d+)(?:\.(id|name|prize))?$/.exec(f))) return `tracks.${m[1]}.${m[2] ?? 'id'}`;
  if ((m = /^dimensions\.(\d+)(?:\.(name|weight))?$/.exec(f))) return `dimensions.${m[1]}.${m[2] ?? 'name'}`;
  if ((m = /^models\.(\d+)$/.exec(f))) return `models.${m[1]}.value`;
  if ((m = /^co_organizers\.(\d+)$/.exec(f))) return `co_organizers.${m[1]}.value`;
  if (f === 'registration_config.max_team_size' || f === 'registration_config.min_team_size') return f.slice('registration_config.'.length);
  if ((m = /^registration_config\.fields\.(\d+)(?:\.(key|name|label|type|required))?$/.exec(f))) {
    const part = m[2] === 'name' || !m[2] ? 'key' : m[2];
    return `fields.${m[1]}.${part}`;
  }
  return null;
}
