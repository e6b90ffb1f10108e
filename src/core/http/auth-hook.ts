import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { AccountsService } from '../../accounts/accounts-service.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { RateLimitHit, RateLimitStore } from '../rate-limit.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * One onRequest hook for identity and rate limits. A key that is present is always checked, even on
 * public routes, so a client with a wrong key learns it at once. Requests with a valid key are
 * counted per key; all others (including bad keys) per client IP, so guessing keys is throttled too.
 */
export function createAuthHook(deps: { accounts: AccountsService; config: Config; store: RateLimitStore; clock: Clock }) {
  const { accounts, config, store, clock } = deps;
  const rl = config.rateLimit;

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
      throw new AppError('unauthorized', 'This endpoint needs an API key: send "Authorization: Bearer <API key>".');
    }
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
      if (!request.principal) authError = new AppError('unauthorized', 'The API key is unknown, revoked or expired.');
    }
    if (rl.enabled && !request.routeOptions.config.skipRateLimit) {
      const [bucket, max] = request.principal ? [`k:${request.principal.keyId}`, rl.perKey] : [`ip:${request.ip}`, rl.perIp];
      applyLimit(reply, await store.hit(bucket, rl.windowMs, clock.now().getTime()), max);
    }
    if (authError) throw authError;
    requireKey(request);
    requireScope(request);
  }

  return function authHook(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    if (request.headers.authorization !== undefined) {
      authenticateAndLimit(request, reply).then(() => done(), done);
      return;
    }
    // No key: counted per IP. With the in-memory store this needs no promise at all.
    const limited = rl.enabled && !request.routeOptions.config.skipRateLimit;
    if (limited && !store.hitSync) {
      store.hit(`ip:${request.ip}`, rl.windowMs, clock.now().getTime()).then((hit) => {
        applyLimit(reply, hit, rl.perIp);
        requireKey(request);
      }).then(() => done(), done);
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
