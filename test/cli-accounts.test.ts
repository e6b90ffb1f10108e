import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountsService } from '../src/accounts/accounts-service.js';
import { hashInviteCode } from '../src/accounts/invite-codes.js';
import { runCli, withSqliteDb } from './helpers/cli.js';

const cli = (args: string[], env: Record<string, string>) => runCli(args, { PASSWORD_SCRYPT_N: '16384', ...env }, 30_000);

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

  const withDb = <T>(fn: Parameters<typeof withSqliteDb<T>>[1]) => withSqliteDb(dbPath, fn);

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

  it('refuses to demote or disable the last active administrator, and allows it once another exists', async () => {
    expect((await cli(['users', 'create', '--email', 'root@example.com', '--role', 'admin'], env)).code).toBe(0);
    const demote = await cli(['users', 'set-role', '--email', 'root@example.com', '--role', 'user'], env);
    expect(demote.code).toBe(4);
    expect(demote.stderr).toMatch(/without an active administrator/);
    const disable = await cli(['users', 'disable', '--email', 'root@example.com'], env);
    expect(disable.code).toBe(4);
    const roles = () =>
      withDb((db) => db.selectFrom('users').select(['email', 'role', 'disabled_at']).where('email', '=', 'root@example.com').executeTakeFirstOrThrow());
    expect(await roles()).toMatchObject({ role: 'admin', disabled_at: null });
    expect((await cli(['users', 'create', '--email', 'second@example.com', '--role', 'admin'], env)).code).toBe(0);
    expect((await cli(['users', 'set-role', '--email', 'root@example.com', '--role', 'user'], env)).code).toBe(0);
    expect(await roles()).toMatchObject({ role: 'user' });
    expect((await cli(['users', 'disable', '--email', 'second@example.com'], env)).code).toBe(4);
    // What the CLI changed is in the audit log, by `cli`; what it refused is not.
    const log = await withDb((db) =>
      db
        .selectFrom('audit_log')
        .select(['action', 'actor_label', 'actor_user_id', 'data'])
        .where('target_type', '=', 'user')
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    );
    expect(log.map((e) => [e.action, e.actor_label, e.actor_user_id])).toEqual([
      ['user.disabled', 'cli', null],
      ['user.enabled', 'cli', null],
      ['user.role_changed', 'cli', null],
    ]);
    expect(JSON.parse(log[2]!.data)).toEqual({ email: 'root@example.com', changes: [{ field: 'role', before: 'admin', after: 'user' }] });
  });

  it('invite-codes create prints the code once and stores only its hash', async () => {
    const res = await cli(['invite-codes', 'create', '--uses', '3', '--note', 'meetup'], env);
    expect(res.code).toBe(0);
    const code = res.stdout.trim();
    expect(code).toMatch(/^inv_[0-9A-Za-z]{24}$/);
    const row = await withDb((db) => db.selectFrom('invite_codes').selectAll().executeTakeFirstOrThrow());
    expect(row).toMatchObject({ code_hash: hashInviteCode(code), max_uses: 3, uses: 0, note: 'meetup', created_by: null });
    const entry = await withDb((db) => db.selectFrom('audit_log').selectAll().where('action', '=', 'invite_code.created').executeTakeFirstOrThrow());
    expect(entry).toMatchObject({ actor_label: 'cli', actor_user_id: null, target_type: 'invite_code', target_id: row.id, event_id: null });
    expect(JSON.parse(entry.data)).toEqual({ prefix: row.prefix, note: 'meetup', max_uses: 3, expires_at: null });
    expect(entry.data).not.toContain(code);
    const bad = await cli(['invite-codes', 'create', '--uses', '0'], env);
    expect(bad.code).toBe(2);
  });
});
