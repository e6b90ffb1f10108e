import { sql } from 'kysely';
import type { Executor } from '../core/db/index.js';
import type { JoinRequestStatus, TeamJoinRequestRow, TeamSeekerRow } from '../core/db/schema.js';

/** The caller's "looking for a team" entry in the event, if any. */
export async function findSeeker(db: Executor, eventId: string, userId: string): Promise<TeamSeekerRow | undefined> {
  return db.selectFrom('team_seekers').selectAll().where('event_id', '=', eventId).where('user_id', '=', userId).executeTakeFirst();
}

/** Creates or replaces the person's entry (one per person per event, by the primary key). */
export async function upsertSeeker(
  db: Executor,
  row: { event_id: string; user_id: string; line: string; skills: string; now: string },
): Promise<TeamSeekerRow> {
  return db
    .insertInto('team_seekers')
    .values({ event_id: row.event_id, user_id: row.user_id, line: row.line, skills: row.skills, created_at: row.now, updated_at: row.now })
    .onConflict((oc) => oc.columns(['event_id', 'user_id']).doUpdateSet({ line: row.line, skills: row.skills, updated_at: row.now }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteSeeker(db: Executor, eventId: string, userId: string): Promise<boolean> {
  const res = await db.deleteFrom('team_seekers').where('event_id', '=', eventId).where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** The people looking in the event, newest first, with their display names (never their addresses). */
export async function listSeekers(db: Executor, eventId: string, limit: number) {
  return (
    db
      .selectFrom('team_seekers as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.user_id', 's.line', 's.skills', 's.created_at', 's.updated_at', 'u.name', 'u.email'])
      .where('s.event_id', '=', eventId)
      .where('u.disabled_at', 'is', null)
      // Someone who joined a team by code since keeps no stale entry in the list.
      .where((eb) =>
        eb.not(
          eb.exists(eb.selectFrom('team_members as m').select('m.user_id').whereRef('m.event_id', '=', 's.event_id').whereRef('m.user_id', '=', 's.user_id')),
        ),
      )
      .orderBy('s.updated_at', 'desc')
      .orderBy('s.user_id')
      .limit(limit)
      .execute()
  );
}

export async function findNeeds(db: Executor, registrationId: string) {
  return db.selectFrom('team_needs').select(['line', 'skills', 'updated_at']).where('registration_id', '=', registrationId).executeTakeFirst();
}

export async function deleteNeeds(db: Executor, registrationId: string): Promise<void> {
  await db.deleteFrom('team_needs').where('registration_id', '=', registrationId).execute();
}

export async function upsertNeeds(db: Executor, row: { registration_id: string; event_id: string; line: string; skills: string; now: string }) {
  await db
    .insertInto('team_needs')
    .values({ registration_id: row.registration_id, event_id: row.event_id, line: row.line, skills: row.skills, updated_at: row.now })
    .onConflict((oc) => oc.column('registration_id').doUpdateSet({ line: row.line, skills: row.skills, updated_at: row.now }))
    .execute();
}

/**
 * The teams of the event that have room (below `max`, null: no limit) and are not withdrawn nor
 * rejected, with what they look for and their leader's display name.
 */
export async function listOpenTeams(db: Executor, eventId: string, max: number | null, limit: number) {
  let q = db
    .selectFrom('registrations as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .leftJoin('team_needs as n', 'n.registration_id', 'r.id')
    .select([
      'r.id',
      'r.team_name',
      'r.member_count',
      'r.status',
      'r.user_id as leader_id',
      'u.name as leader_name',
      'u.email as leader_email',
      'n.line',
      'n.skills',
    ])
    .where('r.event_id', '=', eventId)
    .where('r.status', 'in', ['pending', 'approved']);
  if (max !== null) q = q.where('r.member_count', '<', max);
  return q
    .orderBy(sql`case when n.skills is null then 1 else 0 end`)
    .orderBy('r.created_at')
    .orderBy('r.id')
    .limit(limit)
    .execute();
}

export async function findJoinRequest(db: Executor, eventId: string, id: string): Promise<TeamJoinRequestRow | undefined> {
  return db.selectFrom('team_join_requests').selectAll().where('event_id', '=', eventId).where('id', '=', id).executeTakeFirst();
}

export async function insertJoinRequest(db: Executor, row: TeamJoinRequestRow): Promise<void> {
  await db.insertInto('team_join_requests').values(row).execute();
}

/** Moves a pending request to its decision; undefined when it was no longer pending. */
export async function decideJoinRequest(db: Executor, id: string, status: Exclude<JoinRequestStatus, 'pending'>, by: string, at: string) {
  return db
    .updateTable('team_join_requests')
    .set({ status, decided_at: at, decided_by: by })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}

/** Withdraws the person's other pending requests in the event (they joined a team). */
export async function withdrawOtherRequests(db: Executor, eventId: string, userId: string, at: string): Promise<void> {
  await db
    .updateTable('team_join_requests')
    .set({ status: 'withdrawn', decided_at: at, decided_by: userId })
    .where('event_id', '=', eventId)
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .execute();
}

const requestColumns = [
  'j.id',
  'j.event_id',
  'j.registration_id',
  'j.user_id',
  'j.message',
  'j.status',
  'j.created_at',
  'j.decided_at',
  'r.team_name',
  'u.name',
  'u.email',
] as const;

/** The person's own requests in the event (newest first). */
export async function requestsBy(db: Executor, eventId: string, userId: string) {
  return db
    .selectFrom('team_join_requests as j')
    .innerJoin('registrations as r', 'r.id', 'j.registration_id')
    .innerJoin('users as u', 'u.id', 'j.user_id')
    .select(requestColumns)
    .where('j.event_id', '=', eventId)
    .where('j.user_id', '=', userId)
    .orderBy('j.id', 'desc')
    .limit(50)
    .execute();
}

/** The requests to a team: pending ones first, then the latest decided (newest first). */
export async function requestsTo(db: Executor, registrationId: string) {
  return db
    .selectFrom('team_join_requests as j')
    .innerJoin('registrations as r', 'r.id', 'j.registration_id')
    .innerJoin('users as u', 'u.id', 'j.user_id')
    .select(requestColumns)
    .where('j.registration_id', '=', registrationId)
    .orderBy(sql`case when j.status = 'pending' then 0 else 1 end`)
    .orderBy('j.id', 'desc')
    .limit(100)
    .execute();
}

/** One request with its team's name and the requester's name, as the lists show it. */
export async function requestView(db: Executor, id: string) {
  return db
    .selectFrom('team_join_requests as j')
    .innerJoin('registrations as r', 'r.id', 'j.registration_id')
    .innerJoin('users as u', 'u.id', 'j.user_id')
    .select(requestColumns)
    .where('j.id', '=', id)
    .executeTakeFirstOrThrow();
}

export type JoinRequestView = Awaited<ReturnType<typeof requestView>>;
