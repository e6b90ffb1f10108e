import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type PostgresPool, type PostgresPoolClient, type Transaction } from 'kysely';
import { ConfigError, type DatabaseConfig, type DatabaseLimits } from '../config.js';
import { ensurePrivateDir, ensurePrivateFile, restrictFile } from '../private-files.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Anything a repository function can run a query on: the database or an open transaction. */
export type Executor = Db | Tx;

export interface DatabaseHandle {
  db: Db;
  dialect: DatabaseConfig['dialect'];
  close: () => Promise<void>;
}

/**
 * Called with the SQL text of every statement the driver runs (SQLite) or sends (PostgreSQL: one
 * call is one round trip; BEGIN and COMMIT are statements of their own). The statement-budget test
 * and the benchmarks count with it; nothing is observed unless a caller asks.
 */
export type StatementObserver = (sql: string) => void;

export function openDatabase(config: DatabaseConfig, opts: { poolSize?: number; limits?: DatabaseLimits; observe?: StatementObserver } = {}): DatabaseHandle {
  if (config.dialect === 'sqlite') {
    const onDisk = config.path !== ':memory:' && !config.path.startsWith('file:');
    // Owner-only before SQLite writes a byte: the file holds accounts and key hashes. SQLite gives
    // the -wal and -shm files the database file's mode; the chmod below covers older companions.
    if (onDisk) preparePrivateFile(config.path);
    const sqlite = new SQLite(config.path);
    // WAL lets readers run beside the writer; NORMAL sync keeps every committed write across a
    // process crash (only a power loss can drop the last commits); the busy timeout makes a second
    // process wait for the write lock instead of failing.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    if (onDisk) for (const suffix of ['-wal', '-shm', '-journal']) restrictFile(config.path + suffix);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite, opts.observe) }) });
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  // Keep pg from turning NUMERIC/INT8 into strings in places we count.
  pg.types.setTypeParser(20, (v: string) => Number(v));
  const limits = opts.limits ?? NO_LIMITS;
  const pool = new pg.Pool({
    connectionString: config.url,
    max: opts.poolSize ?? 10,
    // The name shows in pg_stat_activity (a name in DATABASE_URL wins).
    application_name: 'hackathon',
    // A dead peer on an idle connection is found by the kernel instead of on the next query.
    keepAlive: true,
    // One limit for opening a connection and for waiting for a free one in the pool.
    ...(limits.connectTimeoutMs > 0 ? { connectionTimeoutMillis: limits.connectTimeoutMs } : {}),
    // Set by the server on each statement; it answers 57014 and the connection stays usable.
    ...(limits.statementTimeoutMs > 0 ? { statement_timeout: limits.statementTimeoutMs } : {}),
    // Waited for here: a frozen server or a partition never answers, statement_timeout or not.
    ...(limits.queryTimeoutMs > 0 ? { query_timeout: limits.queryTimeoutMs } : {}),
  });
  // An idle connection the server drops (restart, failover, admin kill) must not crash the process:
  // the pool discards it and opens a new one on the next query.
  pool.on('error', () => {});
  // …nor one that is checked out: pg emits 'error' on the client as well as failing its query, and
  // an 'error' without a listener kills the process. The query's caller gets the error; the pool
  // drops the client when it is released (it is no longer queryable).
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: discardingTimedOut(pool, opts.observe) }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

/**
 * Time limits of PostgreSQL connections (0 = none); see DatabaseLimits in config.ts. Without them
 * (tests, tools) nothing is limited.
 */
const NO_LIMITS: DatabaseLimits = { connectTimeoutMs: 0, statementTimeoutMs: 0, queryTimeoutMs: 0 };

/**
 * The pool as Kysely sees it, with one change: a client whose query timed out on our side (no
 * answer within query_timeout) is discarded when released. pg leaves that query running on the
 * connection, so the next query handed the client would wait behind it; a frozen server would keep
 * every connection of the pool held that way.
 */
function discardingTimedOut(pool: pg.Pool, observe?: StatementObserver): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let timedOut = false;
    return {
      async query(sql: string, parameters: ReadonlyArray<unknown>) {
        observe?.(sql);
        try {
          return await client.query(sql, parameters as unknown[]);
        } catch (err) {
          if ((err as Error)?.message === QUERY_READ_TIMEOUT) timedOut = true;
          throw err;
        }
      },
      // pg-pool replaces client.release at each checkout: call it at release time, not bound earlier.
      release: () => client.release(timedOut ? new Error(QUERY_READ_TIMEOUT) : undefined),
      // Kysely's type also has the cursor overload, which it uses only when given a cursor (it is not).
    } as unknown as PostgresPoolClient;
  };
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      // One wrapper per connection: Kysely keeps its per-connection state keyed by the object.
      if (!wrapper) wrappers.set(client, (wrapper = wrap(client)));
      return wrapper;
    },
    end: () => pool.end(),
  };
}

/** pg's message when query_timeout passes without an answer. */
const QUERY_READ_TIMEOUT = 'Query read timeout';

/** The database's folder (0700 when created here) and the file itself (0600), or a ConfigError saying why not. */
function preparePrivateFile(path: string): void {
  const dir = dirname(path);
  try {
    ensurePrivateDir(dir);
  } catch (err) {
    throw new ConfigError([`DATABASE_URL: cannot create the folder ${dir} (${(err as NodeJS.ErrnoException).code})`]);
  }
  try {
    ensurePrivateFile(path);
  } catch (err) {
    throw new ConfigError([`DATABASE_URL: cannot create or open ${path} (${(err as NodeJS.ErrnoException).code})`]);
  }
}

/**
 * Kysely prepares every query anew; preparing is a large share of a small query's cost on SQLite.
 * Queries are built from a fixed set of shapes, so caching statements by their SQL text is bounded
 * in practice; the cap keeps it bounded in theory too.
 */
function withStatementCache(sqlite: SQLite.Database, observe?: StatementObserver, max = 1000) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    // Kysely's SQLite driver prepares once per execution: a call here is one statement run.
    prepare(sql: string) {
      observe?.(sql);
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = sqlite.prepare(sql);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

/**
 * The name of the unique constraint a write broke, or null when the error is something else.
 * Both drivers report it differently: PostgreSQL names the constraint, SQLite lists the columns.
 */
export function uniqueViolation(err: unknown): string | null {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code === '23505') return e.constraint ?? 'unique';
  if (e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const cols = /UNIQUE constraint failed: (.+)$/.exec(e.message ?? '')?.[1] ?? '';
    return SQLITE_UNIQUE_NAMES[cols.replace(/\s+/g, '')] ?? cols;
  }
  return null;
}

const SQLITE_UNIQUE_NAMES: Record<string, string> = {
  'users.email': 'users_email_uq',
  'api_keys.key_hash': 'api_keys_hash_uq',
  'registrations.event_id,registrations.user_id': 'registrations_event_user_uq',
  'registrations.event_id,registrations.team_name_key': 'registrations_event_team_uq',
  'team_members.event_id,team_members.user_id': 'team_members_event_user_uq',
  'team_members.registration_id,team_members.user_id': 'team_members_pkey',
  'team_invitations.code_hash': 'team_invitations_code_hash_uq',
  'projects.registration_id': 'projects_registration_uq',
  'reviews.project_id,reviews.reviewer': 'reviews_project_reviewer_uq',
  'reviewer_invitations.token_hash': 'reviewer_invitations_token_uq',
  'signup_requests.token_hash': 'signup_requests_token_hash_uq',
  'results.event_id': 'results_pkey',
  'team_join_requests.registration_id,team_join_requests.user_id': 'team_join_requests_pending_uq',
};

/**
 * Whether an error says the database could not be reached or did not answer in time, rather than
 * that the query was wrong: the request may succeed if retried later (503, not 500).
 * PostgreSQL: a refused, reset or timed-out connection, a connection the server ended (restart,
 * crash, pg_terminate_backend: 57P01-57P03, class 08), too many connections (53300), a statement
 * cancelled by statement_timeout (57014), and pg's own messages for the same (connection timeout,
 * query read timeout, a client no longer queryable), a serialization failure or deadlock (40001,
 * 40P01). SQLite: the database is locked past the busy timeout, an I/O error, a full disk.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err as DriverError | undefined, depth = 0; e && depth < 5; e = e.cause as DriverError | undefined, depth++) {
    if (typeof e !== 'object') return false;
    const code = typeof e.code === 'string' ? e.code : '';
    if (UNAVAILABLE_CODES.has(code) || code.startsWith('08') || /^SQLITE_(BUSY|LOCKED|IOERR|FULL)/.test(code)) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((m) => e.message!.includes(m))) return true;
    // Node's connect to a host with several addresses fails with one error per address.
    if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
  }
  return false;
}

interface DriverError {
  code?: unknown;
  message?: string;
  cause?: unknown;
  errors?: unknown[];
}

const UNAVAILABLE_CODES = new Set([
  // Sockets.
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections, query_canceled.
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
  // serialization_failure, deadlock_detected: the same statement succeeds when tried again.
  '40001',
  '40P01',
]);

const UNAVAILABLE_MESSAGES = ['Connection terminated', 'timeout exceeded when trying to connect', QUERY_READ_TIMEOUT, 'is not queryable'];

/**
 * One cheap read of the users table (the health probe's): rather than `select 1`, since a database
 * without the schema cannot serve either.
 */
export async function readOneUser(db: Executor): Promise<void> {
  await db.selectFrom('users').select('id').limit(1).execute();
}
