import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { DatabaseHandle, Db } from '../core/db/index.js';
import type { WebhookRow } from '../core/db/schema.js';
import { AppError } from '../core/errors.js';
import { escapeHtml } from '../core/html.js';
import { decodeCursor, encodeCursor, takePage } from '../core/http/pagination.js';
import { newId } from '../core/ids.js';
import type { Mailer } from '../core/mailer.js';
import type { Principal } from '../core/principal.js';
import { iso } from '../core/time.js';
import type { EventsService } from '../events/events-service.js';
import { newWebhookSecret, urlProblem } from './webhook-delivery.js';
import { WEBHOOK_TEST_TYPE, webhookBody, type WebhookEventType } from './webhook-events.js';
import { createWebhookWorker, type WebhookLog } from './webhook-worker.js';
import type { WebhookSubscribers } from './webhook-subscribers.js';
import * as repo from './webhooks-repo.js';

export interface WebhooksServiceDeps {
  db: Db;
  dialect: DatabaseHandle['dialect'];
  clock: Clock;
  config: Pick<Config, 'webhooks' | 'publicUrl' | 'siteName'>;
  events: EventsService;
  mailer: Mailer;
  log: () => WebhookLog;
  /** The in-memory index of who subscribes to what: told of every change here. */
  subscribers: WebhookSubscribers;
}

/**
 * Webhook subscriptions and their deliveries. Everything is the caller's own: another account's
 * subscription answers webhook_not_found, as if it did not exist.
 */
export function createWebhooksService(deps: WebhooksServiceDeps) {
  const { db, clock, config, events, mailer } = deps;
  const allowLoopback = config.webhooks.allowLoopback;

  const worker = createWebhookWorker({
    db,
    dialect: deps.dialect,
    clock,
    config: config.webhooks,
    log: deps.log,
    userAgent: `${config.siteName.slice(0, 60)} webhooks (${config.publicUrl})`,
    onDisabled: async (w) => {
      const to = await repo.ownerEmail(db, w.user_id);
      if (!to) return;
      const lines = [
        `Your webhook ${w.id} (${w.url}) was disabled after ${config.webhooks.disableAfter} consecutive failed delivery attempts.`,
        `Reason: ${w.disabled_reason ?? 'unknown'}`,
        `Its undelivered messages are kept. Fix the endpoint, then retry a delivery (POST ${config.publicUrl}/api/v1/webhooks/${w.id}/deliveries/{delivery_id}/retry): that enables it again.`,
      ];
      await mailer.send({
        to,
        subject: `Webhook disabled: ${w.url}`,
        text: lines.join('\n\n') + '\n',
        html: lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n'),
        brand: true,
      });
    },
  });

  /** Delivers new work at once rather than at the next poll, when this process delivers at all. */
  function kick() {
    if (config.webhooks.workersEnabled) worker.pump().catch((err: unknown) => deps.log().warn({ err }, 'webhook pump failed'));
  }

  async function own(who: Principal, id: string): Promise<WebhookRow> {
    const w = await repo.findOwnWebhook(db, id, who.userId);
    if (!w) throw new AppError('webhook_not_found', `no webhook ${id}`);
    return w;
  }

  async function create(who: Principal, input: { url: string; events: WebhookEventType[]; event_id?: string | undefined }) {
    const url = input.url.trim();
    // Literal addresses and loopback names are judged now; other names when each delivery resolves them.
    const problem = urlProblem(url, allowLoopback);
    if (problem) throw new AppError('webhook_url_refused', `url ${problem}`, { errors: [{ field: 'url', message: problem }] });
    // Subscribing to one event needs it to be readable: a draft of someone else's is not found.
    const eventId = input.event_id !== undefined ? (await events.getVisible(input.event_id, who)).id : null;
    const stamp = iso(clock.now());
    const row: WebhookRow = {
      id: newId('whk'),
      user_id: who.userId,
      url,
      events: `,${[...new Set(input.events)].join(',')},`,
      event_id: eventId,
      secret: newWebhookSecret(),
      consecutive_failures: 0,
      disabled_at: null,
      disabled_reason: null,
      created_at: stamp,
      updated_at: stamp,
    };
    await repo.insertWebhook(db, row);
    // Answered only once every process's index knows it: a write after this answer queues for it.
    await deps.subscribers.announceAdded(row);
    return row;
  }

  async function list(who: Principal) {
    return repo.listOwnWebhooks(db, who.userId);
  }

  async function remove(who: Principal, id: string) {
    if (!(await repo.deleteOwnWebhook(db, id, who.userId))) throw new AppError('webhook_not_found', `no webhook ${id}`);
    deps.subscribers.announceRemoved();
  }

  /** Queues a `webhook.test` message to this subscription (only). */
  async function test(who: Principal, id: string) {
    const w = await own(who, id);
    const stamp = iso(clock.now());
    const delivery = {
      id: `${newId('msg')}_${w.id.slice(4)}`,
      webhook_id: w.id,
      event_type: WEBHOOK_TEST_TYPE,
      payload: webhookBody(WEBHOOK_TEST_TYPE, stamp, { webhook_id: w.id }),
      status: 'queued' as const,
      attempts: 0,
      next_attempt_at: stamp,
      lease_owner: null,
      lease_expires_at: null,
      last_status_code: null,
      last_duration_ms: null,
      last_error: null,
      created_at: stamp,
      updated_at: stamp,
      delivered_at: null,
    };
    await repo.insertDelivery(db, delivery);
    kick();
    return delivery;
  }

  async function deliveries(who: Principal, id: string, q: { limit: number; cursor?: string | undefined }) {
    const w = await own(who, id);
    const before = q.cursor !== undefined ? decodeCursor(q.cursor, 'webhook-deliveries', w.id, ['text'])[0] : undefined;
    const rows = await repo.listDeliveries(db, w.id, q.limit + 1, before);
    const page = takePage(rows, q.limit, (r) => [r.id]);
    return { rows: page.items, nextCursor: page.nextKey ? encodeCursor('webhook-deliveries', w.id, page.nextKey) : null };
  }

  /** Queues a delivery again now; also enables its subscription again if a failure run had disabled it. */
  async function retry(who: Principal, id: string, deliveryId: string) {
    const w = await own(who, id);
    const now = iso(clock.now());
    const requeued = await repo.requeueDelivery(db, { id: deliveryId, webhookId: w.id, now });
    const current = requeued ?? (await repo.findDelivery(db, deliveryId, w.id));
    if (!current) throw new AppError('webhook_delivery_not_found', `no delivery ${deliveryId} of webhook ${w.id}`);
    if (w.disabled_at !== null) {
      await repo.enableWebhook(db, w.id, now);
      await deps.subscribers.announceAdded(w);
    }
    kick();
    return current;
  }

  return {
    create,
    list,
    remove,
    test,
    deliveries,
    retry,
    /** Starts this process's delivery worker (WEBHOOKS_WORKERS). */
    start: () => worker.start(),
    /** Claims due deliveries now (tests, after moving the clock). */
    pump: () => worker.pump(),
    whenIdle: () => worker.whenIdle(),
    stop: () => worker.close(),
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
