import type { ExpressionBuilder } from 'kysely';
import type { Executor } from '../core/db/index.js';
import type { Database, EventRow, EventUpdate, NewEventRow } from '../core/db/schema.js';
import type { EventStatus } from './status.js';

type EB = ExpressionBuilder<Database, 'events'>;

/**
 * The SQL twin of `effectiveStatus`: which stored rows have effective status `status` at `now`.
 * Deadlines are validated in order (registration ≤ submission), which keeps these predicates simple.
 */
export function statusPredicate(eb: EB, status: EventStatus, now: string) {
  switch (status) {
    case 'draft':
    case 'cancelled':
    case 'ended':
      return eb('status', '=', status);
    case 'judging':
      return eb.or([eb('status', '=', 'judging'), eb.and([eb('status', 'in', ['open', 'active']), eb('submission_deadline', '<=', now)])]);
    case 'active':
      return eb.and([
        eb('submission_deadline', '>', now),
        eb.or([eb('status', '=', 'active'), eb.and([eb('status', '=', 'open'), eb('registration_deadline', '<=', now)])]),
      ]);
    case 'open':
      return eb.and([eb('status', '=', 'open'), eb('registration_deadline', '>', now)]);
  }
}

export interface ListEventsQuery {
  statuses: EventStatus[] | null;
  now: string;
  limit: number;
  /** Return events with ids below this one (ids sort by creation time). */
  before?: string;
  /** Restrict to events this user organizes (drafts included); otherwise public events only. */
  organizerId?: string;
  /** With organizerId: the user's e-mail address, for the events naming it as a co-organizer. */
  organizerEmail?: string;
}

export async function listEvents(db: Executor, q: ListEventsQuery): Promise<EventRow[]> {
  let query = db.selectFrom('events').selectAll('events');
  if (q.organizerId) {
    const uid = q.organizerId;
    query = query.where((eb) =>
      eb.or([
        eb('created_by', '=', uid),
        eb.exists(
          eb
            .selectFrom('event_organizers')
            .select('event_organizers.event_id')
            .whereRef('event_organizers.event_id', '=', 'events.id')
            .where('event_organizers.user_id', '=', uid),
        ),
        eb.exists(
          eb
            .selectFrom('event_co_organizers')
            .select('event_co_organizers.event_id')
            .whereRef('event_co_organizers.event_id', '=', 'events.id')
            .where('event_co_organizers.email', '=', q.organizerEmail ?? ''),
        ),
      ]),
    );
  } else {
    query = query.where('status', '!=', 'draft');
  }
  if (q.statuses) {
    const statuses = q.statuses;
    query = query.where((eb) => eb.or(statuses.map((s) => statusPredicate(eb, s, q.now))));
  }
  if (q.before) query = query.where('id', '<', q.before);
  return query.orderBy('id', 'desc').limit(q.limit).execute();
}

/**
 * statusPredicate restricted to one stored status that the clock moves (open, active): only the
 * deadlines remain, so the test reads the deadline columns of the (status, id, deadlines) index.
 * Null when every effective status reachable from `stored` is wanted (no test needed).
 */
function deadlineTest(stored: 'open' | 'active', wanted: EventStatus[], now: string) {
  const reachable: EventStatus[] = stored === 'open' ? ['open', 'active', 'judging'] : ['active', 'judging'];
  const want = reachable.filter((s) => wanted.includes(s));
  if (want.length === reachable.length) return null;
  return (eb: EB) =>
    eb.or(
      want.map((s) => {
        if (s === 'judging') return eb('submission_deadline', '<=', now);
        if (s === 'open') return eb('registration_deadline', '>', now);
        // active: past the registration deadline (stored open) and before the submission deadline.
        return stored === 'open' ? eb.and([eb('registration_deadline', '<=', now), eb('submission_deadline', '>', now)]) : eb('submission_deadline', '>', now);
      }),
    );
}

/** Which stored statuses can have each effective status (the clock only moves an event forward). */
const STORED_FOR: Record<Exclude<EventStatus, 'draft'>, Array<Exclude<EventStatus, 'draft'>>> = {
  open: ['open'],
  active: ['open', 'active'],
  judging: ['open', 'active', 'judging'],
  ended: ['ended'],
  cancelled: ['cancelled'],
};
const PUBLIC_STORED = ['open', 'active', 'judging', 'ended', 'cancelled'] as const;

export interface PublicPageQuery {
  /** Effective statuses to keep; null for every public event. */
  statuses: Array<Exclude<EventStatus, 'draft'>> | null;
  now: string;
  limit: number;
  before?: string;
}

/**
 * Ids of one page of public events, newest first, as keyset queries: one per stored status that can
 * match, each an index range on events (status, id) whose deadline test is read from the same
 * index (migration 0107), merged here. The cost is a page's worth of index entries per stored
 * status, whatever the size of the catalog (except rows the deadline test rejects, which are
 * skipped inside the index).
 */
export async function listPublicEventIds(db: Executor, q: PublicPageQuery): Promise<string[]> {
  const statuses = q.statuses;
  const stored = statuses ? [...new Set(statuses.flatMap((s) => STORED_FOR[s]))] : [...PUBLIC_STORED];
  const arm = (s: (typeof stored)[number]) => {
    let query = db.selectFrom('events').select('id').where('status', '=', s);
    // Only stored statuses the clock can move (open, active) need a deadline test.
    if (statuses && (s === 'open' || s === 'active')) {
      const test = deadlineTest(s, statuses, q.now);
      if (test) query = query.where(test);
    }
    if (q.before) query = query.where('id', '<', q.before);
    return query.orderBy('id', 'desc').limit(q.limit);
  };
  // One statement (one round trip): each arm a subquery with its own ORDER BY and LIMIT, glued
  // with UNION ALL; the arms' pages are merged here.
  const [first, ...rest] = stored.map((s, i) => db.selectFrom(arm(s).as(`a${i}`)).select('id'));
  let query = first!;
  for (const r of rest) query = query.unionAll(r);
  const ids = (await query.execute()).map((r) => r.id);
  ids.sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  return ids.slice(0, q.limit);
}

/**
 * The next instant (ms) at which some published event's effective status changes by the clock alone
 * (a stored `open` event's registration deadline, or a stored `open`/`active` one's submission
 * deadline), after `now`; Infinity when none will. Until then, which events a status filter matches
 * cannot change without a write. Two index seeks (migration 0110).
 */
export async function nextStatusBoundary(db: Executor, now: string): Promise<number> {
  const [registration, submission] = await Promise.all([
    db
      .selectFrom('events')
      .select('registration_deadline as at')
      .where('status', '=', 'open')
      .where('registration_deadline', '>', now)
      .orderBy('registration_deadline')
      .limit(1)
      .executeTakeFirst(),
    Promise.all(
      (['open', 'active'] as const).map((status) =>
        db
          .selectFrom('events')
          .select('submission_deadline as at')
          .where('status', '=', status)
          .where('submission_deadline', '>', now)
          .orderBy('submission_deadline')
          .limit(1)
          .executeTakeFirst(),
      ),
    ),
  ]);
  const times = [registration, ...submission].flatMap((r) => (r ? [Date.parse(r.at)] : []));
  return times.length ? Math.min(...times) : Infinity;
}

export async function findEvent(db: Executor, id: string): Promise<EventRow | undefined> {
  return db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertEvent(db: Executor, row: NewEventRow): Promise<void> {
  await db.insertInto('events').values(row).execute();
  await db.insertInto('event_organizers').values({ event_id: row.id, user_id: row.created_by, created_at: row.created_at }).execute();
}

export async function updateEvent(db: Executor, id: string, patch: EventUpdate): Promise<void> {
  await db.updateTable('events').set(patch).where('id', '=', id).execute();
}

/** Whether the user organizes the event: as its creator's row, or named by e-mail as a co-organizer. */
export async function isOrganizerOf(db: Executor, eventId: string, userId: string, email: string): Promise<boolean> {
  const row = await db.selectFrom('event_organizers').select('user_id').where('event_id', '=', eventId).where('user_id', '=', userId).executeTakeFirst();
  if (row) return true;
  const co = await db.selectFrom('event_co_organizers').select('email').where('event_id', '=', eventId).where('email', '=', email).executeTakeFirst();
  return co !== undefined;
}

export async function trackIdsInUse(db: Executor, eventId: string): Promise<string[]> {
  const rows = await db.selectFrom('registrations').select('track_id').distinct().where('event_id', '=', eventId).where('track_id', 'is not', null).execute();
  return rows.map((r) => r.track_id!).filter(Boolean);
}

export async function insertCoOrganizer(db: Executor, eventId: string, email: string, now: string): Promise<void> {
  await db.insertInto('event_co_organizers').values({ event_id: eventId, email, created_at: now }).execute();
}

/** The event's co-organizer addresses, in the database's order of `email`. */
export async function coOrganizerEmails(db: Executor, eventId: string): Promise<string[]> {
  const rows = await db.selectFrom('event_co_organizers').select('email').where('event_id', '=', eventId).orderBy('email').execute();
  return rows.map((r) => r.email);
}

/** Replaces the event's co-organizers; answers the addresses it had (unordered). */
export async function replaceCoOrganizers(db: Executor, eventId: string, emails: readonly string[], now: string): Promise<string[]> {
  const before = (await db.selectFrom('event_co_organizers').select('email').where('event_id', '=', eventId).execute()).map((r) => r.email);
  await db.deleteFrom('event_co_organizers').where('event_id', '=', eventId).execute();
  for (const email of emails) await insertCoOrganizer(db, eventId, email, now);
  return before;
}

/**
 * Sets the normalisation unless the results are published (the event is ended or has a result):
 * one conditional write, so a change that meets a publication under way never lands after the
 * result was frozen. Whether it was set.
 */
export async function setNormalizationUnlessPublished(db: Executor, eventId: string, normalization: EventUpdate['normalization']): Promise<boolean> {
  const done = await db
    .updateTable('events')
    .set({ normalization })
    .where('id', '=', eventId)
    // Publication ends the event in the transaction that freezes the result: a change waiting
    // for its lock re-reads the row's own status (a subquery would not see the new result).
    .where('status', '!=', 'ended')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('results').select('results.event_id').whereRef('results.event_id', '=', 'events.id'))))
    .executeTakeFirst();
  return Number(done.numUpdatedRows) > 0;
}

/** Events by id, in no particular order. */
export async function findEvents(db: Executor, ids: readonly string[]): Promise<EventRow[]> {
  return db.selectFrom('events').selectAll().where('id', 'in', ids).execute();
}
