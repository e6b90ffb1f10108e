import type { Updateable } from 'kysely';
import type { Executor } from '../core/db/index.js';
import type { UsersTable } from '../core/db/schema.js';

/** A person's display name, address, mail language and zone, and mail switches. */
export async function findSettings(db: Executor, userId: string) {
  return db
    .selectFrom('users')
    .select(['name', 'email', 'language', 'time_zone', 'notify_registration', 'notify_team', 'notify_results'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

export async function updateSettings(db: Executor, userId: string, set: Updateable<UsersTable>, now: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...set, updated_at: now })
    .where('id', '=', userId)
    .execute();
}
