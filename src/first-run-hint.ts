import { isAbsolute, resolve } from 'node:path';
import { DEFAULT_DATA_DIR, parseDatabaseUrl } from './core/config.js';

type Env = Record<string, string | undefined>;

/** POSIX shell single quoting: the value reaches the command exactly as written. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

export const PASSWORD_PLACEHOLDER = '<password>';

/**
 * A database URL fit to print: a password (in the user-info or as `?password=`) is replaced by
 * `<password>`. `masked` says whether the reader has to put it back.
 */
export function printableDatabaseUrl(raw: string): { url: string; masked: boolean } {
  if (!/^postgres(ql)?:\/\//.test(raw)) return { url: raw, masked: false };
  const u = new URL(raw);
  let masked = false;
  if (u.password) {
    u.password = 'PASSWORD_PLACEHOLDER';
    masked = true;
  }
  if (u.searchParams.has('password')) {
    u.searchParams.set('password', 'PASSWORD_PLACEHOLDER');
    masked = true;
  }
  return { url: u.toString().replace(/PASSWORD_PLACEHOLDER/g, PASSWORD_PLACEHOLDER), masked };
}

/**
 * The environment assignments that make a CLI command reach the same data as this server: every
 * variable that selects the data (DATABASE_URL, DATA_DIR) the server was started with, when it
 * differs from the default. Relative SQLite paths and data directories are made absolute, so the
 * command works from any directory.
 */
export function dataEnvPrefix(env: Env, cwd: string): { prefix: string; masked: boolean } {
  const parts: string[] = [];
  let masked = false;
  if (env.DATA_DIR && env.DATA_DIR !== DEFAULT_DATA_DIR) {
    parts.push(`DATA_DIR=${shellQuote(resolve(cwd, env.DATA_DIR))}`);
  }
  if (env.DATABASE_URL) {
    const db = parseDatabaseUrl(env.DATABASE_URL);
    let url: string;
    if (db.dialect === 'sqlite') {
      url = db.path === ':memory:' || isAbsolute(db.path) ? db.url : `sqlite:${resolve(cwd, db.path)}`;
    } else {
      ({ url, masked } = printableDatabaseUrl(env.DATABASE_URL));
    }
    parts.push(`DATABASE_URL=${shellQuote(url)}`);
  }
  return { prefix: parts.length ? `${parts.join(' ')} ` : '', masked };
}

/** What `serve` prints when the database has no users: commands that act on this server's data. */
export function firstRunHint(env: Env, cwd: string, siteUrl?: string): string {
  const { prefix, masked } = dataEnvPrefix(env, cwd);
  return (
    'No users yet. Create the first administrator (who can then manage users and invitation codes at ' +
    `${siteUrl ?? ''}/admin) and an API key:\n` +
    `  ${prefix}npx hackathon users create --email you@example.com --password 'a long password' --role admin\n` +
    `  ${prefix}npx hackathon keys create --email you@example.com\n` +
    (siteUrl ? `or sign up at ${siteUrl}/signup and run: ${prefix}npx hackathon users set-role --email you@example.com --role admin\n` : '') +
    (masked ? `(the database password is not printed: replace ${PASSWORD_PLACEHOLDER} with it)\n` : '') +
    '\n'
  );
}
