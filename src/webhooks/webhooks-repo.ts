import { sql } from 'kysely';
import type { DatabaseHandle, Db, Executor } from '../core/db/index.js';
import type { WebhookDeliveryRow, WebhookRow } from '../core/db/schema.js';
import { claimJobs, finishLeased, type JobFilter, type QueueTable } from '../core/job-queue.js';

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

/** The delivery queue as the core job queue reads it: due deliveries first, then expired leases. */
export const DELIVERY_QUEUE: QueueTable = { table: 'webhook_deliveries', first: 'queued' };

/**
 * Leases up to `limit` due deliveries of enabled subscriptions to `owner` and counts the attempt
 * (core/job-queue.ts claimJobs), with each one's subscription URL and secret. A running delivery
 * whose lease expired (its process died) is claimable again.
 */
export async function claimDeliveries(
  db: Executor,
  dialect: DatabaseHandle['dialect'],
  q: { owner: string; now: string; leaseUntil: string; limit: number },
): Promise<ClaimedDelivery[]> {
  const enabled: JobFilter = (eb) =>
    eb.exists(
      eb
        .selectFrom('webhooks as w')
        .select(sql`1`.as('one'))
        .whereRef('w.id', '=', 'webhook_deliveries.webhook_id')
        .where('w.disabled_at', 'is', null),
    );
  const rows = await claimJobs<WebhookDeliveryRow>(db, dialect, DELIVERY_QUEUE, { ...q, where: enabled });
  if (rows.length === 0) return [];
  const hooks = await db
    .selectFrom('webhooks')
    .select(['id', 'url', 'secret', 'user_id'])
    .where('id', 'in', [...new Set(rows.map((r) => r.webhook_id))])
    .execute();
  const byId = new Map(hooks.map((h) => [h.id, h]));
  return rows.flatMap((r) => {
    const h = byId.get(r.webhook_id);
    return h ? [{ ...r, url: h.url, secret: h.secret, user_id: h.user_id }] : [];
  });
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
    const done = await finishLeased(tx, 'webhook_deliveries', o, {
      status: 'delivered',
      delivered_at: o.now,
      next_attempt_at: null,
      last_status_code: o.statusCode,
      last_duration_ms: o.durationMs,
      last_error: null,
      updated_at: o.now,
    });
    if (done) {
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
    const done = await finishLeased(tx, 'webhook_deliveries', o, {
      status: o.nextAttemptAt === null ? 'failed' : 'queued',
      next_attempt_at: o.nextAttemptAt,
      last_status_code: o.statusCode,
      last_duration_ms: o.durationMs,
      last_error: o.error,
      updated_at: o.now,
    });
    if (!done) return { disabled: null };
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
