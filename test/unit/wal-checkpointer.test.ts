import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/db/index.js';

/**
 * SQLite only (PostgreSQL has no such thing): with `checkpointInBackground`, as the server opens
 * its database, the write-ahead log is checkpointed by a worker thread and not inside the commits
 * on the event loop.
 */
describe('SQLite WAL checkpoints on a worker thread', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hk-wal-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const open = (name: string, checkpointInBackground: boolean) => {
    const path = join(dir, name);
    return openDatabase({ dialect: 'sqlite', path, url: `sqlite:${path}` }, { checkpointInBackground });
  };
  const autocheckpoint = async (db: ReturnType<typeof open>['db']) =>
    ((await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows[0]!.wal_autocheckpoint);

  it('leaves SQLite its own checkpoints in the commits unless asked', async () => {
    const handle = open('plain.db', false);
    expect(handle.checkpointer).toBeUndefined();
    expect(await autocheckpoint(handle.db)).toBe(1000);
    await handle.close();
  });

  it('copies a large commit into the database file from the worker, the connection itself never does', async () => {
    const handle = open('server.db', true);
    expect(await autocheckpoint(handle.db)).toBe(0);
    await sql`create table filler (x text not null)`.execute(handle.db);
    // About 8 MB in one commit: past SQLite's own threshold (1,000 pages of 4 KB) twice over.
    await handle.db.transaction().execute(async (tx) => {
      for (let i = 0; i < 40; i++) {
        const values = Array.from({ length: 50 }, (_, j) => sql`(${`${i}-${j}-`.padEnd(4000, 'x')})`);
        await sql`insert into filler (x) values ${sql.join(values)}`.execute(tx);
      }
    });
    let report = await handle.checkpointer!.next();
    while (report.log < 2000) report = await handle.checkpointer!.next();
    expect(report.checkpointed).toBe(report.log);
    expect(handle.checkpointer!.runs()).toBeGreaterThan(0);
    // Closing stops the thread before the connection closes.
    await handle.close();
    const again = open('server.db', false);
    expect((await sql<{ n: number }>`select count(*) as n from filler`.execute(again.db)).rows[0]!.n).toBe(2000);
    await again.close();
  });
});
