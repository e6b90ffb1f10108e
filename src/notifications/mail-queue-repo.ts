import type { DatabaseHandle, Executor } from '../core/db/index.js';
import type { MailQueueRow } from '../core/db/schema.js';
import { claimJobs, finishLeased, type QueueTable } from '../core/job-queue.js';

/** The mail queue as the core job queue reads it: due mails first, then expired leases; first queued, first sent. */
export const MAIL_QUEUE: QueueTable = { table: 'mail_queue', first: 'queued', tieBreakById: true };

/**
 * Leases up to `limit` due mails to `owner` and counts the attempt (core/job-queue.ts claimJobs). A
 * running mail whose lease expired (its process died mid-send) is claimable again: at least once,
 * never lost.
 */
export async function claimMails(
  db: Executor,
  dialect: DatabaseHandle['dialect'],
  q: { owner: string; now: string; leaseUntil: string; limit: number },
): Promise<MailQueueRow[]> {
  const rows = await claimJobs<MailQueueRow>(db, dialect, MAIL_QUEUE, q);
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Marks a leased mail sent (only while this owner still holds it). */
export async function finishSent(db: Executor, o: { id: string; owner: string; now: string }): Promise<void> {
  await finishLeased(db, 'mail_queue', o, { status: 'sent', sent_at: o.now, next_attempt_at: null, last_error: null, updated_at: o.now });
}

/** Records a failed attempt: queued again at `nextAttemptAt`, or failed for good when that is null. */
export async function finishFailed(
  db: Executor,
  o: { id: string; owner: string; now: string; error: string; nextAttemptAt: string | null; giveUpAt: string },
): Promise<void> {
  await finishLeased(db, 'mail_queue', o, {
    status: o.nextAttemptAt === null ? 'failed' : 'queued',
    next_attempt_at: o.nextAttemptAt,
    give_up_at: o.giveUpAt,
    last_error: o.error.slice(0, 500),
    updated_at: o.now,
  });
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
