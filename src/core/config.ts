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
    const path = raw.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
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
    const n = Number(raw);
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
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}
