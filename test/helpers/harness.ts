import { buildApp } from '../../src/app.js';
import type { App, AppContext } from '../../src/app-context.js';
import { ManualClock } from '../../src/core/clock.js';
import { loadConfig, type Config } from '../../src/core/config.js';
import { openDatabase, type DatabaseHandle } from '../../src/core/db/index.js';
import { migrateToLatest } from '../../src/core/db/migrations.js';
import type { Role } from '../../src/core/db/schema.js';
import type { RedisHealth } from '../../src/core/health.js';
import type { Notifier } from '../../src/core/notifier.js';
import type { RateLimitStore } from '../../src/core/rate-limit.js';
import { createTestDatabase, type Dialect, type TestDatabase } from './databases.js';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  /** Sent as-is instead of JSON-encoding `body`. */
  raw?: string;
  headers?: Record<string, string>;
}

export interface TestUser {
  id: string;
  email: string;
  role: Role;
  key: string;
}

export interface TestApp {
  dialect: Dialect;
  url: string;
  clock: ManualClock;
  ctx: AppContext;
  app: App;
  config: Config;
  database: DatabaseHandle;
  /** Real HTTP to the running server. `path` is relative to the site root. */
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  /** Like request, under /api/v1. */
  api<T = any>(method: string, path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  user(role?: Role, email?: string): Promise<TestUser>;
  close(): Promise<void>;
}

let counter = 0;
/** A fixed "now" for tests: deadlines in fixtures are relative to it. */
export const T0 = new Date('2030-01-01T12:00:00.000Z');

export async function startTestApp(
  dialect: Dialect,
  opts: {
    env?: Record<string, string>;
    now?: Date;
    database?: TestDatabase;
    notifier?: Notifier;
    rateLimitStore?: RateLimitStore;
    /** Whether Redis is reachable, as /healthz reports it (default: not configured). */
    redisHealth?: () => RedisHealth;
    /** Open the database with the configured time limits (DB_*_TIMEOUT_MS), as the server does; off by default. */
    databaseLimits?: boolean;
    /** Listen on this port with PUBLIC_URL http://127.0.0.1:<port> (browser tests: the pages' origin must be the site's). */
    port?: number;
    /** Called with every statement the app's database handle runs (test/api/statement-budget.test.ts counts them). */
    observeStatements?: (sql: string) => void;
    /** Fastify's logger options (default: no logging), e.g. `{ level: 'warn', stream }` to watch what the app logs. */
    logger?: Parameters<typeof buildApp>[0]['logger'];
  } = {},
): Promise<TestApp> {
  const testDb = opts.database ?? (await createTestDatabase(dialect));
  const config = loadConfig({
    DATABASE_URL: testDb.config.url,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_IP: '100000',
    RATE_LIMIT_PER_KEY: '100000',
    // Every test client is 127.0.0.1: load and race tests must not meet the connection cap.
    MAX_CONNECTIONS_PER_IP: '0',
    PUBLIC_URL: opts.port ? `http://127.0.0.1:${opts.port}` : 'http://hackathon.test',
    // The floor, not OWASP's 2^17: suites hash hundreds of passwords (test/unit/passwords.test.ts covers the default).
    PASSWORD_SCRYPT_N: '16384',
    // Notification mails are sent only where a test is about them (MAIL_WORKERS: 'true'): elsewhere an
    // approval mail arriving late would be taken for the mail a test waits for.
    MAIL_WORKERS: 'false',
    // Nothing reaches the internet: without a fake GitHub (GITHUB_API_URL in `env`), the review
    // context and the build-window checks (the review loop runs them) meet a closed local port.
    GITHUB_API_URL: 'http://127.0.0.1:9',
    // Most suites create events naming models (eventBody: openai/gpt-4o-mini) without configuring
    // their provider: accepted here, their reviews fail as "not configured". Tests of the refusal
    // (422 model_not_configured) set 'false'.
    AI_ACCEPT_UNCONFIGURED_MODELS: 'true',
    ...opts.env,
  });
  if (opts.databaseLimits) {
    // As the server does: migrations run without the limits meant for requests.
    const migrating = openDatabase(testDb.config);
    await migrateToLatest(migrating.db);
    await migrating.close();
  }
  const database = openDatabase(testDb.config, {
    ...(opts.databaseLimits ? { limits: config.databaseLimits } : {}),
    ...(opts.observeStatements ? { observe: opts.observeStatements } : {}),
  });
  await migrateToLatest(database.db);
  const clock = new ManualClock(opts.now ?? T0);
  const { app, ctx } = await buildApp({
    config,
    database,
    clock,
    logger: opts.logger ?? false,
    ...(opts.notifier ? { notifier: opts.notifier } : {}),
    ...(opts.rateLimitStore ? { rateLimitStore: opts.rateLimitStore } : {}),
    ...(opts.redisHealth ? { redisHealth: opts.redisHealth } : {}),
  });
  await app.listen({ port: opts.port ?? 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

  async function request<T>(method: string, path: string, o: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.key) headers.authorization = `Bearer ${o.key}`;
    let body: string | undefined;
    if (o.raw !== undefined) body = o.raw;
    else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  return {
    dialect,
    url,
    clock,
    ctx,
    app,
    config,
    database,
    request,
    api: (method, path, o) => request(method, `/api/v1${path}`, o),
    async user(role: Role = 'user', email?: string) {
      const mail = email ?? `user${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
      const u = await ctx.accounts.createUser({ email: mail, password: 'correct horse battery', role });
      const k = await ctx.accounts.createKey(u.id);
      return { id: u.id, email: u.email, role: u.role, key: k.key };
    },
    async close() {
      await app.close();
      await database.close();
      if (!opts.database) await testDb.drop();
    },
  };
}

/** A valid creation body, deadlines relative to `now`: registration in 1 day, submission in 2. */
export function eventBody(now: Date = T0, overrides: Record<string, unknown> = {}) {
  const day = 86_400_000;
  return {
    name: 'Agents Hack',
    description: 'Build something agents love.',
    tracks: [
      { id: 'tools', name: 'Developer tools', prize: '$1000' },
      { id: 'fun', name: 'Just for fun', prize: 'glory' },
    ],
    dimensions: [
      { name: 'impact', weight: 2 },
      { name: 'craft', weight: 1 },
    ],
    models: ['openai/gpt-4o-mini'],
    registration_deadline: new Date(now.getTime() + day).toISOString(),
    submission_deadline: new Date(now.getTime() + 2 * day).toISOString(),
    registration_config: {
      open: true,
      auto_approve: false,
      fields: [
        { key: 'repo', label: 'Repository', type: 'url', required: true },
        { key: 'why', label: 'Why this team', type: 'text', required: false },
      ],
    },
    ...overrides,
  };
}

/** Creates an event through the organizer API and returns its id. */
export async function createEvent(t: TestApp, organizerKey: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await t.api('POST', '/events', { key: organizerKey, body: eventBody(t.clock.now(), overrides) });
  if (res.status !== 201) throw new Error(`createEvent: ${res.status} ${res.text}`);
  return res.body.id as string;
}

export function registrationBody(overrides: Record<string, unknown> = {}) {
  return {
    team_name: `Team ${++counter}`,
    track_id: 'tools',
    fields: { repo: 'https://github.com/example/repo' },
    ...overrides,
  };
}

/** Registers a fresh team user and approves it; returns the team's user and registration id. */
export async function approvedTeam(t: TestApp, eventId: string, organizerKey: string, overrides: Record<string, unknown> = {}) {
  const team = await t.user();
  const reg = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody(overrides) });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${reg.text}`);
  if (reg.body.status !== 'approved') {
    const ok = await t.api('POST', `/events/${eventId}/registrations/${reg.body.id}/approve`, { key: organizerKey });
    if (ok.status !== 200) throw new Error(`approve: ${ok.status} ${ok.text}`);
  }
  return { team, registrationId: reg.body.id as string };
}
