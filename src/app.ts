import type { Writable } from 'node:stream';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createAccountsService } from './accounts/accounts-service.js';
import { accountsRoutes } from './accounts/accounts-routes.js';
import { createAuthService } from './accounts/auth-service.js';
import { createPasswordLockout } from './accounts/password-lockout.js';
import { agentMaterial, discoveryRoutes, skillRoutes } from './agents/agents-routes.js';
import type { App, AppContext } from './app-context.js';
import { systemClock, type Clock } from './core/clock.js';
import type { Config } from './core/config.js';
import type { DatabaseHandle } from './core/db/index.js';
import { createAuthHook } from './core/http/auth-hook.js';
import {
  applyTimeouts,
  createClientErrorHandler,
  fastifyTrustProxy,
  installConnectionCap,
  requireHostHeader,
  trackConnectionsForShutdown,
} from './core/http/connection-guard.js';
import { createFrameworkErrorHandler, installErrorHandling } from './core/http/error-handler.js';
import { trackAllowedMethods } from './core/http/method-not-allowed.js';
import { installRequestDeadline } from './core/http/request-deadline.js';
import { REQUEST_ID_HEADER, requestIdGenerator } from './core/http/request-id.js';
import { createRequestOutageLog, outageRecoveryPlugin } from './core/http/request-outage.js';
import { validatorCompiler } from './core/http/validation.js';
import { assertWellFormedJson, malformedJsonError } from './core/http/well-formed-json.js';
import { installIdempotency } from './idempotency/idempotency-hooks.js';
import { docsRoutes } from './docs/docs-routes.js';
import { swaggerOptions } from './docs/openapi.js';
import { createDatabaseProbe, type HealthReport, type RedisHealth } from './core/health.js';
import { DATABASE_RETRY_AFTER_SECONDS } from './core/http/error-handler.js';
import { chooseLogFormat, prettyStream } from './core/log-format.js';
import { createMailer } from './core/mailer.js';
import { memoryNotifier, type Notifier } from './core/notifier.js';
import { memoryRateLimitStore, type RateLimitStore } from './core/rate-limit.js';
import { agentCreateRoute, eventsRoutes } from './events/events-routes.js';
import { createEventCatalog } from './events/event-catalog.js';
import { createEventsService } from './events/events-service.js';
import { eventMediaRoutes } from './events/event-media-routes.js';
import { createEventMediaService } from './events/event-media-service.js';
import { mcpRoutes } from './mcp/mcp-routes.js';
import { createMcpToolRegistry } from './mcp/mcp-tools.js';
import { createRegistrationsService } from './registrations/registrations-service.js';
import { registrationsRoutes } from './registrations/registrations-routes.js';
import { createRegistrationWaits } from './registrations/registration-waits.js';
import { reviewersRoutes } from './reviewers/reviewers-routes.js';
import { assignmentsRoutes } from './reviewers/assignments-routes.js';
import { createAssignmentsService } from './reviewers/assignments-service.js';
import { createReviewersService } from './reviewers/reviewers-service.js';
import { resultsRoutes } from './results/results-routes.js';
import { resultKeysRoutes } from './results/result-keys-routes.js';
import { REVIEW_PROMPT_TEMPLATE_SHA256 } from './reviews/review-prompt.js';
import { reviewsRoutes } from './reviews/reviews-routes.js';
import { auditRoutes } from './audit/audit-routes.js';
import { createAuditService } from './audit/audit-service.js';
import { statsRoutes } from './stats/stats-routes.js';
import { participantsRoutes } from './participants/participants-routes.js';
import { createReviewsService, type ScoreLineOf } from './reviews/reviews-service.js';
import { storedScoreLine } from './results/results-repo.js';
import { createResultsService } from './results/results-service.js';
import { createResultSigner } from './results/result-signing.js';
import { createStandingsRefresher } from './results/standings-refresh.js';
import { projectScoreLine } from './results/standings.js';
import { createSubmissionsService } from './submissions/submissions-service.js';
import { submissionsRoutes } from './submissions/submissions-routes.js';
import { pageNotFoundFallback, webRoutes } from './web/web-routes.js';
import type { PageHeadSource } from './web/page-head.js';
import { markdownText } from './core/markdown.js';
import { mediaUrl } from './events/events-model.js';
import { loadSiteLogo } from './web/site-logo.js';
import { webhooksRoutes } from './webhooks/webhooks-routes.js';
import { createMailWorker } from './notifications/mail-worker.js';
import { createAnnouncementsService } from './announcements/announcements-service.js';
import { announcementsRoutes } from './announcements/announcements-routes.js';
import { MAIL_QUEUED } from './notifications/notification-queue.js';
import { settingsRoutes } from './notifications/settings-routes.js';
import { createSettingsService } from './notifications/settings-service.js';
import { galleryRoutes } from './showcase/gallery-routes.js';
import { createGalleryService } from './showcase/gallery-service.js';
import { projectScreenshotsRoutes } from './showcase/project-screenshots-routes.js';
import { createProjectScreenshotsService } from './showcase/project-screenshots-service.js';
import { votingRoutes } from './showcase/voting-routes.js';
import { createVotingService } from './showcase/voting-service.js';
import { teamsRoutes } from './teams/teams-routes.js';
import { teamFinderRoutes } from './teams/team-finder-routes.js';
import { createTeamFinderService } from './teams/team-finder-service.js';
import { createTeamsService } from './teams/teams-service.js';
import { createWebhooksService } from './webhooks/webhooks-service.js';
import { createWebhookSubscribers } from './webhooks/webhook-subscribers.js';

export interface BuildOptions {
  config: Config;
  database: DatabaseHandle;
  clock?: Clock;
  notifier?: Notifier;
  rateLimitStore?: RateLimitStore;
  /**
   * Whether Redis is reachable, for /healthz; unset when Redis is not configured (`not_configured`).
   * Whoever connects Redis (src/server.ts) says how to tell.
   */
  redisHealth?: () => RedisHealth;
  /** Overrides the pino options (tests pass false to stay quiet). */
  logger?: FastifyServerOptions['logger'];
}

/** The version of the API document (info.version); bump when the API changes. */
const OPENAPI_VERSION = '1.0.0';

/** Longest path segment the router matches (ids and invitation tokens are far shorter); longer is 414. */
const MAX_PARAM_LENGTH = 200;

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'req.headers["x-csrf-token"]',
  '*.password',
  '*.current_password',
  '*.new_password',
  '*.csrf_token',
  '*.invite_code',
  '*.password_hash',
  '*.key_hash',
  '*.token',
  '*.apiKey',
  '*.secret',
];

/**
 * Fastify's "request errored" for a request its client abandoned (an MCP client cancelling a
 * waiting tool call ends the in-process REST call it made with an AbortError). A client going away
 * is not a fault of the server: it is logged at info, without a stack.
 */
function isClientAbort(args: unknown[]): boolean {
  const [first, msg] = args;
  if (msg !== 'request errored' || typeof first !== 'object' || first === null) return false;
  const err = (first as { err?: unknown }).err;
  return err instanceof Error && err.name === 'AbortError';
}

/**
 * Pino's options for the server: the level, what is redacted, and the format (LOG_FORMAT; readable
 * lines on a TTY, JSON otherwise). Redaction and the serializers run before either format writes.
 * `output` says whether standard output is a TTY and, in tests, where the lines go instead of it.
 */
export function loggerOptions(
  config: Config,
  output: { isTTY: boolean; destination?: Writable } = { isTTY: Boolean(process.stdout.isTTY) },
): FastifyServerOptions['logger'] {
  const pretty = chooseLogFormat(config.logFormat, output.isTTY) === 'pretty';
  const stream = pretty ? prettyStream({ colorize: output.isTTY, ...(output.destination ? { destination: output.destination } : {}) }) : output.destination;
  return {
    level: config.logLevel,
    ...(stream ? { stream } : {}),
    hooks: {
      logMethod(args, method, level) {
        if (level >= 50 && isClientAbort(args)) {
          const { res, responseTime } = args[0] as { res?: unknown; responseTime?: number };
          this.info({ res, responseTime }, 'request aborted by its client');
          return;
        }
        method.apply(this, args);
      },
    },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      // Never log query strings: invitation and sign-in links carry tokens there.
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
        id: req.id,
        method: req.method,
        // …nor invitation tokens, which travel in the path of the invitation page and API.
        url: req.url.split('?')[0]!.replace(/\/invitations\/[^/]+/, '/invitations/[redacted]'),
        ip: req.ip,
      }),
    },
  };
}

/** Wires the core, the domain services and the routes into one Fastify app. Does not listen. */
export async function buildApp(opts: BuildOptions): Promise<{ app: App; ctx: AppContext }> {
  const { config, database } = opts;
  const clock = opts.clock ?? systemClock;
  const notifier = opts.notifier ?? memoryNotifier();
  const rateLimitStore = opts.rateLimitStore ?? memoryRateLimitStore();
  // The request path's view of a database outage: one warn when requests start failing on it, one
  // info when a query answers again (every query tells it, through the plugin).
  const outage = createRequestOutageLog(() => app.log);
  const db = database.db.withPlugin(outageRecoveryPlugin(outage));

  const siteLogo = loadSiteLogo(config);
  const accounts = createAccountsService({
    db,
    clock,
    notifier,
    authCacheTtlMs: config.authCacheTtlMs,
    scrypt: config.passwordScrypt,
    passwordChecksAtOnce: config.passwordChecksAtOnce,
    sessionTtlDays: config.accounts.sessionTtlDays,
    dialect: config.database.dialect,
  });
  const catalog = createEventCatalog({
    db,
    notifier,
    ttlMs: config.eventCacheTtlMs,
    maxEntries: config.eventCacheMaxEntries,
    maxBytes: config.eventCacheMaxBytes,
  });
  const events = createEventsService({ db, dialect: database.dialect, clock, catalog, ai: config.ai });
  const eventMedia = createEventMediaService({ db, clock, events, limits: config.media });
  const waits = createRegistrationWaits({ db, notifier, recheckMs: config.waitRecheckMs });
  const webhookSubscribers = createWebhookSubscribers({ db, notifier, reloadMs: config.webhooks.indexReloadMs });
  // Until it is loaded every write queues through the query (a failed load is tried again by the next write).
  void webhookSubscribers.load();
  const registrations = createRegistrationsService({ db, dialect: database.dialect, clock, events, notifier, waits, subscribers: webhookSubscribers });
  const submissions = createSubmissionsService({ db, dialect: database.dialect, clock, events, registrations, subscribers: webhookSubscribers });
  // Its logger, like the reviews', is read lazily (see below).
  const standings = createStandingsRefresher({ db, dialect: database.dialect, inlineRows: config.leaderboardInlineRefresh, log: () => app.log });
  const voting = createVotingService({ db, clock, events });
  const assignments = createAssignmentsService({ db, clock, events });
  const resultSigner = createResultSigner({ db, clock, publicUrl: config.publicUrl });
  const results = createResultsService({
    db,
    dialect: database.dialect,
    clock,
    events,
    standings,
    peoplesChoice: voting.freeze,
    judgingProgress: assignments.unfinishedJudging,
    notifier,
    promptTemplateSha256: REVIEW_PROMPT_TEMPLATE_SHA256,
    signer: resultSigner,
  });
  const mailer = createMailer(config.mail, { siteName: config.siteName, publicUrl: config.publicUrl, siteLogo: siteLogo?.url ?? null });
  const lockout = createPasswordLockout({ store: rateLimitStore, clock, config: config.accounts, checkPassword: accounts.checkPassword });
  const reviewers = createReviewersService({ db, clock, config, accounts, lockout, events, mailer, notifier, assignments });
  const auth = createAuthService({ db, clock, config, accounts, store: rateLimitStore, lockout, mailer, notifier });
  // The logger is read lazily: the Fastify instance (and its logger) is created below.
  const reviews = createReviewsService({ db, dialect: database.dialect, clock, config, events, log: () => app.log, scoreLine: reviewPageScoreLine });
  // The review page's score line: computed from the project's own reviews, except under a normalisation
  // across projects (zscore), where the leaderboard's standings row holds the normalised numbers.
  async function reviewPageScoreLine(...[event, project, facts]: Parameters<ScoreLineOf>) {
    if (event.normalization === 'zscore') return (await storedScoreLine(db, project.id)) ?? projectScoreLine(event, project, facts);
    return projectScoreLine(event, project, facts);
  }
  events.onStatusChange((event) => reviews.onEventStatusChanged(event));
  const gallery = createGalleryService({ db, clock, events, publicUrl: config.publicUrl });
  const projectScreenshots = createProjectScreenshotsService({ db, clock, events, registrations, gallery, limits: config.media, publicUrl: config.publicUrl });
  const audit = createAuditService({ db, events });
  const teams = createTeamsService({ db, clock, events, notifier, publicUrl: config.publicUrl, subscribers: webhookSubscribers });
  const teamFinder = createTeamFinderService({ db, clock, events, teams, notifier });
  const webhooks = createWebhooksService({ db, dialect: database.dialect, clock, config, events, mailer, log: () => app.log, subscribers: webhookSubscribers });
  const announcements = createAnnouncementsService({
    db,
    dialect: database.dialect,
    clock,
    events,
    notifier,
    subscribers: webhookSubscribers,
    log: () => app.log,
    queue: config.mailQueue,
  });
  const settings = createSettingsService({ db, clock, nameChanged: () => accounts.invalidateAuth() });
  const mailWorker = createMailWorker({
    db,
    dialect: database.dialect,
    clock,
    config: config.mailQueue,
    mailer,
    publicUrl: config.publicUrl,
    siteName: config.siteName,
    siteLogo: siteLogo?.url ?? null,
    log: () => app.log,
  });
  // What the pages' HTML says before any script runs (title, link previews): only public events.
  const pageHead: PageHeadSource = {
    siteName: config.siteName,
    siteNameSet: config.siteNameSet,
    publicUrl: config.publicUrl,
    tagline: 'Hackathons for people and agents.',
    siteLogo: siteLogo?.url ?? null,
    event: async (id) => {
      const e = await events.getPublic(id, null);
      return { name: e.name, description: markdownText(e.description, 200), cover: mediaUrl(config.publicUrl, e.id, 'cover', e.cover_version) };
    },
    project: async (eventId, projectId) => {
      const p = await gallery.project(null, eventId, projectId);
      return { name: p.project_name, description: markdownText(p.description, 200) };
    },
  };
  const shutdown = new AbortController();
  const redisHealth = opts.redisHealth ?? ((): RedisHealth => 'not_configured');
  const ctx: AppContext = {
    config,
    clock,
    db,
    dialect: database.dialect,
    notifier,
    rateLimitStore,
    redisHealth,
    shutdownSignal: shutdown.signal,
    accounts,
    auth,
    events,
    eventMedia,
    registrations,
    submissions,
    mailer,
    reviewers,
    assignments,
    results,
    resultSigner,
    standings,
    reviews,
    audit,
    webhooks,
    mailWorker,
    settings,
    gallery,
    projectScreenshots,
    voting,
    teams,
    teamFinder,
    announcements,
    mcpTools: createMcpToolRegistry(),
  };

  const app = Fastify({
    logger: opts.logger === undefined ? loggerOptions(config) : opts.logger,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Set again on the server below with the rest; here so Fastify does not reset it to "off".
    requestTimeout: config.http.requestTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // req_<time><random>, unique across processes; a trusted proxy's X-Request-Id is kept.
    genReqId: requestIdGenerator(config.trustProxy),
    frameworkErrors: createFrameworkErrorHandler(config.publicUrl, outage),
    clientErrorHandler: createClientErrorHandler(config.publicUrl, config.http),
  }).withTypeProvider<TypeBoxTypeProvider>();
  applyTimeouts(app.server, config.http);
  installConnectionCap(app.server, { limits: config.http, trustProxy: config.trustProxy, siteUrl: config.publicUrl });
  const connections = trackConnectionsForShutdown(app.server);

  app.setValidatorCompiler(validatorCompiler);
  // An unknown path opened in a browser gets the web app's "not found" page; API clients get problem+json.
  // Before any route: a known path asked with another method answers 405 with `Allow`.
  const allowedMethods = trackAllowedMethods(app, { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH });
  installErrorHandling(app, config.publicUrl, pageNotFoundFallback(pageHead), allowedMethods, outage);

  // An empty JSON body (e.g. an approve call with Content-Type set but nothing sent) means "no body".
  // The API speaks JSON only: without this, Fastify's built-in text/plain parser hands a string body
  // to the JSON schemas (422) instead of answering 415.
  app.removeContentTypeParser('text/plain');
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    // Given a callback, the default parser answers through it (its type also allows a promise, which it never returns then).
    void defaultJson(request, body as string, (err, parsed) => {
      if (err) return done(malformedJsonError(body as string, err), undefined);
      try {
        assertWellFormedJson(body as string, parsed);
      } catch (invalid) {
        return done(invalid as Error, undefined);
      }
      done(null, parsed);
    });
  });

  // Long-polls end and answer; connections with nothing to answer are cut (Fastify closes only
  // those Node deems idle, and a connection that never sent a whole request is not one).
  app.addHook('preClose', async () => {
    shutdown.abort();
    connections.cutQuiet();
  });
  // While draining, answer in-flight requests with Connection: close so keep-alive sockets do not
  // hold the shutdown open until their idle timeout. nosniff rides along in the same (one) hook so
  // every answer, errors included, carries it.
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    if (shutdown.signal.aborted) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onClose', async () => catalog.close());
  app.addHook('onClose', async () => webhookSubscribers.close());
  app.addHook('onClose', async () => waits.close());
  // Password-reset mails still being sent finish before the database closes.
  app.addHook('onClose', async () => auth.drain());
  // Review workers stop with the app: calls in flight are aborted and their reviews re-queued.
  app.addHook('onClose', async () => reviews.stop());
  // Deliveries in flight finish (each within its timeout) before the database closes.
  app.addHook('onClose', async () => webhooks.stop());
  // Notification mails in flight finish before the database closes (the rest stay queued).
  app.addHook('onClose', async () => mailWorker.close());
  // A scheduled announcement being published finishes (or rolls back) before the database closes.
  app.addHook('onClose', async () => announcements.close());
  // Background recomputation of standings stops at its next chunk, before the database closes.
  app.addHook('onClose', async () => standings.stop());
  app.decorateRequest('principal', null);
  // First of all hooks, so every answer carries the id (the MCP endpoint copies it when it hands over).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  installRequestDeadline(app, { deadlineMs: config.http.requestDeadlineMs, maxWaitSeconds: config.maxWaitSeconds });
  app.addHook('onRequest', requireHostHeader);
  app.addHook('onRequest', createAuthHook({ accounts, config, store: rateLimitStore, clock }));

  // Before any route is added: it hooks the routes declared `idempotent` as they are registered.
  installIdempotency(app, { db, clock, ...config.idempotency });
  // Before any route too: each route declaring `config.mcp` becomes an MCP tool, built from its own definition.
  app.addHook('onRoute', (route) => ctx.mcpTools.onRoute(route));
  // Before any route, so the OpenAPI document sees every one of them (hidden ones aside).
  await app.register(fastifySwagger, swaggerOptions(config, OPENAPI_VERSION));

  // For load balancers: 503 while the database is unreachable (this process cannot serve), 200 with
  // redis "down" while only Redis is (the API serves without it). Never waits past the connect limit.
  const probeDatabase = createDatabaseProbe(db, { timeoutMs: config.databaseLimits.connectTimeoutMs });
  app.get('/healthz', { config: { skipRateLimit: true }, schema: { hide: true } as never }, async (_request, reply): Promise<HealthReport> => {
    const database = await probeDatabase();
    if (database === 'down') reply.code(503).header('retry-after', DATABASE_RETRY_AFTER_SECONDS);
    return { ok: database === 'up', database, redis: redisHealth() };
  });

  // Rendered on first request, once every route (and so every tool) is registered.
  const agents = agentMaterial(ctx, () => ctx.mcpTools.all());
  await app.register(
    async (api) => {
      await api.register(skillRoutes(agents));
      await api.register(eventsRoutes(ctx));
      await api.register(eventMediaRoutes(ctx));
      await api.register(registrationsRoutes(ctx));
      await api.register(teamsRoutes(ctx));
      await api.register(teamFinderRoutes(ctx));
      await api.register(announcementsRoutes(ctx));
      await api.register(submissionsRoutes(ctx));
      await api.register(reviewersRoutes(ctx));
      await api.register(assignmentsRoutes(ctx));
      await api.register(resultsRoutes(ctx));
      await api.register(reviewsRoutes(ctx));
      await api.register(auditRoutes(ctx));
      await api.register(statsRoutes(ctx));
      await api.register(participantsRoutes(ctx));
      await api.register(mcpRoutes(ctx));
      await api.register(accountsRoutes(ctx));
      await api.register(webhooksRoutes(ctx));
      await api.register(settingsRoutes(ctx));
      await api.register(galleryRoutes(ctx));
      await api.register(projectScreenshotsRoutes(ctx));
      await api.register(votingRoutes(ctx));
    },
    { prefix: '/api/v1' },
  );
  await app.register(agentCreateRoute(ctx));
  await app.register(discoveryRoutes(agents));
  await app.register(resultKeysRoutes(ctx));
  await app.register(docsRoutes(ctx));
  await app.register(webRoutes(pageHead, siteLogo));

  if (config.ai.workersEnabled) reviews.start();
  if (config.accounts.signupMode === 'open' && config.accounts.signupConfirmation === 'off') {
    app.log.warn(
      { signup_mode: 'open', signup_confirmation: 'off' },
      'open sign-up without e-mail confirmation answers email_taken for an address in use, so anyone can test which addresses have accounts: set SMTP_URL (confirmation by e-mail) or SIGNUP_MODE=invite',
    );
  }
  if (config.webhooks.workersEnabled) webhooks.start();
  if (config.mailQueue.workersEnabled) {
    // Woken by every commit that queued mail (in this process or, with a cross-process notifier, another).
    const stopWaking = notifier.subscribe(MAIL_QUEUED, () => void mailWorker.pump().catch((err: unknown) => app.log.warn({ err }, 'mail pump failed')));
    app.addHook('onClose', async () => stopWaking());
    mailWorker.start();
    // Scheduled announcements are mail: the processes that send mail publish them when due.
    announcements.start();
  }
  return { app, ctx };
}
