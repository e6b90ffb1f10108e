import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Principal } from '../principal.js';
import { AppError } from '../errors.js';
import type { RateLimitHit, RateLimitStore } from '../rate-limit.js';
import { readCookie, safeEqual, sessionCookieName } from './session-cookie.js';

/** Resolves an API key or a session token to its caller (accounts implements it; core knows only this). */
export interface Authenticator {
  authenticate(token: string): Promise<Principal | null>;
  authenticateSession(token: string): Promise<Principal | null>;
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The origin a browser request says it comes from: Origin, else Referer's origin; null if neither. */
function requestOrigin(request: FastifyRequest): string | null {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') return origin;
  const referer = request.headers.referer;
  if (typeof referer !== 'string') return null;
  try {
    return new URL(referer).origin;
  } catch {
    return null;
  }
}

/**
 * Login CSRF guard of the sign-in, sign-up and password-reset routes (route `onRequest`): a browser
 * request (one with a cookie or an Origin) must come from the site's own origin. Agents and curl
 * send neither and pass.
 */
export function createLoginOriginCheck(publicUrl: string) {
  const siteOrigin = new URL(publicUrl).origin;
  return function loginOriginCheck(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
    if (request.headers.cookie === undefined && request.headers.origin === undefined) return done();
    if (requestOrigin(request) === siteOrigin) return done();
    done(new AppError('csrf_failed', `This request must come from ${siteOrigin}.`));
  };
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The 401 detail's pointer to a key: the same story as the problem page and skill.md (error-catalog.ts HOW_TO_GET_A_KEY). */
const NO_KEY_YET =
  'an agent gets an account and a key with POST /api/v1/agents/signup (see /api/v1/skill.md); a person creates one in the web app at /api-keys.';

/**
 * One onRequest hook for identity and rate limits. A key that is present is always checked, even on
 * public routes, so a client with a wrong key learns it at once. Requests with a valid key are
 * counted per key; all others (including bad keys) per client IP, so guessing keys is throttled too.
 */
export function createAuthHook(deps: { accounts: Authenticator; config: Config; store: RateLimitStore; clock: Clock }) {
  const { accounts, config, store, clock } = deps;
  const rl = config.rateLimit;
  const cookieName = sessionCookieName(config.publicUrl);
  const siteOrigin = new URL(config.publicUrl).origin;

  /** Sets the RateLimit headers; throws rate_limited past the limit. */
  function applyLimit(reply: FastifyReply, hit: RateLimitHit, max: number): void {
    const { count, resetMs } = hit;
    const resetSeconds = Math.max(1, Math.ceil(resetMs / 1000));
    reply.header('RateLimit-Limit', max);
    reply.header('RateLimit-Remaining', Math.max(0, max - count));
    reply.header('RateLimit-Reset', resetSeconds);
    reply.header('RateLimit-Policy', `${max};w=${Math.round(rl.windowMs / 1000)}`);
    if (count > max) {
      reply.header('Retry-After', resetSeconds);
      throw new AppError('rate_limited', `Rate limit of ${max} requests per ${Math.round(rl.windowMs / 1000)} s exceeded; retry in ${resetSeconds} s.`);
    }
  }

  function requireKey(request: FastifyRequest): void {
    if (request.routeOptions.config.auth && !request.principal) {
      throw new AppError('unauthorized', `This endpoint needs an API key: send "Authorization: Bearer <API key>". No key yet: ${NO_KEY_YET}`);
    }
  }

  /** A key of an agent's account waiting for its owner's confirmation works only where a route says so. */
  function requireConfirmed(request: FastifyRequest): void {
    if (!request.principal?.unconfirmed || request.routeOptions.config.unconfirmedAllowed) return;
    throw new AppError(
      'account_unconfirmed',
      `This account waits for its owner to open the confirmation link mailed to ${request.principal.email}; until then this key works only for GET /api/v1/auth/status (?wait=N tells the moment it is confirmed).`,
    );
  }

  /**
   * The one place key scopes are enforced: a review-scoped key works only on routes that declare
   * `reviewKeyAllowed`. Unknown paths (no route) keep their 404.
   */
  function requireScope(request: FastifyRequest): void {
    if (request.principal?.scope !== 'review' || request.routeOptions.url === undefined) return;
    if (request.routeOptions.config.reviewKeyAllowed) return;
    throw new AppError(
      'forbidden',
      'This API key is limited to reviewing: it works only for review assignments, reading and putting your project reviews, and invitations. Use a full API key for anything else.',
    );
  }

  async function authenticateAndLimit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization!;
    let authError: AppError | null = null;
    const token = BEARER.exec(header)?.[1];
    if (!token) authError = new AppError('unauthorized', 'The Authorization header must be "Bearer <API key>".');
    else {
      request.principal = await accounts.authenticate(token);
      if (!request.principal) authError = new AppError('unauthorized', `The API key is unknown, revoked or expired; get a new one: ${NO_KEY_YET}`);
    }
    if (rl.enabled && !request.routeOptions.config.skipRateLimit) {
      const [bucket, max] = request.principal ? [`k:${request.principal.keyId}`, rl.perKey] : [`ip:${request.ip}`, rl.perIp];
      applyLimit(reply, await store.hit(bucket, rl.windowMs, clock.now().getTime()), max);
    }
    if (authError) throw authError;
    requireKey(request);
    requireScope(request);
    requireConfirmed(request);
  }

  /**
   * Cookie-authenticated writes must come from the site's own pages: the site's Origin (or Referer)
   * and the session's CSRF token in X-CSRF-Token. SameSite=Lax alone leaves same-site subdomains and
   * older browsers; the token closes that. The login routes check the origin themselves (no token yet).
   */
  function requireCsrf(request: FastifyRequest): void {
    const p = request.principal;
    if (!p || p.via !== 'session' || !UNSAFE_METHODS.has(request.method) || request.routeOptions.config.loginCsrf) return;
    if (requestOrigin(request) !== siteOrigin) {
      throw new AppError('csrf_failed', `Cookie-authenticated writes must come from ${siteOrigin} (Origin header).`);
    }
    const sent = request.headers['x-csrf-token'];
    if (typeof sent !== 'string' || !p.csrfToken || !safeEqual(sent, p.csrfToken)) {
      throw new AppError('csrf_failed', 'Send the csrf_token of GET /api/v1/auth/session in the X-CSRF-Token header.');
    }
  }

  /** A session cookie: a valid one is a principal like a key; an unknown or ended one is just anonymous. */
  async function authenticateSessionAndLimit(request: FastifyRequest, reply: FastifyReply, token: string): Promise<void> {
    request.principal = await accounts.authenticateSession(token);
    if (rl.enabled && !request.routeOptions.config.skipRateLimit) {
      const [bucket, max] = request.principal ? [`k:${request.principal.keyId}`, rl.perKey] : [`ip:${request.ip}`, rl.perIp];
      applyLimit(reply, await store.hit(bucket, rl.windowMs, clock.now().getTime()), max);
    }
    requireKey(request);
    requireConfirmed(request);
    requireCsrf(request);
  }

  return function authHook(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    if (request.headers.authorization !== undefined) {
      authenticateAndLimit(request, reply).then(() => done(), done);
      return;
    }
    // Cookies are parsed only when sent, and only for the session cookie: the API's hot path has none.
    if (request.headers.cookie !== undefined) {
      const token = readCookie(request.headers.cookie, cookieName);
      if (token) {
        authenticateSessionAndLimit(request, reply, token).then(() => done(), done);
        return;
      }
    }
    // No key: counted per IP. With the in-memory store this needs no promise at all.
    const limited = rl.enabled && !request.routeOptions.config.skipRateLimit;
    if (limited && !store.hitSync) {
      store
        .hit(`ip:${request.ip}`, rl.windowMs, clock.now().getTime())
        .then((hit) => {
          applyLimit(reply, hit, rl.perIp);
          requireKey(request);
        })
        .then(() => done(), done);
      return;
    }
    try {
      if (limited) applyLimit(reply, store.hitSync!(`ip:${request.ip}`, rl.windowMs, clock.now().getTime()), rl.perIp);
      requireKey(request);
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  };
}
