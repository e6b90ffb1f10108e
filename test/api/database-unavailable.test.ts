import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { eventBody, startTestApp, T0, type TestApp } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

/**
 * A database that does not answer in time (a lock held past PostgreSQL's statement_timeout, past
 * SQLite's busy timeout) is a temporary outage: 503 database_unavailable with Retry-After, never
 * 500, and the same request succeeds once the database answers again.
 */
describe.each(DIALECTS)('database unavailable (%s)', (dialect) => {
  let t: TestApp | undefined;
  let testDb: TestDatabase | undefined;
  afterEach(async () => {
    await t?.close();
    await testDb?.drop();
    t = undefined;
  });

  it('answers 503 database_unavailable with Retry-After while a lock outlasts the limit, then succeeds', async () => {
    testDb = await createTestDatabase(dialect);
    t = await startTestApp(dialect, {
      database: testDb,
      databaseLimits: true,
      env: { DB_STATEMENT_TIMEOUT_MS: '1000', DB_QUERY_TIMEOUT_MS: '5000' },
    });
    const org = await quickUser(t, 'organizer');
    // First use of the key is recorded in the background; let it happen before the lock.
    expect((await t.api('GET', '/events', { key: org.key })).status).toBe(200);

    const release = await holdWriteLock(testDb);
    let blocked;
    try {
      blocked = await t.api('POST', '/events', { key: org.key, body: eventBody(T0, { name: 'Blocked' }) });
    } finally {
      await release();
    }
    expect(blocked.status).toBe(503);
    expect(blocked.headers.get('content-type')).toContain('application/problem+json');
    expect(blocked.body.code).toBe('database_unavailable');
    expect(blocked.body.type).toBe('http://hackathon.test/problems/database_unavailable');
    expect(blocked.headers.get('retry-after')).toBe('5');

    const retried = await t.api('POST', '/events', { key: org.key, body: eventBody(T0, { name: 'Blocked' }) });
    expect(retried.status).toBe(201);
  }, 30_000);

  it('/healthz reports the database and Redis separately; Redis down alone still answers 200', async () => {
    t = await startTestApp(dialect);
    const plain = await t.request('GET', '/healthz');
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual({ ok: true, database: 'up', redis: 'not_configured' });
    await t.close();

    t = await startTestApp(dialect, { redisHealth: () => 'down' });
    const redisDown = await t.request('GET', '/healthz');
    expect(redisDown.status).toBe(200);
    expect(redisDown.body).toEqual({ ok: true, database: 'up', redis: 'down' });
  });
});

/**
 * Takes the write lock of the events table from a connection of the test's own, so the app's next
 * insert there waits: PostgreSQL until statement_timeout, SQLite until its busy timeout.
 */
async function holdWriteLock(db: TestDatabase): Promise<() => Promise<void>> {
  if (db.config.dialect === 'sqlite') {
    const other = new SQLite(db.config.path);
    other.exec('BEGIN EXCLUSIVE');
    return async () => {
      other.exec('ROLLBACK');
      other.close();
    };
  }
  const other = new pg.Client({ connectionString: db.config.url });
  await other.connect();
  await other.query('BEGIN');
  await other.query('LOCK TABLE events IN ACCESS EXCLUSIVE MODE');
  return async () => {
    await other.query('ROLLBACK');
    await other.end();
  };
}
