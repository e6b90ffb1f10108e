import { sql } from 'kysely';
import type { DatabaseHandle, Db, Executor } from '../core/db/index.js';
import type { WebhookDeliveryRow, WebhookRow } from '../core/db/schema.js';

export async function insertWebhook(db: Executor, row: WebhookRow): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

export async function findOwnWebhook(db: Executor, id: string, userId: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export async function listOwnWebhooks(db: Executor, userId: string): Promise<WebhookRow[]> {
  return db.selectFrom('webhooks').selectAll().where('user_id', '=', userId).orderBy('id').limit(1000).execute();
}

export async function deleteOwnWebhook(db: Executor, id: string, userId: string): Promise<boolean> {
  const res = await db.deleteFrom('webhooks').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

/** One page of a subscription's deliveries, newest first (`limit + 1` rows). */
export async function listDeliveries(db: Executor, webhookId: string, limit: number, before?: string): Promise<WebhookDeliveryRow[]> {
  let q = db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId);
  if (before !== undefined) q = q.where('id', '<', before);
  return q.orderBy('id', 'desc').limit(limit).execute();
}

export async function insertDelivery(db: Executor, row: Omit<WebhookDeliveryRow, 'attempts'> & { attempts?: number }): Promise<void> {
  await db.insertInto('webhook_deliveries').values(row).execute();
}

/** Queues a delivery again at once (a retry asked for by its owner); not while an attempt is running. */
export async function requeueDelivery(db: Executor, q: { id: string; webhookId: string; now: string }): Promise<WebhookDeliveryRow | undefined> {
  return db
    .updateTable('webhook_deliveries')
    .set({ status: 'queued', next_attempt_at: q.now, updated_at: q.now, lease_owner: null, lease_expires_at: null })
    .where('id', '=', q.id)
    .where('webhook_id', '=', q.webhookId)
    .where('status', '!=', 'running')
    .returningAll()
    .executeTakeFirst();
}

export async function findDelivery(db: Executor, id: string, webhookId: string): Promise<WebhookDeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).where('webhook_id', '=', webhookId).executeTakeFirst();
}

export async function enableWebhook(db: Executor, id: string, now: string): Promise<void> {
  await db.updateTable('webhooks').set({ disabled_at: null, disabled_reason: null, consecutive_failures: 0, updated_at: now }).where('id', '=', id).execute();
}

export type ClaimedDelivery = WebhookDeliveryRow & { url: string; secret: string; user_id: string };

/**
 * Leases up to `limit` due deliveries of enabled subscriptions to `owner` and counts the attempt,
 * in one statement (as the review queue does: a materialized CTE with FOR UPDATE SKIP LOCKED on
 * PostgreSQL; SQLite's single writer makes the plain subquery atomic). A running delivery whose
 * lease expired (its process died) is claimable again.
 */
export async function claimDeliveries(
  db: Executor,
  dialect: DatabaseHandle['dialect'],
  q: { owner: string; now: string; leaseUntil: string; limit: number },
): Promise<ClaimedDelivery[]> {
  const lease = { status: 'running' as const, lease_owner: q.owner, lease_expires_at: q.leaseUntil, attempts: sql<number>`attempts + 1`, updated_at: q.now };
  // Two statements, each a range of the (status, next_attempt_at) index: due queued rows first, then
  // (with room left) rows whose lease expired. One OR over both would scan the whole queue.
  const pick = (from: Executor, kind: 'queued' | 'expired', limit: number) =>
    from
      .selectFrom('webhook_deliveries as d')
      .select('d.id')
      .where((eb) =>
        kind === 'queued'
          ? eb.and([eb('d.status', '=', 'queued'), eb('d.next_attempt_at', '<=', q.now)])
          : eb.and([eb('d.status', '=', 'running'), eb('d.lease_expires_at', '<', q.now)]),
      )
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('webhooks as w')
            .select(sql`1`.as('one'))
            .whereRef('w.id', '=', 'd.webhook_id')
            .where('w.disabled_at', 'is', null),
        ),
      )
      .orderBy(kind === 'queued' ? 'd.next_attempt_at' : 'd.lease_expires_at')
      .limit(limit);
  const claim = async (kind: 'queued' | 'expired', limit: number): Promise<string[]> => {
    if (dialect === 'postgres') {
      const rows = await db
        .with(
          (cte) => cte('picked').materialized(),
          (qb) =>
            pick(qb as unknown as Executor, kind, limit)
              .forUpdate()
              .skipLocked(),
        )
        .updateTable('webhook_deliveries')
        .from('picked')
        .set(lease)
        .whereRef('webhook_deliveries.id', '=', 'picked.id')
        .returning('webhook_deliveries.id')
        .execute();
      return rows.map((r) => r.id);
    }
    const rows = await db
      .updateTable('webhook_deliveries')
      .set(lease)
      .where('id', 'in', pick(db, kind, limit))
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  };
  const ids = await claim('queued', q.limit);
  if (ids.length < q.limit) ids.push(...(await claim('expired', q.limit - ids.length)));
  if (ids.length === 0) return [];
  return db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
    .selectAll('webhook_deliveries')
    .select(['webhooks.url', 'webhooks.secret', 'webhooks.user_id'])
    .where('webhook_deliveries.id', 'in', ids)
    .where('webhook_deliveries.lease_owner', '=', q.owner)
    .execute();
}

export interface AttemptOutcome {
  id: string;
  owner: string;
  now: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** Records a delivered attempt and resets the subscription's failure run. */
export async function finishDelivered(db: Db, o: AttemptOutcome & { webhookId: string }): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const res = await tx
      .updateTable('webhook_deliveries')
      .set({
        status: 'delivered',
        delivered_at: o.now,
        next_attempt_at: null,
        lease_owner: null,
        lease_expires_at: null,
        last_status_code: o.statusCode,
        last_duration_ms: o.durationMs,
        last_error: null,
        updated_at: o.now,
      })
      .where('id', '=', o.id)
      .where('lease_owner', '=', o.owner)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1) {
      await tx.updateTable('webhooks').set({ consecutive_failures: 0 }).where('id', '=', o.webhookId).where('consecutive_failures', '>', 0).execute();
    }
  });
}

/**
 * Records a failed attempt: queued again at `nextAttemptAt`, or failed for good when that is null.
 * Counts the subscription's failure run and disables it when the run reaches `disableAfter`;
 * returns the subscription when this attempt disabled it (its owner is then e-mailed).
 */
export async function finishFailedAttempt(
  db: Db,
  o: AttemptOutcome & { webhookId: string; nextAttemptAt: string | null; disableAfter: number },
): Promise<{ disabled: WebhookRow | null }> {
  return db.transaction().execute(async (tx) => {
    const res = await tx
      .updateTable('webhook_deliveries')
      .set({
        status: o.nextAttemptAt === null ? 'failed' : 'queued',
        next_attempt_at: o.nextAttemptAt,
        lease_owner: null,
        lease_expires_at: null,
        last_status_code: o.statusCode,
        last_duration_ms: o.durationMs,
        last_error: o.error,
        updated_at: o.now,
      })
      .where('id', '=', o.id)
      .where('lease_owner', '=', o.owner)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return { disabled: null };
    await tx
      .updateTable('webhooks')
      .set({ consecutive_failures: sql<number>`consecutive_failures + 1` })
      .where('id', '=', o.webhookId)
      .execute();
    const disabled = await tx
      .updateTable('webhooks')
      .set({
        disabled_at: o.now,
        disabled_reason: `${o.disableAfter} consecutive failed delivery attempts; last: ${o.error ?? ''}`.slice(0, 500),
        updated_at: o.now,
      })
      .where('id', '=', o.webhookId)
      .where('disabled_at', 'is', null)
      .where('consecutive_failures', '>=', o.disableAfter)
      .returningAll()
      .executeTakeFirst();
    return { disabled: disabled ?? null };
  });
}

export async function ownerEmail(db: Executor, userId: string): Promise<string | undefined> {
  return (await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())?.email;
}
