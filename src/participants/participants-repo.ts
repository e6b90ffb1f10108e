import type { Executor } from '../core/db/index.js';

export interface MyEventRow {
  id: string;
  name: string;
  status: 'draft' | 'open' | 'active' | 'judging' | 'ended' | 'cancelled';
  registration_deadline: string;
  submission_deadline: string;
  result_announced_at: string | null;
  time_zone: string | null;
}

/**
 * One page of the events a person is in (as organizer, co-organizer by e-mail, reviewer or team
 * member), newest submission deadline first, after the keyset `after` (deadline, id).
 */
export async function myEventsPage(
  db: Executor,
  who: { userId: string; email: string },
  limit: number,
  after: readonly string[] | null,
): Promise<MyEventRow[]> {
  let q = db
    .selectFrom('events')
    .select([
      'events.id',
      'events.name',
      'events.status',
      'events.registration_deadline',
      'events.submission_deadline',
      'events.result_announced_at',
      'events.time_zone',
    ])
    .where((eb) =>
      eb.or([
        eb('events.id', 'in', eb.selectFrom('event_organizers').select('event_id').where('user_id', '=', who.userId)),
        eb('events.id', 'in', eb.selectFrom('event_co_organizers').select('event_id').where('email', '=', who.email)),
        eb('events.id', 'in', eb.selectFrom('event_reviewers').select('event_id').where('user_id', '=', who.userId)),
        eb('events.id', 'in', eb.selectFrom('team_members').select('event_id').where('user_id', '=', who.userId)),
      ]),
    );
  if (after) {
    const [deadline, id] = after as [string, string];
    q = q.where((eb) =>
      eb.or([eb('events.submission_deadline', '<', deadline), eb.and([eb('events.submission_deadline', '=', deadline), eb('events.id', '<', id)])]),
    );
  }
  return await q
    .orderBy('events.submission_deadline', 'desc')
    .orderBy('events.id', 'desc')
    .limit(limit + 1)
    .execute();
}

export interface MyRoleRows {
  organizer: Set<string>;
  reviewer: Set<string>;
  /** Per event: the caller's team registration and whether the caller leads it. */
  teams: Map<string, { registration_id: string; team_name: string; status: string; reason: string | null; leader: boolean }>;
}

/** The caller's roles in the given events (a few grouped reads, not one per event). */
export async function myRoles(db: Executor, who: { userId: string; email: string }, eventIds: string[]): Promise<MyRoleRows> {
  const out: MyRoleRows = { organizer: new Set(), reviewer: new Set(), teams: new Map() };
  if (eventIds.length === 0) return out;
  const [orgs, cos, reviews, regs] = await Promise.all([
    db.selectFrom('event_organizers').select('event_id').where('user_id', '=', who.userId).where('event_id', 'in', eventIds).execute(),
    db.selectFrom('event_co_organizers').select('event_id').where('email', '=', who.email).where('event_id', 'in', eventIds).execute(),
    db.selectFrom('event_reviewers').select('event_id').where('user_id', '=', who.userId).where('event_id', 'in', eventIds).execute(),
    db
      .selectFrom('team_members')
      .innerJoin('registrations', 'registrations.id', 'team_members.registration_id')
      .select(['registrations.id', 'registrations.event_id', 'team_members.role', 'registrations.team_name', 'registrations.status', 'registrations.reason'])
      .where('team_members.user_id', '=', who.userId)
      .where('team_members.event_id', 'in', eventIds)
      .execute(),
  ]);
  for (const r of [...orgs, ...cos]) out.organizer.add(r.event_id);
  for (const r of reviews) out.reviewer.add(r.event_id);
  for (const r of regs) {
    out.teams.set(r.event_id, { registration_id: r.id, team_name: r.team_name, status: r.status, reason: r.reason, leader: r.role === 'leader' });
  }
  return out;
}
