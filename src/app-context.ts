import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AccountsService, Principal } from './accounts/accounts-service.js';
import type { AuthService } from './accounts/auth-service.js';
import type { Clock } from './core/clock.js';
import type { Config } from './core/config.js';
import type { DatabaseHandle, Db } from './core/db/index.js';
import type { RedisHealth } from './core/health.js';
import type { Mailer } from './core/mailer.js';
import type { Notifier } from './core/notifier.js';
import type { RateLimitStore } from './core/rate-limit.js';
import type { EventsService } from './events/events-service.js';
import type { RegistrationsService } from './registrations/registrations-service.js';
import type { ReviewsService } from './reviews/reviews-service.js';
import type { ReviewersService } from './reviewers/reviewers-service.js';
import type { StandingsRefresher } from './results/standings-refresh.js';
import type { ResultsService } from './results/results-service.js';
import type { SubmissionsService } from './submissions/submissions-service.js';

/** Everything a route module may use, built once in buildApp and passed down explicitly. */
export interface AppContext {
  config: Config;
  clock: Clock;
  db: Db;
  dialect: DatabaseHandle['dialect'];
  notifier: Notifier;
  rateLimitStore: RateLimitStore;
  /** Whether Redis is reachable (`not_configured` without REDIS_URL), for /healthz. */
  redisHealth: () => RedisHealth;
  /** Aborted when the server starts shutting down, so long-polls answer at once instead of holding it. */
  shutdownSignal: AbortSignal;
  accounts: AccountsService;
  /** Web accounts: sign-up/in, password reset, admin users and invite codes. */
  auth: AuthService;
  events: EventsService;
  registrations: RegistrationsService;
  /** AI reviews: judging scheduler, workers, organizer view and re-run. */
  reviews: ReviewsService;
  submissions: SubmissionsService;
  mailer: Mailer;
  reviewers: ReviewersService;
  results: ResultsService;
  /** Keeps the live ranking's standings fresh (background recomputation after bulk changes). */
  standings: StandingsRefresher;
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

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
