import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../core/db/index.js';
import type { Database, IdempotencyKeyRow } from '../core/db/schema.js';

export interface IdempotencyScope {
  userId: string;
  /** Method and route pattern. */
  route: string;
  key: string;
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Queries over `idempotency_keys`. Times are ISO strings, compared as text like elsewhere. */
export function createIdempotencyRepo(db: Db) {
  const byScope = (s: IdempotencyScope) =>
    db.selectFrom('idempotency_keys').where('user_id', '=', s.userId).where('route', '=', s.route).where('idem_key', '=', s.key);
  /** The row of this key while the claim with `token` holds it (for updates and deletes alike). */
  const heldBy = (s: IdempotencyScope, token: string) => (eb: ExpressionBuilder<Database, 'idempotency_keys'>) =>
    eb.and([eb('user_id', '=', s.userId), eb('route', '=', s.route), eb('idem_key', '=', s.key), eb('lock_token', '=', token)]);

  return {
    /** Inserts a running claim; false when the key already has a row (the primary key decides). */
    async insertClaim(
      s: IdempotencyScope,
      claim: { fingerprint: string; token: string; lockedUntil: string; expiresAt: string; now: string },
    ): Promise<boolean> {
      const res = await db
        .insertInto('idempotency_keys')
        .values({
          user_id: s.userId,
          route: s.route,
          idem_key: s.key,
          fingerprint: claim.fingerprint,
          state: 'running',
          lock_token: claim.token,
          locked_until: claim.lockedUntil,
          expires_at: claim.expiresAt,
          created_at: claim.now,
          response_status: null,
          response_headers: null,
          response_body: null,
        })
        .onConflict((oc) => oc.columns(['user_id', 'route', 'idem_key']).doNothing())
        .executeTakeFirst();
      return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    async find(s: IdempotencyScope): Promise<IdempotencyKeyRow | undefined> {
      return byScope(s).selectAll().executeTakeFirst();
    },

    /**
     * Takes over a row (expired, or running past its lease) as a fresh running claim. Guarded by the
     * token seen when reading it, so of two processes taking over at once exactly one wins.
     */
    async takeOver(
      s: IdempotencyScope,
      seenToken: string,
      claim: { fingerprint: string; token: string; lockedUntil: string; expiresAt: string; now: string },
    ): Promise<boolean> {
      const res = await db
        .updateTable('idempotency_keys')
        .set({
          fingerprint: claim.fingerprint,
          state: 'running',
          lock_token: claim.token,
          locked_until: claim.lockedUntil,
          expires_at: claim.expiresAt,
          created_at: claim.now,
          response_status: null,
          response_headers: null,
          response_body: null,
        })
        .where(heldBy(s, seenToken))
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** Stores the answer of the claim this token holds (nothing if it was taken over meanwhile). */
    async complete(s: IdempotencyScope, token: string, response: StoredResponse): Promise<void> {
      await db
        .updateTable('idempotency_keys')
        .set({ state: 'done', response_status: response.status, response_headers: JSON.stringify(response.headers), response_body: response.body })
        .where(heldBy(s, token))
        .where('state', '=', 'running')
        .execute();
    },

    /** Frees the key so a retry runs again (the answer was not one to keep). */
    async release(s: IdempotencyScope, token: string): Promise<void> {
      await db.deleteFrom('idempotency_keys').where(heldBy(s, token)).where('state', '=', 'running').execute();
    },

    /** Deletes at most `limit` expired rows, oldest first (index on expires_at): bounded work per call. */
    async purgeExpired(now: string, limit: number): Promise<number> {
      const res = await sql`
        delete from idempotency_keys where (user_id, route, idem_key) in (
          select user_id, route, idem_key from idempotency_keys where expires_at <= ${now} order by expires_at limit ${limit}
        )`.execute(db);
      return Number(res.numAffectedRows ?? 0);
    },
  };
}

export type IdempotencyRepo = ReturnType<typeof createIdempotencyRepo>;
