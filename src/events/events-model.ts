import type { EventRow } from '../core/db/schema.js';
import { markdownText, renderMarkdownCached } from '../core/markdown.js';
import { DEFAULT_VOTING, type Dimension, type EventConfig, type FormField, type Track, type VotingConfig } from './event-config.js';
import { effectiveStatus, registrationAccepted, type EventStatus } from './status.js';

/** An event row with its JSON columns parsed: what services work with. */
export interface EventRecord extends EventConfig {
  id: string;
  status: EventRow['status'];
  result_announced_at: string | null;
  /** When an organizer last moved the stored status; null if never (or before this was recorded). */
  status_changed_at: string | null;
  /** The teams may read their reviews once results are published (the organizer's choice). */
  feedback_released: boolean;
  /** The current cover image's and logo's version (see event-media-service.ts); null: none. */
  cover_version: string | null;
  logo_version: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export function fromRow(row: EventRow): EventRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    registration_deadline: row.registration_deadline,
    submission_deadline: row.submission_deadline,
    hacking_starts_at: row.hacking_starts_at ?? null,
    time_zone: row.time_zone ?? null,
    gallery_visibility: row.gallery_visibility ?? 'after_deadline',
    voting: row.voting ? { ...DEFAULT_VOTING, ...(JSON.parse(row.voting) as Partial<VotingConfig>) } : { ...DEFAULT_VOTING },
    normalization: row.normalization ?? 'none',
    result_announced_at: row.result_announced_at,
    status_changed_at: row.status_changed_at ?? null,
    feedback_released: row.feedback_released === 1,
    tracks: JSON.parse(row.tracks) as Track[],
    dimensions: JSON.parse(row.dimensions) as Dimension[],
    models: JSON.parse(row.models) as string[],
    registration_open: row.registration_open === 1,
    auto_approve: row.auto_approve === 1,
    fields: JSON.parse(row.form_fields) as FormField[],
    max_team_size: row.max_team_size ?? null,
    min_team_size: row.min_team_size ?? null,
    cover_version: row.cover_version ?? null,
    logo_version: row.logo_version ?? null,
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function configColumns(config: EventConfig) {
  return {
    name: config.name,
    description: config.description,
    registration_deadline: config.registration_deadline,
    submission_deadline: config.submission_deadline,
    hacking_starts_at: config.hacking_starts_at,
    time_zone: config.time_zone,
    gallery_visibility: config.gallery_visibility,
    voting: JSON.stringify(config.voting),
    normalization: config.normalization,
    tracks: JSON.stringify(config.tracks),
    dimensions: JSON.stringify(config.dimensions),
    models: JSON.stringify(config.models),
    registration_open: config.registration_open ? 1 : 0,
    auto_approve: config.auto_approve ? 1 : 0,
    form_fields: JSON.stringify(config.fields),
    max_team_size: config.max_team_size,
    min_team_size: config.min_team_size,
  };
}

/** Form fields in the contract's superset shape: `key` and `name` both present and equal. */
export function fieldsForApi(fields: FormField[]) {
  return fields.map((f) => ({ key: f.key, name: f.key, label: f.label, type: f.type, required: f.required }));
}

function timeline(e: EventRecord) {
  return {
    registration_deadline: e.registration_deadline,
    submission_deadline: e.submission_deadline,
    result_announced_at: e.result_announced_at,
  };
}

/** Where an event's cover or logo is served: absolute, with its version so a new upload is a new address. */
export function mediaUrl(publicUrl: string, eventId: string, kind: 'cover' | 'logo', version: string | null): string | null {
  return version ? `${publicUrl}/api/v1/events/${encodeURIComponent(eventId)}/media/${kind}?v=${version}` : null;
}

function mediaUrls(e: EventRecord, publicUrl: string) {
  return { cover_url: mediaUrl(publicUrl, e.id, 'cover', e.cover_version), logo_url: mediaUrl(publicUrl, e.id, 'logo', e.logo_version) };
}

export function eventForApi(e: EventRecord, now: Date, publicUrl: string) {
  return {
    id: e.id,
    name: e.name,
    description: e.description,
    description_html: renderMarkdownCached(e.description),
    status: effectiveStatus(e, now),
    registration_deadline: e.registration_deadline,
    submission_deadline: e.submission_deadline,
    result_announced_at: e.result_announced_at,
    hacking_starts_at: e.hacking_starts_at,
    time_zone: e.time_zone,
    gallery_visibility: e.gallery_visibility,
    voting: { ...e.voting, opens_at: e.voting.opens_at ?? e.submission_deadline },
    ...mediaUrls(e, publicUrl),
    normalization: e.normalization,
    timeline: timeline(e),
    tracks: e.tracks,
    dimensions: e.dimensions,
    models: e.models,
    registration_config: {
      open: e.registration_open,
      auto_approve: e.auto_approve,
      fields: fieldsForApi(e.fields),
      max_team_size: e.max_team_size,
      min_team_size: e.min_team_size,
    },
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}

export function eventSummaryForApi(e: EventRecord, now: Date, publicUrl: string) {
  return {
    id: e.id,
    name: e.name,
    description: e.description,
    description_text: markdownText(e.description),
    status: effectiveStatus(e, now),
    registration_deadline: e.registration_deadline,
    submission_deadline: e.submission_deadline,
    result_announced_at: e.result_announced_at,
    tracks: e.tracks,
    ...mediaUrls(e, publicUrl),
    created_at: e.created_at,
  };
}

export function registrationFormForApi(e: EventRecord, now: Date) {
  const status: EventStatus = effectiveStatus(e, now);
  return {
    event_id: e.id,
    event_name: e.name,
    description: e.description,
    status,
    open: registrationAccepted(e, now),
    auto_approve: e.auto_approve,
    max_team_size: e.max_team_size,
    min_team_size: e.min_team_size,
    timeline: timeline(e),
    tracks: e.tracks,
    fields: fieldsForApi(e.fields),
    event: { id: e.id, name: e.name, status },
  };
}
