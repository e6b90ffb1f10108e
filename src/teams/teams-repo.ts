import { createHash, randomBytes } from 'node:crypto';
import type { Executor } from '../core/db/index.js';
import type { TeamInvitationRow, TeamMemberRow } from '../core/db/schema.js';

/** The user ids of a team's members, the leader first: for notifications and webhooks to "every member". */
export async function teamMemberIds(db: Executor, registrationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('team_members')
    .select(['user_id', 'role'])
    .where('registration_id', '=', registrationId)
    .orderBy('joined_at')
    .orderBy('user_id')
    .execute();
  return [...rows.filter((r) => r.role === 'leader'), ...rows.filter((r) => r.role !== 'leader')].map((r) => r.user_id);
}

/** The caller's membership in a team of the event, if any. */
export async function membershipOf(db: Executor, eventId: string, userId: string): Promise<TeamMemberRow | undefined> {
  return db.selectFrom('team_members').selectAll().where('event_id', '=', eventId).where('user_id', '=', userId).executeTakeFirst();
}

/**
 * Join codes: 24 random bytes (192 bits) in base64url, shown once and stored only as their SHA-256
 * (a fast hash is enough: the code is random, not a password).
 */
export function newJoinCode(): { code: string; hash: string } {
  const code = randomBytes(24).toString('base64url');
  return { code, hash: hashJoinCode(code) };
}

export function hashJoinCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

/** Cheap shape check before any database work: garbage never reaches a query. */
export function looksLikeJoinCode(code: string): boolean {
  return /^[A-Za-z0-9_-]{32}$/.test(code);
}

/** The team's invitations still usable at `now` (not revoked, not expired), newest first. */
export async function openInvitations(db: Executor, registrationId: string, now: string): Promise<TeamInvitationRow[]> {
  return db
    .selectFrom('team_invitations')
    .selectAll()
    .where('registration_id', '=', registrationId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
}
