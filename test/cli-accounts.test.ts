import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountsService } from '../src/accounts/accounts-service.js';
import { hashInviteCode } from '../src/accounts/invite-codes.js';
import { openDatabase } from '../src/core/db/index.js';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'src', 'cli.ts');

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CLI, ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', PASSWORD_SCRYPT_N: '16384', ...env }, timeout: 30_000 },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** `users disable/enable` and `invite-codes create`. */
describe('hackathon CLI: account switches and invite codes', () => {
  let dir: string;
  let env: Record<string, string>;
  let dbPath: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hk-cli-acc-'));
    dbPath = join(dir, 'cli.db');
    env = { DATABASE_URL: `sqlite:${dbPath}` };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function withDb<T>(fn: (db: ReturnType<typeof openDatabase>['db']) => Promise<T>): Promise<T> {
    const database = openDatabase({ dialect: 'sqlite', path: dbPath, url: `sqlite:${dbPath}` });
    try {
      return await fn(database.db);
    } finally {
      await database.close();
    }
  }

  it('disable stops the keys of a user, enable restores them', async () => {
    expect((await cli(['users', 'create', '--email', 'op@example.com'], env)).code).toBe(0);
    const key = (await cli(['keys', 'create', '--email', 'op@example.com'], env)).stdout.trim();
    const auth = () => withDb((db) => createAccountsService({ db, clock: { now: () => new Date() } }).authenticate(key));
    expect(await auth()).not.toBeNull();
    const off = await cli(['users', 'disable', '--email', 'op@example.com'], env);
    expect(off.code).toBe(0);
    expect(off.stdout).toMatch(/^usr_\S+ op@example\.com disabled\n$/);
    expect(await auth()).toBeNull();
    const on = await cli(['users', 'enable', '--email', 'OP@example.com'], env);
    expect(on.stdout).toMatch(/ enabled\n$/);
    expect(await auth()).not.toBeNull();
  });

  it('invite-codes create prints the code once and stores only its hash', async () => {
    const res = await cli(['invite-codes', 'create', '--uses', '3', '--note', 'meetup'], env);
    expect(res.code).toBe(0);
    const code = res.stdout.trim();
    expect(code).toMatch(/^inv_[0-9A-Za-z]{24}$/);
    const row = await withDb((db) => db.selectFrom('invite_codes').selectAll().executeTakeFirstOrThrow());
    expect(row).toMatchObject({ code_hash: hashInviteCode(code), max_uses: 3, uses: 0, note: 'meetup', created_by: null });
    const bad = await cli(['invite-codes', 'create', '--uses', '0'], env);
    expect(bad.code).toBe(2);
  });
});
