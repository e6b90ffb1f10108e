/**
 * Table types for Kysely. Timestamps are ISO-8601 UTC strings with milliseconds (fixed width, so
 * they compare correctly as text in both SQLite and PostgreSQL); JSON documents are stored as text;
 * flags are 0/1 integers. One representation in both dialects keeps every query portable.
 */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export type Role = 'user' | 'organizer' | 'admin';
export type StoredEventStatus = 'draft' | 'open' | 'active' | 'judging' | 'ended' | 'cancelled';
/** When an event's projects are public in its gallery. */
export type GalleryVisibility = 'after_deadline' | 'after_results' | 'never';
/** `withdrawn`: the team's leader withdrew it (DELETE /events/:id/team); it may register again like a non-final rejection. */
export type RegistrationStatus = 'pending' | 'approved' | 'rejected' | 'withdrawn';
/** What an API key may do: everything its user may, or only the reviewer routes (invitation-made keys). */
export type KeyScope = 'full' | 'review';

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string | null;
  role: Role;
  created_at: string;
  updated_at: string;
  /** Display name (web sign-up); optional. */
  name: Generated<string | null>;
  /** Set when an admin disables the account: its keys and sessions stop working. */
  disabled_at: Generated<string | null>;
  /** Language of the person's mails: 'en' | 'zh'; null = en (0216). */
  language: Generated<string | null>;
  /** IANA time zone times in mails are shown in; null = UTC (0216). */
  time_zone: Generated<string | null>;
  /** Notification mail switches, 1 = send (0216). */
  notify_registration: Generated<number>;
  notify_team: Generated<number>;
  notify_results: Generated<number>;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
  user_agent: string | null;
  ip: string | null;
}

export interface InviteCodesTable {
  id: string;
  code_hash: string;
  prefix: string;
  note: string | null;
  max_uses: number;
  uses: Generated<number>;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
  created_by: string | null;
}

export interface PasswordResetsTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A sign-up waiting for its e-mail confirmation (open and invite sign-up with SMTP): the account is made at the link. */
export interface SignupRequestsTable {
  id: string;
  email: string;
  password_hash: string;
  name: string | null;
  /** Mail language asked for at sign-up ('en' | 'zh'), null if none (0216). */
  language: Generated<string | null>;
  /** sha256 of the invite code given at sign-up (invite mode), claimed when the link is confirmed; else null. */
  invite_code_hash: string | null;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  scope: Generated<KeyScope>;
}

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

/** A project a reviewer is to review, in 'assigned' mode (since 0222). */
export interface ReviewAssignmentsTable {
  event_id: string;
  project_id: string;
  reviewer_id: string;
  /** 'auto': placed by the balancing rule (may move); 'manual': set by an organizer (stays). */
  source: 'auto' | 'manual';
  created_at: string;
}

/** A declared conflict of interest between a reviewer and a project (since 0222). */
export interface ReviewerConflictsTable {
  event_id: string;
  project_id: string;
  reviewer_id: string;
  declared_by: 'reviewer' | 'organizer';
  created_at: string;
}

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

export interface RegistrationsTable {
  id: string;
  event_id: string;
  user_id: string;
  team_name: string;
  team_name_key: string;
  track_id: string | null;
  contact_email: string;
  github_url: string | null;
  fields: string;
  status: RegistrationStatus;
  reason: string | null;
  /** 1 when the organizer rejected it as final: no re-application (stored as 0/1 on both databases). */
  rejected_final: Generated<number>;
  /** 1 for the first application, +1 for each re-application after a rejection. */
  attempt: Generated<number>;
  reapplied_at: string | null;
  created_at: string;
  updated_at: string;
  /** How many people are in the team (team_members rows), kept by the same transactions (since 0214). */
  member_count: Generated<number>;
}

export type TeamRole = 'leader' | 'member';

/** One person in a team (since 0214): a person is in at most one team per event. */
export interface TeamMembersTable {
  registration_id: string;
  event_id: string;
  user_id: string;
  role: TeamRole;
  joined_at: string;
}

/** A join code for a team: sha256 stored, the code shown once. */
export interface TeamInvitationsTable {
  /** `tinv_…` */
  id: string;
  registration_id: string;
  event_id: string;
  code_hash: string;
  email: string | null;
  created_by: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface ProjectsTable {
  id: string;
  event_id: string;
  registration_id: string;
  project_name: string;
  description: string | null;
  github_url: string;
  project_website: string | null;
  demo_video_url: string | null;
  team_size: number | null;
  track_id: string | null;
  status: 'submitted';
  review_status: 'pending' | 'in_review' | 'reviewed';
  first_submitted_at: string;
  created_at: string;
  updated_at: string;
  /** 1 when the organizer took the project out of the people's choice vote. */
  vote_excluded: Generated<number>;
  /** Who last created or changed it; null for rows written before 0214. */
  updated_by_user_id: Generated<string | null>;
  /** The github_url the last completed build-window check was for; null: never checked (since 0229). */
  build_window_url: Generated<string | null>;
  /** When a skipped build-window check (GitHub rate-limited or down) is tried again; null: not waiting. */
  build_window_retry_at: Generated<string | null>;
  /** The hacking start the last completed build-window check compared with; another start makes it due. */
  build_window_start: Generated<string | null>;
  /** The lower-cased owner/repo of the github_url last checked (null: none, or not a GitHub repository): the duplicate check's group, indexed with event_id. */
  build_window_repo: Generated<string | null>;
}

export interface GithubRepoFactsTable {
  /** Lower-cased `owner/repo`. */
  repo_key: string;
  /** JSON: RepoFacts (src/reviews/build-window.ts). */
  facts: string;
  fetched_at: string;
}

export type ReviewStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface ReviewsTable {
  id: string;
  event_id: string;
  project_id: string;
  /** 'model' for an AI model, 'human' for an invited reviewer. */
  reviewer_kind: 'model' | 'human';
  /** The model identifier (provider/model) or the human reviewer's user id. */
  reviewer: string;
  /** The scoring group: the model identifier, or 'human' for every human reviewer. */
  group_key: string;
  status: ReviewStatus;
  /** JSON object dimension name -> number 0..10, only when succeeded. */
  scores: string | null;
  summary: string | null;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  latency_ms: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  raw_reply: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface EventReviewersTable {
  event_id: string;
  user_id: string;
  created_at: string;
}

export interface ReviewerInvitationsTable {
  id: string;
  event_id: string;
  email: string;
  token_hash: string;
  invited_by: string;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
}

export interface ResultsTable {
  event_id: string;
  published_at: string;
  published_by: string;
  /**
   * Empty since migration 0106: the frozen entries are rows of result_entries. (Before, the whole
   * JSON array; `etag` is still the hash of that array's exact bytes.)
   */
  entries: string;
  etag: string;
  /** The normalisation the published ranking used (since 0223). */
  normalization: Generated<'none' | 'zscore'>;
}

/**
 * Per project, its numbers as the ranking computes them, kept current by triggers (stale/version)
 * and recomputed by readers for the stale rows only (src/results/standings.ts).
 */
export interface StandingsTable {
  project_id: string;
  event_id: string;
  version: Generated<number>;
  stale: Generated<number>;
  /** 1 when the project's registration is approved (it takes part in the ranking). */
  judged: Generated<number>;
  track_id: string | null;
  first_submitted_at: string;
  /** The score in 10^-4 units (the ranking key), -1 when nobody scored the project. */
  score_key: Generated<number>;
  /** The raw (unnormalised) score in 10^-4 units, -1 when unscored; equals score_key under normalization none. */
  raw_score_key: Generated<number>;
  /** JSON text of scores_by_model / scores_by_dimension, as published. */
  by_model: Generated<string>;
  by_dimension: Generated<string>;
  /** JSON array of the keys of by_model (for the CSV columns). */
  model_groups: Generated<string>;
  reviews_expected: Generated<number>;
  reviews_succeeded: Generated<number>;
  reviews_failed: Generated<number>;
  reviews_pending: Generated<number>;
  reviews_human: Generated<number>;
}

/** One entry of a published result: its JSON after `{"rank":N`, and its overall and per-track place. */
export interface VotesTable {
  event_id: string;
  project_id: string;
  user_id: string;
  /** The track id when votes are counted per track, else '' (one pool per event). */
  scope: string;
  /** 1..votes_per_person: which of the voter's votes in this scope this is. */
  slot: number;
  created_at: string;
}

export interface PeoplesChoiceTable {
  event_id: string;
  position: number;
  rank: number;
  project_id: string;
  project_name: string;
  team_name: string;
  track_id: string | null;
  votes: number;
}

/** A published result's verifiable bundle (src/results/result-bundle.ts), one per event, never changed. */
export interface ResultBundlesTable {
  event_id: string;
  /** The bundle's canonical JSON (RFC 8785), `sha256` member included. */
  bundle: string;
  /** SHA-256 (hex) of the canonical JSON of the bundle without its `sha256` member. */
  sha256: string;
  created_at: string;
}

export interface ProjectFlagsTable {
  id: string;
  event_id: string;
  project_id: string;
  /** prompt_injection (screening) or build_window (build-window checks, src/reviews/build-window.ts). */
  kind: string;
  /** Where the evidence was found: project.description, repository.readme, … */
  source: string;
  evidence: string;
  /** What matched (a screening pattern's id), or other detail of the finding. */
  detail: string | null;
  evidence_key: string;
  status: 'open' | 'checked';
  note: string | null;
  checked_by: string | null;
  checked_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The append-only audit log of organizer and admin actions (src/core/audit.ts). */
export interface AuditLogTable {
  id: string;
  /** The event the action concerns; null for site-wide ones (roles, users, keys). No foreign key. */
  event_id: string | null;
  /** Null for the CLI. */
  actor_user_id: string | null;
  /** The actor's e-mail at the time, or 'cli'. */
  actor_label: string;
  /** Dotted name: registration.approved, event.updated, results.published, … */
  action: string;
  target_type: string;
  target_id: string;
  /** JSON object: `changes: [{field, before, after}]` for edits, reason etc. for decisions. */
  data: string;
  created_at: string;
}

export interface ResultEntriesTable {
  event_id: string;
  position: number;
  rank: number;
  track_id: string | null;
  track_position: number | null;
  track_rank: number | null;
  entry_tail: string;
  /** Null only for rows stored before 0217 that its backfill has not reached (none after it ran). */
  project_id: string | null;
}

/** One Idempotency-Key use: claimed while its request runs, then the stored answer replayed. */
export interface IdempotencyKeysTable {
  user_id: string;
  /** Method and route pattern, e.g. `POST /api/v1/events/:id/register`. */
  route: string;
  idem_key: string;
  /** SHA-256 of the method, the concrete path and the canonical JSON of the body. */
  fingerprint: string;
  state: 'running' | 'done';
  /** Who holds a running claim; the answer is stored only by its holder. */
  lock_token: string;
  /** A running claim past this instant is abandoned (process crash) and may be taken over. */
  locked_until: string;
  expires_at: string;
  created_at: string;
  response_status: number | null;
  /** JSON object of the replayed headers (content-type, location). */
  response_headers: string | null;
  response_body: string | null;
}

/** A webhook subscription (src/webhooks). */
export interface WebhooksTable {
  id: string;
  user_id: string;
  url: string;
  /** The subscribed kinds, as ",kind,kind,". */
  events: string;
  event_id: string | null;
  /** `whsec_<base64>`: kept so the server can sign; shown once, never logged. */
  secret: string;
  consecutive_failures: Generated<number>;
  disabled_at: string | null;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

export type WebhookDeliveryStatus = 'queued' | 'running' | 'delivered' | 'failed';

/** One message to one subscription: the durable delivery queue. */
export interface WebhookDeliveriesTable {
  /** Also the `webhook-id` header: the same on every attempt. */
  id: string;
  webhook_id: string;
  event_type: string;
  payload: string;
  status: WebhookDeliveryStatus;
  attempts: Generated<number>;
  next_attempt_at: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
}

/** The last reminder an organizer sent a reviewer of an event (0224): at most one a day. */
export interface ReviewerRemindersTable {
  event_id: string;
  user_id: string;
  last_sent_at: string;
  last_sent_by: string;
  /** The open reviews the last reminder named. */
  open_reviews: number;
  reminders_sent: Generated<number>;
}

/** A rendered notification mail waiting to be sent (0215). */
export interface MailQueueTable {
  id: string;
  kind: string;
  event_id: string | null;
  user_id: string | null;
  to_address: string;
  language: string;
  subject: string;
  text_body: string;
  html_body: string;
  status: 'queued' | 'running' | 'sent' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  last_error: string | null;
  give_up_at: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
}

export interface Database {
  mail_queue: MailQueueTable;
  reviewer_reminders: ReviewerRemindersTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  standings: StandingsTable;
  result_entries: ResultEntriesTable;
  votes: VotesTable;
  peoples_choice: PeoplesChoiceTable;
  project_flags: ProjectFlagsTable;
  github_repo_facts: GithubRepoFactsTable;
  audit_log: AuditLogTable;
  idempotency_keys: IdempotencyKeysTable;
  reviews: ReviewsTable;
  event_reviewers: EventReviewersTable;
  review_assignments: ReviewAssignmentsTable;
  reviewer_conflicts: ReviewerConflictsTable;
  reviewer_invitations: ReviewerInvitationsTable;
  results: ResultsTable;
  result_bundles: ResultBundlesTable;
  users: UsersTable;
  sessions: SessionsTable;
  invite_codes: InviteCodesTable;
  password_resets: PasswordResetsTable;
  signup_requests: SignupRequestsTable;
  api_keys: ApiKeysTable;
  events: EventsTable;
  event_media: EventMediaTable;
  event_organizers: EventOrganizersTable;
  event_co_organizers: EventCoOrganizersTable;
  registrations: RegistrationsTable;
  team_members: TeamMembersTable;
  team_invitations: TeamInvitationsTable;
  projects: ProjectsTable;
}

export type UserRow = Selectable<UsersTable>;
/** A new account's person settings: language and zone unset (en, UTC), every mail on. */
export const DEFAULT_SETTINGS = { language: null, time_zone: null, notify_registration: 1, notify_team: 1, notify_results: 1 } as const;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type SessionRow = Selectable<SessionsTable>;
export type InviteCodeRow = Selectable<InviteCodesTable>;
export type EventRow = Selectable<EventsTable>;
export type NewEventRow = Insertable<EventsTable>;
export type EventUpdate = Updateable<EventsTable>;
export type RegistrationRow = Selectable<RegistrationsTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type TeamMemberRow = Selectable<TeamMembersTable>;
export type TeamInvitationRow = Selectable<TeamInvitationsTable>;
export type ReviewRow = Selectable<ReviewsTable>;
export type ProjectFlagRow = Selectable<ProjectFlagsTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
export type InvitationRow = Selectable<ReviewerInvitationsTable>;
export type ResultRow = Selectable<ResultsTable>;
export type MailQueueRow = Selectable<MailQueueTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;
// Generated is kept for tables that later gain defaulted columns.
export type { Generated };
