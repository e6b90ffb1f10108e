import { sql } from 'kysely';
import type { Executor } from '../core/db/index.js';
import { judgedProjects } from '../submissions/judged-projects-repo.js';

/** A project as a vote target: a project of an approved team of the event, with its track and team. */
export async function findVoteTarget(db: Executor, eventId: string, projectId: string) {
  return judgedProjects(db, eventId)
    .select(['projects.id', 'projects.track_id', 'projects.vote_excluded', 'registrations.id as registration_id'])
    .where('projects.id', '=', projectId)
    .executeTakeFirst();
}

/** Whether the user is or was on the team (any member, not only its leader; a former member left or was removed). */
export async function isOrWasTeamMember(db: Executor, registrationId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('team_members')
    .select('user_id')
    .where('registration_id', '=', registrationId)
    .where('user_id', '=', userId)
    .union(db.selectFrom('team_former_members').select('user_id').where('registration_id', '=', registrationId).where('user_id', '=', userId))
    .executeTakeFirst();
  return row !== undefined;
}

/** The event's projects of teams the user is or was in: never theirs to vote for. */
export async function ownProjectIds(db: Executor, eventId: string, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('projects')
    .select('projects.id')
    .where('projects.event_id', '=', eventId)
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('team_members')
            .select('team_members.user_id')
            .whereRef('team_members.registration_id', '=', 'projects.registration_id')
            .where('team_members.user_id', '=', userId),
        ),
        eb.exists(
          eb
            .selectFrom('team_former_members')
            .select('team_former_members.user_id')
            .whereRef('team_former_members.registration_id', '=', 'projects.registration_id')
            .where('team_former_members.user_id', '=', userId),
        ),
      ]),
    )
    .execute();
  return rows.map((r) => r.id);
}

export async function userCreatedAt(db: Executor, userId: string): Promise<string | undefined> {
  const user = await db.selectFrom('users').select('created_at').where('id', '=', userId).executeTakeFirst();
  return user?.created_at;
}

/** The voter's vote for the project, if any. */
export async function findVote(db: Executor, eventId: string, userId: string, projectId: string): Promise<{ created_at: string } | undefined> {
  return db
    .selectFrom('votes')
    .select(['created_at'])
    .where('event_id', '=', eventId)
    .where('user_id', '=', userId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

/**
 * Casts the vote in the numbered slot; false when either unique constraint stops it (the slot is
 * taken, or this very vote was just cast by a concurrent request).
 */
export async function insertVoteInSlot(
  db: Executor,
  vote: { event_id: string; project_id: string; user_id: string; scope: string; slot: number; created_at: string },
): Promise<boolean> {
  const inserted = await db
    .insertInto('votes')
    .values(vote)
    .onConflict((oc) => oc.doNothing())
    .returning('slot')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Withdraws the voter's vote for the project; whether there was one. */
export async function deleteVote(db: Executor, eventId: string, userId: string, projectId: string): Promise<boolean> {
  const gone = await db
    .deleteFrom('votes')
    .where('event_id', '=', eventId)
    .where('user_id', '=', userId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return Number(gone.numDeletedRows) > 0;
}

/** The voter's votes in the event, oldest first. */
export async function votesOf(db: Executor, eventId: string, userId: string) {
  return db
    .selectFrom('votes')
    .innerJoin('projects', 'projects.id', 'votes.project_id')
    .select(['votes.project_id', 'projects.track_id', 'votes.created_at'])
    .where('votes.event_id', '=', eventId)
    .where('votes.user_id', '=', userId)
    .orderBy('votes.created_at')
    .orderBy('votes.project_id')
    .execute();
}

/** Why a vote does not count, in the order the reasons are tried (a vote is put under the first that applies). */
export const EXCLUSION_REASONS = ['team_not_approved', 'project_excluded', 'disabled_account', 'own_or_former_team', 'new_account'] as const;
export type ExclusionReason = (typeof EXCLUSION_REASONS)[number];

/**
 * Every vote of the event by project and by whether it counts: `counted`, or the first reason it
 * does not (EXCLUSION_REASONS). The one rule for counting: the organizer's tally and the people's
 * choice frozen at publication both read it. A vote counts for a project of an approved team
 * (judgedProjects' rule) not taken out of the vote, cast by an active account that is not and was
 * not in the project's team (voted before joining it, or kept after leaving it) and, when
 * `accountsBefore` is given, created no later than it.
 */
export async function voteBreakdown(db: Executor, eventId: string, accountsBefore: string | null) {
  const newAccount = accountsBefore === null ? sql`` : sql`when users.created_at > ${accountsBefore} then 'new_account'`;
  const reason = sql<ExclusionReason | 'counted'>`case
    when registrations.status <> 'approved' then 'team_not_approved'
    when projects.vote_excluded = 1 then 'project_excluded'
    when users.disabled_at is not null then 'disabled_account'
    when exists (select 1 from team_members where team_members.registration_id = registrations.id and team_members.user_id = votes.user_id)
      or exists (select 1 from team_former_members where team_former_members.registration_id = registrations.id and team_former_members.user_id = votes.user_id)
      then 'own_or_former_team'
    ${newAccount}
    else 'counted' end`;
  const v = db
    .selectFrom('votes')
    .innerJoin('projects', 'projects.id', 'votes.project_id')
    .innerJoin('registrations', 'registrations.id', 'projects.registration_id')
    .innerJoin('users', 'users.id', 'votes.user_id')
    .where('votes.event_id', '=', eventId)
    .select(['projects.id as project_id', 'projects.project_name', 'registrations.team_name', 'projects.track_id', reason.as('reason')])
    .as('v');
  // Grouped outside the subquery: PostgreSQL would not match the CASE's parameter in GROUP BY.
  return db
    .selectFrom(v)
    .select(['v.project_id', 'v.project_name', 'v.team_name', 'v.track_id', 'v.reason'])
    .select((eb) => eb.fn.countAll<number>().as('votes'))
    .groupBy(['v.project_id', 'v.project_name', 'v.team_name', 'v.track_id', 'v.reason'])
    .execute();
}

/** The event's projects taken out of the vote. */
export async function excludedProjects(db: Executor, eventId: string) {
  return judgedProjects(db, eventId)
    .select(['projects.id as project_id', 'projects.project_name', 'registrations.team_name', 'projects.track_id'])
    .where('projects.vote_excluded', '=', 1)
    .execute();
}

/** The event's votes per hour (`YYYY-MM-DDTHH`), oldest first. */
export async function votesPerHour(db: Executor, eventId: string) {
  const hour = sql<string>`substr(votes.created_at, 1, 13)`;
  return db
    .selectFrom('votes')
    .select([hour.as('hour')])
    .select((eb) => eb.fn.countAll<number>().as('votes'))
    .where('event_id', '=', eventId)
    .groupBy(hour)
    .orderBy(hour)
    .execute();
}

/** The event's votes and distinct voters. */
export async function voteTotals(db: Executor, eventId: string) {
  return db
    .selectFrom('votes')
    .select((eb) => [eb.fn.countAll<number>().as('votes'), eb.fn.count<number>('user_id').distinct().as('voters')])
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
}

/** Takes a project out of the vote or puts it back; false when the event has no such project. */
export async function setVoteExcluded(db: Executor, eventId: string, projectId: string, excluded: boolean): Promise<boolean> {
  const res = await db
    .updateTable('projects')
    .set({ vote_excluded: excluded ? 1 : 0 })
    .where('id', '=', projectId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Stores the frozen people's choice, 500 rows per statement. */
export async function insertPeoplesChoice(
  db: Executor,
  eventId: string,
  entries: Array<{ rank: number; project_id: string; project_name: string; team_name: string; track_id: string | null; votes: number }>,
): Promise<void> {
  for (let i = 0; i < entries.length; i += 500) {
    await db
      .insertInto('peoples_choice')
      .values(
        entries.slice(i, i + 500).map((e, j) => ({
          event_id: eventId,
          position: i + j,
          rank: e.rank,
          project_id: e.project_id,
          project_name: e.project_name,
          team_name: e.team_name,
          track_id: e.track_id,
          votes: e.votes,
        })),
      )
      .execute();
  }
}

/** The published people's choice, in order. */
export async function peoplesChoice(db: Executor, eventId: string) {
  return db
    .selectFrom('peoples_choice')
    .select(['rank', 'project_id', 'project_name', 'team_name', 'track_id', 'votes'])
    .where('event_id', '=', eventId)
    .orderBy('position')
    .execute();
}
