import { createHash, randomBytes } from 'node:crypto';
import { sql, type Insertable } from 'kysely';
import type { Executor } from '../core/db/index.js';
import type { RegistrationRow, TeamInvitationRow, TeamInvitationsTable, TeamMemberRow, TeamMembersTable, TeamRole } from '../core/db/schema.js';

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

export async function findRegistrationById(db: Executor, id: string): Promise<RegistrationRow | undefined> {
  return db.selectFrom('registrations').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function registrationStatus(db: Executor, id: string): Promise<Pick<RegistrationRow, 'status'> | undefined> {
  return db.selectFrom('registrations').select(['status']).where('id', '=', id).executeTakeFirst();
}

/** A person's name and e-mail address, for a mail or a webhook naming them. */
export async function userNameAndEmail(db: Executor, userId: string): Promise<{ name: string | null; email: string } | undefined> {
  return db.selectFrom('users').select(['name', 'email']).where('id', '=', userId).executeTakeFirst();
}

/** Renames the team while its registration is pending; undefined when it is not (a taken name throws the unique violation). */
export async function renamePendingTeam(
  db: Executor,
  registrationId: string,
  name: string,
  nameKey: string,
  now: string,
): Promise<RegistrationRow | undefined> {
  return db
    .updateTable('registrations')
    .set({ team_name: name, team_name_key: nameKey, updated_at: now })
    .where('id', '=', registrationId)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}

/** Marks the registration withdrawn (undefined when it already was). */
export async function withdrawRegistration(db: Executor, registrationId: string, now: string): Promise<RegistrationRow | undefined> {
  return db
    .updateTable('registrations')
    .set({ status: 'withdrawn', reason: null, updated_at: now })
    .where('id', '=', registrationId)
    .where('status', '!=', 'withdrawn')
    .returningAll()
    .executeTakeFirst();
}

/** Revokes every open join code of the team. */
export async function revokeOpenInvitations(db: Executor, registrationId: string, now: string): Promise<void> {
  await db.updateTable('team_invitations').set({ revoked_at: now }).where('registration_id', '=', registrationId).where('revoked_at', 'is', null).execute();
}

export async function insertInvitation(db: Executor, row: Insertable<TeamInvitationsTable>): Promise<void> {
  await db.insertInto('team_invitations').values(row).execute();
}

/** Revokes one join code of the team, by invitation id or code hash (a revoked one keeps its first time); how many matched. */
export async function revokeInvitation(db: Executor, registrationId: string, which: { id: string } | { codeHash: string }, now: string): Promise<number> {
  let q = db
    .updateTable('team_invitations')
    .set({ revoked_at: sql<string>`coalesce(revoked_at, ${now})` })
    .where('registration_id', '=', registrationId);
  q = 'id' in which ? q.where('id', '=', which.id) : q.where('code_hash', '=', which.codeHash);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** The usable invitation of the event with this code hash at `now`. */
export async function findOpenInvitation(db: Executor, eventId: string, codeHash: string, now: string): Promise<TeamInvitationRow | undefined> {
  return db
    .selectFrom('team_invitations')
    .selectAll()
    .where('code_hash', '=', codeHash)
    .where('event_id', '=', eventId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** The user ids of a team's members, in no particular order. */
export async function memberUserIds(db: Executor, registrationId: string): Promise<string[]> {
  const rows = await db.selectFrom('team_members').select('user_id').where('registration_id', '=', registrationId).execute();
  return rows.map((m) => m.user_id);
}

/**
 * Counts one more member when the registration is not withdrawn and has room below `max` (null: no
 * limit): the conditional UPDATE that lets only as many of concurrent joins succeed as fit.
 */
export async function takeMemberSlot(db: Executor, registrationId: string, max: number | null): Promise<RegistrationRow | undefined> {
  return db
    .updateTable('registrations')
    .set({ member_count: sql<number>`member_count + 1` })
    .where('id', '=', registrationId)
    .where('status', '!=', 'withdrawn')
    .where((w) => (max === null ? sql<boolean>`1 = 1` : w('member_count', '<', max)))
    .returningAll()
    .executeTakeFirst();
}

export async function insertMember(db: Executor, row: Insertable<TeamMembersTable>): Promise<void> {
  await db.insertInto('team_members').values(row).execute();
}

/** Deletes a member (never the leader); whether there was one. */
export async function deleteMember(db: Executor, registrationId: string, userId: string): Promise<boolean> {
  const gone = await db
    .deleteFrom('team_members')
    .where('registration_id', '=', registrationId)
    .where('user_id', '=', userId)
    .where('role', '=', 'member')
    .executeTakeFirst();
  return Number(gone.numDeletedRows) > 0;
}

/** Records that someone left the team (or was removed): they never vote for its project. */
export async function recordFormerMember(db: Executor, registrationId: string, userId: string, at: string): Promise<void> {
  await db
    .insertInto('team_former_members')
    .values({ registration_id: registrationId, user_id: userId, left_at: at })
    .onConflict((oc) => oc.columns(['registration_id', 'user_id']).doUpdateSet({ left_at: at }))
    .execute();
}

/** Counts one member less. */
export async function releaseMemberSlot(db: Executor, registrationId: string): Promise<RegistrationRow> {
  return db
    .updateTable('registrations')
    .set({ member_count: sql<number>`member_count - 1` })
    .where('id', '=', registrationId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Sets a member's role when they hold the other one now; whether they did. */
export async function changeRole(db: Executor, registrationId: string, userId: string, from: TeamRole, to: TeamRole): Promise<boolean> {
  const res = await db
    .updateTable('team_members')
    .set({ role: to })
    .where('registration_id', '=', registrationId)
    .where('user_id', '=', userId)
    .where('role', '=', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Makes `userId` the registration's owner (its leader). */
export async function setRegistrationLeader(db: Executor, registrationId: string, userId: string, now: string): Promise<RegistrationRow> {
  return db.updateTable('registrations').set({ user_id: userId, updated_at: now }).where('id', '=', registrationId).returningAll().executeTakeFirstOrThrow();
}
