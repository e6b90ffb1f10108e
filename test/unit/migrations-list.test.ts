import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { knownMigrations } from '../../src/core/db/migrations.js';
import { MIGRATIONS } from '../../src/core/db/migrations/index.js';

// One file per migration under src/core/db/migrations/, named by the migration's name, listed by
// its index.ts in name order. A file added but not listed (or listed out of order, or under
// another name) would be skipped or run out of order: this fails instead.
const folder = new URL('../../src/core/db/migrations/', import.meta.url);
const files = readdirSync(folder)
  .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
  .map((f) => f.slice(0, -'.ts'.length))
  .sort();

describe('the migration list', () => {
  it('names every file of the folder, in name order', () => {
    expect(MIGRATIONS.map(([name]) => name)).toEqual(files);
    expect(knownMigrations()).toEqual(files);
  });

  it('gives each name the migration of the file with that name', async () => {
    for (const [name, migration] of MIGRATIONS) {
      const mod = (await import(new URL(`${name}.ts`, folder).href)) as { migration: unknown };
      expect(mod.migration, name).toBe(migration);
    }
  });

  it('holds only files named NNNN_words.ts beside index.ts', () => {
    for (const name of files) expect(name).toMatch(/^\d{4}_[a-z0-9_]+$/);
  });
});
