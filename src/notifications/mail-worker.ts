import type { Clock } from '../core/clock.js';
import type { MailQueueConfig } from '../core/config.js';
import type { DatabaseHandle, Db } from '../core/db/index.js';
import type { MailQueueRow } from '../core/db/schema.js';
import type { Mailer } from '../core/mailer.js';
import { createJobWorker, nextAttemptAt, retryDelayMs, type RetryPolicy } from '../core/job-queue.js';
import { iso } from '../core/time.js';
import * as repo from './mail-queue-repo.js';
import { fillMarks, fillSubject } from './notification-mail.js';

export interface MailLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface MailWorkerDeps {
  db: Db;
  dialect: DatabaseHandle['dialect'];
  clock: Clock;
  config: MailQueueConfig;
  mailer: Mailer;
  publicUrl: string;
  siteName: string;
  /** The site logo's absolute URL (SITE_LOGO_URL / SITE_LOGO_FILE), shown atop HTML mails; null: none. */
  siteLogo?: string | null;
  log: () => MailLog;
  random?: () => number;
}

/** Mail's retry policy: exponential from MAIL_RETRY_BASE_MS, at most an hour, with up to 20% jitter (a recovering SMTP server is not hit by the whole queue at once); given up MAIL_GIVE_UP_HOURS after the first failure. */
export const mailRetryPolicy = (baseMs: number): RetryPolicy => ({ backoff: { kind: 'exponential', baseMs, maxMs: 3_600_000 }, jitter: { up: 0.2 } });

/** The delay before retry number `attempts` (1 = after the first failure); see mailRetryPolicy. */
export function mailRetryDelayMs(attempts: number, baseMs: number, random: () => number = Math.random): number {
  return retryDelayMs(mailRetryPolicy(baseMs), attempts, { random })!;
}

/** An SMTP error's gist, without the address or the message: for the log and the row. */
function describe(err: unknown): string {
  const e = err as { code?: unknown; responseCode?: unknown; command?: unknown; message?: unknown };
  const parts = [e.code, e.responseCode, e.command].filter((v) => v !== undefined && v !== null).map(String);
  return parts.length ? parts.join(' ') : 'send failed';
}

/**
 * Sends queued notification mails: a configuration of the core job queue (core/job-queue.ts) over
 * mail_queue. At most MAIL_CONCURRENCY in flight per process, each leased in the database
 * (MAIL_LEASE_MS) so a process that dies mid-send leaves at most its in-flight mails to be sent again
 * once their lease expires (at least once, never lost). A poll every MAIL_POLL_MS finds new and due
 * mails; `pump()` (called on MAIL_QUEUED after a commit) finds them at once. A failed send is retried
 * with exponential backoff and jitter until MAIL_GIVE_UP_HOURS after the first failure, then marked
 * failed. Logs never hold the address or the message.
 */
export function createMailWorker(deps: MailWorkerDeps) {
  const { db, dialect, clock, config } = deps;
  const random = deps.random ?? Math.random;
  const policy = mailRetryPolicy(config.retryBaseMs);

  async function send(job: MailQueueRow, owner: string): Promise<void> {
    const fill = (text: string, html: boolean) => fillMarks(text, deps.publicUrl, deps.siteName, html, deps.siteLogo ?? null);
    try {
      await deps.mailer.send({
        to: job.to_address,
        subject: fillSubject(job.subject, deps.siteName),
        text: fill(job.text_body, false),
        html: fill(job.html_body, true),
      });
    } catch (err) {
      const now = clock.now();
      const giveUpAt = job.give_up_at ?? iso(now.getTime() + config.giveUpHours * 3_600_000);
      const next = nextAttemptAt(policy, job.attempts, { nowMs: now.getTime(), giveUpAtMs: Date.parse(giveUpAt), random });
      const nextAttempt = next === null ? null : iso(next);
      const reason = describe(err);
      await repo.finishFailed(db, { id: job.id, owner, now: iso(now), error: reason, nextAttemptAt: nextAttempt, giveUpAt });
      if (nextAttempt === null)
        deps.log().error({ mail: job.id, kind: job.kind, attempts: job.attempts, reason }, 'notification mail failed for good; no more retries');
      else
        deps
          .log()
          .warn({ mail: job.id, kind: job.kind, attempts: job.attempts, reason, next_attempt_at: nextAttempt }, 'notification mail not sent; retrying later');
      return;
    }
    await repo.finishSent(db, { id: job.id, owner, now: iso(clock.now()) });
  }

  const worker = createJobWorker<MailQueueRow>({
    component: 'mail queue',
    log: deps.log,
    pollMs: config.pollMs,
    concurrency: config.concurrency,
    takeOverOnRefill: true,
    claim: ({ owner, limit }) => {
      const now = clock.now();
      return repo.claimMails(db, dialect, { owner, now: iso(now), leaseUntil: iso(now.getTime() + config.leaseMs), limit });
    },
    run: (job, ctx) => send(job, ctx.owner),
  });

  /** Stops claiming and waits for the mails in flight. */
  return { start: worker.start, pump: () => worker.pump(), wake: worker.wake, whenIdle: worker.whenIdle, close: worker.close };
}

export type MailWorker = ReturnType<typeof createMailWorker>;
