import type { Executor } from './db/index.js';
import { newId } from './ids.js';
import type { Principal } from './principal.js';

/**
 * The audit log's writing side: every organizer and admin action calls `recordAudit` with the
 * transaction that makes the change, so the entry and the change commit (or roll back) together.
 * It lives in core because every domain writes it, the lowest (events) included; reading the log
 * is the `audit` domain's (src/audit/). The table is append-only: nothing here or anywhere else
 * updates or deletes a row, and database triggers refuse both (migration 0227_audit_log).
 *
 * Secrets never go into `data`: no keys, tokens or passwords; an invitation is named by its id and
 * its e-mail, never by its token.
 */

/** Every action the log knows, by name (docs/api.md lists what each records). */
export const AUDIT_ACTIONS = [
  'event.created',
  'event.updated',
  'event.media_uploaded',
  'event.media_removed',
  'registration.approved',
  'registration.rejected',
  'reviewer.invited',
  'reviewer.invitation_revoked',
  'reviewer.removed',
  'vote.excluded',
  'vote.included',
  'assignment.auto',
  'assignment.set',
  'assignment.mode_changed',
  'conflict.declared',
  'conflict.removed',
  'review.rerun',
  'flag.checked',
  'flag.reopened',
  'results.published',
  'feedback.released',
  'feedback.withheld',
  'announcement.published',
  'announcement.scheduled',
  'announcement.cancelled',
  'user.role_changed',
  'user.disabled',
  'user.enabled',
  'api_key.revoked',
  'invite_code.created',
  'invite_code.revoked',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acted: a signed-in user (their e-mail at the time as the label), or the operator's CLI. */
export interface AuditActor {
  userId: string | null;
  label: string;
}

export const CLI_ACTOR: AuditActor = { userId: null, label: 'cli' };

export function actorOf(who: Pick<Principal, 'userId' | 'email'>): AuditActor {
  return { userId: who.userId, label: who.email };
}

/** One field of an edit: its value before and after (JSON values). */
export interface AuditChange {
  field: string;
  before: unknown;
  after: unknown;
}

export interface AuditEntry {
  /** The event concerned; null for site-wide actions (roles, users, keys). */
  eventId: string | null;
  actor: AuditActor;
  action: AuditAction;
  targetType: string;
  targetId: string;
  /** For edits `{ changes: AuditChange[] }`; for decisions their reason etc. Never a secret. */
  data?: Record<string, unknown>;
  /** The action's own timestamp (ISO-8601 UTC, as `iso()` writes it). */
  at: string;
}

const BASE32 = '0123456789abcdefghjkmnpqrstvwxyz';
let lastMs = -1;
let seq = 0;

/**
 * An entry's id: `newId`'s time prefix, then a counter of the entries this process wrote in the
 * same millisecond (two base32 digits), then randomness. Entries share a millisecond when one
 * action writes two (a role change and a disable in one PATCH); the counter keeps their order
 * (the list sorts by created_at, then id) the order they were written in.
 */
function auditId(ms: number): string {
  if (ms === lastMs) seq = Math.min(seq + 1, 32 * 32 - 1);
  else [lastMs, seq] = [ms, 0];
  const id = newId('aud', ms); // aud_ + 10 time + 12 random
  return `${id.slice(0, 14)}${BASE32[Math.floor(seq / 32)]}${BASE32[seq % 32]}${id.slice(16)}`;
}

/** Appends one entry, in the caller's transaction. */
export async function recordAudit(tx: Executor, entry: AuditEntry): Promise<void> {
  await tx
    .insertInto('audit_log')
    .values({
      id: auditId(Date.parse(entry.at)),
      event_id: entry.eventId,
      actor_user_id: entry.actor.userId,
      actor_label: entry.actor.label,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      data: JSON.stringify(entry.data ?? {}),
      created_at: entry.at,
    })
    .execute();
}

/** Whether two JSON values are the same (field order of objects included, as stored). */
function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * The fields of `after` whose values differ from `before`, in `after`'s order: an edit's
 * `changes`. Only the fields named in `fields` are compared (the ones the edit may touch).
 */
export function fieldChanges(before: Record<string, unknown>, after: Record<string, unknown>, fields: readonly string[]): AuditChange[] {
  const out: AuditChange[] = [];
  for (const field of fields) {
    const b = before[field] ?? null;
    const a = after[field] ?? null;
    if (!sameJson(b, a)) out.push({ field, before: b, after: a });
  }
  return out;
}
