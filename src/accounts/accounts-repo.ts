import type { Executor } from '../core/db/index.js';
import type { ApiKeyRow, KeyScope, Role, UserRow } from '../core/db/schema.js';

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUser(db: Executor, user: UserRow): Promise<void> {
  await db.insertInto('users').values(user).execute();
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
  await db.updateTable('users').set((eb) => ({ role: eb.ref('role') })).where('id', '=', id).execute();
}

export async function countUsers(db: Executor): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface KeyWithUser {
  key_id: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  scope: KeyScope;
  user_id: string;
  email: string;
  role: Role;
}

export async function findKeyByHash(db: Executor, hash: string): Promise<KeyWithUser | undefined> {
  return db
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
      'users.role',
    ])
    .where('api_keys.key_hash', '=', hash)
    .executeTakeFirst();
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

export async function revokeApiKey(db: Executor, id: string, now: string): Promise<void> {
  await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

/** Touches last_used_at only when it is older than `staleBefore`, so a busy key costs one write a minute. */
export async function touchApiKey(db: Executor, id: string, now: string, staleBefore: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
    .execute();
}
