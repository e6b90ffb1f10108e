import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '../core/clock.js';
import type { WebhooksConfig } from '../core/config.js';
import type { DatabaseHandle, Db } from '../core/db/index.js';
import type { WebhookRow } from '../core/db/schema.js';
import { iso } from '../core/time.js';
import { nextRetryDelayMs, sendWebhook } from './webhook-delivery.js';
import * as repo from './webhooks-repo.js';

export interface WebhookLog {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface WebhookWorkerDeps {
  db: Db;
  dialect: DatabaseHandle['dialect'];
  clock: Clock;
  config: WebhooksConfig;
  log: () => WebhookLog;
  /** Told when a run of failures disables a subscription (its owner is e-mailed). */
  onDisabled: (webhook: WebhookRow) => Promise<void>;
  userAgent: string;
  random?: () => number;
}

/**
 * Delivers queued webhook messages: at most WEBHOOKS_CONCURRENCY in flight per process, each leased
 * in the database (WEBHOOKS_LEASE_MS) so a process that dies mid-delivery hands it to another (or
 * to itself after a restart) once the lease expires: at least once, never lost. A poll every
 * WEBHOOKS_POLL_MS finds new and due messages; a finished delivery refills its slot at once.
 * Stored instants come from the injected clock (tests drive the backoff with it); the request
 * timeout and the poll are real timers.
 */
export function createWebhookWorker(deps: WebhookWorkerDeps) {
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
        const jobs = await repo.claimDeliveries(db, dialect, { owner: token, now: iso(now), leaseUntil: iso(now.getTime() + config.leaseMs), limit: free });
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

  function launch(job: repo.ClaimedDelivery) {
    active++;
    const p = deliver(job)
      .catch((err: unknown) => deps.log().error({ err, delivery: job.id }, 'webhook delivery crashed; its lease will expire and it is tried again'))
      .finally(() => {
        active--;
        inflight.delete(p);
        if (!closed) pump().catch((err: unknown) => deps.log().error({ err }, 'webhook pump failed'));
      });
    inflight.add(p);
  }

  async function deliver(job: repo.ClaimedDelivery): Promise<void> {
    const sentAt = clock.now();
    const result = await sendWebhook({
      url: job.url,
      id: job.id,
      body: job.payload,
      secret: job.secret,
      timestampSeconds: Math.floor(sentAt.getTime() / 1000),
      timeoutMs: config.timeoutMs,
      allowLoopback: config.allowLoopback,
      userAgent: deps.userAgent,
    });
    const now = clock.now();
    const base = {
      id: job.id,
      owner: job.lease_owner!,
      now: iso(now),
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      webhookId: job.webhook_id,
    };
    if (result.error === null) {
      await repo.finishDelivered(db, { ...base, error: null });
      return;
    }
    const delay = nextRetryDelayMs(job.attempts, random);
    const { disabled } = await repo.finishFailedAttempt(db, {
      ...base,
      error: result.error,
      nextAttemptAt: delay === null ? null : iso(now.getTime() + delay),
      disableAfter: config.disableAfter,
    });
    if (disabled)
      await deps
        .onDisabled(disabled)
        .catch((err: unknown) => deps.log().warn({ err, webhook: disabled.id }, 'could not e-mail the owner of a disabled webhook'));
  }

  function start() {
    if (timer || closed) return;
    timer = setInterval(() => {
      pump().catch((err: unknown) => deps.log().warn({ err }, 'webhook poll failed'));
    }, config.pollMs);
    timer.unref();
    pump().catch((err: unknown) => deps.log().warn({ err }, 'webhook poll failed'));
  }

  async function whenIdle(): Promise<void> {
    while (inflight.size > 0 || pumping) await Promise.allSettled([...inflight, ...(pumping ? [pumping] : [])]);
  }

  /** Stops claiming and waits for the deliveries in flight (each ends within its timeout). */
  async function close(): Promise<void> {
    closed = true;
    if (timer) clearInterval(timer);
    timer = null;
    await whenIdle();
  }

  return { start, pump, whenIdle, close };
}

export type WebhookWorker = ReturnType<typeof createWebhookWorker>;
