import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/core/db/index.js';
import type { DatabaseConfig } from '../src/core/config.js';
import { runCli } from './helpers/cli.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from './helpers/databases.js';
import { eventBody, startTestApp, type TestApp } from './helpers/harness.js';
import { quickUser } from './helpers/quick-users.js';

const WRITERS = 50;

async function eventIds(config: DatabaseConfig): Promise<Set<string>> {
  const database = openDatabase(config, { poolSize: 1 });
  try {
    return new Set((await database.db.selectFrom('events').select('id').execute()).map((r) => r.id));
  } finally {
    await database.close();
  }
}

async function addFutureMigration(config: DatabaseConfig): Promise<void> {
  const database = openDatabase(config, { poolSize: 1 });
  try {
    await database.db
      .insertInto('kysely_migration' as never)
      .values({ name: '9999_from_the_future', timestamp: new Date().toISOString() })
      .execute();
  } finally {
    await database.close();
  }
}

/**
 * `hackathon backup` while 50 writers write, then `hackathon restore` into a fresh place: every
 * write acknowledged before the backup started is in the restored database.
 */
describe.each(DIALECTS)('backup and restore [%s]', (dialect) => {
  let t: TestApp;
  let dir: string;
  const extra: TestDatabase[] = [];
  const fresh = async (): Promise<DatabaseConfig> => {
    if (dialect === 'sqlite') {
      const path = join(dir, `restored-${extra.length}-${Math.random().toString(36).slice(2)}`, 'hackathon.db');
      extra.push({ config: { dialect: 'sqlite', path, url: `sqlite:${path}` }, drop: async () => {} });
      return extra.at(-1)!.config;
    }
    extra.push(await createTestDatabase('postgres'));
    return extra.at(-1)!.config;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hk-backup-'));
    t = await startTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
    for (const d of extra) await d.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies a consistent database while 50 writers write, and the restore holds every write acknowledged before the backup began', async () => {
    const organizer = await quickUser(t, 'organizer');
    const acked: string[] = [];
    let failures = 0;
    let stop = false;
    let writes = 0;
    let reached: () => void = () => {};
    const warm = new Promise<void>((r) => (reached = r));
    const writer = async (w: number) => {
      while (!stop) {
        const res = await t.api('POST', '/events', { key: organizer.key, body: eventBody(t.clock.now(), { name: `Writer ${w} event ${++writes}` }) });
        if (res.status === 201) acked.push(res.body.id as string);
        else failures++;
        if (acked.length >= 200) reached();
      }
    };
    const running = Array.from({ length: WRITERS }, (_, w) => writer(w));
    await warm;

    const before = [...acked];
    const file = join(dir, `backup-${dialect}.bak`);
    const backup = runCli(['backup', '--to', file], { DATABASE_URL: t.config.database.url });
    const result = await backup;
    const duringBackup = acked.length - before.length;
    stop = true;
    await Promise.all(running);

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(file);
    expect(failures).toBe(0);
    // The writers kept writing while the copy was made.
    expect(duringBackup).toBeGreaterThan(0);
    expect(statSync(file).mode & 0o077).toBe(0);

    const target = await fresh();
    const restore = await runCli(['restore', '--from', file], { DATABASE_URL: target.url });
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stderr).toMatch(/restored .* at schema \d{4}_\w+; the schema is current/);

    const restored = await eventIds(target);
    const lost = before.filter((id) => !restored.has(id));
    expect(lost).toEqual([]);
    // Nothing in the copy that the server never acknowledged.
    const all = new Set(acked);
    expect([...restored].filter((id) => !all.has(id))).toEqual([]);
  }, 180_000);

  it('refuses to overwrite: an existing backup file, or a target that holds the platform already (unless --force)', async () => {
    const file = join(dir, `exists-${dialect}.bak`);
    writeFileSync(file, 'not empty');
    const again = await runCli(['backup', '--to', file], { DATABASE_URL: t.config.database.url });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists already');

    const good = join(dir, `good-${dialect}.bak`);
    expect((await runCli(['backup', '--to', good], { DATABASE_URL: t.config.database.url })).code).toBe(0);
    const onto = await runCli(['restore', '--from', good], { DATABASE_URL: t.config.database.url });
    expect(onto.code).toBe(1);
    expect(onto.stderr).toMatch(/exists already|holds the platform already/);

    const target = await fresh();
    expect((await runCli(['restore', '--from', good], { DATABASE_URL: target.url })).code).toBe(0);
    const forced = await runCli(['restore', '--from', good, '--force'], { DATABASE_URL: target.url });
    expect(forced.code, forced.stderr).toBe(0);
    expect((await eventIds(target)).size).toBe((await eventIds(t.config.database)).size);
  }, 180_000);

  it('refuses a backup made by a newer version (a migration this version does not know)', async () => {
    const source = await fresh();
    expect((await runCli(['migrate'], { DATABASE_URL: source.url })).code).toBe(0);
    await addFutureMigration(source);
    const file = join(dir, `future-${dialect}.bak`);
    const made = await runCli(['backup', '--to', file], { DATABASE_URL: source.url });
    expect(made.code, made.stderr).toBe(0);

    const target = await fresh();
    const restore = await runCli(['restore', '--from', file], { DATABASE_URL: target.url });
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain('newer version of the platform (unknown migrations: 9999_from_the_future)');
    // Nothing was restored.
    if (dialect === 'postgres') {
      const database = openDatabase(target, { poolSize: 1 });
      const tables = await database.db.introspection.getTables();
      await database.close();
      expect(tables.map((x) => x.name)).toEqual([]);
    }
  }, 180_000);
});
