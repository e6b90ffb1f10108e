import type { Selectable } from 'kysely';

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

export type AuditLogRow = Selectable<AuditLogTable>;
