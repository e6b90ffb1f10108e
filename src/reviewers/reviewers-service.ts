import { actorOf, recordAudit } from '../core/audit.js';
import type { AccountsService, CreatedKey } from '../accounts/accounts-service.js';
import type { PasswordLockout } from '../accounts/password-lockout.js';
import type { Principal } from '../core/principal.js';
import { findUserByEmail, findUserById, lockUser, setNameIfMissing } from '../accounts/accounts-repo.js';
import { mailLanguage } from '../core/mail-format.js';
import { canonicalTimeZone } from '../events/event-config.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Db } from '../core/db/index.js';
import type { InvitationRow, ReviewRow } from '../core/db/schema.js';
import { requireEmailAddress } from '../core/email-address.js';
import { AppError, validationError } from '../core/errors.js';
import { cursorPartOk, decodeCursor, encodeCursor, takePage } from '../core/http/pagination.js';
import { newId } from '../core/ids.js';
import type { Delivery, Mailer } from '../core/mailer.js';
import { iso } from '../core/time.js';
import type { EventRecord } from '../events/events-model.js';
import type { EventsService } from '../events/events-service.js';
import { effectiveStatus } from '../events/status.js';
import type { Notifier } from '../core/notifier.js';
import { MAIL_QUEUED, queueNotification } from '../notifications/notification-queue.js';
import { invitationMail } from './invitation-mail.js';
import { hashInvitationToken, looksLikeInvitationToken, newInvitationToken } from './invitation-token.js';
import { validateScores } from './review-input.js';
import { invitationStatus } from './reviewers-model.js';
import * as repo from './reviewers-repo.js';
import { hasDeclaredConflict, isAssigned } from './assignments-repo.js';
import type { AssignmentsService } from './assignments-service.js';

/** The little a service needs of a logger (a Fastify request's logger fits). */
export interface Log {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface AcceptInput {
  email?: string;
  /** Needed unless `session` is the invited address's own web session. */
  password?: string;
  /** The caller's web session or API key, if any: signed in as the invited address, no password is needed. */
  session?: Principal | null;
  name?: string;
  /** The reviewer's display name (a new account, or one without a name, takes it; default: the invitation's). */
  displayName?: string;
  /** A new account's mail time zone (IANA). */
  timeZone?: string;
  /** Revoke the reviewer's working review keys and issue a new one (a lost key). */
  replaceKey?: boolean;
  /** The client's address: a wrong password counts in the sign-in lockout, per account and per IP. */
  ip: string;
}

/** A key the reviewer already holds, described without its secret (only its hash is stored). */
export interface HeldKey {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  scope: 'review';
}

export interface AcceptResult {
  event_id: string;
  event_name: string;
  user: { id: string; email: string; role: string };
  account_created: boolean;
  /** A new review-scoped key, shown once; null when the reviewer already holds one (see existing_key). */
  api_key: (CreatedKey & { scope: 'review' }) | null;
  existing_key: HeldKey | null;
  revoked_key_ids: string[];
}

const HOUR_MS = 3_600_000;
/** A reviewer gets at most one reminder per event in this long. */
export const REMINDER_INTERVAL_MS = 24 * HOUR_MS;

/** The path of the browser page an invitation link opens; the API twin is under /api/v1. */
export const invitationPath = (token: string) => `/invitations/${token}`;

export function createReviewersService(deps: {
  db: Db;
  clock: Clock;
  config: Config;
  accounts: AccountsService;
  lockout: PasswordLockout;
  events: EventsService;
  mailer: Mailer;
  /** Told when a reminder mail is queued, so the mail worker sends at once. */
  notifier?: Notifier;
  /** Assigned reviewing: kept converged before a queue or a review is read. */
  assignments: AssignmentsService;
}) {
  const { db, clock, config, accounts, events, mailer } = deps;

  // ---- organizers -------------------------------------------------------------------------

  /**
   * Invites `email` to review the event and mails the link. Re-inviting an address whose earlier
   * invitation is unused replaces it: the earlier link stops working once the new mail is sent
   * (if sending fails, the earlier invitation stays valid and the new one is discarded).
   */
  async function invite(
    who: Principal,
    eventId: string,
    input: { email: string; name?: string | undefined; language?: 'en' | 'zh' | undefined },
    log: Log,
  ): Promise<{ invitation: InvitationRow; delivery: Delivery['mode'] }> {
    const event = await events.getOwned(eventId, who);
    const now = clock.now();
    const status = effectiveStatus(event, now);
    if (status === 'ended' || status === 'cancelled') {
      throw new AppError('event_locked', `The event is ${status}; it takes no more reviewers.`);
    }
    const email = requireEmailAddress(input.email);
    // The mail's language: the organizer's choice, else their own mail language.
    const language = input.language ?? mailLanguage((await findUserById(db, who.userId))?.language);
    const { token, hash } = newInvitationToken();
    const invitation: InvitationRow = {
      id: newId('inv'),
      event_id: event.id,
      email,
      token_hash: hash,
      invited_by: who.userId,
      created_at: iso(now),
      expires_at: iso(now.getTime() + config.mail.invitationTtlHours * HOUR_MS),
      accepted_at: null,
      accepted_by: null,
      name: input.name?.replace(/\s+/g, ' ').trim() || null,
      language,
    };
    await repo.insertInvitation(db, invitation);

    const link = `${config.publicUrl}${invitationPath(token)}`;
    let delivery: Delivery;
    try {
      delivery = await mailer.send(
        invitationMail({
          to: email,
          eventName: event.name,
          eventDescription: event.description,
          inviterName: who.name,
          inviteeName: invitation.name,
          language,
          link,
          expiresAt: invitation.expires_at,
          timeZone: event.time_zone,
        }),
      );
    } catch (err) {
      await repo.deleteInvitation(db, invitation.id);
      log.error({ invitation_id: invitation.id, event_id: event.id, reason: (err as Error).message }, 'invitation e-mail could not be sent');
      throw new AppError('service_unavailable', 'The invitation e-mail could not be sent; nothing was changed. Try again later.');
    }
    if (delivery.mode === 'outbox') {
      // Without SMTP this log line is how a local organizer gets the link: the one place a token is logged.
      log.info(
        { invitation_id: invitation.id, event_id: event.id, outbox_file: delivery.file },
        `No SMTP_URL configured: the invitation e-mail for ${email} was written to ${delivery.file}. Invitation link: ${link}`,
      );
    }
    // The invitation counts once its mail is out: the older ones go and the audit entry is written
    // together (never the token: the invitation is named by its id and e-mail).
    await db.transaction().execute(async (tx) => {
      await repo.deleteOlderUnusedInvitations(tx, event.id, email, invitation.id);
      await recordAudit(tx, {
        eventId: event.id,
        actor: actorOf(who),
        action: 'reviewer.invited',
        targetType: 'reviewer_invitation',
        targetId: invitation.id,
        data: { email, expires_at: invitation.expires_at },
        at: invitation.created_at,
      });
    });
    return { invitation, delivery: delivery.mode };
  }

  /**
   * One page of the organizer's view. The body holds two lists, so they page as one stream:
   * reviewers first (by joining time), then invitations not yet accepted (by id); a page holds at
   * most `limit` entries of both together. The cursor names the section and the last key seen.
   */
  async function listReviewers(who: Principal, eventId: string, page: { limit: number; cursor?: string }) {
    const event = await events.getOwned(eventId, who);
    const at = page.cursor ? decodeCursor(page.cursor, 'reviewers', event.id, ['text', 'text', 'text']) : undefined;
    // Reviewers are keyed ['r', added_at, user_id], invitations ['i', id, ''].
    const shaped =
      !at || (at[0] === 'r' ? cursorPartOk('time', at[1]) && cursorPartOk('id', at[2]) : at[0] === 'i' && cursorPartOk('id', at[1]) && at[2] === '');
    if (!shaped) throw validationError([{ field: 'cursor', message: 'is not a cursor from this list' }]);
    const inInvitations = at?.[0] === 'i';
    const reviewerRows = inInvitations
      ? []
      : await repo.listReviewers(db, event.id, { limit: page.limit + 1, ...(at ? { after: [at[1]!, at[2]!] as const } : {}) });
    const shown = reviewerRows.slice(0, page.limit);
    const ids = shown.map((r) => r.user_id);
    const [open, reminded] = await Promise.all([repo.openReviewCounts(db, event.id, ids), repo.lastReminders(db, event.id, ids)]);
    const reviewers = shown.map((r) => ({
      ...r,
      reviews_count: Number(r.reviews_count ?? 0),
      open_reviews: open.get(r.user_id) ?? 0,
      last_reminded_at: reminded.get(r.user_id) ?? null,
    }));
    const lastReviewer = reviewers.length ? reviewers[reviewers.length - 1]! : null;
    const reviewerKey = (r: { added_at: string; user_id: string }) => ['r', r.added_at, r.user_id];
    let invitations: Awaited<ReturnType<typeof repo.listUnusedInvitations>> = [];
    let nextKey: string[] | null = null;
    if (reviewerRows.length > page.limit) {
      nextKey = reviewerKey(lastReviewer!);
    } else {
      const room = page.limit - reviewers.length;
      const rows = await repo.listUnusedInvitations(db, event.id, { limit: room + 1, ...(inInvitations ? { after: at[1]! } : {}) });
      invitations = rows.slice(0, room);
      if (rows.length > room) nextKey = invitations.length ? ['i', invitations[invitations.length - 1]!.id, ''] : reviewerKey(lastReviewer!);
    }
    return { event, reviewers, invitations, nextCursor: nextKey ? encodeCursor('reviewers', event.id, nextKey) : null };
  }

  /** Removes a reviewer and the reviews they gave, until results are published. */
  async function removeReviewer(who: Principal, eventId: string, userId: string): Promise<void> {
    const event = await events.getOwned(eventId, who);
    if (effectiveStatus(event, clock.now()) === 'ended') {
      throw new AppError('results_already_published', 'The results are published; the reviews behind them stay.');
    }
    const removed = await db.transaction().execute(async (tx) => {
      if (!(await repo.removeReviewer(tx, event.id, userId))) return false;
      await recordAudit(tx, { eventId: event.id, actor: actorOf(who), action: 'reviewer.removed', targetType: 'user', targetId: userId, at: iso(clock.now()) });
      return true;
    });
    if (!removed) throw new AppError('not_found', `${userId} is not a reviewer of this event`);
  }

  async function revokeInvitation(who: Principal, eventId: string, invitationId: string): Promise<void> {
    const event = await events.getOwned(eventId, who);
    const revoked = await db.transaction().execute(async (tx) => {
      if (!(await repo.deleteUnusedInvitation(tx, event.id, invitationId))) return false;
      await recordAudit(tx, {
        eventId: event.id,
        actor: actorOf(who),
        action: 'reviewer.invitation_revoked',
        targetType: 'reviewer_invitation',
        targetId: invitationId,
        at: iso(clock.now()),
      });
      return true;
    });
    if (!revoked) {
      throw new AppError('invitation_not_found', `no unused invitation ${invitationId} in this event`);
    }
  }

  /**
   * Reminds one reviewer by e-mail of the reviews they still owe (repo.openReviewCounts), with a
   * link to their queue. While the event is judging only; at most once a day per reviewer and
   * event, enforced by the database (repo.claimReminder): the slot and the queued mail commit
   * together, so a reminder refused as too soon never sends and a sent one is never lost.
   */
  async function remind(who: Principal, eventId: string, userId: string) {
    const event = await events.getOwned(eventId, who);
    const now = clock.now();
    const window = reviewWindow(event, now);
    if (!window.open) throw window.error;
    if (!(await repo.isReviewer(db, event.id, userId))) throw new AppError('not_found', `${userId} is not a reviewer of this event`);
    // Assigned reviewing: the count is of the reviewer's current assignments.
    await deps.assignments.sync(event.id);
    const open = (await repo.openReviewCounts(db, event.id, [userId])).get(userId) ?? 0;
    if (open === 0) {
      throw new AppError('no_open_reviews', 'This reviewer has reviewed every project they may review; there is nothing to remind them of.', {
        extra: { open_reviews: 0 },
      });
    }
    const sent = await sendReminders(who, event, now, [{ userId, open }]);
    const one = sent[0]!;
    if (!one.sent) {
      const retryAfterSeconds = Math.max(1, Math.ceil((Date.parse(one.nextAllowedAt) - now.getTime()) / 1000));
      throw new AppError('reminder_too_soon', `This reviewer was reminded at ${one.lastSentAt}; the next reminder is allowed at ${one.nextAllowedAt}.`, {
        extra: { last_sent_at: one.lastSentAt, next_allowed_at: one.nextAllowedAt },
        retryAfterSeconds,
      });
    }
    return reminderForApi(event.id, one, open);
  }

  /**
   * Reminds every reviewer of the event who has open reviews and was not reminded in the last day.
   * Answers who was reminded and how many were skipped because their last reminder is too recent.
   */
  async function remindAll(who: Principal, eventId: string) {
    const event = await events.getOwned(eventId, who);
    const now = clock.now();
    const window = reviewWindow(event, now);
    if (!window.open) throw window.error;
    await deps.assignments.sync(event.id);
    const open = await repo.openReviewCounts(db, event.id);
    const owing = [...open].filter(([, n]) => n > 0).map(([userId, n]) => ({ userId, open: n }));
    const sent = await sendReminders(who, event, now, owing);
    const byUser = new Map(owing.map((o) => [o.userId, o.open]));
    return {
      event_id: event.id,
      reminded: sent.filter((s) => s.sent).map((s) => reminderForApi(event.id, s, byUser.get(s.userId) ?? 0)),
      skipped_too_soon: sent.filter((s) => !s.sent).map((s) => ({ user_id: s.userId, last_sent_at: s.lastSentAt, next_allowed_at: s.nextAllowedAt })),
    };
  }

  type ReminderOutcome = { userId: string; sent: boolean; lastSentAt: string; nextAllowedAt: string; mailQueued: boolean };

  /** Claims each reviewer's daily slot and queues their mail, in one transaction per reviewer. */
  async function sendReminders(who: Principal, event: EventRecord, now: Date, owing: Array<{ userId: string; open: number }>) {
    const stamp = iso(now);
    const sentBefore = iso(now.getTime() - REMINDER_INTERVAL_MS);
    const out: ReminderOutcome[] = [];
    let queuedAny = false;
    for (const o of owing) {
      const outcome = await db.transaction().execute(async (tx): Promise<ReminderOutcome> => {
        const claimed = await repo.claimReminder(tx, { eventId: event.id, userId: o.userId, now: stamp, sentBefore, by: who.userId, openReviews: o.open });
        if (!claimed) {
          const last = (await repo.lastReminders(tx, event.id, [o.userId])).get(o.userId) ?? stamp;
          return { userId: o.userId, sent: false, lastSentAt: last, nextAllowedAt: iso(Date.parse(last) + REMINDER_INTERVAL_MS), mailQueued: false };
        }
        const queued = await queueNotification(tx, {
          kind: 'reviewer_reminder',
          eventId: event.id,
          recipients: [{ userId: o.userId }],
          data: { open_reviews: o.open },
          now,
        });
        return { userId: o.userId, sent: true, lastSentAt: stamp, nextAllowedAt: iso(now.getTime() + REMINDER_INTERVAL_MS), mailQueued: queued > 0 };
      });
      if (outcome.mailQueued) queuedAny = true;
      out.push(outcome);
    }
    if (queuedAny) deps.notifier?.publish(MAIL_QUEUED);
    return out;
  }

  function reminderForApi(eventId: string, o: ReminderOutcome, open: number) {
    return { event_id: eventId, user_id: o.userId, open_reviews: open, sent_at: o.lastSentAt, next_allowed_at: o.nextAllowedAt, mail_queued: o.mailQueued };
  }

  // ---- invitees -----------------------------------------------------------------------------

  /** The invitation behind a token, if it can still be accepted: 404 unknown, 410 closed, used or expired. */
  async function openInvitation(token: string) {
    const found = looksLikeInvitationToken(token) ? await repo.findInvitationByHash(db, hashInvitationToken(token)) : undefined;
    if (!found) {
      throw new AppError('invitation_not_found', 'This invitation link is unknown, or was replaced by a newer invitation or withdrawn.');
    }
    // A finished event takes no reviewers: its invitations must not make accounts or keys any more.
    const eventStatus = effectiveStatus(
      { status: found.event_status, registration_deadline: found.registration_deadline, submission_deadline: found.submission_deadline },
      clock.now(),
    );
    if (eventStatus === 'ended' || eventStatus === 'cancelled') {
      throw new AppError(
        'invitation_closed',
        `The event "${found.event_name}" has ${eventStatus === 'ended' ? 'ended (its results are published)' : 'been cancelled'}, so this invitation can no longer be used.`,
      );
    }
    const status = invitationStatus(found, clock.now());
    if (status === 'accepted') throw new AppError('invitation_used', 'This invitation has already been accepted; each link works once.');
    if (status === 'expired') {
      throw new AppError('invitation_expired', `This invitation expired at ${found.expires_at}; ask the organizer for a new one.`);
    }
    return found;
  }

  async function describeInvitation(token: string) {
    const inv = await openInvitation(token);
    const account = await findUserByEmail(db, inv.email);
    return {
      event_id: inv.event_id,
      event_name: inv.event_name,
      email: inv.email,
      name: inv.name,
      status: 'pending' as const,
      expires_at: inv.expires_at,
      account_exists: account !== undefined,
    };
  }

  /**
   * Signs the invited address in (existing account: its password) or creates its account, then
   * claims the invitation atomically and makes the user a reviewer. A wrong password leaves the
   * invitation usable. Keys: a reviewer holds one review-scoped key for all their events. If they
   * already hold a working one, none is minted (keys are shown once and stored hashed, so the held
   * one is only described); `replaceKey` revokes the held ones and issues a new one.
   */
  async function accept(token: string, input: AcceptInput): Promise<AcceptResult> {
    const inv = await openInvitation(token);
    if (input.email !== undefined && requireEmailAddress(input.email) !== inv.email) {
      throw validationError([{ field: 'email', message: `this invitation is for ${inv.email}` }]);
    }

    const displayName = input.displayName?.replace(/\s+/g, ' ').trim() || inv.name || null;
    if (input.timeZone && !canonicalTimeZone(input.timeZone)) {
      throw validationError([{ field: 'time_zone', message: 'must be an IANA time zone name, e.g. Europe/Berlin or Asia/Shanghai' }]);
    }
    let user = await findUserByEmail(db, inv.email);
    let accountCreated = false;
    // A web session or an API key (full or review-scoped) of the invited address signs in without a password.
    const session = input.session ?? null;
    if (session) {
      if (session.email !== inv.email) {
        throw new AppError(
          'forbidden',
          session.via === 'session'
            ? `This invitation is for ${inv.email}; you are signed in as ${session.email}. Sign out and sign in as ${inv.email}.`
            : `This invitation is for ${inv.email}; the API key sent is ${session.email}'s. Send a key of ${inv.email}, or no key and the password of ${inv.email}.`,
        );
      }
      if (!user) throw new Error('a session without its account');
    } else if (input.password === undefined) {
      throw validationError([{ field: 'password', message: 'is required (or send an API key of the invited address, or sign in as it)' }]);
    } else if (user) {
      if (!(await deps.lockout.check(inv.email, input.password, input.ip, 'password attempts'))) {
        throw new AppError('unauthorized', `Wrong password for the existing account ${inv.email}.`);
      }
    } else {
      try {
        await accounts.createUser({
          email: inv.email,
          password: input.password,
          role: 'user',
          name: displayName,
          language: inv.language,
          timeZone: input.timeZone ? canonicalTimeZone(input.timeZone) : null,
        });
        accountCreated = true;
      } catch (err) {
        // Someone created the account meanwhile (a concurrent accept): sign in instead.
        if (!(err instanceof AppError && err.code === 'email_taken')) throw err;
        if (!(await deps.lockout.check(inv.email, input.password, input.ip, 'password attempts'))) {
          throw new AppError('unauthorized', `Wrong password for the existing account ${inv.email}.`);
        }
      }
      user = await findUserByEmail(db, inv.email);
      if (!user) throw new Error('account vanished right after creation');
    }

    // Said after the password check (like sign-in), so it reveals nothing to a guesser.
    const disabled = () => new AppError('account_disabled', 'This account is disabled; contact the operator of this server.');
    if (user.disabled_at) throw disabled();
    const now = iso(clock.now());
    const userId = user.id;
    const won = await db.transaction().execute(async (tx) => {
      // Again inside the transaction, under the user's row lock (a disabling waits for it): an
      // account disabled meanwhile does not become a reviewer.
      await lockUser(tx, userId);
      if ((await findUserById(tx, userId))?.disabled_at) throw disabled();
      if (!(await repo.claimInvitation(tx, inv.id, userId, now))) return false;
      await repo.addReviewer(tx, inv.event_id, userId, now);
      return true;
    });
    if (!won) {
      // Lost a race (used meanwhile) or expired between the check and the claim: say which.
      await openInvitation(token);
      throw new AppError('invitation_used', 'This invitation has already been accepted; each link works once.');
    }
    // An account without a name takes the one given (else the reviewer shows as their address everywhere).
    if (!user.name && displayName && (await setNameIfMissing(db, userId, displayName, now))) accounts.invalidateAuth();
    // A reviewer joining an event with assigned reviewing takes their share now (the next read would too).
    await deps.assignments.sync(inv.event_id);
    const { issued, held, revokedIds } = await accounts.issueReviewKey(userId, {
      name: input.name?.trim() || `reviewer: ${inv.event_name}`,
      replace: input.replaceKey === true,
    });
    return {
      event_id: inv.event_id,
      event_name: inv.event_name,
      user: { id: user.id, email: user.email, role: user.role },
      account_created: accountCreated,
      api_key: issued ? { ...issued, scope: 'review' } : null,
      existing_key: held
        ? { id: held.id, name: held.name, prefix: held.prefix, created_at: held.created_at, expires_at: held.expires_at, scope: 'review' }
        : null,
      revoked_key_ids: revokedIds,
    };
  }

  // ---- reviewers ----------------------------------------------------------------------------

  async function requireReviewer(who: Principal, eventId: string): Promise<EventRecord> {
    const event = await events.getVisible(eventId, who);
    if (!(await repo.isReviewer(db, event.id, who.userId))) {
      throw new AppError('forbidden', 'You are not a reviewer of this event; reviewers join through an invitation link.');
    }
    return event;
  }

  /** Human reviews are taken while the event is judging: after the submission deadline, until results are published. */
  function reviewWindow(event: EventRecord, now: Date): { open: true } | { open: false; error: AppError } {
    const status = effectiveStatus(event, now);
    if (status === 'judging') return { open: true };
    if (status === 'ended') {
      return { open: false, error: new AppError('results_already_published', 'The results are published; reviews can no longer change.') };
    }
    if (status === 'cancelled') return { open: false, error: new AppError('event_locked', 'The event is cancelled.') };
    return {
      open: false,
      error: new AppError('not_judging', `Reviews open when judging starts (submission deadline ${event.submission_deadline}); the event is ${status}.`, {
        extra: {
          action:
            'Reviews open when judging starts (at the submission deadline, or earlier if the organizer starts it): read GET /api/v1/events/{id}/review-assignments until reviewing_open is true, then save.',
        },
      }),
    };
  }

  /**
   * The projects a reviewer should review, with their own review of each. Projects of a team the
   * reviewer registered are left out (conflict of interest) and only counted.
   */
  async function assignments(who: Principal, eventId: string, page: { limit: number; cursor?: string }) {
    const event = await requireReviewer(who, eventId);
    // Scoped to the reviewer too: each reviewer's list leaves out a different project.
    const scope = `${event.id}/${who.userId}`;
    const after = page.cursor ? decodeCursor(page.cursor, 'review-assignments', scope, ['time', 'id']) : undefined;
    await deps.assignments.sync(event.id);
    const settings = await deps.assignments.settings(event.id);
    const assignedOnly = settings.mode === 'assigned' && settings.perProject !== null;
    const [rows, own] = await Promise.all([
      repo.listReviewableProjects(db, event.id, who.userId, {
        limit: page.limit + 1,
        assignedOnly,
        ...(after ? { after: [after[0]!, after[1]!] as const } : {}),
      }),
      repo.countOwnJudgedProjects(db, event.id, who.userId),
    ]);
    const { items, nextKey } = takePage(rows, page.limit, (r) => [r.first_submitted_at, r.id]);
    const now = clock.now();
    return {
      event,
      status: effectiveStatus(event, now),
      reviewMode: assignedOnly ? ('assigned' as const) : ('every' as const),
      reviewingOpen: reviewWindow(event, now).open,
      hiddenForConflict: own,
      projects: items,
      nextCursor: nextKey ? encodeCursor('review-assignments', scope, nextKey) : null,
    };
  }

  async function requireProject(event: EventRecord, who: Principal, projectId: string) {
    const project = await repo.findReviewableProject(db, event.id, projectId, who.userId);
    if (!project) throw new AppError('project_not_found', `no project ${projectId} to review in this event`);
    // 1/true on SQLite, true on PostgreSQL.
    if (Number(project.own_team) === 1 || project.own_team === true) {
      throw new AppError('conflict_of_interest', 'You are or were on the team behind this project, so you cannot review it.');
    }
    if (await hasDeclaredConflict(db, project.id, who.userId)) {
      throw new AppError('conflict_of_interest', 'A conflict of interest with this project is declared for you, so you cannot review it.');
    }
    const settings = await deps.assignments.settings(event.id);
    if (settings.mode === 'assigned' && settings.perProject !== null) {
      await deps.assignments.sync(event.id);
      if (!(await isAssigned(db, project.id, who.userId))) {
        throw new AppError('project_not_assigned', 'This event assigns projects to reviewers, and this project is not assigned to you.');
      }
    }
    return project;
  }

  async function putReview(
    who: Principal,
    eventId: string,
    projectId: string,
    input: { scores: Record<string, unknown>; comment?: string | null },
  ): Promise<{ review: ReviewRow; created: boolean }> {
    const event = await requireReviewer(who, eventId);
    const project = await requireProject(event, who, projectId);
    const window = reviewWindow(event, clock.now());
    if (!window.open) throw window.error;
    const { value, errors } = validateScores(input.scores, event.dimensions);
    if (errors.length) throw validationError(errors);
    return repo.upsertHumanReview(db, {
      id: newId('rev'),
      eventId: event.id,
      projectId: project.id,
      reviewerId: who.userId,
      scores: JSON.stringify(value),
      comment: input.comment?.trim() ? input.comment : null,
      now: iso(clock.now()),
    });
  }

  async function getReview(who: Principal, eventId: string, projectId: string): Promise<ReviewRow> {
    const event = await requireReviewer(who, eventId);
    const project = await requireProject(event, who, projectId);
    const review = await repo.findHumanReview(db, project.id, who.userId);
    if (!review) throw new AppError('not_found', 'You have not reviewed this project yet.');
    return review;
  }

  /** A reviewer declares a conflict of interest with a project: it leaves their queue (and their review of it goes). */
  async function declareConflict(who: Principal, eventId: string, projectId: string): Promise<void> {
    const event = await requireReviewer(who, eventId);
    await deps.assignments.declareConflict(who, event, projectId);
  }

  return {
    invite,
    listReviewers,
    removeReviewer,
    revokeInvitation,
    remind,
    remindAll,
    describeInvitation,
    accept,
    assignments,
    putReview,
    getReview,
    declareConflict,
  };
}

export type ReviewersService = ReturnType<typeof createReviewersService>;
