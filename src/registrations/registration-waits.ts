import type { Db } from '../core/db/index.js';
import { NOTIFIER_RESYNC, type Notifier } from '../core/notifier.js';
import { decidedAmong } from './registrations-repo.js';

/** Published with the id of a registration whose status an organizer just set. */
export const REGISTRATION_DECIDED = 'registrations:decided';

/** How long, and how many, recent decisions are remembered for waiters that read just before them. */
const RECENT_MS = 120_000;
const RECENT_MAX = 10_000;

/** How many registration ids one re-check query asks about (keeps the IN list and its parameters small). */
const CHUNK = 500;

interface Waiter {
  wake(): void;
}

/**
 * The `?wait=` long-polls of this process, keyed by registration. A waiter costs no query while it
 * waits: it is woken by the notifier (a decision in this process, or in another through Redis or
 * PostgreSQL LISTEN/NOTIFY; one subscription for all of them). One shared timer every `recheckMs` asks the database, in one query per
 * 500 waited-on registrations, which of them are no longer pending; that bounds the delay when no
 * notifier reaches this process (SQLite files shared by processes, a message lost to a reconnect or
 * a crash between commit and publish). The timer runs only while someone waits.
 */
export function createRegistrationWaits(deps: { db: Db; notifier: Notifier; recheckMs: number }) {
  const { db, notifier, recheckMs } = deps;
  const byRegistration = new Map<string, Set<Waiter>>();
  /**
   * Decisions heard lately (id -> when), oldest first: a waiter that read its registration just
   * before a decision, and so missed the message, learns of it when it starts waiting.
   */
  const recent = new Map<string, number>();
  let timer: NodeJS.Timeout | null = null;
  let checking = false;
  /** Long-polls that have parked since start: with `waiting`, what an operator (or a test) can watch. */
  let started = 0;

  const unsubscribe = [
    notifier.subscribe(REGISTRATION_DECIDED, (id) => {
      const now = Date.now();
      recent.delete(id);
      recent.set(id, now);
      for (const [old, at] of recent) {
        if (recent.size <= RECENT_MAX && now - at < RECENT_MS) break;
        recent.delete(old);
      }
      wakeAll(id);
    }),
    notifier.subscribe(NOTIFIER_RESYNC, () => void recheck()),
  ];

  function wakeAll(id: string): void {
    const waiters = byRegistration.get(id);
    if (!waiters) return;
    for (const w of [...waiters]) w.wake();
  }

  /** The shared re-check: one query per chunk of waited-on registrations, whatever the number of waiters. */
  async function recheck(): Promise<void> {
    if (checking || byRegistration.size === 0) return;
    checking = true;
    try {
      const ids = [...byRegistration.keys()];
      for (let i = 0; i < ids.length; i += CHUNK) {
        for (const id of await decidedAmong(db, ids.slice(i, i + CHUNK))) wakeAll(id);
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
   * Resolves true when the registration may have changed (woken, or decided since `readAt`, the
   * Date.now() taken before the caller read it), false when `timeoutMs` passed or `signal` aborted.
   */
  function wait(registrationId: string, readAt: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve(false);
      if ((recent.get(registrationId) ?? -Infinity) >= readAt) return resolve(true);
      let waiters = byRegistration.get(registrationId);
      if (!waiters) byRegistration.set(registrationId, (waiters = new Set()));
      const own = waiters;
      const finish = (woken: boolean) => {
        clearTimeout(timeout);
        signal?.removeEventListener('abort', onAbort);
        own.delete(waiter);
        if (own.size === 0 && byRegistration.get(registrationId) === own) {
          byRegistration.delete(registrationId);
          stopTimerIfIdle();
        }
        resolve(woken);
      };
      const waiter: Waiter = { wake: () => finish(true) };
      const onAbort = () => finish(false);
      const timeout = setTimeout(() => finish(false), timeoutMs);
      own.add(waiter);
      started++;
      signal?.addEventListener('abort', onAbort, { once: true });
      startTimer();
    });
  }

  return {
    wait,
    /** Long-polls waiting in this process right now. */
    waiting: () => [...byRegistration.values()].reduce((n, w) => n + w.size, 0),
    /** Long-polls that have parked in this process since it started. */
    waitsStarted: () => started,
    close(): void {
      for (const u of unsubscribe) u();
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

export type RegistrationWaits = ReturnType<typeof createRegistrationWaits>;
