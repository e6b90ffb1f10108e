import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountsService } from '../src/accounts/accounts-service.js';
import { openDatabase } from '../src/core/db/index.js';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'src', 'cli.ts');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI in a child process, as an operator would. */
function cli(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CLI, ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', ...env }, timeout: 30_000 },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('hackathon CLI', () => {
  let dir: string;
  let env: Record<string, string>;
  let dbPath: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hk-cli-'));
    dbPath = join(dir, 'nested', 'cli.db');
    env = { DATABASE_URL: `sqlite:${dbPath}` };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function authenticate(key: string) {
    const database = openDatabase({ dialect: 'sqlite', path: dbPath, url: `sqlite:${dbPath}` });
    try {
      return await createAccountsService({ db: database.db, clock: { now: () => new Date() } }).authenticate(key);
    } finally {
      await database.close();
    }
  }

  it('creates a user, changes its role, creates a key printed alone on stdout, and revokes it', async () => {
    const created = await cli(['users', 'create', '--email', 'Org@Example.com', '--password', 'a long password', '--role', 'organizer'], env);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^usr_\S+ org@example\.com organizer\n$/);

    // Independent commands run side by side: each CLI start costs a second or two.
    const [role, keyRun, nobody] = await Promise.all([
      cli(['users', 'set-role', '--email', 'org@example.com', '--role', 'admin'], env),
      cli(['keys', 'create', '--email', 'org@example.com', '--name', 'laptop', '--expires', '2099-01-01T00:00:00Z'], env),
      cli(['keys', 'create', '--email', 'nobody@example.com'], env),
    ]);
    expect(role.code, role.stderr).toBe(0);
    expect(role.stdout).toMatch(/ org@example\.com admin\n$/);

    expect(keyRun.code, keyRun.stderr).toBe(0);
    expect(keyRun.stdout).toMatch(/^hk_[A-Za-z0-9_-]+\n$/);
    expect(keyRun.stdout.length).toBeGreaterThanOrEqual('hk_'.length + 22 + 1);
    expect(keyRun.stderr).toMatch(/shown only once/);
    expect(keyRun.stderr).toContain('2099-01-01T00:00:00.000Z');
    const key = keyRun.stdout.trim();
    const principal = await authenticate(key);
    expect(principal).toMatchObject({ email: 'org@example.com', role: 'admin' });

    expect(nobody.code).not.toBe(0);
    expect(nobody.stdout).toBe('');
    expect(nobody.stderr).toMatch(/nobody@example\.com/);

    const keyId = principal!.keyId;
    const [revoked, dup] = await Promise.all([cli(['keys', 'revoke', keyId], env), cli(['users', 'create', '--email', 'org@example.com'], env)]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(keyId);
    expect(await authenticate(key)).toBeNull();
    expect(dup.code).not.toBe(0);
    expect(dup.stderr).toMatch(/already exists/);
  });

  it('refuses bad arguments and bad configuration with a non-zero exit and a message on stderr', async () => {
    const cases: Array<[string[], Record<string, string>, RegExp, number | null]> = [
      [['users', 'create'], env, /--email is required/, 2],
      [['users', 'create', '--email', 'x@example.com', '--role', 'king'], env, /--role must be one of user, organizer, admin/, 2],
      [['keys', 'create', '--email', 'x@example.com', '--expires', 'tomorrow'], env, /--expires must be/, 2],
      [['keys', 'create', '--email', 'x@example.com', '--bogus'], env, /bogus/, 2],
      [['launch'], env, /unknown command "launch"/, 2],
      [['migrate'], { DATABASE_URL: 'mysql://localhost/x' }, /Invalid configuration:\s+- DATABASE_URL must start with sqlite: or postgres:\/\//, 78],
    ];
    const runs = await Promise.all(cases.map(([args, e]) => cli(args, e)));
    runs.forEach((run, i) => {
      const [args, , message, code] = cases[i]!;
      expect(run.code, args.join(' ')).toBe(code);
      expect(run.stdout, args.join(' ')).toBe('');
      expect(run.stderr, args.join(' ')).toMatch(message);
      expect(run.stderr, args.join(' ')).not.toMatch(/\n\s+at /); // a message, not a stack trace
    });
  });
});
