import type { Db } from '../core/db/index.js';
import type { EventRow } from '../core/db/schema.js';
import { NOTIFIER_RESYNC, type Notifier } from '../core/notifier.js';
import { fromRow, type EventRecord } from './events-model.js';
import { findEvent, findEvents } from './events-repo.js';

/** Published with the id of the event that changed (empty: every event). */
export const EVENTS_CHANGED = 'events:changed';

interface Entry {
  event: EventRecord;
  bytes: number;
  loadedAt: number;
}

/** The ids of one page of GET /events (which events, not their contents). */
interface PageEntry {
  ids: string[];
  loadedAt: number;
  /** Clock time (ms) until which the page's membership cannot change without a write. */
  validUntil: number;
}

/** Pages of GET /events remembered (per filter, cursor and limit): the first pages of the common filters. */
const MAX_PAGES = 256;

/** Rough in-memory size of a parsed event: its text twice over (UTF-16) plus object overhead. */
function sizeOf(row: EventRow): number {
  return 2 * (row.name.length + row.description.length + row.tracks.length + row.dimensions.length + row.models.length + row.form_fields.length) + 1024;
}

/**
 * Published events by id, for the hot reads (GET /events pages, /events/:id, the registration
 * form, the window checks of register and submit). A bounded LRU: at most `maxEntries` events and
 * about `maxBytes`; what it does not hold is read from the database by primary key. Status is never
 * cached: it is computed from these records and the clock on every request. Drafts are never held
 * (only their organizers read them, always from the database).
 *
 * A write drops that one event here at once and, through the notifier, in every other process
 * (Redis or PostgreSQL LISTEN/NOTIFY); `ttlMs` bounds how stale a copy can get when no notifier
 * reaches a process (several SQLite processes) or a message is lost. While a cross-process
 * notifier is cut off (Redis down), other processes' writes cannot reach this one: nothing is
 * served from or kept in the cache then (every read goes to the database), and the cache is
 * emptied when the notifier is back.
 */
export function createEventCatalog(deps: { db: Db; notifier: Notifier; ttlMs: number; maxEntries: number; maxBytes: number }) {
  const { db, notifier, ttlMs, maxEntries, maxBytes } = deps;
  /** Map order is recency order: the first key is the least recently used. */
  const entries = new Map<string, Entry>();
  let bytes = 0;
  /** Bumped by every invalidation: a read that started before one must not store what it read. */
  let epoch = 0;
  /**
   * Which ids make up a page, by page key. Any write to any event drops them all (a new or edited
   * event can enter or leave any page): writes to events are rare next to reads, and refilling a
   * page is one index range read, never a reload of the catalog.
   */
  const pages = new Map<string, PageEntry>();

  const unsubscribe = [notifier.subscribe(EVENTS_CHANGED, (id) => (id ? drop(id) : clear())), notifier.subscribe(NOTIFIER_RESYNC, () => clear())];

  function drop(id: string): void {
    epoch++;
    pages.clear();
    const e = entries.get(id);
    if (!e) return;
    entries.delete(id);
    bytes -= e.bytes;
  }

  function clear(): void {
    epoch++;
    pages.clear();
    entries.clear();
    bytes = 0;
  }

  /** Whether a cached copy may be served or kept: only while every other process's writes can reach us. */
  const trusted = () => ttlMs > 0 && notifier.connected();

  function store(row: EventRow, readAt: number): EventRecord {
    const event = fromRow(row);
    if (!trusted() || row.status === 'draft' || readAt !== epoch) return event;
    const old = entries.get(row.id);
    if (old) {
      entries.delete(row.id);
      bytes -= old.bytes;
    }
    const entry: Entry = { event, bytes: sizeOf(row), loadedAt: Date.now() };
    entries.set(row.id, entry);
    bytes += entry.bytes;
    // Evict the least recently used until both bounds hold (the newest entry always stays).
    while ((entries.size > maxEntries || bytes > maxBytes) && entries.size > 1) {
      const [oldestId, oldest] = entries.entries().next().value!;
      entries.delete(oldestId);
      bytes -= oldest.bytes;
    }
    return event;
  }

  function fresh(id: string): EventRecord | undefined {
    const e = entries.get(id);
    if (!e || !trusted()) return undefined;
    if (Date.now() - e.loadedAt >= ttlMs) {
      entries.delete(id);
      bytes -= e.bytes;
      return undefined;
    }
    // Touch: most recently used goes to the end.
    entries.delete(id);
    entries.set(id, e);
    return e.event;
  }

  /** A published event by id (cache, then primary key); undefined for unknown ids and drafts. */
  async function get(id: string): Promise<EventRecord | undefined> {
    const hit = fresh(id);
    if (hit) return hit;
    const at = epoch;
    const row = await findEvent(db, id);
    if (!row || row.status === 'draft') return undefined;
    return store(row, at);
  }

  /** Several events by id, in the order asked; misses are read in one query. Unknown ids are left out. */
  async function getMany(ids: string[]): Promise<EventRecord[]> {
    const found = new Map<string, EventRecord>();
    const missing: string[] = [];
    for (const id of ids) {
      const hit = fresh(id);
      if (hit) found.set(id, hit);
      else missing.push(id);
    }
    if (missing.length) {
      const at = epoch;
      const rows = await findEvents(db, missing);
      for (const row of rows) found.set(row.id, store(row, at));
    }
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  /**
   * The ids of a page of GET /events: remembered while no event was written, for at most `ttlMs`, and,
   * when the filter depends on the clock (a status filter), only until `nextBoundary` (the next
   * deadline at which some event's effective status changes), so a page never lists an event under a
   * status it no longer has.
   */
  async function pageIds(
    key: string,
    opts: { now: number; clockDependent: boolean; load: () => Promise<string[]>; nextBoundary: () => Promise<number> },
  ): Promise<string[]> {
    const hit = trusted() ? pages.get(key) : undefined;
    if (hit && Date.now() - hit.loadedAt < ttlMs && opts.now < hit.validUntil) {
      pages.delete(key);
      pages.set(key, hit);
      return hit.ids;
    }
    const at = epoch;
    const [ids, validUntil] = await Promise.all([opts.load(), opts.clockDependent ? opts.nextBoundary() : Promise.resolve(Infinity)]);
    if (trusted() && at === epoch) {
      pages.delete(key);
      pages.set(key, { ids, loadedAt: Date.now(), validUntil });
      while (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value!);
    }
    return ids;
  }

  return {
    get,
    getMany,
    pageIds,
    /** Call after a write to one event (or with no id after a write to many). */
    changed: (id?: string): void => {
      if (id) drop(id);
      else clear();
      notifier.publish(EVENTS_CHANGED, id ?? '');
    },
    stats: () => ({ entries: entries.size, bytes, pages: pages.size }),
    close(): void {
      for (const u of unsubscribe) u();
    },
  };
}

export type EventCatalog = ReturnType<typeof createEventCatalog>;
