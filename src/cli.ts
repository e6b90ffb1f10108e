#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { insertInviteCode } from './accounts/accounts-repo.js';
import { createAccountsService, ROLES } from './accounts/accounts-service.js';
import { CLI_ACTOR, recordAudit } from './core/audit.js';
import { generateInviteCode } from './accounts/invite-codes.js';
import { newId } from './core/ids.js';
import { ConfigError, loadConfig, type Config } from './core/config.js';
import { BackupError, backupDatabase, restoreDatabase } from './core/db/backup.js';
import { openDatabase } from './core/db/index.js';
import { migrateToLatest } from './core/db/migrations.js';
import type { Role } from './core/db/schema.js';
import { AppError } from './core/errors.js';
import { parseTimestamp } from './core/time.js';
import { firstRunHint } from './first-run-hint.js';

const USAGE = `Usage: hackathon <command> [options]

Commands:
  serve                                   start the HTTP server (PORT, HOST, DATABASE_URL, ...)
  migrate                                 apply database migrations and exit
  backup --to FILE                        a consistent copy of the database while the server runs
                                          (SQLite: online backup; PostgreSQL: pg_dump custom format)
  restore --from FILE [--force]           into DATABASE_URL (an absent file / empty database unless
                                          --force); refuses a backup of a newer version, then migrates
  users create --email E [--password P] [--role user|organizer|admin]
  users set-role --email E --role R
  users disable --email E                 signs the user out; their keys stop working
  users enable --email E
  invite-codes create [--uses N] [--note T] [--expires-in-days D]
                                          prints the new code alone on stdout (shown once);
                                          for SIGNUP_MODE=invite
  keys create --email E [--name N] [--expires 2027-01-01T00:00:00Z | --expires-in-days 90]
                                          prints the new key alone on stdout (shown once)
  keys list --email E                     one line per key (tab-separated): id, name, prefix, created,
                                          last used, expires, revoked ("-" when not set), scope (full or
                                          review); never the key
  keys revoke <key id or prefix>          also takes a line of keys list (its first column is the id)
  results verify <bundle.json> [--site URL] [--key KEYS] [--allow-unsigned]
                                          checks a results bundle (GET /events/{id}/result/bundle; "-"
                                          reads stdin): its sha256, the ranking recomputed from its
                                          scores alone, its signature under the site's key (from
                                          --site's /.well-known/hackathon-results-keys.json or --key)
                                          and, with --site, that the site serves the same bundle;
                                          exit 0 verified, 1 not (the last line says why), 65 not a
                                          bundle. Outside a checkout: node verify-bundle.mjs (served
                                          by the site at /verify-bundle.mjs), the same code
  results rotate-key                      a new key signs results bundles from now on; the old one
                                          stays published so the bundles it signed still verify

Configuration comes from the environment; see docs/operator.md.`;

class UsageError extends Error {}

function fail(message: string, code: number): never {
  process.stderr.write(`hackathon: ${message}\n`);
  process.exit(code);
}

async function withAccounts<T>(config: Config, fn: (svc: ReturnType<typeof createAccountsService>) => Promise<T>): Promise<T> {
  const database = openDatabase(config.database, { poolSize: 2 });
  try {
    await migrateToLatest(database.db);
    return await fn(
      createAccountsService({ db: database.db, clock: { now: () => new Date() }, scrypt: config.passwordScrypt, dialect: config.database.dialect }),
    );
  } finally {
    await database.close();
  }
}

function parse(argv: string[], options: Record<string, { type: 'string' | 'boolean' }>) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function need(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

function role(raw: string): Role {
  if (!ROLES.includes(raw as Role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
  return raw as Role;
}

/** `results verify` (bundle-verify-cli.ts: the same code as the served verify-bundle.mjs) and `results rotate-key`. */
async function resultsCommand(sub: string | undefined, rest: string[]): Promise<void> {
  if (sub === 'verify') {
    const { nodeIo, runVerify } = await import('./results/bundle-verify-cli.js');
    process.exitCode = await runVerify(rest, nodeIo());
    return;
  }
  if (sub === 'rotate-key') {
    parse(rest, {});
    const config = loadConfig();
    const { createResultSigner } = await import('./results/result-signing.js');
    const database = openDatabase(config.database, { poolSize: 2 });
    try {
      await migrateToLatest(database.db);
      const signer = createResultSigner({ db: database.db, clock: { now: () => new Date() }, publicUrl: config.publicUrl });
      const { retired, current } = await signer.rotate();
      process.stdout.write(`${current}\n`);
      process.stderr.write(
        `new results signing key ${current}${retired ? `; ${retired} retired (still published at ${signer.keysUrl}, so the bundles it signed still verify)` : ''}\n`,
      );
    } finally {
      await database.close();
    }
    return;
  }
  throw new UsageError(`unknown results command ${JSON.stringify(sub ?? '')}; use verify or rotate-key`);
}

export async function main(argv: string[]): Promise<void> {
  const [command, sub, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE + '\n');
    return;
  }
  // verify needs no configuration and no database: only the file (and the site, if named).
  if (command === 'results') return resultsCommand(sub, rest);
  const config = loadConfig();

  switch (command) {
    case 'serve': {
      // Loaded only here: the server pulls in every route and the AI SDKs, which the account
      // commands do not need and which would make each of them take seconds to start.
      const { startServer } = await import('./server.js');
      const server = await startServer(config);
      // Plain text for the person at the terminal; the JSON logs are for machines.
      process.stderr.write(`\nHackathon platform serving ${config.publicUrl} (web app and API; listening on ${server.url}, ${config.database.dialect})\n`);
      // The commands carry the server's DATABASE_URL / DATA_DIR, so run as printed they reach this
      // server's database rather than the default one.
      if (server.firstRun) process.stderr.write(firstRunHint(process.env, process.cwd(), config.publicUrl));
      const shutdown = (signal: string) => {
        server.app.log.info(`${signal} received, draining requests and shutting down`);
        const force = setTimeout(() => process.exit(1), 10_000);
        force.unref();
        server.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGTERM', () => shutdown('SIGTERM'));
      process.once('SIGINT', () => shutdown('SIGINT'));
      return;
    }
    case 'migrate': {
      const database = openDatabase(config.database, { poolSize: 1 });
      try {
        const applied = await migrateToLatest(database.db);
        process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'already up to date\n');
      } finally {
        await database.close();
      }
      return;
    }
    case 'backup': {
      const { values } = parse(sub === undefined ? [] : [sub, ...rest], { to: { type: 'string' } });
      const target = need(values, 'to');
      const summary = await backupDatabase(config.database, target);
      process.stdout.write(`${target}\n`);
      process.stderr.write(`backed up ${config.database.dialect} at schema ${summary.migrations.at(-1) ?? '(none)'}: ${summary.bytes} bytes\n`);
      return;
    }
    case 'restore': {
      const { values } = parse(sub === undefined ? [] : [sub, ...rest], { from: { type: 'string' }, force: { type: 'boolean' } });
      const summary = await restoreDatabase(config.database, need(values, 'from'), { force: values.force === true });
      const database = openDatabase(config.database, { poolSize: 1 });
      try {
        const applied = await migrateToLatest(database.db);
        process.stderr.write(
          `restored ${config.database.dialect} at schema ${summary.migrations.at(-1)}` +
            (applied.length ? `; then applied ${applied.join(', ')}` : '; the schema is current') +
            '\n',
        );
      } finally {
        await database.close();
      }
      return;
    }
    case 'users': {
      if (sub === 'create') {
        const { values } = parse(rest, { email: { type: 'string' }, password: { type: 'string' }, role: { type: 'string' } });
        const user = await withAccounts(config, (svc) =>
          svc.createUser({
            email: need(values, 'email'),
            ...(values.password !== undefined ? { password: String(values.password) } : {}),
            role: values.role ? role(String(values.role)) : 'user',
          }),
        );
        process.stdout.write(`${user.id} ${user.email} ${user.role}\n`);
        return;
      }
      if (sub === 'set-role') {
        const { values } = parse(rest, { email: { type: 'string' }, role: { type: 'string' } });
        const user = await withAccounts(config, (svc) => svc.setRole(need(values, 'email'), role(need(values, 'role'))));
        process.stdout.write(`${user.id} ${user.email} ${user.role}\n`);
        return;
      }
      if (sub === 'disable' || sub === 'enable') {
        const { values } = parse(rest, { email: { type: 'string' } });
        const user = await withAccounts(config, (svc) => svc.setDisabled(need(values, 'email'), sub === 'disable'));
        process.stdout.write(`${user.id} ${user.email} ${user.disabled_at ? 'disabled' : 'enabled'}\n`);
        return;
      }
      throw new UsageError(`unknown users command ${JSON.stringify(sub ?? '')}; use create, set-role, disable or enable`);
    }
    case 'invite-codes': {
      if (sub !== 'create') throw new UsageError(`unknown invite-codes command ${JSON.stringify(sub ?? '')}; use create`);
      const { values } = parse(rest, { uses: { type: 'string' }, note: { type: 'string' }, 'expires-in-days': { type: 'string' } });
      const uses = values.uses === undefined ? 1 : Number(values.uses);
      if (!Number.isInteger(uses) || uses < 1 || uses > 10_000) throw new UsageError('--uses must be a whole number from 1 to 10000');
      let expiresAt: string | null = null;
      if (values['expires-in-days'] !== undefined) {
        const days = Number(values['expires-in-days']);
        if (!Number.isInteger(days) || days < 1) throw new UsageError('--expires-in-days must be a whole number of days, at least 1');
        expiresAt = new Date(Date.now() + days * 86_400_000).toISOString();
      }
      const database = openDatabase(config.database, { poolSize: 1 });
      try {
        await migrateToLatest(database.db);
        const { code, hash, prefix } = generateInviteCode();
        const row = {
          id: newId('icd'),
          code_hash: hash,
          prefix,
          note: typeof values.note === 'string' && values.note.trim() ? values.note.trim().slice(0, 200) : null,
          max_uses: uses,
          uses: 0,
          expires_at: expiresAt,
          revoked_at: null,
          created_at: new Date().toISOString(),
          created_by: null,
        };
        // With its audit entry (actor `cli`, the code's display prefix only), in one transaction.
        await database.db.transaction().execute(async (tx) => {
          await insertInviteCode(tx, row);
          await recordAudit(tx, {
            eventId: null,
            actor: CLI_ACTOR,
            action: 'invite_code.created',
            targetType: 'invite_code',
            targetId: row.id,
            data: { prefix, note: row.note, max_uses: row.max_uses, expires_at: row.expires_at },
            at: row.created_at,
          });
        });
        process.stdout.write(`${code}\n`);
      } finally {
        await database.close();
      }
      return;
    }
    case 'keys': {
      if (sub === 'create') {
        const { values } = parse(rest, {
          email: { type: 'string' },
          name: { type: 'string' },
          expires: { type: 'string' },
          'expires-in-days': { type: 'string' },
        });
        let expiresAt: Date | null = null;
        if (values.expires !== undefined) {
          expiresAt = parseTimestamp(String(values.expires));
          if (!expiresAt) throw new UsageError('--expires must be an ISO 8601 date-time with a zone, e.g. 2027-01-01T00:00:00Z');
        } else if (values['expires-in-days'] !== undefined) {
          const days = Number(values['expires-in-days']);
          if (!Number.isInteger(days) || days < 1) throw new UsageError('--expires-in-days must be a whole number of days, at least 1');
          expiresAt = new Date(Date.now() + days * 86_400_000);
        }
        const key = await withAccounts(config, (svc) =>
          svc.createKeyForEmail(need(values, 'email'), { ...(values.name ? { name: String(values.name) } : {}), expiresAt }),
        );
        process.stdout.write(`${key.key}\n`);
        process.stderr.write(`created ${key.id} (${key.prefix}…)${key.expires_at ? `, expires ${key.expires_at}` : ''}; it is shown only once\n`);
        return;
      }
      if (sub === 'list') {
        const { values } = parse(rest, { email: { type: 'string' } });
        const keys = await withAccounts(config, (svc) => svc.listKeysForEmail(need(values, 'email')));
        // Tabs separate the columns, so a name with spaces stays one column; control characters in a
        // name could forge lines and are shown as spaces.
        // eslint-disable-next-line no-control-regex -- control characters are exactly what this replaces
        const cell = (v: string | null) => (v === null || v === '' ? '-' : v.replace(/[\u0000-\u001f\u007f]/g, ' '));
        process.stderr.write(`${keys.length} key${keys.length === 1 ? '' : 's'}; columns: id, name, prefix, created, last used, expires, revoked, scope\n`);
        for (const k of keys) {
          process.stdout.write([k.id, k.name, k.prefix, k.created_at, k.last_used_at, k.expires_at, k.revoked_at, k.scope].map(cell).join('\t') + '\n');
        }
        return;
      }
      if (sub === 'revoke') {
        const { positionals } = parse(rest, {});
        // Extra words are allowed so a whole line of `keys list` can be pasted: the id comes first.
        const target = positionals[0];
        if (!target) throw new UsageError('keys revoke needs a key id or prefix');
        const key = await withAccounts(config, (svc) => svc.revokeKey(target));
        process.stdout.write(`revoked ${key.id} (${key.prefix}…)\n`);
        return;
      }
      throw new UsageError(`unknown keys command ${JSON.stringify(sub ?? '')}; use create, list or revoke`);
    }
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) fail(`${err.message}\n\n${USAGE}`, 2);
  if (err instanceof ConfigError) fail(err.message, 78);
  if (err instanceof BackupError) fail(err.message, 1);
  if (err instanceof AppError) fail(err.message, err.status === 404 ? 3 : err.status === 409 ? 4 : 1);
  // One line for the operator; the stack only when asked for.
  const verbose = process.env.LOG_LEVEL === 'debug' || process.env.LOG_LEVEL === 'trace';
  fail(err instanceof Error ? (verbose ? (err.stack ?? err.message) : `${err.message} (LOG_LEVEL=debug shows the stack)`) : String(err), 1);
});
