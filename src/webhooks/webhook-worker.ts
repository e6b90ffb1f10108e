import type { Clock } from '../core/clock.js';
import type { WebhooksConfig } from '../core/config.js';
import type { DatabaseHandle, Db } from '../core/db/index.js';
import type { WebhookRow } from '../core/db/schema.js';
import { createJobWorker, nextAttemptAt } from '../core/job-queue.js';
import type { LoopLog } from '../core/outage-log.js';
import { iso } from '../core/time.js';
import { sendWebhook, WEBHOOK_RETRY_POLICY } from './webhook-delivery.js';
import * as repo from './webhooks-repo.js';

export type WebhookLog = LoopLog;

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
 * Delivers queued webhook messages, a configuration of the core job queue (core/job-queue.ts) over
 * webhook_deliveries: at most WEBHOOKS_CONCURRENCY in flight per process, each leased
 * in the database (WEBHOOKS_LEASE_MS) so a process that dies mid-delivery hands it to another (or
 * to itself after a restart) once the lease expires: at least once, never lost. A poll every
 * WEBHOOKS_POLL_MS finds new and due messages; a finished delivery refills its slot at once.
 * Stored instants come from the injected clock (tests drive the backoff with it); the request
 * timeout and the poll are real timers.
 */
export function createWebhookWorker(deps: WebhookWorkerDeps) {
  const { db, dialect, clock, config } = deps;
  const random = deps.random ?? Math.random;

  async function deliver(job: repo.ClaimedDelivery, owner: string): Promise<void> {
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
      owner,
      now: iso(now),
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      webhookId: job.webhook_id,
    };
    if (result.error === null) {
      await repo.finishDelivered(db, { ...base, error: null });
      return;
    }
    const next = nextAttemptAt(WEBHOOK_RETRY_POLICY, job.attempts, { nowMs: now.getTime(), random });
    const { disabled } = await repo.finishFailedAttempt(db, {
      ...base,
      error: result.error,
      nextAttemptAt: next === null ? null : iso(next),
      disableAfter: config.disableAfter,
    });
    if (disabled)
      await deps
        .onDisabled(disabled)
        .catch((err: unknown) => deps.log().warn({ err, webhook: disabled.id }, 'could not e-mail the owner of a disabled webhook'));
  }

  const worker = createJobWorker<repo.ClaimedDelivery>({
    component: 'webhook deliveries',
    log: deps.log,
    pollMs: config.pollMs,
    concurrency: config.concurrency,
    takeOverOnRefill: true,
    claim: ({ owner, limit }) => {
      const now = clock.now();
      return repo.claimDeliveries(db, dialect, { owner, now: iso(now), leaseUntil: iso(now.getTime() + config.leaseMs), limit });
    },
    run: (job, ctx) => deliver(job, ctx.owner),
  });

  /** close(): stops claiming and waits for the deliveries in flight (each ends within its timeout). */
  return { start: worker.start, pump: () => worker.pump(), wake: worker.wake, whenIdle: worker.whenIdle, close: worker.close };
}

export type WebhookWorker = ReturnType<typeof createWebhookWorker>;
