import type { Clock } from '../core/clock.js';
import { uniqueViolation, type Db, type Executor } from '../core/db/index.js';
import type { RegistrationRow, TeamMemberRow } from '../core/db/schema.js';
import { AppError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Notifier } from '../core/notifier.js';
import type { Principal } from '../core/principal.js';
import { iso } from '../core/time.js';
import { submissionClosedDetail } from '../events/closed-reasons.js';
import type { EventRecord } from '../events/events-model.js';
import type { EventsService } from '../events/events-service.js';
import { effectiveStatus, submissionAccepted } from '../events/status.js';
import { teamNameKey } from '../registrations/form.js';
import { REGISTRATION_DECIDED } from '../registrations/registration-waits.js';
import { memberName, membersOf, projectOfRegistration, type TeamMemberView } from '../registrations/registrations-repo.js';
import type { ProjectWithAuthor } from '../registrations/project-schema.js';
import { MAIL_QUEUED, queueNotification } from '../notifications/notification-queue.js';
import { enqueueWebhookEvent, teamMemberData } from '../webhooks/webhook-events.js';
import type { WebhookSubscribers } from '../webhooks/webhook-subscribers.js';
import * as repo from './teams-repo.js';

export interface TeamView {
  event: EventRecord;
  registration: RegistrationRow;
  role: 'leader' | 'member';
  members: TeamMemberView[];
  invitations: Array<{ id: string; email: string | null; created_at: string; expires_at: string }>;
  project: ProjectWithAuthor | null;
}

export const DEFAULT_INVITATION_HOURS = 72;

export function createTeamsService(deps: {
  db: Db;
  clock: Clock;
  events: EventsService;
  notifier: Notifier;
  publicUrl: string;
  /** Who subscribes to which webhook kinds: a change nobody can receive queues no delivery. */
  subscribers: WebhookSubscribers;
}) {
  const { db, clock, events, notifier, publicUrl, subscribers } = deps;

  const notRegistered = () =>
    new AppError('not_registered', 'You are in no team of this event: register (POST …/register) or join a team with its join code (POST …/team/join).');

  /** The caller's team in the event: 404 not_registered when they are in none. */
  async function membership(who: Principal, eventId: string): Promise<{ event: EventRecord; member: TeamMemberRow; registration: RegistrationRow }> {
    const event = await events.getVisible(eventId, who);
    const member = await repo.membershipOf(db, event.id, who.userId);
    if (!member) throw notRegistered();
    const registration = await repo.findRegistrationById(db, member.registration_id);
    if (!registration) throw notRegistered();
    return { event, member, registration };
  }

  function notLeader() {
    return new AppError('not_team_leader', 'Only the team leader may do this; ask them (GET …/team names the leader).');
  }

  async function asLeader(who: Principal, eventId: string) {
    const m = await membership(who, eventId);
    if (m.member.role !== 'leader') throw notLeader();
    return m;
  }

  async function view(event: EventRecord, registration: RegistrationRow, role: 'leader' | 'member'): Promise<TeamView> {
    const members = await membersOf(db, [registration.id]);
    const invitations =
      role === 'leader'
        ? (await repo.openInvitations(db, registration.id, iso(clock.now()))).map((i) => ({
            id: i.id,
            email: i.email,
            created_at: i.created_at,
            expires_at: i.expires_at,
          }))
        : [];
    const project = await projectOfRegistration(db, registration.id);
    return { event, registration, role, members, invitations, project };
  }

  async function get(who: Principal, eventId: string): Promise<TeamView> {
    const { event, member, registration } = await membership(who, eventId);
    return view(event, registration, member.role);
  }

  function assertNotFinished(event: EventRecord) {
    const status = effectiveStatus(event, clock.now());
    if (status === 'ended' || status === 'cancelled') throw new AppError('event_locked', `the event is ${status}; its teams can no longer change`);
  }

  /** The leader renames the team, only while the registration is pending. */
  async function rename(who: Principal, eventId: string, teamName: string): Promise<TeamView> {
    const { event, registration } = await asLeader(who, eventId);
    const name = teamName.trim();
    if (!name) throw new AppError('validation_failed', 'team_name: must not be blank', { errors: [{ field: 'team_name', message: 'must not be blank' }] });
    let row: RegistrationRow | undefined;
    try {
      row = await repo.renamePendingTeam(db, registration.id, name, teamNameKey(name), iso(clock.now()));
    } catch (err) {
      if (uniqueViolation(err) === 'registrations_event_team_uq')
        throw new AppError('team_name_taken', `The team name "${name}" is already taken in this event.`);
      throw err;
    }
    if (!row) {
      throw new AppError('registration_not_pending', `The registration is ${registration.status}: the team name can only change while it is pending.`, {
        extra: { registration_status: registration.status },
      });
    }
    return view(event, row, 'leader');
  }

  /** The leader withdraws the registration: it drops out of judging; its open join codes stop working. */
  async function withdraw(who: Principal, eventId: string): Promise<TeamView> {
    const { event, registration } = await asLeader(who, eventId);
    assertNotFinished(event);
    const stamp = iso(clock.now());
    const row = await db.transaction().execute(async (tx) => {
      const updated = await repo.withdrawRegistration(tx, registration.id, stamp);
      await repo.revokeOpenInvitations(tx, registration.id, stamp);
      return updated;
    });
    notifier.publish(REGISTRATION_DECIDED, registration.id);
    return view(event, row ?? { ...registration, status: 'withdrawn' }, 'leader');
  }

  /** The leader makes a join code (optionally mailed to `email`); the code is in this answer only. */
  async function invite(who: Principal, eventId: string, input: { email?: string; expires_in_hours?: number }) {
    const { event, registration } = await asLeader(who, eventId);
    const now = clock.now();
    if (registration.status === 'withdrawn') {
      throw new AppError('registration_not_pending', 'The team has withdrawn its registration: register again before inviting.', {
        extra: { registration_status: registration.status },
      });
    }
    if (!submissionAccepted(event, now)) throw new AppError('submission_closed', `Joining is closed: ${submissionClosedDetail(event, now)}`);
    const email = input.email?.trim() || null;
    if (email !== null && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      throw new AppError('validation_failed', 'email: must be an e-mail address', { errors: [{ field: 'email', message: 'must be an e-mail address' }] });
    }
    const hours = input.expires_in_hours ?? DEFAULT_INVITATION_HOURS;
    const { code, hash } = repo.newJoinCode();
    const stamp = iso(now);
    const row = {
      id: newId('tinv'),
      registration_id: registration.id,
      event_id: event.id,
      code_hash: hash,
      email,
      created_by: who.userId,
      created_at: stamp,
      expires_at: iso(now.getTime() + hours * 3_600_000),
      revoked_at: null,
    };
    const joinUrl = `${publicUrl}/hackathons/${encodeURIComponent(event.id)}/join?code=${code}`;
    const inviter = email ? await repo.userNameAndEmail(db, who.userId) : undefined;
    // The invitation and its mail commit together: the durable queue sends (and retries) it.
    const mailed = await db.transaction().execute(async (tx) => {
      await repo.insertInvitation(tx, row);
      if (!email) return 0;
      return queueNotification(tx, {
        kind: 'team_invitation',
        eventId: event.id,
        recipients: [{ email }],
        data: {
          team_name: registration.team_name,
          inviter_name: inviter ? memberName(inviter.name, inviter.email) : who.email,
          join_url: joinUrl,
          expires_at: row.expires_at,
        },
        now,
      });
    });
    if (mailed > 0) notifier.publish(MAIL_QUEUED);
    return { id: row.id, join_code: code, join_url: joinUrl, expires_at: row.expires_at, email };
  }

  /** The leader revokes a join code (given as the code or the invitation id). Revoking twice is fine. */
  async function revokeInvitation(who: Principal, eventId: string, codeOrId: string): Promise<void> {
    const { registration } = await asLeader(who, eventId);
    const stamp = iso(clock.now());
    let which: { id: string } | { codeHash: string };
    if (codeOrId.startsWith('tinv_')) which = { id: codeOrId };
    else if (repo.looksLikeJoinCode(codeOrId)) which = { codeHash: repo.hashJoinCode(codeOrId) };
    else throw joinCodeInvalid();
    if ((await repo.revokeInvitation(db, registration.id, which, stamp)) === 0) throw joinCodeInvalid();
  }

  function joinCodeInvalid() {
    return new AppError('join_code_invalid', 'No open invitation of this event has this join code (unknown, revoked, expired or for another event).');
  }

  async function announce(
    tx: Executor,
    type: 'team.member.joined' | 'team.member.left',
    o: {
      eventId: string;
      registration: RegistrationRow;
      userId: string;
      /** The member's display name when the caller has it (the one joining is the caller). */
      name?: string;
      removed: boolean;
      memberCount: number;
      at: string;
    },
  ) {
    let name = o.name;
    if (name === undefined) {
      const user = await repo.userNameAndEmail(tx, o.userId);
      name = user ? memberName(user.name, user.email) : o.userId;
    }
    if (subscribers.mayReceive(type, o.eventId)) {
      await enqueueWebhookEvent(tx, {
        type,
        eventId: o.eventId,
        subjectUserId: o.userId,
        registrationId: o.registration.id,
        data: teamMemberData({
          eventId: o.eventId,
          registrationId: o.registration.id,
          teamName: o.registration.team_name,
          member: { user_id: o.userId, name },
          removed: o.removed,
          memberCount: o.memberCount,
        }),
        at: o.at,
      });
    }
    // The teammates hear of it by mail (the one who joined or left of their own accord knows already;
    // a removed member is told).
    const teammates = await repo.memberUserIds(tx, o.registration.id);
    const recipients = teammates.filter((id) => id !== o.userId);
    if (o.removed) recipients.push(o.userId);
    return queueNotification(tx, {
      kind: type === 'team.member.joined' ? 'team_member_joined' : 'team_member_left',
      eventId: o.eventId,
      recipients: recipients.map((userId) => ({ userId })),
      data: { team_name: o.registration.team_name, member_name: name, removed: o.removed },
      now: new Date(o.at),
    });
  }

  /**
   * Makes `who` a member of the registration inside the caller's transaction: the member count goes
   * up by a conditional UPDATE (undefined when the team is full or withdrawn), then the member row
   * (team_members_event_user_uq throws when they are in a team already), the webhook and the
   * teammates' mails. Joining by code and an accepted join request both come here.
   */
  async function admit(
    tx: Executor,
    event: EventRecord,
    registrationId: string,
    who: Pick<Principal, 'userId' | 'name' | 'email'>,
    stamp: string,
  ): Promise<RegistrationRow | undefined> {
    const reg = await repo.takeMemberSlot(tx, registrationId, event.max_team_size);
    if (!reg) return undefined;
    await repo.insertMember(tx, { registration_id: reg.id, event_id: event.id, user_id: who.userId, role: 'member', joined_at: stamp });
    await announce(tx, 'team.member.joined', {
      eventId: event.id,
      registration: reg,
      userId: who.userId,
      name: memberName(who.name, who.email),
      removed: false,
      memberCount: reg.member_count,
      at: stamp,
    });
    return reg;
  }

  /**
   * Joins the team of a join code. The member count goes up by a conditional UPDATE in the same
   * transaction as the member row, so of many joins at once only as many as fit the maximum
   * succeed; team_members_event_user_uq keeps a person in one team per event.
   */
  async function join(who: Principal, eventId: string, joinCode: string): Promise<TeamView> {
    const event = await events.getPublic(eventId, who);
    const now = clock.now();
    if (!submissionAccepted(event, now)) throw new AppError('submission_closed', `Joining is closed: ${submissionClosedDetail(event, now)}`);
    if (!repo.looksLikeJoinCode(joinCode)) throw joinCodeInvalid();
    const stamp = iso(now);
    const invitation = await repo.findOpenInvitation(db, event.id, repo.hashJoinCode(joinCode), stamp);
    if (!invitation) throw joinCodeInvalid();
    const existing = await repo.membershipOf(db, event.id, who.userId);
    if (existing) throw alreadyInTeam(existing.registration_id);
    const max = event.max_team_size;
    let joined: RegistrationRow | undefined;
    try {
      joined = await db.transaction().execute((tx) => admit(tx, event, invitation.registration_id, who, stamp));
    } catch (err) {
      const which = uniqueViolation(err);
      if (which === 'team_members_event_user_uq' || which === 'team_members_pkey') {
        const now = await repo.membershipOf(db, event.id, who.userId);
        throw alreadyInTeam(now?.registration_id ?? invitation.registration_id);
      }
      throw err;
    }
    if (joined) notifier.publish(MAIL_QUEUED);
    if (!joined) {
      const reg = await repo.registrationStatus(db, invitation.registration_id);
      if (!reg || reg.status === 'withdrawn') throw joinCodeInvalid();
      throw new AppError('team_full', `The team already has ${max} members, the most this event allows.`, { extra: { max_team_size: max } });
    }
    return view(event, joined, 'member');
  }

  function alreadyInTeam(registrationId: string) {
    return new AppError('already_in_team', 'You are already in a team of this event; a person is in one team per event.', {
      extra: { registration_id: registrationId },
    });
  }

  /** Takes a member (never the leader) out of the team, with the count, in one transaction. */
  async function dropMember(event: EventRecord, registration: RegistrationRow, userId: string, removed: boolean): Promise<boolean> {
    const stamp = iso(clock.now());
    const dropped = await db.transaction().execute(async (tx) => {
      if (!(await repo.deleteMember(tx, registration.id, userId))) return false;
      await repo.recordFormerMember(tx, registration.id, userId, stamp);
      const reg = await repo.releaseMemberSlot(tx, registration.id);
      await announce(tx, 'team.member.left', { eventId: event.id, registration: reg, userId, removed, memberCount: reg.member_count, at: stamp });
      return true;
    });
    if (dropped) notifier.publish(MAIL_QUEUED);
    return dropped;
  }

  function leaderMustHandOver(alone: boolean) {
    return new AppError(
      'leader_must_hand_over',
      alone
        ? 'You lead this team alone: withdraw the registration instead (DELETE …/team).'
        : 'The leader cannot leave: hand leadership to another member first (POST …/team/leader), then leave.',
    );
  }

  async function leave(who: Principal, eventId: string): Promise<void> {
    const { event, member, registration } = await membership(who, eventId);
    if (member.role === 'leader') throw leaderMustHandOver(registration.member_count <= 1);
    if (!(await dropMember(event, registration, who.userId, false))) throw notRegistered();
  }

  async function removeMember(who: Principal, eventId: string, userId: string): Promise<void> {
    const { event, registration } = await asLeader(who, eventId);
    if (userId === who.userId) throw leaderMustHandOver(registration.member_count <= 1);
    if (!(await dropMember(event, registration, userId, true))) {
      throw new AppError('team_member_not_found', `No member ${userId} in your team.`);
    }
  }

  /** The leader hands leadership to another member: registrations.user_id follows. */
  async function handOver(who: Principal, eventId: string, userId: string): Promise<TeamView> {
    const { event, registration } = await asLeader(who, eventId);
    if (userId === who.userId) return view(event, registration, 'leader');
    const stamp = iso(clock.now());
    const row = await db.transaction().execute(async (tx) => {
      if (!(await repo.changeRole(tx, registration.id, userId, 'member', 'leader'))) return undefined;
      if (!(await repo.changeRole(tx, registration.id, who.userId, 'leader', 'member'))) {
        throw new AppError('not_team_leader', 'You are no longer the team leader.');
      }
      return repo.setRegistrationLeader(tx, registration.id, userId, stamp);
    });
    if (!row) throw new AppError('team_member_not_found', `No member ${userId} in your team.`);
    return view(event, row, 'member');
  }

  return { get, rename, withdraw, invite, revokeInvitation, join, leave, removeMember, handOver, admit, alreadyInTeam, notLeader };
}

export type TeamsService = ReturnType<typeof createTeamsService>;
