import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type Transaction } from 'kysely';
import { ConfigError, type DatabaseConfig } from '../config.js';
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

export function openDatabase(config: DatabaseConfig, opts: { poolSize?: number } = {}): DatabaseHandle {
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
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  // Keep pg from turning NUMERIC/INT8 into strings in places we count.
  pg.types.setTypeParser(20, (v: string) => Number(v));
  const pool = new pg.Pool({ connectionString: config.url, max: opts.poolSize ?? 10 });
  // An idle connection the server drops (restart, failover, admin kill) must not crash the process:
  // the pool discards it and opens a new one on the next query.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

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
function withStatementCache(sqlite: SQLite.Database, max = 1000) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
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
  'projects.registration_id': 'projects_registration_uq',
  'reviews.project_id,reviews.reviewer': 'reviews_project_reviewer_uq',
  'reviewer_invitations.token_hash': 'reviewer_invitations_token_uq',
  'results.event_id': 'results_pkey',
};
