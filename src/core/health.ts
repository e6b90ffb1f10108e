import { readOneUser, type Db } from './db/index.js';

/**
 * What `/healthz` reports. `database` decides the status (503 while it is down: the process cannot
 * serve). Redis is optional help: `down` (configured but unreachable) still answers 200, since the
 * API keeps serving without it; `not_configured` when REDIS_URL is unset.
 */
export type DatabaseHealth = 'up' | 'down';
export type RedisHealth = 'up' | 'down' | 'not_configured';

export interface HealthReport {
  ok: boolean;
  database: DatabaseHealth;
  redis: RedisHealth;
}

/**
 * A cheap probe of the database for health checks: one tiny query, given up after `timeoutMs`
 * (a frozen database must not hold the check), its result kept for `cacheMs` so a load balancer
 * polling every process often costs one query a second. Probes never overlap: a check arriving
 * while one runs waits for that one.
 */
export function createDatabaseProbe(db: Db, opts: { timeoutMs: number; cacheMs?: number; now?: () => number }): () => Promise<DatabaseHealth> {
  const cacheMs = opts.cacheMs ?? 1000;
  const now = opts.now ?? Date.now;
  let last: { at: number; health: DatabaseHealth } | null = null;
  let running: Promise<DatabaseHealth> | null = null;

  async function probe(): Promise<DatabaseHealth> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<DatabaseHealth>((resolve) => {
      timer = setTimeout(() => resolve('down'), opts.timeoutMs);
      timer.unref();
    });
    // The users table rather than `select 1`: a database without the schema cannot serve either.
    const query = readOneUser(db).then(
      (): DatabaseHealth => 'up',
      (): DatabaseHealth => 'down',
    );
    try {
      return await Promise.race([query, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  return () => {
    if (last && now() - last.at < cacheMs) return Promise.resolve(last.health);
    running ??= probe().then((health) => {
      last = { at: now(), health };
      running = null;
      return health;
    });
    return running;
  };
}
