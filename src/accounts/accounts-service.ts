import { CLI_ACTOR, recordAudit, type AuditActor } from '../core/audit.js';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import { uniqueViolation, type Db, type Executor } from '../core/db/index.js';
import type { ApiKeyRow, KeyScope, Role, UserRow } from '../core/db/schema.js';
import { DEFAULT_SETTINGS } from '../core/db/schema.js';
import { requireEmailAddress } from '../core/email-address.js';
import { AppError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { NOTIFIER_RESYNC, type Notifier } from '../core/notifier.js';
import type { Principal } from '../core/principal.js';
import { iso } from '../core/time.js';
import * as repo from './accounts-repo.js';
import { generateApiKey, hashApiKey, looksLikeApiKey } from './api-keys.js';
import { hashSessionToken, looksLikeSessionToken, newCsrfToken, newSessionToken } from './sessions.js';
import { createPasswordGate } from './password-gate.js';
import { hashPassword as scryptHash, needsRehash, OWASP_SCRYPT, PASSWORD_MIN_LENGTH, verifyPassword as scryptVerify, type ScryptParams } from './passwords.js';

export const ROLES: readonly Role[] = ['user', 'organizer', 'admin'];

/** A session just started: the cookie token (shown once, to the browser) and its CSRF token. */
export interface StartedSession {
  id: string;
  token: string;
  csrfToken: string;
  createdAt: string;
  expiresAt: string;
}

export type PublicUser = Pick<UserRow, 'id' | 'email' | 'role' | 'created_at'>;

/** A user as the web API shows it. */
export function userForApi(u: Pick<UserRow, 'id' | 'email' | 'name' | 'role' | 'created_at'>) {
  return { id: u.id, email: u.email, name: u.name, role: u.role, created_at: u.created_at };
}

export interface CreatedKey {
  id: string;
  name: string;
  prefix: string;
  key: string;
  created_at: string;
  expires_at: string | null;
  scope: KeyScope;
}

/** What may be shown about a key: everything but its hash. */
export type ListedKey = Omit<ApiKeyRow, 'key_hash' | 'user_id'>;

const LAST_USED_GRANULARITY_MS = 60_000;

export const KEYS_REVOKED = 'keys:revoked';

export function createAccountsService(deps: {
  db: Db;
  clock: Clock;
  notifier?: Notifier;
  authCacheTtlMs?: number;
  scrypt?: ScryptParams;
  sessionTtlDays?: number;
  /** How many password hashes may run at once in this process (PASSWORD_CHECKS_AT_ONCE); the rest queue. */
  passwordChecksAtOnce?: number;
  /** How the active administrators are locked when a change could leave none (`sqlite` by default). */
  dialect?: 'sqlite' | 'postgres';
}) {
  const { db, clock, notifier } = deps;
  const scrypt = deps.scrypt ?? OWASP_SCRYPT;
  const passwordGate = createPasswordGate(deps.passwordChecksAtOnce ?? 2);
  /** Every scrypt of this process goes through the gate: hashing a new password and checking one. */
  const hashPassword = (password: string) => passwordGate.run(() => scryptHash(password, scrypt));
  const verifyPassword = (password: string, stored: string) => passwordGate.run(() => scryptVerify(password, stored));
  // Unknown e-mails are checked against a hash of the same cost, so timing does not reveal which exist.
  let dummyHash: Promise<string> | undefined;
  const authCacheTtlMs = deps.authCacheTtlMs ?? 0;
  /**
   * Valid keys recently seen, by hash, so a busy agent does not cost a key lookup per request.
   * Revoking drops the entry here at once and in other processes through the notifier (Redis);
   * the short TTL bounds how long a key revoked elsewhere can still work. Expiry is checked on
   * every use, so it is exact. While a cross-process notifier is cut off (Redis down), no
   * revocation elsewhere can reach this process: the cache is neither read nor filled then, and
   * it is emptied when the notifier is back (NOTIFIER_RESYNC).
   */
  const authCache = new Map<string, { principal: Principal; expiresAt: number | null; cachedAt: number }>();
  const AUTH_CACHE_MAX = 10_000;
  /** Bumped by every invalidation: a lookup that started before one must not cache what it read. */
  let authEpoch = 0;
  const forgetAll = () => {
    authEpoch++;
    authCache.clear();
  };
  notifier?.subscribe(KEYS_REVOKED, forgetAll);
  // A reconnected notifier may have missed revocations published while it was down: forget everything.
  notifier?.subscribe(NOTIFIER_RESYNC, forgetAll);
  const sessionTtlMs = (deps.sessionTtlDays ?? 30) * 86_400_000;
  const cacheTrusted = () => authCacheTtlMs > 0 && (notifier?.connected() ?? true);

  /** After any revocation (keys, sessions, a disabled user): forget cached principals here and elsewhere. */
  function invalidateAuth(): void {
    forgetAll();
    notifier?.publish(KEYS_REVOKED);
  }

  async function createUser(input: {
    email: string;
    password?: string;
    role?: Role;
    name?: string | null;
    language?: string | null;
    timeZone?: string | null;
  }): Promise<PublicUser> {
    const email = requireEmailAddress(input.email);
    if (input.password !== undefined && input.password.length < PASSWORD_MIN_LENGTH) {
      throw new AppError('validation_failed', `password must be at least ${PASSWORD_MIN_LENGTH} characters`, {
        errors: [{ field: 'password', message: `must be at least ${PASSWORD_MIN_LENGTH} characters` }],
      });
    }
    const role = input.role ?? 'user';
    if (!ROLES.includes(role)) throw new AppError('validation_failed', `role must be one of ${ROLES.join(', ')}`);
    const now = iso(clock.now());
    const user: UserRow = {
      id: newId('usr'),
      email,
      password_hash: input.password === undefined ? null : await hashPassword(input.password),
      role,
      created_at: now,
      updated_at: now,
      name: input.name ?? null,
      disabled_at: null,
      ...DEFAULT_SETTINGS,
      language: input.language ?? null,
      time_zone: input.timeZone ?? null,
      unconfirmed_since: null,
    };
    try {
      await repo.insertUser(db, user);
    } catch (err) {
      if (uniqueViolation(err)) throw new AppError('email_taken', `a user with e-mail ${email} already exists`);
      throw err;
    }
    return { id: user.id, email: user.email, role: user.role, created_at: user.created_at };
  }

  async function requireUser(email: string): Promise<UserRow> {
    const user = await repo.findUserByEmail(db, email);
    if (!user) throw new AppError('user_not_found', `no user with e-mail ${email.trim().toLowerCase()}`);
    return user;
  }

  /**
   * The operator's commands (`users set-role`, `users disable`) keep the same rule as the admin API: the
   * site never ends up without an active administrator. The admins are locked first, so a command and a
   * request at the same moment cannot both remove the other's last one.
   */
  async function refuseLastAdmin(tx: Executor, userId: string): Promise<void> {
    const admins = await repo.lockActiveAdmins(tx, deps.dialect ?? 'sqlite');
    if (admins.includes(userId) && admins.length <= 1) {
      throw new AppError('last_admin', 'This would leave the site without an active administrator; make another account an administrator first.');
    }
  }

  async function setRole(email: string, role: Role, actor: AuditActor = CLI_ACTOR): Promise<PublicUser> {
    if (!ROLES.includes(role)) throw new AppError('validation_failed', `role must be one of ${ROLES.join(', ')}`);
    const user = await requireUser(email);
    await db.transaction().execute(async (tx) => {
      if (role !== 'admin') await refuseLastAdmin(tx, user.id);
      const now = iso(clock.now());
      await repo.updateUserRole(tx, user.id, role, now);
      await repo.auditUserChange(tx, actor, user, { role, disabledAt: user.disabled_at }, now);
    });
    invalidateAuth();
    return { id: user.id, email: user.email, role, created_at: user.created_at };
  }

  /**
   * The one place a password is verified; callers go through the lockout (password-lockout.ts). A hash made
   * with weaker parameters than configured is replaced after a successful check, so raising the
   * work factor upgrades every active account without a reset.
   */
  async function checkPassword(email: string, password: string): Promise<UserRow | null> {
    const user = await repo.findUserByEmail(db, email);
    const stored = user?.password_hash ?? (await (dummyHash ??= hashPassword(randomUUID())));
    const ok = await verifyPassword(password, stored);
    if (!user || !ok) return null;
    if (needsRehash(stored, scrypt)) {
      const upgraded = await hashPassword(password);
      // Only if the hash is still the one just verified: a concurrent password change wins.
      await repo.replacePasswordHash(db, user.id, stored, upgraded, iso(clock.now()));
      return { ...user, password_hash: upgraded };
    }
    return user;
  }

  async function createKey(userId: string, opts: { name?: string; expiresAt?: Date | null; scope?: KeyScope } = {}, tx: Executor = db): Promise<CreatedKey> {
    const now = clock.now();
    if (opts.expiresAt && opts.expiresAt.getTime() <= now.getTime()) {
      throw new AppError('validation_failed', 'expiry must be in the future', { errors: [{ field: 'expires_at', message: 'must be in the future' }] });
    }
    const { token, hash, displayPrefix } = generateApiKey();
    const row: ApiKeyRow = {
      id: newId('key'),
      user_id: userId,
      name: (opts.name ?? 'default').slice(0, 100),
      prefix: displayPrefix,
      key_hash: hash,
      created_at: iso(now),
      expires_at: opts.expiresAt ? iso(opts.expiresAt) : null,
      revoked_at: null,
      last_used_at: null,
      scope: opts.scope ?? 'full',
    };
    await repo.insertApiKey(tx, row);
    return { id: row.id, name: row.name, prefix: row.prefix, key: token, created_at: row.created_at, expires_at: row.expires_at, scope: row.scope };
  }

  async function createKeyForEmail(email: string, opts: { name?: string; expiresAt?: Date | null } = {}) {
    const user = await requireUser(email);
    return createKey(user.id, opts);
  }

  /** A user's keys, newest first, without their hashes (the key itself is never stored). */
  async function listKeysForEmail(email: string): Promise<ListedKey[]> {
    const user = await requireUser(email);
    return (await repo.listApiKeys(db, user.id)).map(({ key_hash: _hash, user_id: _user, ...key }) => key);
  }

  /**
   * The review key of a user, at most one working at a time: if one works and `replace` is false it
   * is returned as `held` (its secret is not stored, so only described); otherwise the working ones
   * are revoked and a new one is `issued`. One transaction holding the user's row lock, so two
   * concurrent calls for one user cannot both issue a key.
   */
  async function issueReviewKey(
    userId: string,
    opts: { name: string; replace: boolean },
  ): Promise<{ issued: CreatedKey | null; held: ApiKeyRow | null; revokedIds: string[] }> {
    const result = await db.transaction().execute(async (tx) => {
      await repo.lockUser(tx, userId);
      const now = iso(clock.now());
      const working = await repo.listUsableKeys(tx, userId, 'review', now);
      if (working.length > 0 && !opts.replace) return { issued: null, held: working[0]!, revokedIds: [] };
      for (const k of working) await repo.revokeApiKey(tx, k.id, now);
      const issued = await createKey(userId, { name: opts.name, scope: 'review' }, tx);
      return { issued, held: null, revokedIds: working.map((k) => k.id) };
    });
    if (result.revokedIds.length > 0) invalidateAuth();
    return result;
  }

  /**
   * Revokes by key id or display prefix; refuses an ambiguous prefix. The prefix may carry the
   * ellipsis `keys create` prints after it (`hk_AbCdEfGh…`).
   */
  async function revokeKey(target: string, ownerId?: string, actor: AuditActor = CLI_ACTOR): Promise<ApiKeyRow> {
    const idOrPrefix = target.trim().replace(/(…|\.\.\.)$/, '');
    const rows = (await repo.findApiKey(db, idOrPrefix)).filter((k) => !ownerId || k.user_id === ownerId);
    if (rows.length === 0) throw new AppError('key_not_found', `no API key ${idOrPrefix}`);
    if (rows.length > 1) throw new AppError('validation_failed', `${idOrPrefix} matches ${rows.length} keys; use the key id`);
    const key = rows[0]!;
    await db.transaction().execute(async (tx) => {
      const now = iso(clock.now());
      await repo.revokeApiKey(tx, key.id, now);
      // The key by its id and display prefix, never its secret.
      await recordAudit(tx, {
        eventId: null,
        actor,
        action: 'api_key.revoked',
        targetType: 'api_key',
        targetId: key.id,
        data: { prefix: key.prefix, name: key.name, user_id: key.user_id },
        at: now,
      });
    });
    invalidateAuth();
    return key;
  }

  /** Resolves a bearer token to its principal; null for unknown, revoked or expired keys. */
  async function authenticate(token: string): Promise<Principal | null> {
    if (!looksLikeApiKey(token)) return null;
    const hash = hashApiKey(token);
    const now = clock.now();
    const trusted = cacheTrusted();
    const epoch = authEpoch;
    const cached = trusted ? authCache.get(hash) : undefined;
    if (cached && Date.now() - cached.cachedAt < authCacheTtlMs) {
      if (cached.expiresAt !== null && cached.expiresAt <= now.getTime()) return null;
      return cached.principal;
    }
    const found = await repo.findKeyByHash(db, hash);
    if (!found) return null;
    if (found.revoked_at || found.disabled_at) return null;
    if (found.expires_at && Date.parse(found.expires_at) <= now.getTime()) return null;
    if (!found.last_used_at || Date.parse(found.last_used_at) < now.getTime() - LAST_USED_GRANULARITY_MS) {
      // Fire and forget: bookkeeping must never slow down or fail the request it describes.
      repo.touchApiKey(db, found.key_id, iso(now), iso(now.getTime() - LAST_USED_GRANULARITY_MS)).catch(() => {});
    }
    const principal: Principal = {
      userId: found.user_id,
      email: found.email,
      name: found.name,
      role: found.role,
      keyId: found.key_id,
      scope: found.scope,
      via: 'key',
      ...(found.unconfirmed_since ? { unconfirmed: true } : {}),
    };
    if (trusted && epoch === authEpoch) {
      if (authCache.size >= AUTH_CACHE_MAX) authCache.clear();
      authCache.set(hash, { principal, expiresAt: found.expires_at ? Date.parse(found.expires_at) : null, cachedAt: Date.now() });
    }
    return principal;
  }

  // ---- browser sessions ----

  /** Starts a session for a signed-in user; the token goes into the cookie and is never stored. */
  async function startSession(userId: string, meta: { userAgent?: string | undefined; ip?: string | undefined }, tx: Executor = db): Promise<StartedSession> {
    const now = clock.now();
    const { token, hash } = newSessionToken();
    const row = {
      id: newId('ses'),
      user_id: userId,
      token_hash: hash,
      csrf_token: newCsrfToken(),
      created_at: iso(now),
      last_seen_at: iso(now),
      expires_at: iso(now.getTime() + sessionTtlMs),
      revoked_at: null,
      user_agent: meta.userAgent ? meta.userAgent.slice(0, 200) : null,
      ip: meta.ip ?? null,
    };
    // Housekeeping at sign-in keeps the table bounded by live sessions, without a sweeper.
    await repo.deleteEndedSessions(tx, userId, row.created_at);
    await repo.insertSession(tx, row);
    return { id: row.id, token, csrfToken: row.csrf_token, createdAt: row.created_at, expiresAt: row.expires_at };
  }

  /** Resolves a session cookie to its principal; null for unknown, revoked or expired sessions and disabled users. */
  async function authenticateSession(token: string): Promise<Principal | null> {
    if (!looksLikeSessionToken(token)) return null;
    const hash = hashSessionToken(token);
    const cacheKey = `s:${hash}`;
    const now = clock.now();
    const trusted = cacheTrusted();
    const epoch = authEpoch;
    const cached = trusted ? authCache.get(cacheKey) : undefined;
    if (cached && Date.now() - cached.cachedAt < authCacheTtlMs) {
      if (cached.expiresAt !== null && cached.expiresAt <= now.getTime()) return null;
      return cached.principal;
    }
    const found = await repo.findSessionByHash(db, hash);
    if (!found || found.revoked_at || found.disabled_at) return null;
    if (Date.parse(found.expires_at) <= now.getTime()) return null;
    if (Date.parse(found.last_seen_at) < now.getTime() - LAST_USED_GRANULARITY_MS) {
      repo.touchSession(db, found.session_id, iso(now), iso(now.getTime() - LAST_USED_GRANULARITY_MS)).catch(() => {});
    }
    const principal: Principal = {
      userId: found.user_id,
      email: found.email,
      name: found.name,
      role: found.role,
      keyId: found.session_id,
      scope: 'full',
      via: 'session',
      sessionId: found.session_id,
      csrfToken: found.csrf_token,
    };
    if (trusted && epoch === authEpoch) {
      if (authCache.size >= AUTH_CACHE_MAX) authCache.clear();
      authCache.set(cacheKey, { principal, expiresAt: Date.parse(found.expires_at), cachedAt: Date.now() });
    }
    return principal;
  }

  async function getSession(id: string) {
    return repo.findSessionTimes(db, id);
  }

  async function listSessions(userId: string) {
    return repo.listLiveSessions(db, userId, iso(clock.now()));
  }

  async function revokeSession(userId: string, sessionId: string): Promise<void> {
    if (!(await repo.revokeSession(db, userId, sessionId, iso(clock.now())))) {
      throw new AppError('session_not_found', `you have no live session ${sessionId}`);
    }
    invalidateAuth();
  }

  /** Ends every session of the user (but `keep`); takes effect at once in every process. */
  async function revokeUserSessions(userId: string, keep?: string, tx: Executor = db): Promise<void> {
    await repo.revokeUserSessions(tx, userId, iso(clock.now()), keep);
    invalidateAuth();
  }

  /** Disables or enables an account by e-mail (CLI); disabling ends its sessions, and its keys stop working. */
  async function setDisabled(email: string, disabled: boolean, actor: AuditActor = CLI_ACTOR): Promise<UserRow> {
    const user = await requireUser(email);
    const now = iso(clock.now());
    const disabledAt = disabled ? (user.disabled_at ?? now) : null;
    await db.transaction().execute(async (tx) => {
      if (disabled) await refuseLastAdmin(tx, user.id);
      await repo.updateUser(tx, user.id, { disabled_at: disabledAt }, now);
      if (disabled) await repo.revokeUserSessions(tx, user.id, now);
      await repo.auditUserChange(tx, actor, user, { role: user.role, disabledAt }, now);
    });
    invalidateAuth();
    return { ...user, disabled_at: disabledAt };
  }

  /** Signs out one session of the user if it is still live (sign-out: no error when it is not). */
  async function revokeUserSessionById(userId: string, sessionId: string): Promise<void> {
    if (await repo.revokeSession(db, userId, sessionId, iso(clock.now()))) invalidateAuth();
  }

  async function requireUserById(id: string): Promise<UserRow> {
    const user = await repo.findUserById(db, id);
    if (!user) throw new AppError('user_not_found', `no user ${id}`);
    return user;
  }

  /** The user's keys (incl. revoked), newest first, without their hashes. */
  async function listKeys(userId: string): Promise<ListedKey[]> {
    return (await repo.listApiKeys(db, userId)).map(({ key_hash: _hash, user_id: _user, ...key }) => key);
  }

  /** The key a request was made with: a session has none (404 `key_not_found`, with the way to a key). */
  function currentKeyId(who: Principal): string {
    if (who.via === 'session') {
      throw new AppError(
        'key_not_found',
        'This request was made with a web session, not an API key: name the key by its id (GET /api/v1/api-keys lists them).',
      );
    }
    return who.keyId;
  }

  /**
   * Replaces the key a request was made with: a new key of the same name and scope (shown once),
   * and the old one stops working at once. Of two rotations with the same key only one gets a new
   * key; the other finds it revoked (401, as any later use of it).
   */
  async function rotateCurrentKey(who: Principal, opts: { expiresAt?: Date | null }): Promise<CreatedKey> {
    const keyId = currentKeyId(who);
    const created = await db.transaction().execute(async (tx) => {
      const old = (await repo.findApiKey(tx, keyId)).find((k) => k.id === keyId && k.user_id === who.userId);
      const now = iso(clock.now());
      if (!old || !(await repo.revokeApiKey(tx, keyId, now))) {
        throw new AppError(
          'unauthorized',
          'This API key was revoked (rotated or revoked by another request) while this one ran; use the key that replaced it.',
        );
      }
      const key = await createKey(who.userId, { name: old.name, scope: old.scope, expiresAt: opts.expiresAt ?? null }, tx);
      return key;
    });
    invalidateAuth();
    return created;
  }

  /** Revokes the key a request was made with; it stops working at once (this answer is its last). */
  async function revokeCurrentKey(who: Principal): Promise<void> {
    await revokeOwnKey(who.userId, currentKeyId(who));
  }

  /** Revokes one of the user's own keys by id (already revoked: nothing to do). */
  async function revokeOwnKey(userId: string, keyId: string): Promise<void> {
    const rows = (await repo.findApiKey(db, keyId)).filter((k) => k.id === keyId && k.user_id === userId);
    if (rows.length === 0) throw new AppError('key_not_found', `no API key ${keyId}`);
    if (rows[0]!.revoked_at) return;
    await repo.revokeApiKey(db, keyId, iso(clock.now()));
    invalidateAuth();
  }

  return {
    startSession,
    authenticateSession,
    getSession,
    listSessions,
    revokeSession,
    revokeUserSessions,
    revokeUserSessionById,
    requireUserById,
    setDisabled,
    listKeys,
    revokeOwnKey,
    rotateCurrentKey,
    revokeCurrentKey,
    invalidateAuth,
    scrypt,
    hashPassword,
    passwordGate,
    createUser,
    setRole,
    checkPassword,
    createKey,
    createKeyForEmail,
    listKeysForEmail,
    revokeKey,
    issueReviewKey,
    authenticate,
    requireUser,
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
