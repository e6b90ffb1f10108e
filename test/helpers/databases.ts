import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/core/config.js';

const ALL_DIALECTS = ['sqlite', 'postgres'] as const;
export type Dialect = (typeof ALL_DIALECTS)[number];

/**
 * The dialects a run covers: both, unless `TEST_DB` names one (`TEST_DB=sqlite` or `TEST_DB=postgres`,
 * to run the tests on one database while working locally). Any other value fails the run at once
 * rather than run nothing.
 */
export function dialectsOf(testDb: string | undefined): readonly Dialect[] {
  if (testDb === undefined || testDb === '') return ALL_DIALECTS;
  const chosen = ALL_DIALECTS.find((d) => d === testDb);
  if (!chosen) throw new Error(`TEST_DB must be one of ${ALL_DIALECTS.join(', ')} (or unset for both), not ${JSON.stringify(testDb)}`);
  return [chosen];
}

/** Every database test runs once per dialect, from this one list (as Kysely's own suite does); see `dialectsOf`. */
export const DIALECTS = dialectsOf(process.env.TEST_DB);

/** The server's admin database; each test run creates its own database beside it and drops it after. */
export const PG_ADMIN_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  config: DatabaseConfig;
  drop(): Promise<void>;
}

export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'hk-test-'));
    const path = join(dir, 'test.db');
    return {
      config: { dialect: 'sqlite', path, url: `sqlite:${path}` },
      async drop() {
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  // No silent skip: if PostgreSQL is down, PostgreSQL tests fail (CI starts the server first).
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(`PostgreSQL is not reachable at ${PG_ADMIN_URL} (${(err as Error).message}); start it or set PG_TEST_URL`);
  }
  const name = `hk_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    config: { dialect: 'postgres', url: url.toString() },
    async drop() {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
