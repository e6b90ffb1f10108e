import type { Insertable } from 'kysely';
import type { DatabaseHandle, Executor } from '../core/db/index.js';
import type { AnnouncementRow, AnnouncementsTable } from '../core/db/schema.js';
import { claimJobs } from '../core/job-queue.js';
import { WINNING_PLACES, type AnnouncementSegment } from './segments.js';

export async function insertAnnouncement(db: Executor, row: Insertable<AnnouncementsTable>): Promise<void> {
  await db.insertInto('announcements').values(row).execute();
}

export async function findAnnouncement(db: Executor, eventId: string, id: string): Promise<AnnouncementRow | undefined> {
  return db.selectFrom('announcements').selectAll().where('id', '=', id).where('event_id', '=', eventId).executeTakeFirst();
}

/** Every announcement of an event, newest first (the organizers' list). */
export async function eventAnnouncements(db: Executor, eventId: string): Promise<AnnouncementRow[]> {
  return db.selectFrom('announcements').selectAll().where('event_id', '=', eventId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/** The published announcements of an event that went to this person, newest first. */
export async function announcementsFor(db: Executor, eventId: string, userId: string): Promise<AnnouncementRow[]> {
  return db
    .selectFrom('announcement_recipients as r')
    .innerJoin('announcements as a', 'a.id', 'r.announcement_id')
    .selectAll('a')
    .where('r.user_id', '=', userId)
    .where('r.event_id', '=', eventId)
    .where('a.status', '=', 'published')
    .orderBy('a.published_at', 'desc')
    .orderBy('a.id', 'desc')
    .execute();
}

/** Cancels a scheduled announcement not yet leased; false when it is no longer `queued`. */
export async function cancelScheduled(db: Executor, o: { eventId: string; id: string; by: string; now: string }): Promise<boolean> {
  const res = await db
    .updateTable('announcements')
    .set({ status: 'cancelled', cancelled_at: o.now, cancelled_by: o.by, next_attempt_at: null, updated_at: o.now })
    .where('id', '=', o.id)
    .where('event_id', '=', o.eventId)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Stamps a leased announcement published (only while `owner` holds its lease); false when the lease was lost. */
export async function markPublished(db: Executor, o: { id: string; owner: string; now: string; recipients: number }): Promise<boolean> {
  const res = await db
    .updateTable('announcements')
    .set({
      status: 'published',
      published_at: o.now,
      recipients: o.recipients,
      next_attempt_at: null,
      lease_owner: null,
      lease_expires_at: null,
      updated_at: o.now,
    })
    .where('id', '=', o.id)
    .where('lease_owner', '=', o.owner)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Leases due scheduled announcements (and ones whose publisher died) on the core job queue. */
export async function claimDue(
  db: Executor,
  dialect: DatabaseHandle['dialect'],
  q: { owner: string; now: string; leaseUntil: string; limit: number; takeOver?: boolean },
) {
  return claimJobs<AnnouncementRow>(db, dialect, { table: 'announcements', first: 'expired', tieBreakById: true }, q);
}

/** Records who an announcement went to; the key (announcement, person) makes a second row impossible. Returns how many were new. */
export async function insertRecipients(db: Executor, announcementId: string, eventId: string, userIds: readonly string[]): Promise<number> {
  let added = 0;
  for (let i = 0; i < userIds.length; i += 200) {
    const rows = await db
      .insertInto('announcement_recipients')
      .values(userIds.slice(i, i + 200).map((user_id) => ({ announcement_id: announcementId, user_id, event_id: eventId })))
      .onConflict((oc) => oc.columns(['announcement_id', 'user_id']).doNothing())
      .returning('user_id')
      .execute();
    added += rows.length;
  }
  return added;
}

/** How many people a published announcement went to. */
export async function setRecipientCount(db: Executor, id: string, recipients: number): Promise<void> {
  await db.updateTable('announcements').set({ recipients }).where('id', '=', id).execute();
}

/** Whether the event's result is published (the winners segment needs it). */
export async function resultPublished(db: Executor, eventId: string): Promise<boolean> {
  return Boolean(await db.selectFrom('results').select('event_id').where('event_id', '=', eventId).executeTakeFirst());
}

/** Whether any team is registered for the event (in any status but withdrawn). */
export async function hasRegistrations(db: Executor, eventId: string): Promise<boolean> {
  return Boolean(
    await db.selectFrom('registrations').select('id').where('event_id', '=', eventId).where('status', '!=', 'withdrawn').limit(1).executeTakeFirst(),
  );
}

/** The people a segment of the event holds now, each once (see segments.ts for who is in each). */
export async function segmentRecipients(db: Executor, eventId: string, segment: AnnouncementSegment): Promise<string[]> {
  if (segment === 'reviewers') {
    const rows = await db.selectFrom('event_reviewers').select('user_id').where('event_id', '=', eventId).execute();
    return [...new Set(rows.map((r) => r.user_id))];
  }
  let q = db
    .selectFrom('team_members as tm')
    .innerJoin('registrations as r', 'r.id', 'tm.registration_id')
    .select('tm.user_id')
    .distinct()
    .where('r.event_id', '=', eventId);
  if (segment === 'registered') q = q.where('r.status', '!=', 'withdrawn');
  else if (segment === 'approved') q = q.where('r.status', '=', 'approved');
  else if (segment === 'no_final_submission')
    // "No final submission" is "no project" while every stored project is final. When drafts come
    // (issue 31: project status pending → submitted), the subquery gains `.where('p.status', '=',
    // 'submitted')`, and a team with only a draft is in this segment.
    q = q
      .where('r.status', '=', 'approved')
      .where((eb) => eb.not(eb.exists(eb.selectFrom('projects as p').select('p.id').whereRef('p.registration_id', '=', 'r.id'))));
  else
    q = q.where('r.status', '=', 'approved').where((eb) =>
      eb.exists(
        eb
          .selectFrom('projects as p')
          .innerJoin('result_entries as e', 'e.project_id', 'p.id')
          .select('p.id')
          .whereRef('p.registration_id', '=', 'r.id')
          .where('e.event_id', '=', eventId)
          .where((eb) => eb.or([eb('e.rank', '<=', WINNING_PLACES), eb('e.track_rank', '=', 1)])),
      ),
    );
  const rows = await q.execute();
  return rows.map((r) => r.user_id);
}
