import { actorOf, CLI_ACTOR, recordAudit } from '../core/audit.js';
import { randomBytes, createHash } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { uniqueViolation, type Db } from '../core/db/index.js';
import type { InviteCodeRow, Role, UserRow } from '../core/db/schema.js';
import { DEFAULT_SETTINGS } from '../core/db/schema.js';
import { normaliseEmailAddress, requireEmailAddress } from '../core/email-address.js';
import { AppError, validationError } from '../core/errors.js';
import { decodeCursor, encodeCursor, takePage } from '../core/http/pagination.js';
import { newId } from '../core/ids.js';
import type { Mailer } from '../core/mailer.js';
import type { Notifier } from '../core/notifier.js';
import type { RateLimitStore } from '../core/rate-limit.js';
import { iso } from '../core/time.js';
import { effectiveStatus } from '../events/status.js';
import * as repo from './accounts-repo.js';
import type { Principal } from '../core/principal.js';
import { ROLES, type AccountsService, type CreatedKey, type StartedSession } from './accounts-service.js';
import { generateInviteCode, hashInviteCode } from './invite-codes.js';
import { rateLimited, type PasswordLockout } from './password-lockout.js';
import { PASSWORD_MIN_LENGTH } from './passwords.js';
import { agentSignupConfirmMail, passwordResetMail, signupConfirmMail, signupExistingMail } from './account-mails.js';
import { mailLanguage } from '../core/mail-format.js';
import { canonicalTimeZone } from '../events/event-config.js';

/** Published with the id of an agent's account when its owner confirms it (wakes GET /auth/status?wait=). */
export const ACCOUNT_CONFIRMED = 'accounts:confirmed';

/** Password-reset requests allowed per e-mail address within the sign-in window (per IP: SIGNIN_MAX_FAILURES_PER_IP). */
export const RESET_REQUESTS_PER_WINDOW = 5;

export interface ClientMeta {
  ip: string;
  userAgent?: string | undefined;
}

export interface Log {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

function requireStrongPassword(password: string, field = 'password'): void {
  if (password.length < PASSWORD_MIN_LENGTH) {
    throw validationError([{ field, message: `must be at least ${PASSWORD_MIN_LENGTH} characters` }]);
  }
}

const hashResetToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The web accounts flows: sign-up (open, invite-only or closed), sign-in with a failed-attempt
 * lockout, password change and reset by e-mail, and the admin's users and invite codes. Sessions
 * and keys themselves live in the accounts service.
 */
export function createAuthService(deps: {
  db: Db;
  clock: Clock;
  config: Config;
  accounts: AccountsService;
  store: RateLimitStore;
  lockout: PasswordLockout;
  mailer: Mailer;
  /** Wakes the confirmation long-polls (in other processes too, with Redis or PostgreSQL); without it they re-check on their own. */
  notifier?: Notifier;
}) {
  const { db, clock, config, accounts, store, lockout, mailer, notifier } = deps;
  const cfg = config.accounts;
  const windowMs = cfg.signinWindowSeconds * 1000;
  /** Background mail sends, awaited on close. */
  const pending = new Set<Promise<void>>();

  /**
   * Open and invite sign-up. With confirmation by e-mail (SIGNUP_CONFIRMATION, on by default with
   * SMTP) the answer is `confirmation_sent` whether or not the address has an account: the lookup,
   * the password hash and the mail happen in the background (as the password reset), and the
   * account is made at the link (confirmSignup). Without it, the account is made at once and an
   * address in use is `email_taken`: that answer reveals the address (see docs/operator.md).
   */
  async function signup(
    input: {
      email: string;
      password: string;
      name?: string | undefined;
      inviteCode?: string | undefined;
      language?: 'en' | 'zh' | undefined;
      timeZone?: string | undefined;
    },
    meta: ClientMeta,
    log: Log,
  ): Promise<{ kind: 'created'; user: UserRow; session: StartedSession } | { kind: 'confirmation_sent'; email: string }> {
    if (cfg.signupMode === 'closed') throw signupClosed();
    const email = requireEmailAddress(input.email);
    requireStrongPassword(input.password);
    const invalidCode = () => new AppError('invite_code_invalid', 'Sign-up here needs a valid invite code: this one is missing, unknown, used up or expired.');
    if (cfg.signupMode === 'invite' && !input.inviteCode?.trim()) throw invalidCode();
    const codeHash = cfg.signupMode === 'invite' ? hashInviteCode(input.inviteCode!) : null;
    const timeZone = signupTimeZone(input.timeZone);
    if (cfg.signupConfirmation === 'email') {
      const now = clock.now();
      const hit = await store.hit(`signup:e:${email}`, windowMs, now.getTime());
      if (hit.count > RESET_REQUESTS_PER_WINDOW) throw rateLimited(Math.max(1, Math.ceil(hit.resetMs / 1000)), 'sign-up requests');
      // The code says nothing about the address: checked here (not used up: that happens at the link).
      if (codeHash && !(await repo.inviteCodeUsable(db, codeHash, iso(now)))) throw invalidCode();
      const name = input.name?.trim() || null;
      const job = sendSignupMail({ email, password: input.password, name, codeHash, language: input.language ?? null, timeZone }, now, log).catch(
        (err: Error) => log.error({ reason: err.message }, 'sign-up e-mail could not be sent'),
      );
      pending.add(job);
      void job.finally(() => pending.delete(job));
      return { kind: 'confirmation_sent', email };
    }
    // Hashed before the transaction: scrypt is slow and must not hold the database write lock.
    const passwordHash = await accounts.hashPassword(input.password);
    const now = iso(clock.now());
    const user: UserRow = {
      id: newId('usr'),
      email,
      password_hash: passwordHash,
      role: 'user',
      created_at: now,
      updated_at: now,
      name: input.name?.trim() || null,
      disabled_at: null,
      ...DEFAULT_SETTINGS,
      unconfirmed_since: null,
      language: input.language ?? null,
      time_zone: timeZone,
    };
    try {
      const session = await db.transaction().execute(async (tx) => {
        // The code's use and the user are one transaction: a sign-up that fails gives the use back.
        if (codeHash && !(await repo.claimInviteCode(tx, codeHash, now))) throw invalidCode();
        await repo.insertUser(tx, user);
        return accounts.startSession(user.id, meta, tx);
      });
      return { kind: 'created', user, session };
    } catch (err) {
      if (uniqueViolation(err)) throw new AppError('email_taken', `a user with e-mail ${email} already exists`);
      throw err;
    }
  }

  /** The time zone a sign-up sent (the web sends the browser's), canonical; an unknown name is the client's mistake. */
  function signupTimeZone(raw: string | undefined): string | null {
    if (raw === undefined || raw.trim() === '') return null;
    const zone = canonicalTimeZone(raw.trim());
    if (!zone) throw validationError([{ field: 'time_zone', message: 'must be an IANA time zone name, e.g. Europe/Berlin or Asia/Shanghai' }]);
    return zone;
  }

  /** SIGNUP_MODE=closed: the answer names whom to ask (OPERATOR_CONTACT), when the operator said. */
  function signupClosed(): AppError {
    const contact = cfg.operatorContact;
    return new AppError(
      'signup_closed',
      contact
        ? `This server does not take new sign-ups; ask its operator for an account: ${contact}.`
        : 'This server does not take new sign-ups; ask its operator (whoever gave you this address) for an account.',
      { extra: { contact } },
    );
  }

  /**
   * An agent's own sign-up: an account and a full API key in one request, no browser, cookie or
   * CSRF token. Counted per client address (AGENT_SIGNUPS_PER_IP within the sign-in window), every
   * attempt (a wrong invite code too). Invite mode claims the code now. With e-mail confirmation on,
   * the account is made unconfirmed and the owner's address gets a link: the key answers
   * `account_unconfirmed` until it is opened. An address in use is `email_taken` (this answer
   * tells whether an address has an account, as sign-up without confirmation does); an unconfirmed
   * account whose link expired starts over (its old keys revoked), so a lost link is not a dead end.
   */
  async function agentSignup(
    input: {
      email: string;
      password?: string | undefined;
      name?: string | undefined;
      inviteCode?: string | undefined;
      keyName?: string | undefined;
      language?: 'en' | 'zh' | undefined;
      timeZone?: string | undefined;
    },
    meta: ClientMeta,
    log: Log,
  ): Promise<{ user: UserRow; key: CreatedKey; awaitingConfirmation: boolean; confirmationExpiresAt: string | null }> {
    if (cfg.signupMode === 'closed') throw signupClosed();
    const started = clock.now();
    const ipHit = await store.hit(`agentsignup:ip:${meta.ip}`, windowMs, started.getTime());
    if (ipHit.count > cfg.agentSignupsPerIp) throw rateLimited(Math.max(1, Math.ceil(ipHit.resetMs / 1000)), 'agent sign-ups from this address');
    const email = requireEmailAddress(input.email);
    if (input.password !== undefined) requireStrongPassword(input.password);
    const invalidCode = () =>
      new AppError(
        'invite_code_invalid',
        'Sign-up here needs a valid invite code (`invite_code`): this one is missing, unknown, used up or expired; ask an administrator of this server for one.',
      );
    if (cfg.signupMode === 'invite' && !input.inviteCode?.trim()) throw invalidCode();
    const codeHash = cfg.signupMode === 'invite' ? hashInviteCode(input.inviteCode!) : null;
    const confirm = cfg.signupConfirmation === 'email';
    if (confirm) {
      const hit = await store.hit(`signup:e:${email}`, windowMs, started.getTime());
      if (hit.count > RESET_REQUESTS_PER_WINDOW) throw rateLimited(Math.max(1, Math.ceil(hit.resetMs / 1000)), 'sign-up requests for this address');
    }
    const passwordHash = input.password === undefined ? null : await accounts.hashPassword(input.password);
    const now = iso(clock.now());
    const name = input.name?.trim() || null;
    const language = input.language ?? null;
    const timeZone = signupTimeZone(input.timeZone);
    const token = confirm ? randomBytes(32).toString('base64url') : null;
    const expiresAt = confirm ? iso(Date.parse(now) + cfg.signupConfirmTtlMinutes * 60_000) : null;
    let restarted = false;
    try {
      const { user, key } = await db.transaction().execute(async (tx) => {
        const existing = await repo.findUserByEmail(tx, email);
        const taken = () =>
          new AppError(
            'email_taken',
            existing?.unconfirmed_since
              ? `${email} has an account waiting for its owner to confirm it; use the key given then, or sign up again once its link has expired.`
              : `${email} has an account already; sign in with it and create a key at ${config.publicUrl}/api-keys, or sign up with another address.`,
          );
        let user: UserRow;
        if (existing) {
          if (!confirm || !existing.unconfirmed_since || (await repo.liveConfirmationOf(tx, existing.id, now))) throw taken();
          if (!(await repo.restartUnconfirmedUser(tx, existing.id, { password_hash: passwordHash, name, language, time_zone: timeZone }, now))) throw taken();
          await repo.revokeUserApiKeys(tx, existing.id, now);
          restarted = true;
          user = { ...existing, password_hash: passwordHash, name, language, time_zone: timeZone, unconfirmed_since: now, updated_at: now };
        } else {
          user = {
            id: newId('usr'),
            email,
            password_hash: passwordHash,
            role: 'user',
            created_at: now,
            updated_at: now,
            name,
            disabled_at: null,
            ...DEFAULT_SETTINGS,
            language,
            time_zone: timeZone,
            unconfirmed_since: confirm ? now : null,
          };
          await repo.insertUser(tx, user);
        }
        if (codeHash && !(await repo.claimInviteCode(tx, codeHash, now))) throw invalidCode();
        const key = await accounts.createKey(user.id, { name: input.keyName?.trim() || 'agent', scope: 'full' }, tx);
        if (token && expiresAt) {
          await repo.deleteExpiredSignupRequests(tx, now);
          await repo.insertSignupRequest(tx, {
            id: newId('sgr'),
            email,
            // Never used for this kind of request (the account exists): the column predates it and is required.
            password_hash: passwordHash ?? '',
            name,
            language,
            time_zone: timeZone,
            invite_code_hash: null,
            token_hash: hashResetToken(token),
            created_at: now,
            expires_at: expiresAt,
            used_at: null,
            user_id: user.id,
          });
        }
        return { user, key };
      });
      if (restarted) accounts.invalidateAuth();
      if (token && expiresAt) {
        const link = `${config.publicUrl}/signup/confirm?token=${token}`;
        const job = mailer
          .send(
            agentSignupConfirmMail({
              to: email,
              siteName: config.siteName,
              language: mailLanguage(language),
              timeZone: timeZone ?? 'UTC',
              link,
              expiresAt,
              keyPrefix: key.prefix,
            }),
          )
          .then((delivery) => {
            if (delivery.mode === 'outbox')
              log.info({ user_id: user.id, outbox_file: delivery.file }, 'agent sign-up confirmation e-mail written to the outbox');
          })
          .catch((err: Error) => log.error({ reason: err.message, user_id: user.id }, 'agent sign-up e-mail could not be sent'));
        pending.add(job);
        void job.finally(() => pending.delete(job));
      }
      return { user, key, awaitingConfirmation: confirm, confirmationExpiresAt: expiresAt };
    } catch (err) {
      if (uniqueViolation(err))
        throw new AppError(
          'email_taken',
          `${email} has an account already; sign in with it and create a key at ${config.publicUrl}/api-keys, or sign up with another address.`,
        );
      throw err;
    }
  }

  /** Long-polls waiting for an account's confirmation in this process right now, and since start. */
  let confirmationWaiting = 0;
  let confirmationWaitsStarted = 0;

  /**
   * Waits up to `waitSeconds` for an agent's account to be confirmed; whether it still waits. Woken
   * by the notifier (this process, or others through Redis or PostgreSQL), and re-read every
   * WAIT_RECHECK_MS in case a message was lost. Subscribed before the first read: a confirmation
   * between the read and the wait is not missed.
   */
  async function awaitConfirmation(userId: string, waitSeconds: number, signal?: AbortSignal): Promise<boolean> {
    let woken = false;
    let wake: () => void = () => {
      woken = true;
    };
    const unsubscribe = notifier?.subscribe(ACCOUNT_CONFIRMED, (id) => {
      if (id === userId) wake();
    });
    const deadline = Date.now() + waitSeconds * 1000;
    let counted = false;
    try {
      for (;;) {
        woken = false;
        if (!(await repo.isUnconfirmed(db, userId))) return false;
        const left = deadline - Date.now();
        if (left <= 0 || signal?.aborted) return true;
        if (!counted) {
          counted = true;
          confirmationWaiting++;
          confirmationWaitsStarted++;
        }
        if (woken) continue;
        const recheck = config.waitRecheckMs > 0 ? Math.min(left, config.waitRecheckMs) : left;
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', done);
            wake = () => {
              woken = true;
            };
            resolve();
          };
          const timer = setTimeout(done, recheck);
          wake = done;
          signal?.addEventListener('abort', done, { once: true });
        });
      }
    } finally {
      unsubscribe?.();
      if (counted) confirmationWaiting--;
    }
  }

  /** In the background: a link for a new address, a notice to the owner of an existing one. */
  async function sendSignupMail(
    req: { email: string; password: string; name: string | null; codeHash: string | null; language: string | null; timeZone: string | null },
    now: Date,
    log: Log,
  ): Promise<void> {
    const existing = await repo.findUserByEmail(db, req.email);
    if (existing) {
      if (existing.disabled_at) return;
      const signinLink = `${config.publicUrl}/signin`;
      const resetLink = `${config.publicUrl}/forgot-password`;
      const delivery = await mailer.send(
        signupExistingMail({
          to: existing.email,
          siteName: config.siteName,
          // The owner's own settings when they chose them, else what this browser sent.
          language: mailLanguage(existing.language ?? req.language),
          timeZone: existing.time_zone ?? req.timeZone ?? 'UTC',
          signinLink,
          resetLink,
        }),
      );
      if (delivery.mode === 'outbox') log.info({ user_id: existing.id, outbox_file: delivery.file }, 'sign-up notice e-mail written to the outbox');
      return;
    }
    const passwordHash = await accounts.hashPassword(req.password);
    const token = randomBytes(32).toString('base64url');
    const expiresAt = iso(now.getTime() + cfg.signupConfirmTtlMinutes * 60_000);
    await repo.deleteExpiredSignupRequests(db, iso(now));
    await repo.insertSignupRequest(db, {
      id: newId('sgr'),
      email: req.email,
      password_hash: passwordHash,
      name: req.name,
      language: req.language,
      time_zone: req.timeZone,
      invite_code_hash: req.codeHash,
      token_hash: hashResetToken(token),
      created_at: iso(now),
      expires_at: expiresAt,
      used_at: null,
    });
    const link = `${config.publicUrl}/signup/confirm?token=${token}`;
    const delivery = await mailer.send(
      signupConfirmMail({
        to: req.email,
        siteName: config.siteName,
        language: mailLanguage(req.language),
        timeZone: req.timeZone ?? 'UTC',
        link,
        expiresAt,
      }),
    );
    // Never the link: the outbox file holds it for an operator without SMTP.
    if (delivery.mode === 'outbox') log.info({ outbox_file: delivery.file }, 'sign-up confirmation e-mail written to the outbox');
  }

  /**
   * Makes the account of a confirmed sign-up and signs it in. The token works once: of two
   * concurrent confirms one makes the account, the other is `signup_token_invalid`; if the address
   * got an account meanwhile (another link, an administrator), the token is spent and the answer is
   * `email_taken` (only the address's owner holds the link, so that tells nobody else anything).
   */
  async function confirmSignup(token: string, meta: ClientMeta): Promise<{ user: UserRow; session: StartedSession }> {
    const invalid = () => new AppError('signup_token_invalid', 'This sign-up link is unknown, already used or expired; sign up again to get a new one.');
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw invalid();
    const now = iso(clock.now());
    let requestId: string | null = null;
    let confirmedId: string | null = null;
    try {
      const made = await db.transaction().execute(async (tx) => {
        const req = await repo.claimSignupRequest(tx, hashResetToken(token), now);
        if (!req) throw invalid();
        if (req.user_id) {
          // An agent's account: it exists and waits; the link confirms it and signs its owner in.
          if (!(await repo.confirmUser(tx, req.user_id, now))) throw invalid();
          const user = await repo.findUserById(tx, req.user_id);
          if (!user) throw invalid();
          confirmedId = user.id;
          return { user: { ...user, unconfirmed_since: null }, session: await accounts.startSession(user.id, meta, tx) };
        }
        requestId = req.id;
        if (req.invite_code_hash && !(await repo.claimInviteCode(tx, req.invite_code_hash, now))) {
          throw new AppError('invite_code_invalid', 'The invite code of this sign-up is used up, revoked or expired by now; ask for a new one.');
        }
        const user: UserRow = {
          id: newId('usr'),
          email: req.email,
          password_hash: req.password_hash,
          role: 'user',
          created_at: now,
          updated_at: now,
          name: req.name,
          disabled_at: null,
          ...DEFAULT_SETTINGS,
          unconfirmed_since: null,
          language: req.language,
          time_zone: req.time_zone,
        };
        await repo.insertUser(tx, user);
        return { user, session: await accounts.startSession(user.id, meta, tx) };
      });
      if (confirmedId) {
        // The cached principals of its keys still say "unconfirmed": drop them, then wake the waiters.
        accounts.invalidateAuth();
        notifier?.publish(ACCOUNT_CONFIRMED, confirmedId);
      }
      return made;
    } catch (err) {
      if (requestId && uniqueViolation(err)) {
        await repo.spendSignupRequest(db, requestId, now);
        throw new AppError('email_taken', 'This address has an account already; sign in, or reset its password.');
      }
      throw err;
    }
  }

  /**
   * Failed sign-ins are counted per account and per client IP; past either limit every attempt,
   * the right password included, is refused until the window ends (see password-lockout.ts).
   */
  async function signin(input: { email: string; password: string }, meta: ClientMeta): Promise<{ user: UserRow; session: StartedSession }> {
    const user = await lockout.check(input.email, input.password, meta.ip);
    if (!user) throw new AppError('invalid_credentials', 'The e-mail address or the password is wrong.');
    // Said only after the right password, so it reveals nothing to a guesser.
    if (user.disabled_at) throw new AppError('account_disabled', 'This account is disabled; contact the operator of this server.');
    if (user.unconfirmed_since) {
      throw new AppError(
        'account_unconfirmed',
        'This account waits for its owner to open the confirmation link mailed to its address; open it first (it signs you in).',
      );
    }
    return { user, session: await accounts.startSession(user.id, meta) };
  }

  /**
   * A wrong current password counts in the sign-in lockout (429 past it). The new password ends
   * the other sessions and every reset link issued before it.
   */
  async function changePassword(who: Principal, current: string, next: string, meta: ClientMeta): Promise<void> {
    requireStrongPassword(next, 'new_password');
    const user = await lockout.check(who.email, current, meta.ip, 'password attempts');
    if (!user) throw validationError([{ field: 'current_password', message: 'is not your current password' }]);
    const hash = await accounts.hashPassword(next);
    await db.transaction().execute(async (tx) => {
      await repo.setPasswordHash(tx, user.id, hash, iso(clock.now()));
      await repo.deletePasswordResets(tx, user.id);
    });
    await accounts.revokeUserSessions(user.id, who.sessionId);
  }

  /**
   * Always the same answer; the lookup, the token and the mail happen in the background, so neither
   * the answer nor its timing tells whether the address has an account.
   */
  async function requestPasswordReset(rawEmail: string, meta: ClientMeta, log: Log): Promise<void> {
    const email = normaliseEmailAddress(rawEmail);
    const now = clock.now();
    let retryAfter = 0;
    const buckets: Array<[string, number]> = [[`pwreset:ip:${meta.ip}`, cfg.signinMaxFailuresPerIp]];
    if (email) buckets.push([`pwreset:e:${email}`, RESET_REQUESTS_PER_WINDOW]);
    for (const [bucket, max] of buckets) {
      const hit = await store.hit(bucket, windowMs, now.getTime());
      if (hit.count > max) retryAfter = Math.max(retryAfter, Math.max(1, Math.ceil(hit.resetMs / 1000)));
    }
    if (retryAfter > 0) throw rateLimited(retryAfter, 'password-reset requests');
    if (!email) return;
    const job = sendReset(email, now, log).catch((err: Error) => log.error({ reason: err.message }, 'password-reset e-mail could not be sent'));
    pending.add(job);
    void job.finally(() => pending.delete(job));
  }

  async function sendReset(email: string, now: Date, log: Log): Promise<void> {
    const user = await repo.findUserByEmail(db, email);
    if (!user || user.disabled_at) return;
    const token = randomBytes(32).toString('base64url');
    const expiresAt = iso(now.getTime() + cfg.passwordResetTtlMinutes * 60_000);
    await db.transaction().execute(async (tx) => {
      await repo.deletePasswordResets(tx, user.id);
      await repo.insertPasswordReset(tx, {
        id: newId('pwr'),
        user_id: user.id,
        token_hash: hashResetToken(token),
        created_at: iso(now),
        expires_at: expiresAt,
        used_at: null,
      });
    });
    const link = `${config.publicUrl}/reset-password?token=${token}`;
    const delivery = await mailer.send(
      passwordResetMail({
        to: user.email,
        siteName: config.siteName,
        language: mailLanguage(user.language),
        timeZone: user.time_zone ?? 'UTC',
        link,
        expiresAt,
      }),
    );
    // Never the link: the outbox file holds it for an operator without SMTP.
    if (delivery.mode === 'outbox') log.info({ user_id: user.id, outbox_file: delivery.file }, 'password-reset e-mail written to the outbox');
  }

  async function confirmPasswordReset(token: string, password: string): Promise<void> {
    const invalid = () =>
      new AppError('reset_token_invalid', 'This password-reset link is unknown, used, replaced by a newer one, or expired; ask for a new one.');
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw invalid();
    // Checked before the token is spent, so a weak password does not burn the link.
    requireStrongPassword(password);
    const hash = await accounts.hashPassword(password);
    const now = iso(clock.now());
    await db.transaction().execute(async (tx) => {
      const userId = await repo.claimPasswordReset(tx, hashResetToken(token), now);
      if (!userId) throw invalid();
      await repo.setPasswordHash(tx, userId, hash, now);
      // The link proves the address: an agent's account still waiting for its owner is confirmed by it too.
      await repo.confirmUser(tx, userId, now);
      // Recovery ends whatever access someone else may hold: every session and every API key.
      await repo.revokeUserSessions(tx, userId, now);
      await repo.revokeUserApiKeys(tx, userId, now);
    });
    accounts.invalidateAuth();
  }

  // ---- admin --------------------------------------------------------------------------------

  function requireAdmin(who: Principal): void {
    if (who.role !== 'admin') throw new AppError('forbidden', 'Only administrators may do this.');
  }

  async function listUsers(who: Principal, q: { q?: string | undefined; role?: Role | undefined; limit: number; cursor?: string | undefined }) {
    requireAdmin(who);
    const after = q.cursor !== undefined ? decodeCursor(q.cursor, 'users', '', ['id'])[0] : undefined;
    const rows = await repo.listUsers(db, {
      limit: q.limit + 1,
      ...(q.q ? { q: q.q } : {}),
      ...(q.role ? { role: q.role } : {}),
      ...(after ? { after } : {}),
    });
    const { items, nextKey } = takePage(rows, q.limit, (u) => [u.id]);
    return { users: items, nextCursor: nextKey ? encodeCursor('users', '', nextKey) : null };
  }

  async function patchUser(who: Principal, id: string, patch: { role?: Role | undefined; disabled?: boolean | undefined }): Promise<UserRow> {
    requireAdmin(who);
    if (patch.role !== undefined && !ROLES.includes(patch.role)) throw validationError([{ field: 'role', message: `must be one of ${ROLES.join(', ')}` }]);
    if (id === who.userId && ((patch.role !== undefined && patch.role !== 'admin') || patch.disabled === true)) {
      throw validationError([{ field: patch.disabled === true ? 'disabled' : 'role', message: 'you cannot demote or disable yourself' }]);
    }
    const now = iso(clock.now());
    const user = await db.transaction().execute(async (tx) => {
      // Locked first, so the count below holds until commit: two admins demoting or disabling each
      // other at the same moment cannot both see the other as the remaining one.
      const admins = await repo.lockActiveAdmins(tx, config.database.dialect);
      const user = await repo.findUserById(tx, id);
      if (!user) throw new AppError('user_not_found', `no user ${id}`);
      const role = patch.role ?? user.role;
      const disabledAt = patch.disabled === undefined ? user.disabled_at : patch.disabled ? (user.disabled_at ?? now) : null;
      const staysActiveAdmin = role === 'admin' && disabledAt === null;
      if (admins.includes(id) && !staysActiveAdmin && admins.length <= 1) {
        throw new AppError('last_admin', 'This would leave the site without an active administrator; make another account an administrator first.');
      }
      // The caller's own role, as of now: demoted or disabled meanwhile by another admin, it is no longer one.
      if (!admins.includes(who.userId)) throw new AppError('forbidden', 'Only administrators may do this.');
      await repo.updateUser(tx, id, { ...(patch.role !== undefined ? { role: patch.role } : {}), disabled_at: disabledAt }, now);
      if (patch.disabled === true) await repo.revokeUserSessions(tx, id, now);
      await repo.auditUserChange(tx, actorOf(who), user, { role, disabledAt }, now);
      return { ...user, role, disabled_at: disabledAt, updated_at: now };
    });
    // Cached principals carry the role and the enabled state: drop them everywhere.
    accounts.invalidateAuth();
    return user;
  }

  async function listInviteCodes(who: Principal): Promise<InviteCodeRow[]> {
    requireAdmin(who);
    return repo.listInviteCodes(db);
  }

  async function createInviteCode(
    who: Principal | null,
    input: { note?: string | null | undefined; maxUses?: number | undefined; expiresAt?: string | null | undefined },
  ) {
    if (who) requireAdmin(who);
    const now = clock.now();
    if (input.expiresAt && Date.parse(input.expiresAt) <= now.getTime()) {
      throw validationError([{ field: 'expires_at', message: 'must be in the future' }]);
    }
    const { code, hash, prefix } = generateInviteCode();
    const row: InviteCodeRow = {
      id: newId('icd'),
      code_hash: hash,
      prefix,
      note: input.note?.trim() || null,
      max_uses: input.maxUses ?? 1,
      uses: 0,
      expires_at: input.expiresAt ? iso(new Date(input.expiresAt)) : null,
      revoked_at: null,
      created_at: iso(now),
      created_by: who?.userId ?? null,
    };
    // The code itself is shown once and never stored or logged: the entry names its display prefix.
    await db.transaction().execute(async (tx) => {
      await repo.insertInviteCode(tx, row);
      await recordAudit(tx, {
        eventId: null,
        actor: who ? actorOf(who) : CLI_ACTOR,
        action: 'invite_code.created',
        targetType: 'invite_code',
        targetId: row.id,
        data: { prefix, note: row.note, max_uses: row.max_uses, expires_at: row.expires_at },
        at: row.created_at,
      });
    });
    return { row, code };
  }

  async function revokeInviteCode(who: Principal, id: string): Promise<void> {
    requireAdmin(who);
    const now = iso(clock.now());
    const found = await db.transaction().execute(async (tx) => {
      if (!(await repo.revokeInviteCode(tx, id, now))) return false;
      await recordAudit(tx, { eventId: null, actor: actorOf(who), action: 'invite_code.revoked', targetType: 'invite_code', targetId: id, at: now });
      return true;
    });
    if (!found) throw new AppError('not_found', `no invite code ${id}`);
  }

  // ---- reviewers ----------------------------------------------------------------------------

  /** The events the caller reviews, with how many projects each has and how many the caller reviewed: two queries. */
  async function reviewEvents(who: Principal) {
    const events = await repo.reviewerEvents(db, who.userId);
    if (events.length === 0) return [];
    // The projects the caller may review, as review-assignments lists them: approved teams, not
    // the caller's own (conflict of interest).
    const counts = await repo.reviewableCounts(
      db,
      who.userId,
      events.map((e) => e.id),
    );
    const byEvent = new Map(counts.map((c) => [c.event_id, c]));
    const now = clock.now();
    return events.map((e) => ({
      event_id: e.id,
      event_name: e.name,
      status: effectiveStatus(e, now),
      submission_deadline: e.submission_deadline,
      projects: Number(byEvent.get(e.id)?.projects ?? 0),
      reviewed: Number(byEvent.get(e.id)?.reviewed ?? 0),
    }));
  }

  async function drain(): Promise<void> {
    await Promise.allSettled([...pending]);
  }

  return {
    signup,
    agentSignup,
    awaitConfirmation,
    /** Confirmation long-polls parked in this process now (tests and operators watch it). */
    confirmationWaiting: () => confirmationWaiting,
    confirmationWaitsStarted: () => confirmationWaitsStarted,
    confirmSignup,
    signin,
    changePassword,
    requestPasswordReset,
    confirmPasswordReset,
    listUsers,
    patchUser,
    listInviteCodes,
    createInviteCode,
    revokeInviteCode,
    reviewEvents,
    drain,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
