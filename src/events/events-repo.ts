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
      return eb.or([
        eb('status', '=', 'judging'),
        eb.and([eb('status', 'in', ['open', 'active']), eb('submission_deadline', '<=', now)]),
      ]);
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

export async function isOrganizerOf(db: Executor, eventId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('event_organizers')
    .select('user_id')
    .where('event_id', '=', eventId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function trackIdsInUse(db: Executor, eventId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('registrations')
    .select('track_id')
    .distinct()
    .where('event_id', '=', eventId)
    .where('track_id', 'is not', null)
    .execute();
  return rows.map((r) => r.track_id!).filter(Boolean);
}
