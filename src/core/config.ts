/**
 * One config object, parsed and validated once at start from the environment, then passed down.
 * Every bad value is reported together, with the variable's name, so an operator fixes them in one go.
 */
export type DatabaseConfig =
  | { dialect: 'sqlite'; path: string; url: string }
  | { dialect: 'postgres'; url: string };

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  database: DatabaseConfig;
  redisUrl: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  trustProxy: boolean;
  bodyLimitBytes: number;
  rateLimit: { perKey: number; perIp: number; windowMs: number; enabled: boolean };
  /** Longest `?wait=` a client may ask of my-registration, in seconds. */
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
  ai: AiConfig;
  github: { apiUrl: string; token: string | undefined; timeoutMs: number; maxBytes: number };
  mail: { smtpUrl: string | undefined; from: string; outboxDir: string; invitationTtlHours: number };
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

  const port = int('PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';

  let publicUrl = env.PUBLIC_URL || `http://localhost:${port}`;
  try {
    const u = new URL(publicUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
    publicUrl = publicUrl.replace(/\/+$/, '');
  } catch {
    problems.push(`PUBLIC_URL=${JSON.stringify(publicUrl)} must be an absolute http(s) URL`);
  }

  let database: DatabaseConfig = { dialect: 'sqlite', path: './data/hackathon.db', url: 'sqlite:./data/hackathon.db' };
  try {
    database = parseDatabaseUrl(env.DATABASE_URL || 'sqlite:./data/hackathon.db');
  } catch (e) {
    problems.push(`DATABASE_URL ${(e as Error).message}`);
  }

  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must start with redis:// or rediss://');

  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const config: Config = {
    port,
    host,
    publicUrl,
    database,
    redisUrl,
    logLevel,
    trustProxy: bool('TRUST_PROXY', false),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 100 * 1024, 1024, 50 * 1024 * 1024),
    rateLimit: {
      enabled: bool('RATE_LIMIT_ENABLED', true),
      perKey: int('RATE_LIMIT_PER_KEY', 120, 1, 1_000_000),
      perIp: int('RATE_LIMIT_PER_IP', 60, 1, 1_000_000),
      windowMs: int('RATE_LIMIT_WINDOW_MS', 60_000, 1000, 86_400_000),
    },
    maxWaitSeconds: int('MAX_WAIT_SECONDS', 60, 0, 600),
    eventCacheTtlMs: int('EVENT_CACHE_TTL_MS', 1000, 0, 3_600_000),
    eventCacheMaxEntries: int('EVENT_CACHE_MAX_ENTRIES', 5000, 1, 10_000_000),
    eventCacheMaxBytes: int('EVENT_CACHE_MAX_BYTES', 32 * 1024 * 1024, 1024, 2 ** 40),
    waitRecheckMs: int('WAIT_RECHECK_MS', 5000, 0, 3_600_000),
    authCacheTtlMs: int('AUTH_CACHE_TTL_MS', 2000, 0, 60_000),
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
      outboxDir: env.OUTBOX_DIR || './data/outbox',
      invitationTtlHours: int('INVITATION_TTL_HOURS', 168, 1, 24 * 365),
    },
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}
