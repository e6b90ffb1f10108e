import { sql, type Insertable, type Selectable } from 'kysely';
import type { Executor } from '../core/db/index.js';
import { param, prepared } from '../core/db/prepared.js';
import { onTeamOf } from '../core/db/team-membership-repo.js';
import { recordAudit, type AuditActor } from '../core/audit.js';
import type { ApiKeyRow, InviteCodeRow, KeyScope, Role, SessionRow, SignupRequestsTable, UserRow } from '../core/db/schema.js';

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUser(db: Executor, user: Omit<UserRow, 'name' | 'disabled_at'> & Partial<Pick<UserRow, 'name' | 'disabled_at'>>): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

/** Gives an account a display name when it has none (an invited reviewer's); true when it did. */
export async function setNameIfMissing(db: Executor, id: string, name: string, now: string): Promise<boolean> {
  const r = await db.updateTable('users').set({ name, updated_at: now }).where('id', '=', id).where('name', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function updateUserRole(db: Executor, id: string, role: Role, now: string): Promise<void> {
  await db.updateTable('users').set({ role, updated_at: now }).where('id', '=', id).execute();
}

/** Swaps a password hash only if it is still `current` (compare-and-set). */
export async function replacePasswordHash(db: Executor, id: string, current: string, next: string, now: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: next, updated_at: now }).where('id', '=', id).where('password_hash', '=', current).execute();
}

/**
 * Takes the user's row lock for the rest of the transaction (PostgreSQL: the row; SQLite: the
 * database write lock) with an update that changes nothing, portable where FOR UPDATE is not.
 */
export async function lockUser(db: Executor, id: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ role: eb.ref('role') }))
    .where('id', '=', id)
    .execute();
}

export async function countUsers(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface KeyWithUser {
  key_id: string;
  name: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  scope: KeyScope;
  user_id: string;
  email: string;
  role: Role;
  disabled_at: string | null;
  unconfirmed_since: string | null;
}

const keyByHash = prepared<{ hash: string }, KeyWithUser>((db) =>
  db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id as key_id',
      'api_keys.expires_at',
      'api_keys.revoked_at',
      'api_keys.last_used_at',
      'api_keys.scope',
      'users.id as user_id',
      'users.email',
      'users.name',
      'users.role',
      'users.disabled_at',
      'users.unconfirmed_since',
    ])
    .where('api_keys.key_hash', '=', param<string>('hash')),
);

/** The key with its user, by the key's hash (a busy agent's first request after the cache's TTL: compiled once). */
export async function findKeyByHash(db: Executor, hash: string): Promise<KeyWithUser | undefined> {
  return (await keyByHash(db, { hash })).rows[0];
}

export async function insertApiKey(db: Executor, key: ApiKeyRow): Promise<void> {
  await db.insertInto('api_keys').values(key).execute();
}

export async function listApiKeys(db: Executor, userId: string): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').execute();
}

/** The user's keys of one scope that still work at `now` (not revoked, not expired), newest first. */
export async function listUsableKeys(db: Executor, userId: string, scope: KeyScope, now: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('scope', '=', scope)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('id', 'desc')
    .execute();
}

export async function findApiKey(db: Executor, idOrPrefix: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', idOrPrefix), eb('prefix', '=', idOrPrefix)]))
    .execute();
}

export async function revokeApiKey(db: Executor, id: string, now: string): Promise<boolean> {
  const r = await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Revokes every working API key of the user (a password reset); how many. */
export async function revokeUserApiKeys(db: Executor, userId: string, now: string): Promise<number> {
  const r = await db.updateTable('api_keys').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Touches last_used_at only when it is older than `staleBefore`, so a busy key costs one write a minute. */
const touchKey = prepared<{ id: string; now: string; staleBefore: string }, never>((db) =>
  db
    .updateTable('api_keys')
    .set({ last_used_at: param<string>('now') })
    .where('id', '=', param<string>('id'))
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', param<string>('staleBefore'))])),
);

export async function touchApiKey(db: Executor, id: string, now: string, staleBefore: string): Promise<void> {
  await touchKey(db, { id, now, staleBefore });
}

// ---- sessions ----

export interface SessionWithUser {
  session_id: string;
  name: string | null;
  csrf_token: string;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
  revoked_at: string | null;
  user_id: string;
  email: string;
  role: Role;
  disabled_at: string | null;
}

export async function insertSession(db: Executor, row: SessionRow): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

export async function findSessionByHash(db: Executor, hash: string): Promise<SessionWithUser | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id as session_id',
      'sessions.csrf_token',
      'sessions.created_at',
      'sessions.expires_at',
      'sessions.last_seen_at',
      'sessions.revoked_at',
      'users.id as user_id',
      'users.email',
      'users.name',
      'users.role',
      'users.disabled_at',
    ])
    .where('sessions.token_hash', '=', hash)
    .executeTakeFirst();
}

/** The user's sessions that still work at `now`, newest first. */
export async function listLiveSessions(db: Executor, userId: string, now: string): Promise<SessionRow[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .execute();
}

/** Revokes one live session of the user; false when there is none with that id. */
export async function revokeSession(db: Executor, userId: string, id: string, now: string): Promise<boolean> {
  const r = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Revokes every live session of the user, but `keep` (the caller's own, on a password change). */
export async function revokeUserSessions(db: Executor, userId: string, now: string, keep?: string): Promise<number> {
  let q = db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keep) q = q.where('id', '!=', keep);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Drops the user's ended sessions (revoked or expired): they are never shown again, and their cookies are refused either way. */
export async function deleteEndedSessions(db: Executor, userId: string, now: string): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('revoked_at', 'is not', null), eb('expires_at', '<=', now)]))
    .execute();
}

export async function touchSession(db: Executor, id: string, now: string, staleBefore: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).where('last_seen_at', '<', staleBefore).execute();
}

// ---- invite codes ----

export async function insertInviteCode(db: Executor, row: InviteCodeRow): Promise<void> {
  await db.insertInto('invite_codes').values(row).execute();
}

export async function listInviteCodes(db: Executor): Promise<InviteCodeRow[]> {
  return db.selectFrom('invite_codes').selectAll().orderBy('id', 'desc').execute();
}

export async function revokeInviteCode(db: Executor, id: string, now: string): Promise<boolean> {
  const found = await db.selectFrom('invite_codes').select('id').where('id', '=', id).executeTakeFirst();
  if (!found) return false;
  await db.updateTable('invite_codes').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
  return true;
}

/**
 * Counts one use of a code if it still has one: a single conditional UPDATE, so two concurrent
 * sign-ups cannot both take the last use. False when the code is unknown, revoked, expired or used up.
 */
export async function claimInviteCode(db: Executor, hash: string, now: string): Promise<boolean> {
  const r = await db
    .updateTable('invite_codes')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('code_hash', '=', hash)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .where((eb) => eb('uses', '<', eb.ref('max_uses')))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Whether a code could be used now (not using it): the check at a sign-up that waits for its e-mail confirmation. */
export async function inviteCodeUsable(db: Executor, hash: string, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('invite_codes')
    .select('id')
    .where('code_hash', '=', hash)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .where((eb) => eb('uses', '<', eb.ref('max_uses')))
    .executeTakeFirst();
  return row !== undefined;
}

// ---- password resets ----

export async function insertPasswordReset(
  db: Executor,
  row: { id: string; user_id: string; token_hash: string; created_at: string; expires_at: string; used_at: null },
): Promise<void> {
  await db.insertInto('password_resets').values(row).execute();
}

/** Older links of the user stop working when a new one is sent (deleted: the table holds one row per user at most). */
export async function deletePasswordResets(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('password_resets').where('user_id', '=', userId).execute();
}

/** Marks a reset token used if it is unused and unexpired; its user id, or null. One UPDATE: single use under races. */
export async function claimPasswordReset(db: Executor, hash: string, now: string): Promise<string | null> {
  const row = await db.selectFrom('password_resets').select(['id', 'user_id']).where('token_hash', '=', hash).executeTakeFirst();
  if (!row) return null;
  const r = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0 ? row.user_id : null;
}

// ---- sign-up requests (confirmation by e-mail) ----

export async function insertSignupRequest(db: Executor, row: Insertable<SignupRequestsTable>): Promise<void> {
  await db.insertInto('signup_requests').values(row).execute();
}

/**
 * Marks a sign-up token used if it is unused and unexpired; the request, or null. One conditional
 * UPDATE: of two concurrent confirms only one gets the request.
 */
export async function claimSignupRequest(db: Executor, hash: string, now: string): Promise<Selectable<SignupRequestsTable> | null> {
  const row = await db.selectFrom('signup_requests').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  if (!row) return null;
  const r = await db
    .updateTable('signup_requests')
    .set({ used_at: now })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0 ? { ...row, used_at: now } : null;
}

/** Spends a sign-up token outside a failed transaction (the account it would make exists already). */
export async function spendSignupRequest(db: Executor, id: string, now: string): Promise<void> {
  await db.updateTable('signup_requests').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).execute();
}

/** The live (unused, unexpired) confirmation request of an agent's unconfirmed account, if any. */
export async function liveConfirmationOf(db: Executor, userId: string, now: string): Promise<Selectable<SignupRequestsTable> | undefined> {
  return db
    .selectFrom('signup_requests')
    .selectAll()
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Marks an agent's account confirmed; false if it was not waiting (confirmed already, or gone). */
export async function confirmUser(db: Executor, userId: string, now: string): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ unconfirmed_since: null, updated_at: now })
    .where('id', '=', userId)
    .where('unconfirmed_since', 'is not', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Whether the account still waits for its owner's confirmation. */
export async function isUnconfirmed(db: Executor, userId: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('unconfirmed_since').where('id', '=', userId).executeTakeFirst();
  return Boolean(row?.unconfirmed_since);
}

/** An agent's sign-up again for an unconfirmed account whose link expired: the account starts over. */
export async function restartUnconfirmedUser(
  db: Executor,
  userId: string,
  values: { password_hash: string | null; name: string | null; language: string | null; time_zone: string | null },
  now: string,
): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ ...values, unconfirmed_since: now, updated_at: now })
    .where('id', '=', userId)
    .where('unconfirmed_since', 'is not', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Requests expired before `before` are of no use: dropped when new ones come in. */
export async function deleteExpiredSignupRequests(db: Executor, before: string): Promise<void> {
  await db.deleteFrom('signup_requests').where('expires_at', '<', before).execute();
}

export async function setPasswordHash(db: Executor, id: string, hash: string, now: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: hash, updated_at: now }).where('id', '=', id).execute();
}

// ---- admin ----

export async function listUsers(db: Executor, opts: { q?: string; role?: Role; after?: string; limit: number }): Promise<UserRow[]> {
  let query = db.selectFrom('users').selectAll();
  if (opts.role) query = query.where('role', '=', opts.role);
  if (opts.q) {
    // A substring match, case-insensitive in both dialects; LIKE wildcards in q are taken literally.
    const pattern = `%${opts.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([eb(sql`lower(email)`, 'like', sql`${pattern} escape '\\'`), eb(sql`lower(coalesce(name, ''))`, 'like', sql`${pattern} escape '\\'`)]),
    );
  }
  if (opts.after) query = query.where('id', '<', opts.after);
  return query.orderBy('id', 'desc').limit(opts.limit).execute();
}

export async function updateUser(db: Executor, id: string, patch: { role?: Role; disabled_at?: string | null }, now: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...patch, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/**
 * The active administrators (role admin, not disabled), locked for the rest of the transaction so
 * that two changes to administrators cannot both count the other as still there. PostgreSQL: the
 * rows, FOR UPDATE in id order (two such transactions lock in the same order, no deadlock; a row
 * changed meanwhile is re-checked against the condition). SQLite: the database write lock, taken by
 * an update that changes nothing (every write transaction is serialised behind it).
 */
export async function lockActiveAdmins(db: Executor, dialect: 'sqlite' | 'postgres'): Promise<string[]> {
  const active = () => db.selectFrom('users').select('id').where('role', '=', 'admin').where('disabled_at', 'is', null).orderBy('id');
  if (dialect === 'postgres') return (await active().forUpdate().execute()).map((r) => r.id);
  await db
    .updateTable('users')
    .set((eb) => ({ role: eb.ref('role') }))
    .where('role', '=', 'admin')
    .where('disabled_at', 'is', null)
    .execute();
  return (await active().execute()).map((r) => r.id);
}

/**
 * The audit entries of a change to an account (an admin's PATCH, the CLI's `users set-role`,
 * `users disable/enable`), in its transaction: one per thing that changed.
 */
export async function auditUserChange(
  tx: Executor,
  actor: AuditActor,
  user: Pick<UserRow, 'id' | 'email' | 'role' | 'disabled_at'>,
  next: { role: Role; disabledAt: string | null },
  now: string,
): Promise<void> {
  if (next.role !== user.role) {
    await recordAudit(tx, {
      eventId: null,
      actor,
      action: 'user.role_changed',
      targetType: 'user',
      targetId: user.id,
      data: { email: user.email, changes: [{ field: 'role', before: user.role, after: next.role }] },
      at: now,
    });
  }
  if ((user.disabled_at === null) !== (next.disabledAt === null)) {
    await recordAudit(tx, {
      eventId: null,
      actor,
      action: next.disabledAt === null ? 'user.enabled' : 'user.disabled',
      targetType: 'user',
      targetId: user.id,
      data: { email: user.email },
      at: now,
    });
  }
}

export async function findSessionTimes(db: Executor, id: string): Promise<Pick<SessionRow, 'id' | 'created_at' | 'expires_at'> | undefined> {
  return db.selectFrom('sessions').select(['id', 'created_at', 'expires_at']).where('id', '=', id).executeTakeFirst();
}

/** The events the user reviews, latest submission deadline first. */
export async function reviewerEvents(db: Executor, userId: string) {
  return db
    .selectFrom('event_reviewers')
    .innerJoin('events', 'events.id', 'event_reviewers.event_id')
    .select(['events.id', 'events.name', 'events.status', 'events.registration_deadline', 'events.submission_deadline'])
    .where('event_reviewers.user_id', '=', userId)
    .orderBy('events.submission_deadline', 'desc')
    .orderBy('events.id', 'desc')
    .execute();
}

/**
 * Per event, the projects the user may review (approved teams, not the user's own: conflict of
 * interest) and how many of them the user reviewed.
 */
export async function reviewableCounts(db: Executor, userId: string, eventIds: string[]) {
  return db
    .selectFrom('projects')
    .innerJoin('registrations', 'registrations.id', 'projects.registration_id')
    .leftJoin('reviews', (j) => j.onRef('reviews.project_id', '=', 'projects.id').on('reviews.reviewer_kind', '=', 'human').on('reviews.reviewer', '=', userId))
    .select(['projects.event_id', sql<number>`count(distinct projects.id)`.as('projects'), sql<number>`count(distinct reviews.project_id)`.as('reviewed')])
    .where('projects.event_id', 'in', eventIds)
    .where('registrations.status', '=', 'approved')
    .where((eb) => eb.not(onTeamOf(userId)))
    .groupBy('projects.event_id')
    .execute();
}
