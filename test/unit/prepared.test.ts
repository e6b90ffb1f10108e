import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/db/index.js';
import { param, prepared } from '../../src/core/db/prepared.js';

describe('prepared queries (core/db/prepared.ts)', () => {
  const seen: string[] = [];
  const handle = openDatabase({ dialect: 'sqlite', path: ':memory:', url: 'sqlite::memory:' }, { observe: (sql) => seen.push(sql) });
  afterAll(() => handle.close());
  let builds = 0;
  const byName = prepared<{ name: string }, { id: number; name: string; kind: string }>((db) => {
    builds++;
    return db
      .selectFrom('t' as never)
      .select(['id', 'name', 'kind'] as never)
      .where('name' as never, '=', param<string>('name') as never)
      .where('kind' as never, '=', 'fixed' as never);
  });

  it('builds once, then runs with each call’s values and keeps the values fixed at build time', async () => {
    await handle.db.schema.createTable('t').addColumn('id', 'integer').addColumn('name', 'text').addColumn('kind', 'text').execute();
    await handle.db
      .insertInto('t' as never)
      .values([
        { id: 1, name: 'a', kind: 'fixed' },
        { id: 2, name: 'b', kind: 'fixed' },
        { id: 3, name: 'b', kind: 'other' },
      ] as never)
      .execute();
    seen.length = 0;
    expect((await byName(handle.db, { name: 'a' })).rows).toEqual([{ id: 1, name: 'a', kind: 'fixed' }]);
    expect((await byName(handle.db, { name: 'b' })).rows).toEqual([{ id: 2, name: 'b', kind: 'fixed' }]);
    expect(builds).toBe(1);
    // One statement per run, the same text each time.
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
  });

  it('refuses a run that lacks a parameter instead of binding undefined', async () => {
    await expect(byName(handle.db, {} as { name: string })).rejects.toThrow('no value for parameter name');
  });
});
