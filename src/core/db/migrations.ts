import { Kysely, Migrator, type Migration, type MigrationProvider } from 'kysely';
import { MIGRATIONS } from './migrations/index.js';
import type { Database } from './schema.js';

/**
 * Versioned migrations, written once with Kysely's schema builder so they run on SQLite and
 * PostgreSQL alike: one file each under migrations/, listed in name order by migrations/index.ts.
 * Append new ones; never edit one that has shipped. Each gets the database as Kysely's `Migration`
 * types it, `Kysely<any>`: a migration describes the schema as it was then, not today's `Database`
 * type.
 */
const migrations: Record<string, Migration> = Object.fromEntries(MIGRATIONS);

class InCodeMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

/** Kysely reports a failed migration as `unknown`. */
function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Migrates up (or down) to the named migration: for upgrading step by step. */
export async function migrateTo(db: Kysely<Database>, name: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new InCodeMigrationProvider() });
  const { error, results } = await migrator.migrateTo(name);
  if (error) throw asError(error);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new InCodeMigrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw asError(error);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The names of every migration this version knows, in order: a database with others was made by a newer version. */
export function knownMigrations(): string[] {
  return Object.keys(migrations).sort();
}
