import type { Db } from '../core/db/index.js';
import type { Notifier } from '../core/notifier.js';
import { fromRow, type EventRecord } from './events-model.js';

export const EVENTS_CHANGED = 'events:changed';

interface Snapshot {
  /** Public (non-draft) events, newest first. */
  ordered: EventRecord[];
  byId: Map<string, EventRecord>;
  loadedAt: number;
}

/**
 * The public events, held in memory for the hot discovery reads (GET /events, /events/:id, the
 * registration form). Status is never cached: it is computed from these records and the clock on
 * every request. A write in this process drops the snapshot at once and tells the other processes
 * through the notifier (Redis when configured); the TTL bounds staleness when no notifier reaches
 * them. Register and submit take the event from here too (their windows are computed from the clock
 * on every request, so only an organizer's edit made in another process without Redis can be up to
 * one TTL late); organizer calls always read the database.
 */
export function createEventCatalog(deps: { db: Db; notifier: Notifier; ttlMs: number; maxEvents?: number }) {
  const { db, notifier, ttlMs } = deps;
  const maxEvents = deps.maxEvents ?? 20_000;
  let snapshot: Snapshot | null = null;
  let loading: Promise<Snapshot | null> | null = null;
  let generation = 0;

  const unsubscribe = notifier.subscribe(EVENTS_CHANGED, () => invalidate());

  function invalidate(): void {
    snapshot = null;
    loading = null;
    generation++;
  }

  async function load(): Promise<Snapshot | null> {
    const gen = generation;
    const rows = await db.selectFrom('events').selectAll().where('status', '!=', 'draft').orderBy('id', 'desc').limit(maxEvents + 1).execute();
    // Too many to hold: callers fall back to SQL.
    if (rows.length > maxEvents) return null;
    const ordered = rows.map(fromRow);
    const snap: Snapshot = { ordered, byId: new Map(ordered.map((e) => [e.id, e])), loadedAt: Date.now() };
    // A write that landed while we were reading makes this snapshot stale before it is used.
    if (gen === generation) snapshot = snap;
    return snap;
  }

  /** The current snapshot, or null when caching is off or the catalog is too large. */
  async function current(): Promise<Snapshot | null> {
    if (ttlMs <= 0) return null;
    if (snapshot && Date.now() - snapshot.loadedAt < ttlMs) return snapshot;
    loading ??= load().finally(() => {
      loading = null;
    });
    return loading;
  }

  return {
    current,
    /** Call after any write to the events table. */
    changed(): void {
      invalidate();
      notifier.publish(EVENTS_CHANGED);
    },
    close: unsubscribe,
  };
}

export type EventCatalog = ReturnType<typeof createEventCatalog>;
