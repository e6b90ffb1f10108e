import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export type StoredEventStatus = 'draft' | 'open' | 'active' | 'judging' | 'ended' | 'cancelled';

/** When an event's projects are public in its gallery. */
export type GalleryVisibility = 'after_deadline' | 'after_results' | 'never';

export interface EventsTable {
  id: string;
  name: string;
  description: string;
  status: StoredEventStatus;
  registration_deadline: string;
  submission_deadline: string;
  result_announced_at: string | null;
  tracks: string;
  dimensions: string;
  models: string;
  registration_open: number;
  auto_approve: number;
  form_fields: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  judging_started_at: string | null;
  /** When an organizer last changed `status` with PATCH (not set by publication); null if never or before 0103. */
  status_changed_at: string | null;
  /** The IANA time zone the organizer works in (display only; deadlines are UTC); null if never set (before 0204). */
  time_zone: string | null;
  gallery_visibility: Generated<GalleryVisibility>;
  /** People's choice settings (JSON, see VotingConfig); null: never set (voting off). */
  voting: string | null;
  /** 1: the teams may read their reviews (scores, comments, summaries; reviewers unnamed) once results are out. */
  feedback_released: Generated<number>;
  /** Team-size limits (the leader counts); null = no limit (since 0214). */
  max_team_size: Generated<number | null>;
  min_team_size: Generated<number | null>;
  /** The current cover image's and logo's version (the start of their sha256); null: none (since 0225). */
  cover_version: Generated<string | null>;
  logo_version: Generated<string | null>;
  /** When hacking starts (build-window checks); null: the registration deadline (since 0229). */
  hacking_starts_at: Generated<string | null>;
  /** How reviewers' scores are made comparable: 'none' (raw) or 'zscore' (since 0223). */
  normalization: Generated<'none' | 'zscore'>;
  /** How human reviewers get projects: 'every' (all of them) or 'assigned' (reviewers_per_project each; since 0222). */
  review_mode: Generated<ReviewMode>;
  reviewers_per_project: Generated<number | null>;
  /** 1: a reviewer sharing an e-mail domain with a team member has a conflict of interest. */
  conflict_same_domain: Generated<number>;
}

export type EventMediaKind = 'cover' | 'logo';

/** An event's cover image or logo: the uploaded bytes, checked to be the PNG/JPEG/WebP of `content_type` (since 0225). */
export interface EventMediaTable {
  event_id: string;
  kind: EventMediaKind;
  content_type: string;
  bytes: Buffer;
  sha256: string;
  width: number;
  height: number;
  updated_at: string;
}

export type ReviewMode = 'every' | 'assigned';

export interface EventOrganizersTable {
  event_id: string;
  user_id: string;
  created_at: string;
}

/** A co-organizer by e-mail address: whoever signs in with it, now or later, organizes the event (since 0213). */
export interface EventCoOrganizersTable {
  event_id: string;
  email: string;
  created_at: string;
}

export type EventRow = Selectable<EventsTable>;
export type NewEventRow = Insertable<EventsTable>;
export type EventUpdate = Updateable<EventsTable>;
