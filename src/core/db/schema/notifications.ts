import type { Generated, Selectable } from 'kysely';

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

export type MailQueueRow = Selectable<MailQueueTable>;
