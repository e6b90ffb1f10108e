import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { principalOf, type App } from '../core/http/app-types.js';
import type { AccountsService } from './accounts-service.js';
import type { AuthService } from './auth-service.js';
import type { Config } from '../core/config.js';
import { createLoginOriginCheck } from '../core/http/auth-hook.js';
import { setNextLink } from '../core/http/pagination.js';
import { problems } from '../core/http/schemas.js';
import { userForApi, type StartedSession } from './accounts-service.js';
import {
  AgentSignupBody,
  AgentSignupResponse,
  AuthStatusQuery,
  RotateKeyBody,
  AdminUserSchema,
  AdminUsersQuery,
  AuthResponse,
  CreatedInviteCodeResponse,
  CreatedKeyResponse,
  CreateInviteCodeBody,
  CreateKeyBody,
  IdParams,
  InviteCodesResponse,
  KeysResponse,
  PasswordBody,
  PatchUserBody,
  ResetConfirmBody,
  ResetRequestBody,
  ReviewEventsResponse,
  SessionResponse,
  SessionStatusResponse,
  SessionsResponse,
  SigninBody,
  SignupBody,
  SignupConfirmBody,
  SignupSentResponse,
  SiteResponse,
} from './accounts-schemas.js';
import { PASSWORD_MIN_LENGTH } from './passwords.js';
import { clearedSessionCookie, sessionCookie } from '../core/http/session-cookie.js';
import type { InviteCodeRow } from '../core/db/schema.js';
import type { Principal } from '../core/principal.js';
import { effectiveWaitSeconds } from '../core/wait-policy.js';

const NoContent = (description: string) => Type.Null({ description });

const clientMeta = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

function inviteCodeForApi(row: InviteCodeRow) {
  const { code_hash: _hash, ...rest } = row;
  return rest;
}

/** The accounts routes (keys, sign-in, sessions, users, invite codes) take these from the wiring. */
export interface AccountsRoutesDeps {
  accounts: AccountsService;
  auth: AuthService;
  config: Config;
  /** Aborted at shutdown: long-polls answer at once. */
  shutdownSignal: AbortSignal;
}

/**
 * The web app's accounts API: the site description, sign-up/in/out, the session, password change
 * and reset, the caller's sessions and API keys, and the admin's users and invite codes. A browser
 * session and an API key reach the same handlers; sessions are full-scope.
 */
export function accountsRoutes(ctx: AccountsRoutesDeps) {
  const { accounts, auth, config } = ctx;
  const ttlSeconds = config.accounts.sessionTtlDays * 86_400;
  const loginOriginCheck = createLoginOriginCheck(config.publicUrl);

  function setSessionCookie(reply: FastifyReply, session: StartedSession): void {
    reply.header('set-cookie', sessionCookie(config.publicUrl, session.token, ttlSeconds));
    // The answer carries the CSRF token: no cache may keep it.
    reply.header('cache-control', 'no-store');
  }

  /** The body of GET /auth/session for a caller. */
  async function sessionInfo(p: Principal) {
    const user = await accounts.requireUserById(p.userId);
    const session = p.via === 'session' && p.sessionId ? await accounts.getSession(p.sessionId) : undefined;
    return {
      user: userForApi(user),
      csrf_token: p.via === 'session' ? (p.csrfToken ?? null) : null,
      session: session ? { id: session.id, created_at: session.created_at, expires_at: session.expires_at } : null,
      via: p.via === 'session' ? ('session' as const) : ('key' as const),
    };
  }

  return async function plugin(app: App) {
    app.get(
      '/site',
      {
        schema: {
          tags: ['account'],
          summary: 'What this server is and offers: name, URLs, sign-up mode, configured model providers',
          response: { 200: SiteResponse },
        },
      },
      async () => ({
        name: config.siteName,
        public_url: config.publicUrl,
        api_base: `${config.publicUrl}/api/v1`,
        signup_mode: config.accounts.signupMode,
        ai_providers: Object.keys(config.ai.providers).sort(),
        password_min_length: PASSWORD_MIN_LENGTH,
      }),
    );

    app.post(
      '/auth/signup',
      {
        config: { loginCsrf: true },
        onRequest: loginOriginCheck,
        schema: {
          tags: ['account'],
          summary:
            'Sign up. With e-mail confirmation (the default when SMTP is configured): 202, the same for a new and an existing address, and a link is mailed. Without: the account is made and signed in at once (201, sets the session cookie)',
          body: SignupBody,
          response: {
            201: AuthResponse,
            202: SignupSentResponse,
            ...problems('signup_closed', 'invite_code_invalid', 'email_taken', 'csrf_failed', 'rate_limited'),
          },
        },
      },
      async (request, reply) => {
        const b = request.body;
        const result = await auth.signup(
          { email: b.email, password: b.password, name: b.name, inviteCode: b.invite_code, language: b.language, timeZone: b.time_zone },
          clientMeta(request),
          request.log,
        );
        if (result.kind === 'confirmation_sent') {
          reply.status(202);
          return { status: 'confirmation_sent' as const, email: result.email };
        }
        setSessionCookie(reply, result.session);
        reply.status(201);
        return { user: userForApi(result.user), csrf_token: result.session.csrfToken };
      },
    );

    app.post(
      '/agents/signup',
      {
        config: { loginCsrf: true },
        onRequest: loginOriginCheck,
        schema: {
          tags: ['account'],
          summary:
            "An agent's own account and API key in one request, without a browser (the key is shown once). Invite mode: with `invite_code`. With e-mail confirmation on, the owner's address gets a link and the key answers 403 account_unconfirmed until it is opened (GET /auth/status?wait=N says when). Limited per client address",
          body: AgentSignupBody,
          response: {
            201: AgentSignupResponse,
            ...problems('signup_closed', 'invite_code_invalid', 'email_taken', 'csrf_failed', 'rate_limited', 'validation_failed'),
          },
        },
      },
      async (request, reply) => {
        const b = request.body;
        const r = await auth.agentSignup(
          { email: b.email, password: b.password, name: b.name, inviteCode: b.invite_code, keyName: b.key_name, language: b.language, timeZone: b.time_zone },
          clientMeta(request),
          request.log,
        );
        reply.header('cache-control', 'no-store');
        reply.status(201);
        return {
          user: userForApi(r.user),
          api_key: { ...r.key, last_used_at: null, revoked_at: null },
          awaiting_confirmation: r.awaitingConfirmation,
          confirmation_expires_at: r.confirmationExpiresAt,
        };
      },
    );

    app.post(
      '/auth/signup/confirm',
      {
        config: { loginCsrf: true },
        onRequest: loginOriginCheck,
        schema: {
          tags: ['account'],
          summary: 'Create the account of a sign-up with the token from its e-mail link, and sign in (sets the session cookie); the token works once',
          body: SignupConfirmBody,
          response: { 201: AuthResponse, ...problems('signup_token_invalid', 'invite_code_invalid', 'email_taken', 'csrf_failed') },
        },
      },
      async (request, reply) => {
        const { user, session } = await auth.confirmSignup(request.body.token, clientMeta(request));
        setSessionCookie(reply, session);
        reply.status(201);
        return { user: userForApi(user), csrf_token: session.csrfToken };
      },
    );

    app.post(
      '/auth/signin',
      {
        config: { loginCsrf: true },
        onRequest: loginOriginCheck,
        schema: {
          tags: ['account'],
          summary: 'Sign in with e-mail and password (sets the session cookie); failed attempts are limited per account and per IP',
          body: SigninBody,
          response: { 200: AuthResponse, ...problems('invalid_credentials', 'account_disabled', 'csrf_failed', 'rate_limited') },
        },
      },
      async (request, reply) => {
        const { user, session } = await auth.signin(request.body, clientMeta(request));
        setSessionCookie(reply, session);
        return { user: userForApi(user), csrf_token: session.csrfToken };
      },
    );

    app.post(
      '/auth/signout',
      {
        schema: {
          tags: ['account'],
          summary: 'End the current session and clear its cookie (without one: nothing to do)',
          response: { 204: NoContent('Signed out') },
        },
      },
      async (request, reply) => {
        const p = request.principal;
        if (p?.via === 'session' && p.sessionId) await accounts.revokeUserSessionById(p.userId, p.sessionId);
        reply.header('set-cookie', clearedSessionCookie(config.publicUrl));
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/auth/session',
      {
        config: { auth: true, reviewKeyAllowed: true },
        schema: {
          tags: ['account'],
          summary: 'Who is signed in: the user, the CSRF token and the session (null for an API key)',
          response: { 200: SessionResponse },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return sessionInfo(principalOf(request));
      },
    );

    app.get(
      '/auth/status',
      {
        config: { reviewKeyAllowed: true, unconfirmedAllowed: true },
        schema: {
          tags: ['account'],
          summary:
            "Whether anyone is signed in: as GET /auth/session with signed_in true, or 200 with signed_in false and nulls when signed out (the web app's probe: a signed-out visitor is no error). `awaiting_confirmation`: the account waits for its owner's e-mail confirmation; `?wait=N` holds the answer until it is confirmed",
          querystring: AuthStatusQuery,
          response: { 200: SessionStatusResponse },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const p = request.principal;
        if (!p) return { signed_in: false, awaiting_confirmation: false, user: null, csrf_token: null, session: null, via: null };
        let awaiting = false;
        // Confirmation never goes back: a principal that says confirmed needs no read.
        if (p.unconfirmed) {
          const wait = effectiveWaitSeconds(request.query.wait, config.maxWaitSeconds);
          const abort = new AbortController();
          const onClose = () => abort.abort();
          request.raw.once('close', onClose);
          try {
            awaiting = await auth.awaitConfirmation(p.userId, wait, AbortSignal.any([abort.signal, ctx.shutdownSignal]));
          } finally {
            request.raw.off('close', onClose);
          }
        }
        return { signed_in: true, awaiting_confirmation: awaiting, ...(await sessionInfo(p)) };
      },
    );

    app.get(
      '/auth/sessions',
      { config: { auth: true }, schema: { tags: ['account'], summary: 'Your signed-in sessions, newest first', response: { 200: SessionsResponse } } },
      async (request, reply) => {
        const p = principalOf(request);
        reply.header('cache-control', 'no-store');
        const rows = await accounts.listSessions(p.userId);
        return rows.map((s) => ({
          id: s.id,
          created_at: s.created_at,
          last_seen_at: s.last_seen_at,
          expires_at: s.expires_at,
          user_agent: s.user_agent,
          ip: s.ip,
          current: s.id === p.sessionId,
        }));
      },
    );

    app.delete(
      '/auth/sessions/:id',
      {
        config: { auth: true },
        schema: {
          tags: ['account'],
          summary: 'Sign one of your sessions out',
          params: IdParams,
          response: { 204: NoContent('Revoked'), ...problems('session_not_found') },
        },
      },
      async (request, reply) => {
        await accounts.revokeSession(principalOf(request).userId, request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/auth/password',
      {
        config: { auth: true },
        schema: {
          tags: ['account'],
          summary:
            'Change your password; your other sessions are signed out and open password-reset links stop working. A wrong current password counts in the sign-in lockout',
          body: PasswordBody,
          response: { 204: NoContent('Changed'), ...problems('validation_failed', 'rate_limited') },
        },
      },
      async (request, reply) => {
        await auth.changePassword(principalOf(request), request.body.current_password, request.body.new_password, clientMeta(request));
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/auth/password-reset',
      {
        config: { loginCsrf: true },
        onRequest: loginOriginCheck,
        schema: {
          tags: ['account'],
          summary: 'E-mail a one-time password-reset link (the answer is the same whether the account exists or not)',
          body: ResetRequestBody,
          response: { 202: Type.Object({ ok: Type.Literal(true) }), ...problems('csrf_failed', 'rate_limited') },
        },
      },
      async (request, reply) => {
        await auth.requestPasswordReset(request.body.email, clientMeta(request), request.log);
        reply.status(202);
        return { ok: true as const };
      },
    );

    app.post(
      '/auth/password-reset/confirm',
      {
        config: { loginCsrf: true },
        onRequest: loginOriginCheck,
        schema: {
          tags: ['account'],
          summary: 'Set a new password with the token from the reset link; every session of the account is signed out and every API key of it revoked',
          body: ResetConfirmBody,
          response: { 204: NoContent('Password set'), ...problems('reset_token_invalid', 'csrf_failed') },
        },
      },
      async (request, reply) => {
        await auth.confirmPasswordReset(request.body.token, request.body.password);
        return reply.status(204).send(null);
      },
    );

    // ---- API keys ----
    app.get(
      '/api-keys',
      { config: { auth: true }, schema: { tags: ['account'], summary: 'Your API keys, newest first, revoked ones included', response: { 200: KeysResponse } } },
      async (request) => accounts.listKeys(principalOf(request).userId),
    );

    app.post(
      '/api-keys',
      {
        config: { auth: true },
        schema: { tags: ['account'], summary: 'Create a full API key (shown once)', body: CreateKeyBody, response: { 201: CreatedKeyResponse } },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const b = request.body;
        const k = await accounts.createKey(principalOf(request).userId, {
          name: b.name.trim() || 'default',
          expiresAt: b.expires_at ? new Date(b.expires_at) : null,
          scope: 'full',
        });
        reply.status(201);
        return { ...k, last_used_at: null, revoked_at: null };
      },
    );

    app.post(
      '/api-keys/current/rotate',
      {
        config: { auth: true, reviewKeyAllowed: true, unconfirmedAllowed: true },
        schema: {
          tags: ['account'],
          summary: 'Replace the API key this request is made with: a new key of the same name and scope (shown once); the old one stops working at once',
          body: Type.Optional(Type.Union([RotateKeyBody, Type.Null()])),
          response: { 201: CreatedKeyResponse, ...problems('key_not_found', 'validation_failed') },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const expiresAt = request.body?.expires_at;
        const k = await accounts.rotateCurrentKey(principalOf(request), { expiresAt: expiresAt ? new Date(expiresAt) : null });
        reply.status(201);
        return { ...k, last_used_at: null, revoked_at: null };
      },
    );

    app.delete(
      '/api-keys/current',
      {
        config: { auth: true, reviewKeyAllowed: true, unconfirmedAllowed: true },
        schema: {
          tags: ['account'],
          summary: 'Revoke the API key this request is made with; it stops working at once',
          response: { 204: NoContent('Revoked'), ...problems('key_not_found') },
        },
      },
      async (request, reply) => {
        await accounts.revokeCurrentKey(principalOf(request));
        return reply.status(204).send(null);
      },
    );

    app.delete(
      '/api-keys/:id',
      {
        config: { auth: true },
        schema: {
          tags: ['account'],
          summary: 'Revoke one of your API keys; it stops working at once',
          params: IdParams,
          response: { 204: NoContent('Revoked'), ...problems('key_not_found') },
        },
      },
      async (request, reply) => {
        await accounts.revokeOwnKey(principalOf(request).userId, request.params.id);
        return reply.status(204).send(null);
      },
    );

    // ---- reviewers ----
    app.get(
      '/me/review-events',
      {
        config: { auth: true, reviewKeyAllowed: true },
        schema: {
          tags: ['reviewer'],
          summary: 'The events you review, with how many projects each has and how many you reviewed',
          response: { 200: ReviewEventsResponse },
        },
      },
      async (request) => auth.reviewEvents(principalOf(request)),
    );

    // ---- admin ----
    app.get(
      '/admin/users',
      {
        config: { auth: true },
        schema: {
          tags: ['admin'],
          summary: 'Users, newest first, filtered by e-mail/name part and role (cursor pagination, Link rel="next")',
          querystring: AdminUsersQuery,
          response: { 200: Type.Array(AdminUserSchema), ...problems('forbidden') },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const { users, nextCursor } = await auth.listUsers(principalOf(request), q);
        setNextLink(reply, config.publicUrl, '/admin/users', q, nextCursor);
        return users.map((u) => ({ ...userForApi(u), disabled_at: u.disabled_at }));
      },
    );

    app.patch(
      '/admin/users/:id',
      {
        config: { auth: true },
        schema: {
          tags: ['admin'],
          summary: "Change a user's role, or disable/enable the account (disabling signs it out and stops its keys at once)",
          params: IdParams,
          body: PatchUserBody,
          response: { 200: AdminUserSchema, ...problems('forbidden', 'user_not_found', 'last_admin') },
        },
      },
      async (request) => {
        const u = await auth.patchUser(principalOf(request), request.params.id, request.body);
        return { ...userForApi(u), disabled_at: u.disabled_at };
      },
    );

    app.get(
      '/admin/invite-codes',
      {
        config: { auth: true },
        schema: { tags: ['admin'], summary: 'Invite codes, newest first', response: { 200: InviteCodesResponse, ...problems('forbidden') } },
      },
      async (request) => (await auth.listInviteCodes(principalOf(request))).map(inviteCodeForApi),
    );

    app.post(
      '/admin/invite-codes',
      {
        config: { auth: true },
        schema: {
          tags: ['admin'],
          summary: 'Create an invite code for SIGNUP_MODE=invite (shown once)',
          body: CreateInviteCodeBody,
          response: { 201: CreatedInviteCodeResponse, ...problems('forbidden') },
        },
      },
      async (request, reply) => {
        const b = request.body ?? {};
        const { row, code } = await auth.createInviteCode(principalOf(request), { note: b.note, maxUses: b.max_uses, expiresAt: b.expires_at });
        reply.header('cache-control', 'no-store');
        reply.status(201);
        return { ...inviteCodeForApi(row), code };
      },
    );

    app.delete(
      '/admin/invite-codes/:id',
      {
        config: { auth: true },
        schema: {
          tags: ['admin'],
          summary: 'Revoke an invite code',
          params: IdParams,
          response: { 204: NoContent('Revoked'), ...problems('forbidden', 'not_found') },
        },
      },
      async (request, reply) => {
        await auth.revokeInviteCode(principalOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
