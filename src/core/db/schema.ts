/**
 * Table types for Kysely. Timestamps are ISO-8601 UTC strings with milliseconds (fixed width, so
 * they compare correctly as text in both SQLite and PostgreSQL); JSON documents are stored as text;
 * flags are 0/1 integers. One representation in both dialects keeps every query portable.
 */
import type { Generated } from 'kysely';
import type { ApiKeysTable, InviteCodesTable, PasswordResetsTable, SessionsTable, SignupRequestsTable, UsersTable } from './schema/accounts.js';
import type { EventCoOrganizersTable, EventMediaTable, EventOrganizersTable, EventsTable } from './schema/events.js';
import type {
  ProjectScreenshotsTable,
  ProjectsTable,
  RegistrationsTable,
  TeamFormerMembersTable,
  TeamInvitationsTable,
  TeamJoinRequestsTable,
  TeamMembersTable,
  TeamNeedsTable,
  TeamSeekersTable,
} from './schema/registrations.js';
import type { GithubRepoFactsTable, ProjectFlagsTable, ReviewsTable } from './schema/reviews.js';
import type {
  EventReviewersTable,
  ReviewAssignmentsTable,
  ReviewerConflictsTable,
  ReviewerInvitationsTable,
  ReviewerRemindersTable,
} from './schema/reviewers.js';
import type { ResultBundlesTable, ResultEntriesTable, ResultSigningKeysTable, ResultsTable, StandingsTable } from './schema/results.js';
import type { PeoplesChoiceTable, VotesTable } from './schema/showcase.js';
import type { AuditLogTable } from './schema/audit.js';
import type { IdempotencyKeysTable } from './schema/idempotency.js';
import type { WebhookDeliveriesTable, WebhooksTable } from './schema/webhooks.js';
import type { MailQueueTable } from './schema/notifications.js';
import type { AnnouncementRecipientsTable, AnnouncementsTable } from './schema/announcements.js';

export * from './schema/accounts.js';
export * from './schema/events.js';
export * from './schema/registrations.js';
export * from './schema/reviews.js';
export * from './schema/reviewers.js';
export * from './schema/results.js';
export * from './schema/showcase.js';
export * from './schema/audit.js';
export * from './schema/idempotency.js';
export * from './schema/webhooks.js';
export * from './schema/notifications.js';
export * from './schema/announcements.js';

/** Every table, by name: the type Kysely checks each query against. */
export interface Database {
  mail_queue: MailQueueTable;
  announcements: AnnouncementsTable;
  announcement_recipients: AnnouncementRecipientsTable;
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
  result_signing_keys: ResultSigningKeysTable;
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
  team_former_members: TeamFormerMembersTable;
  team_invitations: TeamInvitationsTable;
  team_seekers: TeamSeekersTable;
  team_needs: TeamNeedsTable;
  team_join_requests: TeamJoinRequestsTable;
  projects: ProjectsTable;
  project_screenshots: ProjectScreenshotsTable;
}

// Generated is kept for tables that later gain defaulted columns.
export type { Generated };
