import { randomUUID } from 'node:crypto';
import type { Db } from '../core/db/index.js';
import { NOTIFIER_RESYNC, type Notifier } from '../core/notifier.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhook-events.js';
import { enabledSubscriptionScopes } from './webhook-events-repo.js';

/**
 * Published when subscriptions change. `+<event id or *> <type,type,…> <nonce>` announces a subscription
 * that can now receive (created, or enabled again): every process adds it to its index at once, on
 * receipt. An empty message says one may have gone (deleted, disabled): processes reload their
 * index in the background, and until then keep the old one, which can only say "maybe" too often.
 */
export const WEBHOOKS_CHANGED = 'webhooks:changed';

/** The subset of the subscription row the index needs. */
export interface SubscriptionScope {
  event_id: string | null;
  /** `,type,type,` as stored. */
  events: string;
}

/** How long a subscription change waits for its own message to come back through the notifier. */
const ECHO_WAIT_MS = 2000;
/** After a failed load (database down), the next attempt waits at least this long. */
const RETRY_MS = 1000;

/**
 * Which webhook kinds anyone subscribes to, per event (or to all events), held in memory: a write
 * whose occurrence no subscription can match queues no delivery and runs no query for it (the
 * delivery queue's INSERT … SELECT was a fifth of the write path's CPU with nobody subscribed).
 *
 * The index may over-approximate (say "maybe" where the query would find nobody: a subscription of
 * another user who may not receive this occurrence, one deleted a moment ago), never the other way:
 * - until it is loaded, after a notifier reconnection (messages may have been lost), and while a
 *   cross-process notifier is cut off, it answers "maybe" to everything;
 * - a new or re-enabled subscription is announced through the notifier before the request that
 *   made it is answered (the change waits for its own message to come back, which in Redis and
 *   PostgreSQL means the message has been handed to every listening process), and every process
 *   adds it to its index synchronously on receipt, so a write that starts after the subscription's
 *   answer finds it;
 * - removals only trigger a reload.
 * Without a cross-process notifier (SQLite without Redis) other processes' subscriptions are seen
 * at the next timed reload (WEBHOOK_INDEX_RELOAD_MS): several processes on one SQLite file need
 * REDIS_URL for webhooks to be exact, as for the caches (operator.md).
 */
export function createWebhookSubscribers(deps: { db: Db; notifier: Notifier; reloadMs: number }) {
  const { db, notifier } = deps;
  // Without a cross-process notifier, other processes' changes are read on a timer, never in a request.
  const timer = !notifier.crossProcess && deps.reloadMs > 0 ? setInterval(() => void reload(), deps.reloadMs) : null;
  timer?.unref();
  /** type → event ids ('*': every event) with at least one enabled subscription. */
  let index: Map<string, Set<string>> | null = null;
  let loading: Promise<void> | null = null;
  let failedAt = 0;
  /** Announcements heard during a load: the load may have read the table before their rows committed. */
  let pendingAdds: string[] = [];

  const unsubscribe = [
    notifier.subscribe(WEBHOOKS_CHANGED, (message) => {
      if (message.startsWith('+')) {
        if (index) add(index, message);
        if (loading) pendingAdds.push(message);
      } else {
        void reload();
      }
    }),
    notifier.subscribe(NOTIFIER_RESYNC, () => {
      index = null;
      void reload();
    }),
  ];

  function add(into: Map<string, Set<string>>, message: string): void {
    const [scope, types] = message.slice(1).split(' ');
    for (const type of (types ?? '').split(',')) {
      if (!type) continue;
      let set = into.get(type);
      if (!set) into.set(type, (set = new Set()));
      set.add(scope ?? '*');
    }
  }

  function reload(): Promise<void> {
    if (loading) {
      // A change arrived during a load: load again once this one is done.
      return loading.then(() => reload());
    }
    pendingAdds = [];
    const run = (async () => {
      try {
        const rows = await enabledSubscriptionScopes(db);
        const next = new Map<string, Set<string>>();
        for (const r of rows) add(next, announcement(r));
        for (const m of pendingAdds) add(next, m);
        index = next;
      } catch {
        // The database is away: answer "maybe" until a later load succeeds.
        index = null;
        failedAt = Date.now();
      } finally {
        loading = null;
        pendingAdds = [];
      }
    })();
    loading = run;
    return run;
  }

  /**
   * Whether a subscription may exist that receives an occurrence of `type` in `eventId`; false only
   * when none can. Costs no query: a stale or missing index answers true and starts a reload.
   */
  function mayReceive(type: WebhookEventType, eventId: string): boolean {
    if (!notifier.connected()) return true;
    if (!index) {
      if (!loading && Date.now() - failedAt >= RETRY_MS) void reload();
      return true;
    }
    const scopes = index.get(type);
    return scopes !== undefined && (scopes.has('*') || scopes.has(eventId));
  }

  /** Announces a subscription that can receive from now on; resolves once other processes have been told. */
  async function announceAdded(scope: SubscriptionScope): Promise<void> {
    // A nonce makes the message our own: another process's message coming back first proves nothing.
    const message = `${announcement(scope)} ${randomUUID()}`;
    if (!notifier.crossProcess) return void notifier.publish(WEBHOOKS_CHANGED, message);
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stop();
        resolve();
      };
      const stop = notifier.subscribe(WEBHOOKS_CHANGED, (m) => m === message && done());
      // Cut off from the notifier: no index is trusted anywhere meanwhile (mayReceive), so no wait.
      const timer = setTimeout(done, notifier.connected() ? ECHO_WAIT_MS : 0);
      notifier.publish(WEBHOOKS_CHANGED, message);
    });
  }

  /** A subscription was deleted or disabled: every process reloads (until then it may say "maybe" for it). */
  function announceRemoved(): void {
    notifier.publish(WEBHOOKS_CHANGED, '');
  }

  return {
    mayReceive,
    announceAdded,
    announceRemoved,
    /** Loads the index now (the server does at start; otherwise the first write starts it). */
    load: () => reload(),
    close: () => {
      if (timer) clearInterval(timer);
      unsubscribe.forEach((u) => u());
    },
  };
}

function announcement(scope: SubscriptionScope): string {
  const types = scope.events.split(',').filter((t) => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(t));
  return `+${scope.event_id ?? '*'} ${types.join(',')}`;
}

export type WebhookSubscribers = ReturnType<typeof createWebhookSubscribers>;
