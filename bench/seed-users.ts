import { generateApiKey } from '../src/accounts/api-keys.js';
import type { Db } from '../src/core/db/index.js';
import { newId } from '../src/core/ids.js';

/**
 * `count` team accounts, each with one API key, inserted in batches of 500 (no password: the
 * benchmarks only send keys). Returns the keys in creation order.
 */
export async function seedTeamUsers(db: Db, count: number, now: string): Promise<string[]> {
  const keys: string[] = [];
  const users = [];
  const apiKeys = [];
  for (let i = 0; i < count; i++) {
    const id = newId('usr');
    const k = generateApiKey();
    keys.push(k.token);
    users.push({ id, email: `team${i}@bench.test`, password_hash: null, role: 'user' as const, created_at: now, updated_at: now });
    apiKeys.push({
      id: newId('key'),
      user_id: id,
      name: 'bench',
      prefix: k.displayPrefix,
      key_hash: k.hash,
      created_at: now,
      expires_at: null,
      revoked_at: null,
      last_used_at: null,
    });
  }
  for (let i = 0; i < count; i += 500) {
    await db
      .insertInto('users')
      .values(users.slice(i, i + 500))
      .execute();
    await db
      .insertInto('api_keys')
      .values(apiKeys.slice(i, i + 500))
      .execute();
  }
  return keys;
}
