import type { Generated, Selectable } from 'kysely';

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
  /** The reviewer's name as the organizer gave it (0238); the accepting account takes it when it has none. */
  name: Generated<string | null>;
  /** Language of the invitation mail, 'en' | 'zh' (0238); null: English. */
  language: Generated<string | null>;
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

export type InvitationRow = Selectable<ReviewerInvitationsTable>;
