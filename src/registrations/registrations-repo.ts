import { SqliteAdapter, sql } from 'kysely';
import type { Executor } from '../core/db/index.js';
import { param, prepared } from '../core/db/prepared.js';
import type { RegistrationRow, RegistrationStatus } from '../core/db/schema.js';
import type { NormalisedRegistration } from './form.js';
import type { ProjectWithAuthor } from './project-schema.js';

export interface RegistrationPageQuery {
  eventId: string;
  /** Rows to read: the page size plus one, which tells whether there is a next page. */
  limit: number;
  status?: RegistrationStatus;
  trackId?: string;
  /** A normalised team-name prefix (see teamNameKey); switches the order to the team name. */
  namePrefix?: string;
  /** The sort key (id, or team_name_key with namePrefix) of the last row already seen. */
  after?: string;
}

/** The smallest string above every string starting with `prefix` (code point order), or null if none. */
export function prefixUpperBound(prefix: string): string | null {
  const cps = [...prefix].map((c) => c.codePointAt(0)!);
  while (cps.length) {
    const last = cps.pop()!;
    if (last < 0x10ffff) {
      // Skip the surrogate range: no valid string holds those code points.
      const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
      return String.fromCodePoint(...cps, next);
    }
  }
  return null;
}

/**
 * One page of an event's registrations. Ordered by id (time-sortable) through
 * (event_id[, status | track_id], id) indexes, or, for a team-name search, by team_name_key through
 * the unique (event_id, team_name_key) index: a prefix is a range of that index, so the search
 * reads only matching entries. PostgreSQL compares that column with the "C" collation (code point
 * order, like SQLite's BINARY), so the range is right whatever the database's default collation.
 */
export function registrationsPageQuery(db: Executor, q: RegistrationPageQuery) {
  let query = db.selectFrom('registrations').selectAll().where('event_id', '=', q.eventId);
  if (q.status) query = query.where('status', '=', q.status);
  if (q.trackId !== undefined) query = query.where('track_id', '=', q.trackId);
  if (q.namePrefix === undefined) {
    if (q.after !== undefined) query = query.where('id', '>', q.after);
    return query.orderBy('id', 'asc').limit(q.limit);
  }
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const key = sqlite ? sql<string>`team_name_key` : sql<string>`team_name_key collate "C"`;
  const upper = prefixUpperBound(q.namePrefix);
  query = query.where(key, '>=', q.namePrefix);
  if (upper !== null) query = query.where(key, '<', upper);
  if (q.after !== undefined) query = query.where(key, '>', q.after);
  // event_id leads the ORDER BY although it is fixed: when SQLite's statistics make it skip-scan
  // the index (few events), the index order still matches and no sort of the matches is needed.
  return query.orderBy('event_id').orderBy(key).limit(q.limit);
}

export async function listRegistrationsPage(db: Executor, q: RegistrationPageQuery): Promise<RegistrationRow[]> {
  return registrationsPageQuery(db, q).execute();
}

const teamRegistration = prepared<{ eventId: string; userId: string }, RegistrationRow>((db) =>
  db
    .selectFrom('team_members as tm')
    .innerJoin('registrations as r', 'r.id', 'tm.registration_id')
    .selectAll('r')
    .where('tm.event_id', '=', param<string>('eventId'))
    .where('tm.user_id', '=', param<string>('userId')),
);

/** The registration of the team `userId` is in (leader or member) in the event, through team_members. */
export async function findTeamRegistration(db: Executor, eventId: string, userId: string): Promise<RegistrationRow | undefined> {
  return (await teamRegistration(db, { eventId, userId })).rows[0];
}

const REGISTRATION_COLUMNS = [
  'id',
  'event_id',
  'user_id',
  'team_name',
  'team_name_key',
  'track_id',
  'contact_email',
  'github_url',
  'fields',
  'status',
  'reason',
  'rejected_final',
  'attempt',
  'reapplied_at',
  'created_at',
  'updated_at',
  'member_count',
] as const satisfies ReadonlyArray<keyof RegistrationRow>;

/** Every column of a new registration as a parameter. */
const registrationParams = () => Object.fromEntries(REGISTRATION_COLUMNS.map((c) => [c, param(c)])) as unknown as RegistrationRow;

const insertRegistrationQuery = prepared<RegistrationRow, never>((db) => db.insertInto('registrations').values(registrationParams()));
const insertLeaderQuery = prepared<{ registration_id: string; event_id: string; user_id: string; joined_at: string }, never>((db) =>
  db.insertInto('team_members').values({
    registration_id: param('registration_id'),
    event_id: param('event_id'),
    user_id: param('user_id'),
    role: 'leader',
    joined_at: param('joined_at'),
  }),
);
/** PostgreSQL: both inserts in one statement (a data-modifying CTE), atomic without BEGIN and COMMIT. */
const insertTeamWithLeaderQuery = prepared<RegistrationRow, never>((db) =>
  db
    .with('r', (q) => q.insertInto('registrations').values(registrationParams()).returning(['id', 'event_id', 'user_id', 'created_at']))
    .insertInto('team_members')
    .columns(['registration_id', 'event_id', 'user_id', 'role', 'joined_at'])
    .expression((eb) => eb.selectFrom('r').select(['r.id', 'r.event_id', 'r.user_id', sql<'leader'>`'leader'`.as('role'), 'r.created_at'])),
);

/**
 * A new team: the registration and its registrant as the leader (team_members_event_user_uq refuses
 * a person already in a team of the event). In one statement on PostgreSQL (one round trip, no
 * transaction held open); on SQLite, where a CTE cannot write, two statements that the caller runs
 * in a transaction (`tx`).
 */
export async function insertTeamWithLeader(tx: Executor, row: RegistrationRow, oneStatement: boolean): Promise<void> {
  if (oneStatement) {
    await insertTeamWithLeaderQuery(tx, row);
    return;
  }
  await insertRegistrationQuery(tx, row);
  await insertLeaderQuery(tx, { registration_id: row.id, event_id: row.event_id, user_id: row.user_id, joined_at: row.created_at });
}

export interface TeamMemberView {
  registration_id: string;
  user_id: string;
  name: string;
  email: string;
  role: 'leader' | 'member';
  joined_at: string;
}

/** The display name teammates see: the account's name, else the part of the address before @. */
export function memberName(name: string | null, email: string): string {
  return name?.trim() || email.split('@')[0]!;
}

/** The members of these registrations (leader first, then by joining time), with their names and addresses. */
export async function membersOf(db: Executor, registrationIds: string[]): Promise<TeamMemberView[]> {
  if (registrationIds.length === 0) return [];
  const rows = await db
    .selectFrom('team_members as tm')
    .innerJoin('users as u', 'u.id', 'tm.user_id')
    .select(['tm.registration_id', 'tm.user_id', 'tm.role', 'tm.joined_at', 'u.name', 'u.email'])
    .where('tm.registration_id', 'in', registrationIds)
    .orderBy('tm.registration_id')
    .orderBy('tm.joined_at')
    .orderBy('tm.user_id')
    .execute();
  const view = rows.map((r) => ({
    registration_id: r.registration_id,
    user_id: r.user_id,
    name: memberName(r.name, r.email),
    email: r.email,
    role: r.role,
    joined_at: r.joined_at,
  }));
  return [...view.filter((m) => m.role === 'leader'), ...view.filter((m) => m.role !== 'leader')];
}

/** The team's project with the display name of whoever last wrote it; null before the first submit. */
export async function projectOfRegistration(db: Executor, registrationId: string): Promise<ProjectWithAuthor | null> {
  const row = await db
    .selectFrom('projects as p')
    .leftJoin('users as u', 'u.id', 'p.updated_by_user_id')
    .selectAll('p')
    .select(['u.name as author_name', 'u.email as author_email'])
    .where('p.registration_id', '=', registrationId)
    .executeTakeFirst();
  if (!row) return null;
  const { author_name, author_email, ...project } = row;
  return { ...project, updated_by_name: author_email ? memberName(author_name, author_email) : null };
}

/** Which of these registrations are no longer pending. */
export async function decidedAmong(db: Executor, ids: string[]): Promise<string[]> {
  const rows = await db.selectFrom('registrations').select('id').where('id', 'in', ids).where('status', '!=', 'pending').execute();
  return rows.map((r) => r.id);
}

/**
 * A rejected or withdrawn (not final) registration takes new answers and is pending again; only one
 * of two re-applications at once matches. Undefined when it no longer qualifies.
 */
export async function reapplyRegistration(tx: Executor, id: string, value: NormalisedRegistration, stamp: string): Promise<RegistrationRow | undefined> {
  return tx
    .updateTable('registrations')
    .set({
      ...value,
      fields: JSON.stringify(value.fields),
      status: 'pending',
      reason: null,
      attempt: sql<number>`attempt + 1`,
      reapplied_at: stamp,
      updated_at: stamp,
    })
    .where('id', '=', id)
    .where('status', 'in', ['rejected', 'withdrawn'])
    .where('rejected_final', '=', 0)
    .returningAll()
    .executeTakeFirst();
}

/** The organizer's decision on a registration of the event; undefined when there is no such registration. */
export async function decideRegistration(
  tx: Executor,
  d: { id: string; eventId: string; status: 'approved' | 'rejected'; reason: string | null; final: boolean; at: string },
): Promise<RegistrationRow | undefined> {
  return tx
    .updateTable('registrations')
    .set({ status: d.status, reason: d.reason, rejected_final: d.final ? 1 : 0, updated_at: d.at })
    .where('id', '=', d.id)
    .where('event_id', '=', d.eventId)
    .returningAll()
    .executeTakeFirst();
}

/** The ids of a team's members. */
export async function memberIdsOf(tx: Executor, registrationId: string): Promise<Array<{ user_id: string }>> {
  return tx.selectFrom('team_members').select('user_id').where('registration_id', '=', registrationId).execute();
}
