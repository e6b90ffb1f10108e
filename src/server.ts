import { buildApp } from './app.js';
import type { App } from './app-context.js';
import type { Clock } from './core/clock.js';
import type { Config } from './core/config.js';
import { openDatabase, type DatabaseHandle, type StatementObserver } from './core/db/index.js';
import { migrateToLatest } from './core/db/migrations.js';
import { notifierFor, type Notifier } from './core/notifier.js';
import { failoverRateLimitStore, memoryRateLimitStore, redisRateLimitStore, type RateLimitStore } from './core/rate-limit.js';
import { openRedis, type RedisLink, type RedisLog } from './core/redis.js';
import { countUsers } from './accounts/accounts-repo.js';

/** How long a start waits for Redis before serving without it (it joins by itself when it comes). */
const REDIS_START_WAIT_MS = 2000;

export interface RunningServer {
  app: App;
  url: string;
  /** The database has no users yet: the operator needs to create the first organizer. */
  firstRun: boolean;
  database: DatabaseHandle;
  close(): Promise<void>;
}

/**
 * Opens the database, migrates it, connects Redis when configured, and listens. `close` drains
 * in-flight requests before closing connections, which is what SIGTERM calls.
 */
export async function startServer(
  config: Config,
  opts: { clock?: Clock; logger?: false; /** Sees every statement the app runs (the benchmarks count them). */ observeStatements?: StatementObserver } = {},
): Promise<RunningServer> {
  const database = openDatabase(config.database, { limits: config.databaseLimits, ...(opts.observeStatements ? { observe: opts.observeStatements } : {}) });
  await migrate(config, database);

  let store: RateLimitStore = memoryRateLimitStore();
  // Read lazily: the app (and its logger) is built below, with the store and notifier made here.
  let log: RedisLog | undefined = undefined;
  let redis: RedisLink | undefined;
  if (config.redisUrl) {
    redis = openRedis(config.redisUrl, { commandTimeoutMs: config.redisCommandTimeoutMs, log: () => log });
    // Redis is optional help: while it is down, limits are counted in this process.
    store = failoverRateLimitStore(redisRateLimitStore(redis.publisher), memoryRateLimitStore(), redis);
  }
  // Redis when configured, else PostgreSQL's LISTEN/NOTIFY, else in-process only (see docs/operator.md, "Caching").
  const notifier: Notifier = notifierFor({
    ...(redis ? { redis } : {}),
    ...(config.database.dialect === 'postgres' ? { postgres: { url: config.database.url, limits: config.databaseLimits } } : {}),
  });

  const { app } = await buildApp({
    config,
    database,
    notifier,
    rateLimitStore: store,
    ...(redis ? { redisHealth: redisHealthOf(redis) } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.logger === false ? { logger: false } : {}),
  });
  log = app.log;
  // Served from the first request with Redis when it is there; without it after a short wait (logged).
  await redis?.ready(REDIS_START_WAIT_MS);
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;

  const firstRun = (await countUsers(database.db)) === 0;

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      await app.close();
      await notifier.close();
      await store.close();
      redis?.close();
      await database.close();
    })());
  return { app, url, firstRun, database, close };
}

/**
 * Migrations run on a connection of their own without statement or query time limits: a long one
 * (an index over a large table) or one waiting for another process's migration lock must not be
 * cut off by the limits meant for requests. Only connecting is limited.
 */
async function migrate(config: Config, database: DatabaseHandle): Promise<void> {
  if (config.database.dialect === 'sqlite') return void (await migrateToLatest(database.db));
  const limits = { ...config.databaseLimits, statementTimeoutMs: 0, queryTimeoutMs: 0 };
  const migrating = openDatabase(config.database, { poolSize: 1, limits });
  try {
    await migrateToLatest(migrating.db);
  } finally {
    await migrating.close();
  }
}

function redisHealthOf(link: RedisLink): () => 'up' | 'down' {
  return () => (link.up() ? 'up' : 'down');
}
