import { sql } from 'kysely';
import type { DatabaseHandle, Executor } from '../core/db/index.js';
import type { MailQueueRow } from '../core/db/schema.js';

/**
 * Leases up to `limit` due mails to `owner` and counts the attempt, in one statement per range (as
 * the webhook queue does: FOR UPDATE SKIP LOCKED on PostgreSQL; SQLite's single writer makes the
 * plain subquery atomic). A running mail whose lease expired (its process died mid-send) is
 * claimable again: at least once, never lost.
 */
export async function claimMails(
  db: Executor,
  dialect: DatabaseHandle['dialect'],
  q: { owner: string; now: string; leaseUntil: string; limit: number },
): Promise<MailQueueRow[]> {
  const lease = { status: 'running' as const, lease_owner: q.owner, lease_expires_at: q.leaseUntil, attempts: sql<number>`attempts + 1`, updated_at: q.now };
  const pick = (from: Executor, kind: 'queued' | 'expired', limit: number) =>
    from
      .selectFrom('mail_queue as m')
      .select('m.id')
      .where((eb) =>
        kind === 'queued'
          ? eb.and([eb('m.status', '=', 'queued'), eb('m.next_attempt_at', '<=', q.now)])
          : eb.and([eb('m.status', '=', 'running'), eb('m.lease_expires_at', '<', q.now)]),
      )
      .orderBy(kind === 'queued' ? 'm.next_attempt_at' : 'm.lease_expires_at')
      .orderBy('m.id')
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
        .updateTable('mail_queue')
        .from('picked')
        .set(lease)
        .whereRef('mail_queue.id', '=', 'picked.id')
        .returning('mail_queue.id')
        .execute();
      return rows.map((r) => r.id);
    }
    const rows = await db
      .updateTable('mail_queue')
      .set(lease)
      .where('id', 'in', pick(db, kind, limit))
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  };
  const ids = await claim('queued', q.limit);
  if (ids.length < q.limit) ids.push(...(await claim('expired', q.limit - ids.length)));
  if (ids.length === 0) return [];
  return db.selectFrom('mail_queue').selectAll().where('id', 'in', ids).where('lease_owner', '=', q.owner).orderBy('id').execute();
}

/** Marks a leased mail sent (only while this owner still holds it). */
export async function finishSent(db: Executor, o: { id: string; owner: string; now: string }): Promise<void> {
  await db
    .updateTable('mail_queue')
    .set({ status: 'sent', sent_at: o.now, next_attempt_at: null, lease_owner: null, lease_expires_at: null, last_error: null, updated_at: o.now })
    .where('id', '=', o.id)
    .where('lease_owner', '=', o.owner)
    .execute();
}

/** Records a failed attempt: queued again at `nextAttemptAt`, or failed for good when that is null. */
export async function finishFailed(
  db: Executor,
  o: { id: string; owner: string; now: string; error: string; nextAttemptAt: string | null; giveUpAt: string },
): Promise<void> {
  await db
    .updateTable('mail_queue')
    .set({
      status: o.nextAttemptAt === null ? 'failed' : 'queued',
      next_attempt_at: o.nextAttemptAt,
      give_up_at: o.giveUpAt,
      lease_owner: null,
      lease_expires_at: null,
      last_error: o.error.slice(0, 500),
      updated_at: o.now,
    })
    .where('id', '=', o.id)
    .where('lease_owner', '=', o.owner)
    .execute();
}

/** Counts of the queue by status (health, tests, the operator). */
export async function queueCounts(db: Executor): Promise<Record<MailQueueRow['status'], number>> {
  const rows = await db
    .selectFrom('mail_queue')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  const out = { queued: 0, running: 0, sent: 0, failed: 0 };
  for (const r of rows) out[r.status] = Number(r.n);
  return out;
}
