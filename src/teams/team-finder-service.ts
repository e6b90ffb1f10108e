import type { Clock } from '../core/clock.js';
import { uniqueViolation, type Db } from '../core/db/index.js';
import type { JoinRequestStatus } from '../core/db/schema.js';
import { AppError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Notifier } from '../core/notifier.js';
import type { Principal } from '../core/principal.js';
import { iso } from '../core/time.js';
import { submissionClosedDetail } from '../events/closed-reasons.js';
import type { EventRecord } from '../events/events-model.js';
import type { EventsService } from '../events/events-service.js';
import { submissionAccepted } from '../events/status.js';
import { MAIL_QUEUED, queueNotification } from '../notifications/notification-queue.js';
import { memberName } from '../registrations/registrations-repo.js';
import * as finder from './team-finder-repo.js';
import { normaliseSkills, oneLine, parseSkills } from './team-finder.js';
import * as repo from './teams-repo.js';
import type { TeamsService } from './teams-service.js';

const LIST_LIMIT = 200;

export interface SkillsInput {
  line?: string;
  skills?: string[];
}

/**
 * The team finder: people looking for a team, teams saying what they need, and join requests that
 * the team's leader accepts (through the same path as joining with a code) or declines.
 *
 * Who is who: "in a team" means a member of a registration of the event (a leader alone counts:
 * their team is in the list of teams, not among the people). Anyone signed in who is in no team may
 * mark themself looking; the lists are for people in a team of the event or looking themselves.
 */
export function createTeamFinderService(deps: { db: Db; clock: Clock; events: EventsService; teams: TeamsService; notifier: Notifier }) {
  const { db, clock, events, teams, notifier } = deps;

  function assertOpen(event: EventRecord, now: Date) {
    if (!submissionAccepted(event, now)) throw new AppError('submission_closed', `Teams can no longer change: ${submissionClosedDetail(event, now)}`);
  }

  async function notInTeam(eventId: string, userId: string) {
    const member = await repo.membershipOf(db, eventId, userId);
    if (member) throw teams.alreadyInTeam(member.registration_id);
  }

  function requestForApi(r: finder.JoinRequestView) {
    return {
      id: r.id,
      event_id: r.event_id,
      registration_id: r.registration_id,
      team_name: r.team_name,
      user_id: r.user_id,
      name: memberName(r.name, r.email),
      message: r.message,
      status: r.status,
      created_at: r.created_at,
      decided_at: r.decided_at,
    };
  }

  function seekerForApi(s: { user_id: string; line: string; skills: string; created_at: string; updated_at: string }, name: string) {
    return { user_id: s.user_id, name, line: s.line, skills: parseSkills(s.skills), created_at: s.created_at, updated_at: s.updated_at };
  }

  /** Both lists (filtered by a skill), the caller's own entry, requests, and their team's needs. */
  async function overview(who: Principal, eventId: string, skill?: string) {
    const event = await events.getPublic(eventId, who);
    const member = await repo.membershipOf(db, event.id, who.userId);
    const mine = member ? undefined : await finder.findSeeker(db, event.id, who.userId);
    if (!member && !mine) {
      throw new AppError(
        'forbidden',
        'The team finder is for people in a team of this event or looking for one: mark yourself looking first (PUT …/team-finder/me).',
      );
    }
    const wanted = skill ? normaliseSkills([skill])[0] : undefined;
    const people = (await finder.listSeekers(db, event.id, LIST_LIMIT))
      .map((s) => seekerForApi(s, memberName(s.name, s.email)))
      .filter((s) => !wanted || s.skills.includes(wanted));
    const teamRows = await finder.listOpenTeams(db, event.id, event.max_team_size, LIST_LIMIT);
    const teamsList = teamRows
      .map((t) => ({
        registration_id: t.id,
        team_name: t.team_name,
        leader_name: memberName(t.leader_name, t.leader_email),
        member_count: t.member_count,
        free_places: event.max_team_size === null ? null : event.max_team_size - t.member_count,
        line: t.line ?? '',
        skills: parseSkills(t.skills),
      }))
      .filter((t) => !wanted || t.skills.includes(wanted));
    const needs = member ? await finder.findNeeds(db, member.registration_id) : undefined;
    return {
      event_id: event.id,
      max_team_size: event.max_team_size,
      open: submissionAccepted(event, clock.now()),
      you: {
        looking: mine ? seekerForApi(mine, memberName(who.name, who.email)) : null,
        registration_id: member?.registration_id ?? null,
        role: member?.role ?? null,
        team_needs: member ? { line: needs?.line ?? '', skills: parseSkills(needs?.skills) } : null,
      },
      people,
      teams: teamsList,
      my_requests: (await finder.requestsBy(db, event.id, who.userId)).map(requestForApi),
      team_requests: member?.role === 'leader' ? (await finder.requestsTo(db, member.registration_id)).map(requestForApi) : [],
    };
  }

  /**
   * The caller's entry: a person in no team is listed among the people looking; a team's leader
   * sets what the team needs (skills, a line); another member may not.
   */
  async function setEntry(who: Principal, eventId: string, input: SkillsInput) {
    const event = await events.getPublic(eventId, who);
    const now = clock.now();
    assertOpen(event, now);
    const line = oneLine(input.line);
    const skills = normaliseSkills(input.skills ?? []);
    const stamp = iso(now);
    const member = await repo.membershipOf(db, event.id, who.userId);
    if (member) {
      if (member.role !== 'leader') throw teams.notLeader();
      await finder.upsertNeeds(db, { registration_id: member.registration_id, event_id: event.id, line, skills: JSON.stringify(skills), now: stamp });
      return { as: 'team' as const, registration_id: member.registration_id, line, skills, updated_at: stamp };
    }
    const row = await finder.upsertSeeker(db, { event_id: event.id, user_id: who.userId, line, skills: JSON.stringify(skills), now: stamp });
    return { as: 'person' as const, registration_id: null, line: row.line, skills: parseSkills(row.skills), updated_at: row.updated_at };
  }

  /** Takes the caller's entry away: no longer looking, or (a leader) the team needs nothing listed. Idempotent. */
  async function clearEntry(who: Principal, eventId: string): Promise<void> {
    const event = await events.getPublic(eventId, who);
    const member = await repo.membershipOf(db, event.id, who.userId);
    if (member?.role === 'leader') await finder.deleteNeeds(db, member.registration_id);
    await finder.deleteSeeker(db, event.id, who.userId);
  }

  /** A person in no team asks to join a team that has room; its leader hears of it by mail. */
  async function requestToJoin(who: Principal, eventId: string, registrationId: string, message: string | undefined) {
    const event = await events.getPublic(eventId, who);
    const now = clock.now();
    assertOpen(event, now);
    await notInTeam(event.id, who.userId);
    const team = await repo.findRegistrationById(db, registrationId);
    if (!team || team.event_id !== event.id || (team.status !== 'pending' && team.status !== 'approved')) {
      throw new AppError('team_not_found', `No team ${registrationId} in this event takes requests (see the teams of GET …/team-finder).`);
    }
    const max = event.max_team_size;
    if (max !== null && team.member_count >= max) {
      throw new AppError('team_full', `The team already has ${max} members, the most this event allows.`, { extra: { max_team_size: max } });
    }
    const stamp = iso(now);
    const row = {
      id: newId('tjr'),
      event_id: event.id,
      registration_id: team.id,
      user_id: who.userId,
      message: (message ?? '').trim(),
      status: 'pending' as const,
      created_at: stamp,
      decided_at: null,
      decided_by: null,
    };
    const seeker = await finder.findSeeker(db, event.id, who.userId);
    try {
      await db.transaction().execute(async (tx) => {
        await finder.insertJoinRequest(tx, row);
        await queueNotification(tx, {
          kind: 'join_request_received',
          eventId: event.id,
          recipients: [{ userId: team.user_id }],
          data: {
            team_name: team.team_name,
            requester_name: memberName(who.name, who.email),
            message: row.message,
            skills: parseSkills(seeker?.skills),
          },
          now,
        });
      });
    } catch (err) {
      if (uniqueViolation(err) === 'team_join_requests_pending_uq') {
        throw new AppError('join_request_exists', 'You already have a pending request to this team: wait for the leader, or withdraw it.');
      }
      throw err;
    }
    notifier.publish(MAIL_QUEUED);
    return requestForApi(await finder.requestView(db, row.id));
  }

  function requestNotFound(id: string) {
    return new AppError('join_request_not_found', `No join request ${id} of yours or to your team in this event.`);
  }

  function notPending(status: JoinRequestStatus) {
    return new AppError('join_request_not_pending', `The request is ${status} already; only a pending request can change.`, {
      extra: { request_status: status },
    });
  }

  /**
   * Accept or decline (the team's leader) or withdraw (the requester). Accepting makes the person a
   * member in the same transaction: of two accepts at once only as many succeed as the team has room.
   */
  async function decide(who: Principal, eventId: string, requestId: string, status: 'accepted' | 'declined' | 'withdrawn') {
    const event = await events.getPublic(eventId, who);
    const request = await finder.findJoinRequest(db, event.id, requestId);
    if (!request) throw requestNotFound(requestId);
    const now = clock.now();
    const stamp = iso(now);
    if (status === 'withdrawn') {
      if (request.user_id !== who.userId) throw requestNotFound(requestId);
      if (!(await finder.decideJoinRequest(db, request.id, 'withdrawn', who.userId, stamp))) throw notPending(request.status);
      return requestForApi(await finder.requestView(db, request.id));
    }
    const team = await repo.findRegistrationById(db, request.registration_id);
    const leads = team?.user_id === who.userId && (await repo.membershipOf(db, event.id, who.userId))?.role === 'leader';
    if (!team || !leads) {
      if (request.user_id === who.userId)
        throw new AppError('not_team_leader', "Only the team's leader accepts or declines a request; you may withdraw yours.");
      throw requestNotFound(requestId);
    }
    if (request.status !== 'pending') throw notPending(request.status);
    if (status === 'declined') {
      await db.transaction().execute(async (tx) => {
        if (!(await finder.decideJoinRequest(tx, request.id, 'declined', who.userId, stamp))) throw notPending('declined');
        await queueNotification(tx, {
          kind: 'join_request_declined',
          eventId: event.id,
          recipients: [{ userId: request.user_id }],
          data: { team_name: team.team_name },
          now,
        });
      });
      notifier.publish(MAIL_QUEUED);
      return requestForApi(await finder.requestView(db, request.id));
    }
    assertOpen(event, now);
    const requester = await repo.userNameAndEmail(db, request.user_id);
    if (!requester) throw requestNotFound(requestId);
    let joined;
    try {
      joined = await db.transaction().execute(async (tx) => {
        const decided = await finder.decideJoinRequest(tx, request.id, 'accepted', who.userId, stamp);
        if (!decided) throw notPending(request.status === 'pending' ? 'accepted' : request.status);
        const reg = await teams.admit(tx, event, team.id, { userId: request.user_id, name: requester.name, email: requester.email }, stamp);
        // Full (or withdrawn meanwhile): throwing rolls the decision back, the request stays pending.
        if (!reg)
          throw new AppError('team_full', `The team already has ${event.max_team_size} members, the most this event allows.`, {
            extra: { max_team_size: event.max_team_size },
          });
        await finder.withdrawOtherRequests(tx, event.id, request.user_id, stamp);
        await finder.deleteSeeker(tx, event.id, request.user_id);
        await queueNotification(tx, {
          kind: 'join_request_accepted',
          eventId: event.id,
          recipients: [{ userId: request.user_id }],
          data: { team_name: reg.team_name },
          now,
        });
        return reg;
      });
    } catch (err) {
      const which = uniqueViolation(err);
      if (which === 'team_members_event_user_uq' || which === 'team_members_pkey') {
        const now = await repo.membershipOf(db, event.id, request.user_id);
        throw new AppError('already_in_team', 'The person is already in a team of this event (they joined another meanwhile).', {
          extra: { registration_id: now?.registration_id ?? team.id },
        });
      }
      throw err;
    }
    if (joined) notifier.publish(MAIL_QUEUED);
    return requestForApi(await finder.requestView(db, request.id));
  }

  return { overview, setEntry, clearEntry, requestToJoin, decide };
}

export type TeamFinderService = ReturnType<typeof createTeamFinderService>;
