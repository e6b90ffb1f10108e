import { Redis } from 'ioredis';
import { buildApp } from './app.js';
import type { App } from './app-context.js';
import type { Clock } from './core/clock.js';
import type { Config } from './core/config.js';
import { openDatabase, type DatabaseHandle } from './core/db/index.js';
import { migrateToLatest } from './core/db/migrations.js';
import { notifierFor, type Notifier } from './core/notifier.js';
import { memoryRateLimitStore, redisRateLimitStore, type RateLimitStore } from './core/rate-limit.js';
import { countUsers } from './accounts/accounts-repo.js';

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
export async function startServer(config: Config, opts: { clock?: Clock; logger?: false } = {}): Promise<RunningServer> {
  const database = openDatabase(config.database, { limits: config.databaseLimits });
  await migrate(config, database);

  let store: RateLimitStore = memoryRateLimitStore();
  const redisClients: Redis[] = [];
  let redis: { publisher: Redis; subscriber: Redis } | undefined;
  if (config.redisUrl) {
    const pub = new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 });
    const sub = new Redis(config.redisUrl, { lazyConnect: false });
    redisClients.push(pub, sub);
    redis = { publisher: pub, subscriber: sub };
    store = redisRateLimitStore(pub);
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
    ...(redis ? { redisHealth: () => (redis.publisher.status === 'ready' ? 'up' : 'down') } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.logger === false ? { logger: false } : {}),
  });
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
      for (const r of redisClients) r.disconnect();
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
