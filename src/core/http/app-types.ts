import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Principal } from '../principal.js';

/**
 * What every route module sees of the HTTP layer: the typed Fastify instance it registers on, the
 * per-route flags the hooks read, and the caller on each request. Route modules import these from
 * here (core), never from the wiring (app.ts, app-context.ts).
 */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs a valid API key. */
    auth?: boolean;
    /** Errors carry `success: false` (the agent creation endpoint's envelope). */
    envelope?: boolean;
    /** Not counted against rate limits (health checks). */
    skipRateLimit?: boolean;
    /** A review-scoped key (made by accepting an invitation) may call this route; it is refused everywhere else. */
    reviewKeyAllowed?: boolean;
    /** Honours an `Idempotency-Key` header (src/idempotency): retries replay the first answer. Needs `auth`. */
    idempotent?: boolean;
    /** A key of an account still waiting for its owner's confirmation may call this route (status, its own rotation and revocation). */
    unconfirmedAllowed?: boolean;
    /** Sign-in/up and password-reset: checked for login CSRF by origin only (no session token exists yet). */
    loginCsrf?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The caller, for routes declared with `config: { auth: true }` (the auth hook guarantees it). */
export function principalOf(request: { principal: Principal | null }): Principal {
  if (!request.principal) throw new Error('route is missing config.auth');
  return request.principal;
}
