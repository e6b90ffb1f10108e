import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { touchApiKey } from '../src/accounts/accounts-repo.js';
import { createAccountsService } from '../src/accounts/accounts-service.js';
import { runCli, withSqliteDb } from './helpers/cli.js';

const cli = runCli;

/** `hackathon keys list` through the real CLI, and `keys revoke` taking what list and create print. */
describe('hackathon keys list', () => {
  let dir: string;
  let env: Record<string, string>;
  let dbPath: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hk-cli-keys-'));
    dbPath = join(dir, 'keys.db');
    env = { DATABASE_URL: `sqlite:${dbPath}` };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const withDb = <T>(fn: Parameters<typeof withSqliteDb<T>>[1]) => withSqliteDb(dbPath, fn);

  it('prints one line per key with every column but never the key or its hash; revoke takes a listed line or a printed prefix', async () => {
    expect((await cli(['users', 'create', '--email', 'keys@example.com'], env)).code).toBe(0);
    const [first, second] = await Promise.all([
      cli(['keys', 'create', '--email', 'keys@example.com', '--name', 'work laptop', '--expires', '2099-01-01T00:00:00Z'], env),
      cli(['keys', 'create', '--email', 'keys@example.com', '--name', 'ci'], env),
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    const firstKey = first.stdout.trim();
    const secondKey = second.stdout.trim();
    const used = await withDb(async (db) => {
      const principal = await createAccountsService({ db, clock: { now: () => new Date() } }).authenticate(secondKey);
      const stamp = '2030-06-01T00:00:00.000Z';
      await touchApiKey(db, principal!.keyId, stamp, stamp);
      return { keyId: principal!.keyId, stamp };
    });

    const listed = await cli(['keys', 'list', '--email', 'Keys@Example.com'], env);
    expect(listed.code, listed.stderr).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    for (const key of [firstKey, secondKey]) expect(listed.stdout).not.toContain(key);
    expect(listed.stdout).not.toMatch(/[0-9a-f]{64}/);
    const rows = lines.map((l) => l.split('\t'));
    for (const r of rows) expect(r).toHaveLength(8);
    const laptop = rows.find((r) => r[1] === 'work laptop')!;
    const ci = rows.find((r) => r[1] === 'ci')!;
    expect(laptop).toEqual([
      expect.stringMatching(/^key_/),
      'work laptop',
      firstKey.slice(0, 11),
      expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      '-',
      '2099-01-01T00:00:00.000Z',
      '-',
      'full',
    ]);
    expect(ci).toEqual([used.keyId, 'ci', secondKey.slice(0, 11), expect.stringMatching(/^\d{4}-/), used.stamp, '-', '-', 'full']);

    // A pasted line of `keys list` (the shell splits it into words), and the prefix as `keys create` prints it.
    const byLine = await cli(['keys', 'revoke', ...lines.find((l) => l.includes('work laptop'))!.split(/\s+/)], env);
    expect(byLine.code, byLine.stderr).toBe(0);
    const printedPrefix = /\((hk_[A-Za-z0-9_-]+…)\)/.exec(second.stderr)![1]!;
    const byPrefix = await cli(['keys', 'revoke', printedPrefix], env);
    expect(byPrefix.code, byPrefix.stderr).toBe(0);

    const after = await cli(['keys', 'list', '--email', 'keys@example.com'], env);
    for (const line of after.stdout.trimEnd().split('\n')) expect(line.split('\t')[6]).toMatch(/^\d{4}-\d\d-\d\dT/);
  }, 120_000);

  it('answers an unknown e-mail with exit 3 and a missing --email with exit 2', async () => {
    const [unknown, missing] = await Promise.all([cli(['keys', 'list', '--email', 'ghost@example.com'], env), cli(['keys', 'list'], env)]);
    expect(unknown.code).toBe(3);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/ghost@example\.com/);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--email is required/);
  }, 60_000);
});
