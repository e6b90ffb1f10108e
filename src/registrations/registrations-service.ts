import { actorOf, recordAudit } from '../core/audit.js';
import { MAIL_QUEUED, queueNotification } from '../notifications/notification-queue.js';
import type { Principal } from '../core/principal.js';
import type { Clock } from '../core/clock.js';
import { uniqueViolation, type Db, type Executor } from '../core/db/index.js';
import type { RegistrationRow, RegistrationStatus } from '../core/db/schema.js';
import { AppError, validationError } from '../core/errors.js';
import { csvLine } from '../core/csv.js';
import { decodeCursor, encodeCursor, takePage } from '../core/http/pagination.js';
import { newId } from '../core/ids.js';
import type { Notifier } from '../core/notifier.js';
import { enqueueWebhookEvent, registrationData, type WebhookOccurrence } from '../webhooks/webhook-events.js';
import type { WebhookSubscribers } from '../webhooks/webhook-subscribers.js';
import { iso } from '../core/time.js';
import { registrationClosedDetail } from '../events/closed-reasons.js';
import type { EventsService } from '../events/events-service.js';
import type { EventRecord } from '../events/events-model.js';
import { effectiveStatus, registrationAccepted } from '../events/status.js';
import { teamNameKey, validateRegistration, type NormalisedRegistration, type RegistrationInput } from './form.js';
import { REGISTRATION_DECIDED, type RegistrationWaits } from './registration-waits.js';
import {
  decideRegistration,
  findTeamRegistration,
  insertTeamWithLeader,
  memberIdsOf,
  reapplyRegistration,
  listRegistrationsPage,
  membersOf,
  projectOfRegistration,
} from './registrations-repo.js';
import type { ProjectWithAuthor } from './project-schema.js';

export interface RegistrationListQuery {
  limit: number;
  cursor?: string;
  status?: RegistrationStatus;
  trackId?: string;
  q?: string;
}

export function createRegistrationsService(deps: {
  db: Db;
  dialect: 'sqlite' | 'postgres';
  clock: Clock;
  events: EventsService;
  notifier: Notifier;
  waits: RegistrationWaits;
  /** Who subscribes to which webhook kinds: a write nobody can receive queues nothing. */
  subscribers: WebhookSubscribers;
}) {
  const { db, dialect, clock, events, notifier, waits, subscribers } = deps;

  /** Queues the occurrence's webhook deliveries in the write's transaction, when anyone can receive it. */
  async function queueWebhook(tx: Executor, o: WebhookOccurrence): Promise<void> {
    if (subscribers.mayReceive(o.type, o.eventId)) await enqueueWebhookEvent(tx, o);
  }

  async function register(who: Principal, eventId: string, input: RegistrationInput) {
    const event = await events.getPublic(eventId, who);
    const now = clock.now();
    if (!registrationAccepted(event, now)) throw new AppError('registration_closed', registrationClosedDetail(event, now));
    const { value, errors } = validateRegistration(input, event, who.email);
    if (errors.length) throw validationError(errors);
    const stamp = iso(now);
    const row: RegistrationRow = {
      id: newId('reg'),
      event_id: event.id,
      user_id: who.userId,
      ...value,
      fields: JSON.stringify(value.fields),
      status: event.auto_approve ? 'approved' : 'pending',
      reason: null,
      rejected_final: 0,
      attempt: 1,
      reapplied_at: null,
      created_at: stamp,
      updated_at: stamp,
      member_count: 1,
    };
    try {
      if (!subscribers.mayReceive('registration.created', event.id) && dialect === 'postgres') {
        // Nobody can receive it: one statement, no transaction held open.
        await insertTeamWithLeader(db, row, true);
      } else {
        // The webhook deliveries are queued in the same transaction: acknowledged means queued.
        await db.transaction().execute(async (tx) => {
          await insertTeamWithLeader(tx, row, dialect === 'postgres');
          await queueWebhook(tx, {
            type: 'registration.created',
            eventId: event.id,
            subjectUserId: who.userId,
            registrationId: row.id,
            data: registrationData(row),
            at: stamp,
          });
        });
      }
    } catch (err) {
      const which = uniqueViolation(err);
      // A user's own earlier registration wins over the team name: re-sending the same registration
      // breaks both constraints, and which one a database reports first is not defined.
      const existing = which ? await findForUser(event.id, who.userId) : undefined;
      // A member of another team (not its leader) cannot register a team of their own.
      if (existing && existing.user_id !== who.userId) throw alreadyInTeam(existing);
      if (existing && (existing.status === 'rejected' || existing.status === 'withdrawn')) {
        return { registration: await reapply(existing, value, stamp), event, reapplied: true };
      }
      if (which === 'registrations_event_user_uq' || existing) throw alreadyRegistered(existing);
      if (which === 'registrations_event_team_uq') throw teamNameTaken(value.team_name);
      throw err;
    }
    return { registration: row, event, reapplied: false };
  }

  /**
   * A rejected team applies again: the same registration takes the new answers and goes back to
   * `pending` (even where the event auto-approves: the organizer said no once and decides again).
   * The update only matches a registration still rejected and not final, so of two re-applications
   * at once exactly one succeeds and the other meets the now pending registration.
   */
  async function reapply(existing: RegistrationRow, value: NormalisedRegistration, stamp: string): Promise<RegistrationRow> {
    if (existing.rejected_final) {
      throw new AppError(
        'registration_rejected_final',
        `The organizer rejected your registration as final${existing.reason ? ` ("${existing.reason}")` : ''}; it cannot be submitted again.`,
        { extra: { id: existing.id, registration_id: existing.id, registration_status: existing.status } },
      );
    }
    let updated: RegistrationRow | undefined;
    try {
      // A re-application is a new application for the organizer: its webhook delivery (registration.created,
      // with `attempt` above 1) is queued in the same transaction as the update.
      updated = await db.transaction().execute(async (tx) => {
        const row = await reapplyRegistration(tx, existing.id, value, stamp);
        if (row)
          await queueWebhook(tx, {
            type: 'registration.created',
            eventId: existing.event_id,
            subjectUserId: row.user_id,
            registrationId: row.id,
            data: registrationData(row),
            at: stamp,
          });
        return row;
      });
    } catch (err) {
      if (uniqueViolation(err) === 'registrations_event_team_uq') throw teamNameTaken(value.team_name);
      throw err;
    }
    if (!updated) throw alreadyRegistered(await findForUser(existing.event_id, existing.user_id));
    notifier.publish(REGISTRATION_DECIDED, existing.id);
    return updated;
  }

  function alreadyRegistered(existing: RegistrationRow | undefined) {
    return new AppError('already_registered', 'You have already registered for this event.', {
      extra: existing ? { id: existing.id, registration_id: existing.id, registration_status: existing.status } : {},
    });
  }

  function alreadyInTeam(existing: RegistrationRow) {
    return new AppError('already_in_team', `You are already a member of the team "${existing.team_name}" in this event; a person is in one team per event.`, {
      extra: { registration_id: existing.id },
    });
  }

  function teamNameTaken(name: string) {
    return new AppError('team_name_taken', `The team name "${name}" is already taken in this event.`);
  }

  /** The registration of the team the user is in (as leader or member) in this event. */
  async function findForUser(eventId: string, userId: string): Promise<RegistrationRow | undefined> {
    return findTeamRegistration(db, eventId, userId);
  }

  /** Until when a rejected (not final) team may re-apply: the registration deadline while registration is accepted, else null. */
  function reapplyUntil(event: Parameters<typeof registrationAccepted>[0]): string | null {
    if (!registrationAccepted(event, clock.now())) return null;
    const deadline = event.registration_deadline;
    return typeof deadline === 'string' ? deadline : iso(deadline);
  }

  async function mine(
    who: Principal,
    eventId: string,
  ): Promise<{ registration: RegistrationRow; project: ProjectWithAuthor | null; reapplyUntil: string | null; event: EventRecord }> {
    const event = await events.getPublic(eventId, who);
    const registration = await findForUser(event.id, who.userId);
    if (!registration) throw new AppError('not_registered', 'You have not registered for this event.');
    const project = await projectOfRegistration(db, registration.id);
    return { registration, project, reapplyUntil: reapplyUntil(event), event };
  }

  /**
   * my-registration with `?wait=`: while the registration is pending, hold the request until the
   * organizer decides or the wait runs out. Waiting costs no query (registration-waits.ts): the
   * notifier or the one shared re-check wakes it, and only then is the registration read again.
   */
  async function mineWaiting(who: Principal, eventId: string, waitSeconds: number, signal?: AbortSignal) {
    let readAt = Date.now();
    let current = await mine(who, eventId);
    if (waitSeconds <= 0 || current.registration.status !== 'pending') return current;
    const deadline = readAt + waitSeconds * 1000;
    while (!signal?.aborted) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      // Timed out or aborted without news: nothing changed that anyone told us about.
      if (!(await waits.wait(current.registration.id, readAt, left, signal))) break;
      readAt = Date.now();
      current = await mine(who, eventId);
      if (current.registration.status !== 'pending') break;
    }
    return current;
  }

  /**
   * One page of the organizer's list, read as `limit + 1` rows through an index. Without `q` the
   * order is by id (creation order); with `q` (a case-insensitive team-name prefix) it is by the
   * normalised team name, so the unique (event_id, team_name_key) index serves both the match
   * and the order.
   */
  async function list(who: Principal, eventId: string, q: RegistrationListQuery) {
    const event = await events.getOwned(eventId, who);
    const byName = q.q !== undefined;
    const kind = byName ? 'registrations:name' : 'registrations';
    const after = q.cursor ? decodeCursor(q.cursor, kind, event.id, [byName ? 'text' : 'id'])[0] : undefined;
    const rows = await listRegistrationsPage(db, {
      eventId: event.id,
      limit: q.limit + 1,
      ...(q.status ? { status: q.status } : {}),
      ...(q.trackId !== undefined ? { trackId: q.trackId } : {}),
      ...(byName ? { namePrefix: teamNameKey(q.q!) } : {}),
      ...(after !== undefined ? { after } : {}),
    });
    const page = takePage(rows, q.limit, (r) => [byName ? r.team_name_key : r.id]);
    const members = await membersOf(
      db,
      page.items.map((r) => r.id),
    );
    return {
      rows: page.items.map((r) => ({ ...r, members: members.filter((m) => m.registration_id === r.id) })),
      nextCursor: page.nextKey ? encodeCursor(kind, event.id, page.nextKey) : null,
      reapplyUntil: reapplyUntil(event),
    };
  }

  /**
   * Every registration of the event as CSV lines (header first), members included, a page of
   * rows at a time through the (event_id, id) index.
   */
  async function* csv(who: Principal, eventId: string): AsyncGenerator<string> {
    const event = await events.getOwned(eventId, who);
    const keys = event.fields.map((f) => f.key);
    yield csvLine([
      'registration_id',
      'team_name',
      'status',
      'track_id',
      'contact_email',
      'github_url',
      'member_count',
      'members',
      'attempt',
      'created_at',
      'updated_at',
      ...keys.map((k) => `field:${k}`),
    ]);
    let after: string | undefined;
    for (;;) {
      const rows = await listRegistrationsPage(db, { eventId: event.id, limit: 500, ...(after !== undefined ? { after } : {}) });
      if (rows.length === 0) return;
      const members = await membersOf(
        db,
        rows.map((r) => r.id),
      );
      let chunk = '';
      for (const r of rows) {
        const answers = JSON.parse(r.fields) as Record<string, string | number>;
        const team = members
          .filter((m) => m.registration_id === r.id)
          .map((m) => `${m.name} <${m.email}> (${m.role})`)
          .join('; ');
        chunk += csvLine([
          r.id,
          r.team_name,
          r.status,
          r.track_id,
          r.contact_email,
          r.github_url,
          r.member_count,
          team,
          r.attempt,
          r.created_at,
          r.updated_at,
          ...keys.map((k) => answers[k]),
        ]);
      }
      yield chunk;
      after = rows[rows.length - 1]!.id;
      if (rows.length < 500) return;
    }
  }

  async function decide(who: Principal, eventId: string, registrationId: string, decision: 'approved' | 'rejected', reason?: string, final = false) {
    const event = await events.getOwned(eventId, who);
    const status = effectiveStatus(event, clock.now());
    if (status === 'ended' || status === 'cancelled') {
      throw new AppError('event_locked', `the event is ${status}; registrations can no longer be decided`);
    }
    const stamp = iso(clock.now());
    const decided = await db.transaction().execute(async (tx) => {
      const row = await decideRegistration(tx, {
        id: registrationId,
        eventId: event.id,
        status: decision,
        reason: decision === 'rejected' ? reason?.trim() || null : null,
        final: decision === 'rejected' && final,
        at: stamp,
      });
      if (row) {
        await recordAudit(tx, {
          eventId: event.id,
          actor: actorOf(who),
          action: decision === 'approved' ? 'registration.approved' : 'registration.rejected',
          targetType: 'registration',
          targetId: row.id,
          data: { team_name: row.team_name, ...(decision === 'rejected' ? { reason: row.reason, final: row.rejected_final === 1 } : {}) },
          at: stamp,
        });
        await queueWebhook(tx, {
          type: 'registration.decided',
          eventId: event.id,
          subjectUserId: row.user_id,
          registrationId: row.id,
          data: registrationData(row),
          at: stamp,
        });
        // Queued with the decision, to every member of the team: a crash never loses the mail, a rollback never sends it.
        const members = await memberIdsOf(tx, row.id);
        await queueNotification(tx, {
          kind: decision === 'approved' ? 'registration_approved' : 'registration_rejected',
          eventId: event.id,
          recipients: members.map((m) => ({ userId: m.user_id })),
          data: { team_name: row.team_name, ...(decision === 'rejected' && row.reason ? { reason: row.reason } : {}) },
          now: clock.now(),
        });
      }
      return row;
    });
    if (!decided) throw new AppError('registration_not_found', `no registration ${registrationId} in this event`);
    notifier.publish(REGISTRATION_DECIDED, registrationId);
    notifier.publish(MAIL_QUEUED);
    return { row: decided, reapplyUntil: reapplyUntil(event) };
  }

  return { register, mine, mineWaiting, list, csv, decide, findForUser, waiting: waits.waiting, waitsStarted: waits.waitsStarted };
}

export type RegistrationsService = ReturnType<typeof createRegistrationsService>;
