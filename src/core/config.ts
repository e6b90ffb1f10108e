import { dirname } from 'node:path';
import ipaddr from 'ipaddr.js';
import { DEFAULT_MAX_WAIT_SECONDS, LONG_POLL_MAX_SECONDS } from './wait-policy.js';
import { LOG_FORMATS, type LogFormatSetting } from './log-format.js';

/**
 * One config object, parsed and validated once at start from the environment, then passed down.
 * Every bad value is reported together, with the variable's name, so an operator fixes them in one go.
 */
export type DatabaseConfig = { dialect: 'sqlite'; path: string; url: string } | { dialect: 'postgres'; url: string };

/** Webhook delivery (src/webhooks). */
export interface WebhooksConfig {
  /** WEBHOOKS_ALLOW_LOOPBACK: allow plain-HTTP targets on loopback addresses (development, tests). */
  allowLoopback: boolean;
  /** WEBHOOKS_WORKERS: whether this process delivers (off: it only queues). */
  workersEnabled: boolean;
  concurrency: number;
  timeoutMs: number;
  pollMs: number;
  leaseMs: number;
  /** Consecutive failed attempts after which an endpoint is disabled (and its owner e-mailed). */
  disableAfter: number;
  /**
   * WEBHOOK_INDEX_RELOAD_MS: without a cross-process notifier (SQLite without Redis), how often the
   * process re-reads which subscriptions exist, for subscriptions made by other processes on the
   * same file (0: never; one process alone needs none).
   */
  indexReloadMs: number;
}

/** The notification mail queue (src/notifications). */
export interface MailQueueConfig {
  /** MAIL_WORKERS: whether this process sends queued notification mails (off: it only queues). */
  workersEnabled: boolean;
  /** MAIL_CONCURRENCY: mails in flight at once per process (also the most a crash can send twice). */
  concurrency: number;
  pollMs: number;
  leaseMs: number;
  /** First retry delay; doubles per attempt up to an hour, with jitter. */
  retryBaseMs: number;
  /** Retries stop this long after the first failure (the mail is marked failed). */
  giveUpHours: number;
}

export interface Config {
  /** The one directory for the platform's files: the default SQLite database and the e-mail outbox. */
  dataDir: string;
  port: number;
  host: string;
  publicUrl: string;
  database: DatabaseConfig;
  /** Time limits of PostgreSQL connections and queries, so an unreachable or frozen database fails requests instead of holding them. */
  databaseLimits: DatabaseLimits;
  redisUrl: string | undefined;
  /** Longest wait for a Redis command; past it the request counts its rate limit in-process and Redis is reconnected. */
  redisCommandTimeoutMs: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** LOG_FORMAT: readable lines on a TTY and JSON otherwise (`auto`), or forced `pretty` / `json`. */
  logFormat: LogFormatSetting;
  /** Whom to believe about the client address: nobody (false), N proxy hops, or these proxies. */
  trustProxy: TrustProxy;
  bodyLimitBytes: number;
  /** Time limits of the HTTP layer, against clients that hold sockets open. */
  http: HttpLimits;
  rateLimit: { perKey: number; perIp: number; windowMs: number; enabled: boolean };
  /** Longest `?wait=` a client may ask of my-registration, in seconds (at most the wait policy's LONG_POLL_MAX_SECONDS). */
  maxWaitSeconds: number;
  /** How long a process may serve public event reads from memory before re-reading (0 = never cache). */
  eventCacheTtlMs: number;
  /** Bounds of the public-event cache (LRU): entries and approximate bytes. */
  eventCacheMaxEntries: number;
  eventCacheMaxBytes: number;
  /** How often one shared query re-checks every pending registration a long-poll waits on (0 = never). */
  waitRecheckMs: number;
  /** How long a process trusts a key it has checked before looking it up again (0 = every request). */
  authCacheTtlMs: number;
  /** Stale standings a leaderboard read recomputes before answering; the rest is done in the background. */
  leaderboardInlineRefresh: number;
  ai: AiConfig;
  webhooks: WebhooksConfig;
  github: { apiUrl: string; token: string | undefined; timeoutMs: number; maxBytes: number };
  mail: { smtpUrl: string | undefined; from: string; outboxDir: string; invitationTtlHours: number };
  mailQueue: MailQueueConfig;
  /** scrypt work factor for new password hashes (PASSWORD_SCRYPT_N); r and p stay at OWASP's 8 and 1. */
  passwordScrypt: { N: number; r: number; p: number };
  /** Password hashes (scrypt) running at once per process; more queue (PASSWORD_CHECKS_AT_ONCE). */
  passwordChecksAtOnce: number;
  /** Shown by GET /api/v1/site (SITE_NAME). */
  siteName: string;
  /** Whether SITE_NAME was given: then every page shows it (in every language) instead of the default name. */
  siteNameSet: boolean;
  /**
   * The site's logo (optional): SITE_LOGO_URL, an absolute http(s) URL or a path on this site, or
   * SITE_LOGO_FILE, a PNG/JPEG/WebP file the server reads at start and serves at /site-logo.
   * Shown in the web header, as the link-preview image of pages without an event cover, and in e-mails.
   */
  siteLogo: { url: string | null; file: string | null };
  /** Event cover images and logos: the largest upload accepted (bytes) and the largest side (pixels). */
  media: { coverMaxBytes: number; logoMaxBytes: number; maxDimension: number; maxPixels: number };
  /** Web accounts: who may sign up, session lifetime, sign-in lockout, password-reset links. */
  accounts: AccountsConfig;
  /** Idempotency-Key records: kept `ttlMs` after first use; a claim still running after `leaseMs` may be taken over. */
  idempotency: { ttlMs: number; leaseMs: number };
}

/**
 * PostgreSQL time limits (milliseconds; SQLite has its own 5 s busy timeout). Past any of them the
 * request answers 503 `database_unavailable` with Retry-After.
 */
export interface DatabaseLimits {
  /** Longest wait for a connection: opening a new one, or waiting for a free one in the pool. */
  connectTimeoutMs: number;
  /** statement_timeout, enforced by the server on each statement (0 = none). */
  statementTimeoutMs: number;
  /** Longest wait for the answer to one query on our side (a frozen server never answers); above statementTimeoutMs. */
  queryTimeoutMs: number;
}

export type SignupMode = 'open' | 'invite' | 'closed';
export const SIGNUP_MODES: readonly SignupMode[] = ['open', 'invite', 'closed'];

/** `email`: open and invite sign-up make the account at a link mailed to the address; `off`: at once. */
export type SignupConfirmation = 'email' | 'off';

export interface AccountsConfig {
  signupMode: SignupMode;
  /**
   * SIGNUP_CONFIRMATION: `auto` (the default) is `email` when SMTP_URL is set, else `off`. Only with
   * `email` does the sign-up answer not tell whether an address has an account.
   */
  signupConfirmation: SignupConfirmation;
  /** How long a sign-up confirmation link works. */
  signupConfirmTtlMinutes: number;
  sessionTtlDays: number;
  /** Failed sign-ins allowed per account (e-mail) and per client IP within the window. */
  signinMaxFailuresPerAccount: number;
  signinMaxFailuresPerIp: number;
  signinWindowSeconds: number;
  passwordResetTtlMinutes: number;
  /**
   * Whom a would-be user asks for an account (OPERATOR_CONTACT: an e-mail address or a URL; null:
   * none given). Named in the answer of a sign-up refused by SIGNUP_MODE=closed.
   */
  operatorContact: string | null;
  /** Agent sign-ups (POST /agents/signup) allowed per client address within the sign-in window (AGENT_SIGNUPS_PER_IP). */
  agentSignupsPerIp: number;
}

/**
 * `false`: X-Forwarded-For is ignored; a number: that many proxies in front, the client is the entry
 * that many from the right; a list: addresses/CIDRs (or proxy-addr's `loopback`, `linklocal`,
 * `uniquelocal`) of the proxies whose X-Forwarded-For is believed.
 */
export type TrustProxy = false | number | string[];

export interface HttpLimits {
  /** Longest time to receive a whole request (headers and body); answering it is not limited. */
  requestTimeoutMs: number;
  /** Longest time to receive the request headers. */
  headersTimeoutMs: number;
  /**
   * Longest time to answer a request, receiving its body and a long-poll's wait aside
   * (REQUEST_DEADLINE_MS); past it the answer is 503 `database_unavailable`. The database's limits
   * are per query, so without it a request of several queries could take several of them.
   */
  requestDeadlineMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** How often the server looks for requests past their time limit. */
  timeoutCheckIntervalMs: number;
  /** Open connections one socket address may hold (0 = no cap). */
  maxConnectionsPerIp: number;
}

const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** TRUST_PROXY: off, a hop count, or a comma list of proxy addresses/CIDRs. */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = (raw ?? '').trim();
  if (value === '' || /^(0|false|no|off)$/i.test(value)) return false;
  // "true" used to mean "believe the left-most X-Forwarded-For", which lets any client pick its IP.
  if (/^(true|yes|on)$/i.test(value)) {
    throw new Error('no longer accepts true: set the number of proxies in front of the server (e.g. 1) or their addresses (e.g. 10.0.0.1,192.168.0.0/16)');
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) throw new Error('must be a hop count from 0 to 10, or a comma list of proxy addresses/CIDRs');
    return hops;
  }
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const bad = entries.filter((e) => !PROXY_RANGE_NAMES.includes(e) && !isAddressOrCidr(e));
  if (bad.length || !entries.length) {
    throw new Error(`must be off, a hop count (e.g. 1) or a comma list of proxy addresses/CIDRs; not an address or CIDR: ${bad.join(', ')}`);
  }
  return entries;
}

/** Strict forms only: ipaddr.isValid would also take "10.1" or "1". */
function isAddressOrCidr(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  const v4 = ipaddr.IPv4.isValidFourPartDecimal(address!);
  if (!v4 && !ipaddr.IPv6.isValid(address!)) return false;
  if (bits === undefined) return true;
  return rest.length === 0 && /^\d{1,3}$/.test(bits) && Number(bits) <= (v4 ? 32 : 128);
}

/** One configured model provider. `kind` says which wire protocol it speaks. */
export interface ProviderConfig {
  name: string;
  kind: 'openai-compatible' | 'anthropic';
  baseUrl: string;
  apiKey: string | undefined;
}

export interface AiConfig {
  /** Configured providers by name (`openai`, `anthropic`, `ollama`, and any AI_PROVIDER_<NAME>_BASE_URL). */
  providers: Record<string, ProviderConfig>;
  /** Run the review workers in this process. */
  workersEnabled: boolean;
  concurrencyPerProvider: number;
  maxAttempts: number;
  timeoutMs: number;
  leaseMs: number;
  pollMs: number;
  /** First retry delay; doubles each attempt, with jitter. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** INJECTION_CLASSIFIER: the screening's model call (see parseInjectionClassifier). */
  classifier: InjectionClassifierSetting;
  /**
   * AI_ACCEPT_UNCONFIGURED_MODELS: accept events naming models whose provider this process has no
   * configuration for (default off: 422 model_not_configured). For a process that serves the API
   * without provider keys while other processes (REVIEW_WORKERS on, keys set) run the reviews.
   */
  acceptUnconfiguredModels: boolean;
}

/**
 * INJECTION_CLASSIFIER: whether screening also asks a model which passages address the evaluator.
 * `off` (the default): patterns only. `on`: the first of the event's models whose provider is
 * configured here. `provider/model`: that model when the event has it among its models, else as `on`.
 */
export type InjectionClassifierSetting = { enabled: false } | { enabled: true; model: string | null };

export function parseInjectionClassifier(raw: string | undefined, problems: string[]): InjectionClassifierSetting {
  const v = (raw ?? '').trim();
  if (v === '' || /^off$/i.test(v)) return { enabled: false };
  if (/^on$/i.test(v)) return { enabled: true, model: null };
  if (/^[A-Za-z0-9][A-Za-z0-9_-]*\/\S+$/.test(v) && v.length <= 200) return { enabled: true, model: v };
  problems.push(`INJECTION_CLASSIFIER=${JSON.stringify(raw)} must be off, on, or a model id such as openai/gpt-4o-mini`);
  return { enabled: false };
}

/**
 * Providers from the environment (contract "AI review protocol"): OPENAI_API_KEY/OPENAI_BASE_URL,
 * ANTHROPIC_API_KEY/ANTHROPIC_BASE_URL, OLLAMA_BASE_URL, and any number of further OpenAI-compatible
 * providers as AI_PROVIDER_<NAME>_BASE_URL (+ optional AI_PROVIDER_<NAME>_API_KEY); NAME lower-cased
 * is the provider part of a model identifier (`local/llama3`).
 */
export function parseProviders(env: Env, problems: string[]): Record<string, ProviderConfig> {
  const providers: Record<string, ProviderConfig> = {};
  const url = (name: string, raw: string): string | null => {
    try {
      const u = new URL(raw);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
      return raw.replace(/\/+$/, '');
    } catch {
      problems.push(`${name}=${JSON.stringify(raw)} must be an absolute http(s) URL`);
      return null;
    }
  };
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) {
    const baseUrl = url('OPENAI_BASE_URL', env.OPENAI_BASE_URL || 'https://api.openai.com/v1');
    if (baseUrl) providers.openai = { name: 'openai', kind: 'openai-compatible', baseUrl, apiKey: env.OPENAI_API_KEY || undefined };
  }
  if (env.ANTHROPIC_API_KEY || env.ANTHROPIC_BASE_URL) {
    const baseUrl = url('ANTHROPIC_BASE_URL', env.ANTHROPIC_BASE_URL || 'https://api.anthropic.com');
    if (baseUrl) providers.anthropic = { name: 'anthropic', kind: 'anthropic', baseUrl, apiKey: env.ANTHROPIC_API_KEY || undefined };
  }
  if (env.OLLAMA_BASE_URL) {
    const baseUrl = url('OLLAMA_BASE_URL', env.OLLAMA_BASE_URL);
    if (baseUrl) providers.ollama = { name: 'ollama', kind: 'openai-compatible', baseUrl, apiKey: undefined };
  }
  for (const [key, value] of Object.entries(env)) {
    const m = /^AI_PROVIDER_([A-Z0-9_]+)_BASE_URL$/.exec(key);
    if (!m || !value) continue;
    const name = m[1]!.toLowerCase().replace(/_/g, '-');
    const baseUrl = url(key, value);
    if (baseUrl) providers[name] = { name, kind: 'openai-compatible', baseUrl, apiKey: env[`AI_PROVIDER_${m[1]}_API_KEY`] || undefined };
  }
  return providers;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const DEFAULT_DATA_DIR = './data';

/** `dir/name` without normalising the directory as written (`./data` stays `./data/hackathon.db`). */
function under(dir: string, name: string): string {
  return `${dir.replace(/\/+$/, '') || '/'}/${name}`.replace(/^\/\//, '/');
}

/**
 * Where the platform keeps its files, and where its database and outbox are. Precedence:
 * explicit DATABASE_URL / OUTBOX_DIR win; otherwise they live under the data directory, which is
 * DATA_DIR when set, else the directory of an explicit SQLite database (so the outbox sits beside
 * the database it belongs to), else ./data.
 */
function dataLocations(env: Env, problems: string[]): { dataDir: string; database: DatabaseConfig; outboxDir: string } {
  let explicitDb: DatabaseConfig | null = null;
  if (env.DATABASE_URL) {
    try {
      explicitDb = parseDatabaseUrl(env.DATABASE_URL);
    } catch (e) {
      problems.push(`DATABASE_URL ${(e as Error).message}`);
    }
  }
  let dataDir = env.DATA_DIR || DEFAULT_DATA_DIR;
  if (!env.DATA_DIR && explicitDb?.dialect === 'sqlite' && explicitDb.path !== ':memory:') dataDir = dirname(explicitDb.path);
  const defaultDbPath = under(dataDir, 'hackathon.db');
  const database: DatabaseConfig = explicitDb ?? { dialect: 'sqlite', path: defaultDbPath, url: `sqlite:${defaultDbPath}` };
  return { dataDir, database, outboxDir: env.OUTBOX_DIR || under(dataDir, 'outbox') };
}

export function parseDatabaseUrl(raw: string): DatabaseConfig {
  if (raw.startsWith('sqlite:')) {
    // sqlite:./x.db, sqlite:/abs/x.db, sqlite:///abs/x.db and sqlite://x.db (relative) all work.
    const path = raw.slice('sqlite:'.length).replace(/^\/\//, '');
    if (!path) throw new Error('sqlite: needs a path, e.g. sqlite:./data/hackathon.db');
    return { dialect: 'sqlite', path, url: raw };
  }
  if (raw.startsWith('postgres://') || raw.startsWith('postgresql://')) {
    try {
      new URL(raw);
    } catch {
      throw new Error('is not a valid postgres:// URL');
    }
    return { dialect: 'postgres', url: raw };
  }
  throw new Error('must start with sqlite: or postgres://');
}

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];

  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    // Decimal digits only: Number() would also take " " (0), "0x50" and "1e3".
    const n = /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name}=${JSON.stringify(raw)} must be a whole number from ${min} to ${max}`);
      return fallback;
    }
    return n;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off)$/i.test(raw)) return false;
    problems.push(`${name}=${JSON.stringify(raw)} must be true or false`);
    return fallback;
  };

  /** SITE_LOGO_URL (absolute http(s), or a path starting with one "/") or SITE_LOGO_FILE (a path), not both. */
  const siteLogo = (): { url: string | null; file: string | null } => {
    const url = env.SITE_LOGO_URL?.trim() || null;
    const file = env.SITE_LOGO_FILE?.trim() || null;
    if (url && file) problems.push('SITE_LOGO_URL and SITE_LOGO_FILE: set one of them, not both');
    // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
    const clean = (v: string) => !/[\u0000-\u0020\u007f-\u009f"'<>\\]/.test(v);
    if (url && !(clean(url) && (/^https?:\/\/[^/]/i.test(url) || /^\/(?!\/)/.test(url)))) {
      problems.push(`SITE_LOGO_URL=${JSON.stringify(url)} must be an absolute http(s) URL or a path on this site starting with /`);
      return { url: null, file: null };
    }
    return { url, file: url ? null : file };
  };

  /** A power of two from 2^14 (the floor) to 2^20; default 2^17, OWASP's recommendation. */
  const scryptN = (): number => {
    const n = int('PASSWORD_SCRYPT_N', 2 ** 17, 2 ** 14, 2 ** 20);
    if ((n & (n - 1)) === 0) return n;
    problems.push(`PASSWORD_SCRYPT_N=${JSON.stringify(env.PASSWORD_SCRYPT_N)} must be a power of two (16384, 32768, 65536, 131072, ...)`);
    return 2 ** 17;
  };

  const signupMode = (): SignupMode => {
    const raw = (env.SIGNUP_MODE || 'open').toLowerCase() as SignupMode;
    if (SIGNUP_MODES.includes(raw)) return raw;
    problems.push(`SIGNUP_MODE=${JSON.stringify(env.SIGNUP_MODE)} must be one of ${SIGNUP_MODES.join(', ')}`);
    return 'open';
  };

  const signupConfirmation = (): SignupConfirmation => {
    const raw = (env.SIGNUP_CONFIRMATION || 'auto').toLowerCase();
    if (raw === 'email' || raw === 'off') return raw;
    if (raw !== 'auto') problems.push(`SIGNUP_CONFIRMATION=${JSON.stringify(env.SIGNUP_CONFIRMATION)} must be one of auto, email, off`);
    return env.SMTP_URL ? 'email' : 'off';
  };

  /** One line of text, without control characters (it goes into problem documents and skill.md). */
  const operatorContact = (): string | null => {
    const raw = env.OPERATOR_CONTACT?.trim();
    if (!raw) return null;
    // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
    if (/[\u0000-\u001f\u007f]/.test(raw) || raw.length > 200) {
      problems.push('OPERATOR_CONTACT must be one line of at most 200 characters (an e-mail address or a URL)');
      return null;
    }
    return raw;
  };

  const port = int('PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';

  const parsedUrl = parsePublicUrl(env.PUBLIC_URL || `http://localhost:${port}`);
  if (typeof parsedUrl !== 'string') problems.push(parsedUrl.problem);
  const publicUrl = typeof parsedUrl === 'string' ? parsedUrl : (env.PUBLIC_URL ?? '');

  const { dataDir, database, outboxDir } = dataLocations(env, problems);

  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must start with redis:// or rediss://');

  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const logFormat = (env.LOG_FORMAT || 'auto').toLowerCase() as LogFormatSetting;
  if (!LOG_FORMATS.includes(logFormat)) problems.push(`LOG_FORMAT=${JSON.stringify(env.LOG_FORMAT)} must be one of ${LOG_FORMATS.join(', ')}`);

  let trustProxy: TrustProxy = false;
  try {
    trustProxy = parseTrustProxy(env.TRUST_PROXY);
  } catch (e) {
    problems.push(`TRUST_PROXY=${JSON.stringify(env.TRUST_PROXY)} ${(e as Error).message}`);
  }

  const http: HttpLimits = {
    requestTimeoutMs: int('REQUEST_TIMEOUT_MS', 30_000, 100, 600_000),
    headersTimeoutMs: int('HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
    // Above DB_QUERY_TIMEOUT_MS (20 s) with room for the connection and a few quick queries around
    // the slow one; below the common 30 s proxy and client timeouts, so the client gets our 503.
    requestDeadlineMs: int('REQUEST_DEADLINE_MS', 25_000, 100, 600_000),
    keepAliveTimeoutMs: int('KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 600_000),
    timeoutCheckIntervalMs: int('TIMEOUT_CHECK_INTERVAL_MS', 1000, 10, 60_000),
    maxConnectionsPerIp: int('MAX_CONNECTIONS_PER_IP', 100, 0, 1_000_000),
  };
  // Node refuses a headers limit above the whole-request limit.
  if (http.headersTimeoutMs > http.requestTimeoutMs) {
    problems.push(`HEADERS_TIMEOUT_MS=${http.headersTimeoutMs} must not exceed REQUEST_TIMEOUT_MS=${http.requestTimeoutMs}`);
  }

  const databaseLimits: DatabaseLimits = {
    connectTimeoutMs: int('DB_CONNECT_TIMEOUT_MS', 5000, 100, 600_000),
    statementTimeoutMs: int('DB_STATEMENT_TIMEOUT_MS', 15_000, 0, 3_600_000),
    queryTimeoutMs: int('DB_QUERY_TIMEOUT_MS', 20_000, 100, 3_600_000),
  };
  // The server's own limit should fire first: it cancels the statement and keeps the connection.
  if (databaseLimits.statementTimeoutMs > 0 && databaseLimits.queryTimeoutMs <= databaseLimits.statementTimeoutMs) {
    problems.push(`DB_QUERY_TIMEOUT_MS=${databaseLimits.queryTimeoutMs} must be above DB_STATEMENT_TIMEOUT_MS=${databaseLimits.statementTimeoutMs}`);
  }

  const config: Config = {
    dataDir,
    port,
    host,
    publicUrl,
    database,
    databaseLimits,
    redisUrl,
    redisCommandTimeoutMs: int('REDIS_COMMAND_TIMEOUT_MS', 1000, 10, 60_000),
    logLevel,
    logFormat,
    trustProxy,
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 100 * 1024, 1024, 50 * 1024 * 1024),
    http,
    rateLimit: {
      enabled: bool('RATE_LIMIT_ENABLED', true),
      perKey: int('RATE_LIMIT_PER_KEY', 120, 1, 1_000_000),
      perIp: int('RATE_LIMIT_PER_IP', 60, 1, 1_000_000),
      windowMs: int('RATE_LIMIT_WINDOW_MS', 60_000, 1000, 86_400_000),
    },
    maxWaitSeconds: int('MAX_WAIT_SECONDS', DEFAULT_MAX_WAIT_SECONDS, 0, LONG_POLL_MAX_SECONDS),
    eventCacheTtlMs: int('EVENT_CACHE_TTL_MS', 1000, 0, 3_600_000),
    eventCacheMaxEntries: int('EVENT_CACHE_MAX_ENTRIES', 5000, 1, 10_000_000),
    eventCacheMaxBytes: int('EVENT_CACHE_MAX_BYTES', 32 * 1024 * 1024, 1024, 2 ** 40),
    waitRecheckMs: int('WAIT_RECHECK_MS', 5000, 0, 3_600_000),
    authCacheTtlMs: int('AUTH_CACHE_TTL_MS', 2000, 0, 60_000),
    leaderboardInlineRefresh: int('LEADERBOARD_INLINE_REFRESH', 200, 1, 1_000_000),
    ai: {
      providers: parseProviders(env, problems),
      workersEnabled: bool('REVIEW_WORKERS', true),
      concurrencyPerProvider: int('REVIEW_CONCURRENCY', 4, 1, 256),
      maxAttempts: int('REVIEW_MAX_ATTEMPTS', 3, 1, 20),
      timeoutMs: int('REVIEW_TIMEOUT_MS', 60_000, 100, 600_000),
      leaseMs: int('REVIEW_LEASE_MS', 120_000, 1000, 3_600_000),
      pollMs: int('REVIEW_POLL_MS', 1000, 10, 60_000),
      backoffBaseMs: int('REVIEW_BACKOFF_MS', 2000, 0, 600_000),
      backoffMaxMs: int('REVIEW_BACKOFF_MAX_MS', 60_000, 0, 3_600_000),
      classifier: parseInjectionClassifier(env.INJECTION_CLASSIFIER, problems),
      acceptUnconfiguredModels: bool('AI_ACCEPT_UNCONFIGURED_MODELS', false),
    },
    webhooks: {
      allowLoopback: bool('WEBHOOKS_ALLOW_LOOPBACK', false),
      workersEnabled: bool('WEBHOOKS_WORKERS', true),
      concurrency: int('WEBHOOKS_CONCURRENCY', 8, 1, 256),
      timeoutMs: int('WEBHOOKS_TIMEOUT_MS', 10_000, 100, 60_000),
      pollMs: int('WEBHOOKS_POLL_MS', 500, 10, 60_000),
      leaseMs: int('WEBHOOKS_LEASE_MS', 60_000, 1000, 3_600_000),
      disableAfter: int('WEBHOOKS_DISABLE_AFTER', 20, 1, 10_000),
      indexReloadMs: int('WEBHOOK_INDEX_RELOAD_MS', 5000, 0, 3_600_000),
    },
    github: {
      apiUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''),
      token: env.GITHUB_TOKEN || undefined,
      timeoutMs: int('GITHUB_TIMEOUT_MS', 5000, 100, 60_000),
      maxBytes: int('GITHUB_MAX_BYTES', 20_000, 1000, 1_000_000),
    },
    mail: {
      smtpUrl: env.SMTP_URL || undefined,
      from: env.MAIL_FROM || 'Hackathon Platform <no-reply@localhost>',
      outboxDir,
      invitationTtlHours: int('INVITATION_TTL_HOURS', 168, 1, 24 * 365),
    },
    mailQueue: {
      workersEnabled: bool('MAIL_WORKERS', true),
      concurrency: int('MAIL_CONCURRENCY', 4, 1, 64),
      pollMs: int('MAIL_POLL_MS', 1000, 10, 60_000),
      leaseMs: int('MAIL_LEASE_MS', 120_000, 1000, 3_600_000),
      retryBaseMs: int('MAIL_RETRY_BASE_MS', 30_000, 10, 3_600_000),
      giveUpHours: int('MAIL_GIVE_UP_HOURS', 24, 1, 24 * 30),
    },
    passwordScrypt: { N: scryptN(), r: 8, p: 1 },
    passwordChecksAtOnce: int('PASSWORD_CHECKS_AT_ONCE', 2, 1, 64),
    siteName: (env.SITE_NAME || 'Hackathon platform').slice(0, 100),
    siteNameSet: Boolean(env.SITE_NAME?.trim()),
    siteLogo: siteLogo(),
    media: {
      coverMaxBytes: int('MEDIA_COVER_MAX_BYTES', 2 * 1024 * 1024, 1024, 20 * 1024 * 1024),
      logoMaxBytes: int('MEDIA_LOGO_MAX_BYTES', 512 * 1024, 1024, 20 * 1024 * 1024),
      maxDimension: int('MEDIA_MAX_DIMENSION', 8192, 16, 20_000),
      maxPixels: int('MEDIA_MAX_PIXELS', 16_777_216, 256, 400_000_000),
    },
    accounts: {
      signupMode: signupMode(),
      signupConfirmation: signupConfirmation(),
      signupConfirmTtlMinutes: int('SIGNUP_CONFIRM_TTL_MINUTES', 24 * 60, 5, 60 * 24 * 7),
      sessionTtlDays: int('SESSION_TTL_DAYS', 30, 1, 3650),
      signinMaxFailuresPerAccount: int('SIGNIN_MAX_FAILURES_PER_ACCOUNT', 5, 1, 1_000_000),
      signinMaxFailuresPerIp: int('SIGNIN_MAX_FAILURES_PER_IP', 20, 1, 1_000_000),
      signinWindowSeconds: int('SIGNIN_WINDOW_SECONDS', 900, 1, 86_400 * 30),
      passwordResetTtlMinutes: int('PASSWORD_RESET_TTL_MINUTES', 60, 1, 60 * 24 * 7),
      operatorContact: operatorContact(),
      agentSignupsPerIp: int('AGENT_SIGNUPS_PER_IP', 10, 1, 1_000_000),
    },
    idempotency: {
      ttlMs: int('IDEMPOTENCY_TTL_HOURS', 24, 1, 24 * 30) * 3_600_000,
      leaseMs: int('IDEMPOTENCY_LEASE_SECONDS', 60, 1, 3600) * 1000,
    },
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/**
 * `PUBLIC_URL` in the one form everything derives from (links, mails, skill.md, the served shell
 * scripts): an absolute http(s) URL with no control characters or whitespace, no user name or
 * password, no query or fragment, as the URL parser normalises it (host lowercased, default port
 * dropped, the path percent-encoded) and without a trailing slash. Otherwise `{ problem }`: the
 * raw text is never used (a newline in it once injected a command line into the scripts).
 */
export function parsePublicUrl(raw: string): string | { problem: string } {
  const bad = (why: string) => ({ problem: `PUBLIC_URL=${JSON.stringify(raw)} must be an absolute http(s) URL (${why})` });
  // The URL parser silently drops tabs and newlines: refuse them (and every other control character) first.
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  if (/[\u0000-\u0020\u007f-\u009f]/.test(raw)) return bad('no spaces or control characters');
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return bad('it does not parse');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return bad('http: or https: only');
  if (u.username || u.password) return bad('no user name or password');
  if (u.search || u.hash || raw.includes('?') || raw.includes('#')) return bad('no query or fragment');
  return `${u.origin}${u.pathname}`.replace(/\/+$/, '');
}
