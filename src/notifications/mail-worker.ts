import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '../core/clock.js';
import type { MailQueueConfig } from '../core/config.js';
import type { DatabaseHandle, Db } from '../core/db/index.js';
import type { MailQueueRow } from '../core/db/schema.js';
import type { Mailer } from '../core/mailer.js';
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

/**
 * The delay before retry number `attempts` (1 = after the first failure): exponential from
 * `baseMs`, at most an hour, with up to 20% jitter so a recovering SMTP server is not hit by the
 * whole queue at once.
 */
export function mailRetryDelayMs(attempts: number, baseMs: number, random: () => number = Math.random): number {
  const exp = Math.min(baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 20), 3_600_000);
  return Math.round(exp * (1 + 0.2 * random()));
}

/** An SMTP error's gist, without the address or the message: for the log and the row. */
function describe(err: unknown): string {
  const e = err as { code?: unknown; responseCode?: unknown; command?: unknown; message?: unknown };
  const parts = [e.code, e.responseCode, e.command].filter((v) => v !== undefined && v !== null).map(String);
  return parts.length ? parts.join(' ') : 'send failed';
}

/**
 * Sends queued notification mails: at most MAIL_CONCURRENCY in flight per process, each leased in
 * the database (MAIL_LEASE_MS) so a process that dies mid-send leaves at most its in-flight mails to
 * be sent again once their lease expires (at least once, never lost). A poll every MAIL_POLL_MS
 * finds new and due mails; `pump()` (called on MAIL_QUEUED after a commit) finds them at once.
 * A failed send is retried with exponential backoff and jitter until MAIL_GIVE_UP_HOURS after the
 * first failure, then marked failed. Logs never hold the address or the message.
 */
export function createMailWorker(deps: MailWorkerDeps) {
  const { db, dialect, clock, config } = deps;
  const random = deps.random ?? Math.random;
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  let claims = 0;
  let active = 0;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let pumping: Promise<void> | null = null;
  let again = false;
  const inflight = new Set<Promise<void>>();

  function pump(): Promise<void> {
    if (closed) return Promise.resolve();
    if (pumping) {
      again = true;
      return pumping;
    }
    const pass = (async () => {
      do {
        again = false;
        const free = config.concurrency - active;
        if (free <= 0 || closed) return;
        const now = clock.now();
        const token = `${owner}#${(++claims).toString(36)}`;
        const jobs = await repo.claimMails(db, dialect, { owner: token, now: iso(now), leaseUntil: iso(now.getTime() + config.leaseMs), limit: free });
        for (const job of jobs) launch(job);
        if (jobs.length === free) again = true;
      } while (again && !closed);
    })();
    pumping = pass;
    const clear = () => {
      if (pumping === pass) pumping = null;
    };
    pass.then(clear, clear);
    return pass;
  }

  function launch(job: MailQueueRow) {
    active++;
    const p = send(job)
      .catch((err: unknown) =>
        deps.log().error({ reason: describe(err), mail: job.id }, 'notification mail crashed; its lease will expire and it is sent again'),
      )
      .finally(() => {
        active--;
        inflight.delete(p);
        if (!closed) pump().catch((err: unknown) => deps.log().error({ err }, 'mail pump failed'));
      });
    inflight.add(p);
  }

  async function send(job: MailQueueRow): Promise<void> {
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
      const next = now.getTime() + mailRetryDelayMs(job.attempts, config.retryBaseMs, random);
      const nextAttemptAt = next > Date.parse(giveUpAt) ? null : iso(next);
      const reason = describe(err);
      await repo.finishFailed(db, { id: job.id, owner: job.lease_owner!, now: iso(now), error: reason, nextAttemptAt, giveUpAt });
      if (nextAttemptAt === null)
        deps.log().error({ mail: job.id, kind: job.kind, attempts: job.attempts, reason }, 'notification mail failed for good; no more retries');
      else
        deps
          .log()
          .warn({ mail: job.id, kind: job.kind, attempts: job.attempts, reason, next_attempt_at: nextAttemptAt }, 'notification mail not sent; retrying later');
      return;
    }
    await repo.finishSent(db, { id: job.id, owner: job.lease_owner!, now: iso(clock.now()) });
  }

  function start() {
    if (timer || closed) return;
    timer = setInterval(() => {
      pump().catch((err: unknown) => deps.log().warn({ err }, 'mail poll failed'));
    }, config.pollMs);
    timer.unref();
    pump().catch((err: unknown) => deps.log().warn({ err }, 'mail poll failed'));
  }

  async function whenIdle(): Promise<void> {
    while (inflight.size > 0 || pumping) await Promise.allSettled([...inflight, ...(pumping ? [pumping] : [])]);
  }

  /** Stops claiming and waits for the mails in flight. */
  async function close(): Promise<void> {
    closed = true;
    if (timer) clearInterval(timer);
    timer = null;
    await whenIdle();
  }

  return { start, pump, whenIdle, close };
}

export type MailWorker = ReturnType<typeof createMailWorker>;
