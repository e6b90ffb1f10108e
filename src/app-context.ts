import type { AccountsService } from './accounts/accounts-service.js';
import type { AuthService } from './accounts/auth-service.js';
import type { Clock } from './core/clock.js';
import type { Config } from './core/config.js';
import type { DatabaseHandle, Db } from './core/db/index.js';
import type { RedisHealth } from './core/health.js';
import type { Mailer } from './core/mailer.js';
import type { Notifier } from './core/notifier.js';
import type { RateLimitStore } from './core/rate-limit.js';
import type { EventsService } from './events/events-service.js';
import type { EventMediaService } from './events/event-media-service.js';
import type { RegistrationsService } from './registrations/registrations-service.js';
import type { ReviewsService } from './reviews/reviews-service.js';
import type { AuditService } from './audit/audit-service.js';
import type { ReviewersService } from './reviewers/reviewers-service.js';
import type { AssignmentsService } from './reviewers/assignments-service.js';
import type { StandingsRefresher } from './results/standings-refresh.js';
import type { ResultsService } from './results/results-service.js';
import type { ResultSigner } from './results/result-signing.js';
import type { SubmissionsService } from './submissions/submissions-service.js';
import type { WebhooksService } from './webhooks/webhooks-service.js';
import type { MailWorker } from './notifications/mail-worker.js';
import type { SettingsService } from './notifications/settings-service.js';
import type { GalleryService } from './showcase/gallery-service.js';
import type { ProjectScreenshotsService } from './showcase/project-screenshots-service.js';
import type { VotingService } from './showcase/voting-service.js';
import type { TeamsService } from './teams/teams-service.js';
import type { TeamFinderService } from './teams/team-finder-service.js';
import type { AnnouncementsService } from './announcements/announcements-service.js';
import type { McpToolRegistry } from './mcp/mcp-tools.js';

/**
 * Everything buildApp builds once: the wiring's own view. Route modules do not import it: each
 * declares the few dependencies it takes (e.g. `EventsRoutesDeps`), and app.ts passes this object,
 * which has them all. `App`, `principalOf` and the per-route config flags live in core/http/app-types.ts.
 */
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
  /** Event cover images and logos. */
  eventMedia: EventMediaService;
  registrations: RegistrationsService;
  /** AI reviews: judging scheduler, workers, organizer view and re-run. */
  reviews: ReviewsService;
  /** The audit log's reading side (organizer and admin views); actions write it through core/audit.ts. */
  audit: AuditService;
  submissions: SubmissionsService;
  mailer: Mailer;
  reviewers: ReviewersService;
  /** Assigned reviewing: who reviews which project, conflicts of interest. */
  assignments: AssignmentsService;
  results: ResultsService;
  /** The site's results-bundle signing keys (current, rotation, the well-known document). */
  resultSigner: ResultSigner;
  /** Keeps the live ranking's standings fresh (background recomputation after bulk changes). */
  standings: StandingsRefresher;
  /** Webhook subscriptions and the delivery worker. */
  webhooks: WebhooksService;
  /** Sends the queued notification mails. */
  mailWorker: MailWorker;
  /** A person's own settings (GET/PATCH /me/settings). */
  settings: SettingsService;
  /** The public gallery of projects. */
  gallery: GalleryService;
  /** A project's screenshots and the event's project tags. */
  projectScreenshots: ProjectScreenshotsService;
  /** People's choice voting. */
  voting: VotingService;
  /** Teams: members, join codes, leadership. */
  teams: TeamsService;
  /** The team finder: people looking, teams' needs, join requests. */
  teamFinder: TeamFinderService;
  /** Organizers' announcements to a segment, and the scheduler that sends the scheduled ones. */
  announcements: AnnouncementsService;
  /** The MCP tools, collected from the routes that declare `config.mcp` as they are registered. */
  mcpTools: McpToolRegistry;
}

export type { App } from './core/http/app-types.js';
