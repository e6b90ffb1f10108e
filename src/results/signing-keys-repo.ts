import type { Executor } from '../core/db/index.js';
import type { ResultSigningKeysTable } from '../core/db/schema.js';

/** The public columns of a signing key: what the well-known document lists (never the private key). */
export type PublicSigningKeyRow = Omit<ResultSigningKeysTable, 'private_key' | 'is_current'>;

/** The current key, private half included (to sign with); undefined before the first one is made. */
export async function findCurrentSigningKey(db: Executor): Promise<ResultSigningKeysTable | undefined> {
  return db.selectFrom('result_signing_keys').selectAll().where('is_current', '=', 1).executeTakeFirst();
}

/**
 * Makes `row` the current key unless there already is one: the unique constraint on is_current
 * settles two first publications at once (the second insert does nothing; both then read the same
 * current key).
 */
export async function insertSigningKeyIfNone(db: Executor, row: Omit<ResultSigningKeysTable, 'is_current' | 'retired_at'>): Promise<void> {
  await db
    .insertInto('result_signing_keys')
    .values({ ...row, is_current: 1, retired_at: null })
    .onConflict((oc) => oc.column('is_current').doNothing())
    .execute();
}

/** Retires the current key (if any) at `at`; returns its id. */
export async function retireCurrentSigningKey(db: Executor, at: string): Promise<string | undefined> {
  const current = await db.selectFrom('result_signing_keys').select('id').where('is_current', '=', 1).executeTakeFirst();
  if (!current) return undefined;
  await db.updateTable('result_signing_keys').set({ is_current: null, retired_at: at }).where('id', '=', current.id).where('is_current', '=', 1).execute();
  return current.id;
}

/** Every key's public columns, oldest first. */
export async function listPublicSigningKeys(db: Executor): Promise<PublicSigningKeyRow[]> {
  return db
    .selectFrom('result_signing_keys')
    .select(['id', 'algorithm', 'public_key', 'created_at', 'retired_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
