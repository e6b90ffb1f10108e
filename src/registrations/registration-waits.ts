import type { Db } from '../core/db/index.js';
import { NOTIFIER_RESYNC, type Notifier } from '../core/notifier.js';

export const registrationChannel = (id: string) => `registration:${id}`;

/** How many registration ids one re-check query asks about (keeps the IN list and its parameters small). */
const CHUNK = 500;

interface Waiter {
  wake(): void;
}

/**
 * The `?wait=` long-polls of this process, keyed by registration. A waiter costs no query while it
 * waits: it is woken by the notifier (a decision in this process, or in another through Redis or
 * PostgreSQL LISTEN/NOTIFY). One shared timer every `recheckMs` asks the database, in one query per
 * 500 waited-on registrations, which of them are no longer pending; that bounds the delay when no
 * notifier reaches this process (SQLite files shared by processes, a message lost to a reconnect or
 * a crash between commit and publish). The timer runs only while someone waits.
 */
export function createRegistrationWaits(deps: { db: Db; notifier: Notifier; recheckMs: number }) {
  const { db, notifier, recheckMs } = deps;
  const byRegistration = new Map<string, { waiters: Set<Waiter>; unsubscribe: () => void }>();
  let timer: NodeJS.Timeout | null = null;
  let checking = false;

  const unsubscribeResync = notifier.subscribe(NOTIFIER_RESYNC, () => void recheck());

  function wakeAll(id: string): void {
    const entry = byRegistration.get(id);
    if (!entry) return;
    for (const w of [...entry.waiters]) w.wake();
  }

  /** The shared re-check: one query per chunk of waited-on registrations, whatever the number of waiters. */
  async function recheck(): Promise<void> {
    if (checking || byRegistration.size === 0) return;
    checking = true;
    try {
      const ids = [...byRegistration.keys()];
      for (let i = 0; i < ids.length; i += CHUNK) {
        const rows = await db
          .selectFrom('registrations')
          .select('id')
          .where('id', 'in', ids.slice(i, i + CHUNK))
          .where('status', '!=', 'pending')
          .execute();
        for (const r of rows) wakeAll(r.id);
      }
    } catch {
      // A failed check is retried at the next tick; waiters still time out on their own.
    } finally {
      checking = false;
    }
  }

  function startTimer(): void {
    if (timer || recheckMs <= 0) return;
    timer = setInterval(() => void recheck(), recheckMs);
    timer.unref();
  }

  function stopTimerIfIdle(): void {
    if (timer && byRegistration.size === 0) {
      clearInterval(timer);
      timer = null;
    }
  }

  /**
   * Resolves true when the registration may have changed (woken), false when `timeoutMs` passed or
   * `signal` aborted without news.
   */
  function wait(registrationId: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve(false);
      let entry = byRegistration.get(registrationId);
      if (!entry) {
        const created = {
          waiters: new Set<Waiter>(),
          unsubscribe: notifier.subscribe(registrationChannel(registrationId), () => wakeAll(registrationId)),
        };
        byRegistration.set(registrationId, created);
        entry = created;
      }
      const own = entry;
      const finish = (woken: boolean) => {
        clearTimeout(timeout);
        signal?.removeEventListener('abort', onAbort);
        own.waiters.delete(waiter);
        if (own.waiters.size === 0 && byRegistration.get(registrationId) === own) {
          own.unsubscribe();
          byRegistration.delete(registrationId);
          stopTimerIfIdle();
        }
        resolve(woken);
      };
      const waiter: Waiter = { wake: () => finish(true) };
      const onAbort = () => finish(false);
      const timeout = setTimeout(() => finish(false), timeoutMs);
      own.waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      startTimer();
    });
  }

  return {
    wait,
    /** Long-polls waiting in this process right now. */
    waiting: () => [...byRegistration.values()].reduce((n, e) => n + e.waiters.size, 0),
    close(): void {
      unsubscribeResync();
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

export type RegistrationWaits = ReturnType<typeof createRegistrationWaits>;
