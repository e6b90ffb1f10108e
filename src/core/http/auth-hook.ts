import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountsService } from '../../accounts/accounts-service.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { RateLimitStore } from '../rate-limit.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * One onRequest hook for identity and rate limits. A key that is present is always checked, even on
 * public routes, so a client with a wrong key learns it at once. Requests with a valid key are
 * counted per key; all others (including bad keys) per client IP, so guessing keys is throttled too.
 */
export function createAuthHook(deps: { accounts: AccountsService; config: Config; store: RateLimitStore }) {
  const { accounts, config, store } = deps;
  const rl = config.rateLimit;

  async function limit(request: FastifyRequest, reply: FastifyReply, bucket: string, max: number): Promise<void> {
    const { count, resetMs } = await store.hit(bucket, rl.windowMs);
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

  return async function authHook(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const routeConfig = request.routeOptions.config;
    const header = request.headers.authorization;
    let authError: AppError | null = null;
    if (header !== undefined) {
      const token = BEARER.exec(header)?.[1];
      if (!token) authError = new AppError('unauthorized', 'The Authorization header must be "Bearer <API key>".');
      else {
        request.principal = await accounts.authenticate(token);
        if (!request.principal) authError = new AppError('unauthorized', 'The API key is unknown, revoked or expired.');
      }
    }
    if (rl.enabled && !routeConfig.skipRateLimit) {
      if (request.principal) await limit(request, reply, `k:${request.principal.keyId}`, rl.perKey);
      else await limit(request, reply, `ip:${request.ip}`, rl.perIp);
    }
    if (authError) throw authError;
    if (routeConfig.auth && !request.principal) {
      throw new AppError('unauthorized', 'This endpoint needs an API key: send "Authorization: Bearer <API key>".');
    }
  };
}
