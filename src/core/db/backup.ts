import { spawn } from 'node:child_process';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { ConfigError, type DatabaseConfig } from '../config.js';
import { ensurePrivateDir, ensurePrivateFile, restrictFile } from '../private-files.js';
import { knownMigrations } from './migrations.js';

/**
 * Backups and restores for the operator (`hackathon backup` / `hackathon restore`), while the
 * server keeps serving. SQLite: SQLite's online backup API copying every page in one step, which is
 * one read transaction, so the copy is the database as of one moment while writers go on (WAL mode
 * lets them). PostgreSQL: pg_dump's custom format, which dumps one snapshot as well.
 * A restore refuses a backup made by a newer version of the platform (a migration this version does
 * not know), and migrations that the backup lacks are applied by the next start or `migrate`.
 */

export class BackupError extends Error {}

export interface BackupSummary {
  /** The migrations the backup was made at (the last one names the schema version). */
  migrations: string[];
  bytes: number;
}

/** Every migration the copy holds must be one this version knows; returns those it lacks. */
export function checkSchemaVersion(applied: string[]): { missing: string[] } {
  const known = new Set(knownMigrations());
  const unknown = applied.filter((m) => !known.has(m));
  if (unknown.length) {
    throw new BackupError(
      `the backup was made by a newer version of the platform (unknown migrations: ${unknown.join(', ')}); restore it with that version or newer`,
    );
  }
  const have = new Set(applied);
  return { missing: knownMigrations().filter((m) => !have.has(m)) };
}

export async function backupDatabase(config: DatabaseConfig, target: string): Promise<BackupSummary> {
  if (existsSync(target)) throw new BackupError(`${target} exists already; name a new file`);
  if (!existsSync(dirname(target) || '.')) throw new BackupError(`the folder of ${target} does not exist`);
  return config.dialect === 'sqlite' ? backupSqlite(config.path, target) : backupPostgres(config.url, target);
}

export async function restoreDatabase(config: DatabaseConfig, source: string, opts: { force?: boolean } = {}): Promise<BackupSummary & { missing: string[] }> {
  if (!existsSync(source)) throw new BackupError(`${source} does not exist`);
  return config.dialect === 'sqlite' ? restoreSqlite(config.path, source, opts) : restorePostgres(config.url, source, opts);
}

// --- SQLite -----------------------------------------------------------------------------------

function sqliteMigrations(db: SQLite.Database): string[] {
  const table = db.prepare("select name from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
  if (!table) return [];
  return (db.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map((r) => r.name);
}

async function backupSqlite(path: string, target: string): Promise<BackupSummary> {
  if (path === ':memory:' || !existsSync(path)) throw new BackupError(`there is no database file at ${path}`);
  const source = new SQLite(path, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    // Created empty and 0600 first (an empty file is an empty database that the copy overwrites), so
    // the copy is never readable by others, whatever the umask.
    ensurePrivateFile(target);
    // One step copies every page inside one read transaction: a consistent snapshot even while the
    // server writes (in smaller steps a write between steps would restart the copy, forever under load).
    await source.backup(target, { progress: () => 0x7fffffff });
    restrictFile(target);
  } catch (err) {
    rmSync(target, { force: true });
    throw err;
  } finally {
    source.close();
  }
  const copy = new SQLite(target, { readonly: true, fileMustExist: true });
  try {
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`the copy failed its integrity check: ${String(check)}`);
    return { migrations: sqliteMigrations(copy), bytes: statSync(target).size };
  } finally {
    copy.close();
  }
}

async function restoreSqlite(path: string, source: string, opts: { force?: boolean }): Promise<BackupSummary & { missing: string[] }> {
  let backup: SQLite.Database;
  try {
    backup = new SQLite(source, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new BackupError(`${source} is not a SQLite database (${(err as Error).message})`);
  }
  let applied: string[];
  try {
    const check = backup.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`${source} failed its integrity check: ${String(check)}`);
    applied = sqliteMigrations(backup);
    if (applied.length === 0) throw new BackupError(`${source} holds no platform database (no migrations table)`);
  } catch (err) {
    backup.close();
    if (err instanceof BackupError) throw err;
    throw new BackupError(`${source} is not a readable SQLite database (${(err as Error).message})`);
  }
  try {
    const { missing } = checkSchemaVersion(applied);
    if (existsSync(path) && statSync(path).size > 0 && !opts.force) {
      throw new BackupError(`${path} exists already; stop the server and move it away, or pass --force to replace it`);
    }
    try {
      ensurePrivateDir(dirname(path));
    } catch (err) {
      throw new ConfigError([`DATABASE_URL: cannot create the folder ${dirname(path)} (${(err as NodeJS.ErrnoException).code})`]);
    }
    // Copy beside the target, then rename over it: a restore that fails half-way leaves nothing half-written.
    const partial = `${path}.restoring`;
    rmSync(partial, { force: true });
    ensurePrivateFile(partial);
    await backup.backup(partial, { progress: () => 0x7fffffff });
    restrictFile(partial);
    for (const suffix of ['-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
    renameSync(partial, path);
    return { migrations: applied, bytes: statSync(path).size, missing };
  } finally {
    backup.close();
  }
}

// --- PostgreSQL -------------------------------------------------------------------------------

/** The connection for pg_dump and pg_restore: the password goes in the environment, never on a command line. */
function pgToolEnv(url: string): { env: NodeJS.ProcessEnv; dbname: string } {
  const u = new URL(url);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
  u.password = '';
  return { env, dbname: u.toString() };
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', (e: NodeJS.ErrnoException) =>
      reject(new BackupError(e.code === 'ENOENT' ? `${cmd} is not installed (PostgreSQL's client tools are needed)` : e.message)),
    );
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new BackupError(`${cmd} failed (exit ${code}): ${err.trim()}`))));
  });
}

async function pgMigrations(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    const exists = await client.query<{ t: string | null }>("select to_regclass('public.kysely_migration') as t");
    if (!exists.rows[0]?.t) return [];
    return (await client.query<{ name: string }>('select name from kysely_migration order by name')).rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

/** The migrations recorded in a pg_dump archive, read from its data without restoring anything. */
async function archiveMigrations(source: string): Promise<string[]> {
  const text = await run('pg_restore', ['--data-only', '--table=kysely_migration', '--file=-', source], process.env);
  const copy = /^COPY public\.kysely_migration \(([^)]*)\) FROM stdin;\n([\s\S]*?)^\\\.$/m.exec(text);
  if (!copy) return [];
  const cols = copy[1]!.split(',').map((c) => c.trim());
  const at = cols.indexOf('name');
  return copy[2]!
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t')[at]!)
    .sort();
}

async function backupPostgres(url: string, target: string): Promise<BackupSummary> {
  const { env, dbname } = pgToolEnv(url);
  ensurePrivateFile(target);
  try {
    await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${target}`, `--dbname=${dbname}`], env);
  } catch (err) {
    rmSync(target, { force: true });
    throw err;
  }
  restrictFile(target);
  return { migrations: await archiveMigrations(target), bytes: statSync(target).size };
}

async function restorePostgres(url: string, source: string, opts: { force?: boolean }): Promise<BackupSummary & { missing: string[] }> {
  let applied: string[];
  try {
    applied = await archiveMigrations(source);
  } catch (err) {
    throw new BackupError(`${source} is not a pg_dump archive of the platform (${(err as Error).message})`);
  }
  if (applied.length === 0) throw new BackupError(`${source} holds no platform database (no migrations table)`);
  const { missing } = checkSchemaVersion(applied);
  if ((await pgMigrations(url)).length > 0 && !opts.force) {
    throw new BackupError('the target database holds the platform already; restore into an empty database, or pass --force to replace its contents');
  }
  const { env, dbname } = pgToolEnv(url);
  const args = ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`];
  if (opts.force) args.push('--clean', '--if-exists');
  await run('pg_restore', [...args, source], env);
  return { migrations: applied, bytes: statSync(source).size, missing };
}
