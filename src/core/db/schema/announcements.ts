import type { Generated, Selectable } from 'kysely';

/** Who an announcement is addressed to (src/announcements/segments.ts says who is in each). */
export type AnnouncementSegment = 'registered' | 'approved' | 'no_final_submission' | 'reviewers' | 'winners';

/**
 * An organizer's announcement (0240). `queued`: scheduled (due at next_attempt_at = publish_at);
 * `running`: leased by a worker publishing it; `published`: its mails are queued; `cancelled`.
 */
export interface AnnouncementsTable {
  id: string;
  event_id: string;
  title: string;
  body: string;
  segment: AnnouncementSegment;
  status: 'queued' | 'running' | 'published' | 'cancelled';
  publish_at: string | null;
  published_at: string | null;
  /** How many people it went to (set with published_at). */
  recipients: number | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  cancelled_at: string | null;
  cancelled_by: string | null;
  attempts: Generated<number>;
  next_attempt_at: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
}

/** One person an announcement went to (unique per announcement and person). */
export interface AnnouncementRecipientsTable {
  announcement_id: string;
  user_id: string;
  event_id: string;
}

export type AnnouncementRow = Selectable<AnnouncementsTable>;
