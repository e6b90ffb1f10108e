import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { App, AppContext } from '../../src/app-context.js';
import { ManualClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import type { DatabaseHandle } from '../../src/core/db/index.js';
import { migrateToLatest } from '../../src/core/db/migrations.js';
import type { Database } from '../../src/core/db/schema.js';
import { pgNotifier, type PgNotifier } from '../../src/core/notifier.js';
import { createTestDatabase, DIALECTS, type Dialect, type TestDatabase } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, T0, type TestApp } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';
import { until } from '../helpers/until.js';

async function pendingRegistration(t: TestApp, eventId: string) {
  const team = await quickUser(t);
  const reg = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() });
  expect(reg.status).toBe(201);
  expect(reg.body.status).toBe('pending');
  return { team, id: reg.body.id as string };
}

describe('long-poll wake-up across two instances through PostgreSQL LISTEN/NOTIFY, no Redis', () => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  const notifiers: PgNotifier[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    const instance = async () => {
      const notifier = pgNotifier(db.config.url);
      await notifier.listening();
      notifiers.push(notifier);
      // No shared re-check: only the NOTIFY can wake the waiter.
      return startTestApp('postgres', { database: db, notifier, env: { WAIT_RECHECK_MS: '0', REVIEW_WORKERS: 'false' } });
    };
    a = await instance();
    b = await instance();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    for (const n of notifiers) await n.close();
    await db?.drop();
  });

  it('a decision on one instance answers a ?wait= on the other', async () => {
    const org = await quickUser(a, 'organizer');
    const eventId = await createEvent(a, org.key);
    const reg = await pendingRegistration(a, eventId);
    const waiting = a.api('GET', `/events/${eventId}/my-registration?wait=45`, { key: reg.team.key });
    await until('the long-poll to park on a', () => a.ctx.registrations.waiting() === 1);
    const approved = await b.api('POST', `/events/${eventId}/registrations/${reg.id}/approve`, { key: org.key });
    expect(approved.status).toBe(200);
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('approved');
    expect(a.ctx.registrations.waiting()).toBe(0);
  });

  it('reconnects after the listening connection is killed, and hears messages again', async () => {
    const org = await quickUser(a, 'organizer');
    const eventId = await createEvent(a, org.key);
    const reg = await pendingRegistration(a, eventId);
    // Each notifier announces that it listens again after a reconnection.
    const resynced = notifiers.map(
      (n) =>
        new Promise<void>((resolve) => {
          const off = n.subscribe('notifier:resync', () => {
            off();
            resolve();
          });
        }),
    );
    // Kill both instances' listening sessions, as a failover would (their last statement was LISTEN or a NOTIFY).
    const admin = new pg.Client({ connectionString: db.config.url });
    await admin.connect();
    const killed = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND (query ILIKE 'LISTEN%' OR query ILIKE 'SELECT pg_notify%')`,
    );
    await admin.end();
    expect(killed.rowCount).toBe(2);
    await Promise.all(resynced);

    const waiting = a.api('GET', `/events/${eventId}/my-registration?wait=45`, { key: reg.team.key });
    await until('the long-poll to park on a', () => a.ctx.registrations.waiting() === 1);
    const approved = await b.api('POST', `/events/${eventId}/registrations/${reg.id}/approve`, { key: org.key });
    expect(approved.status).toBe(200);
    const res = await waiting;
    expect(res.body.status).toBe('approved');
  });
});

/** An app whose Kysely logs every query it runs, so a test can count them. */
async function countedApp(dialect: Dialect, env: Record<string, string>) {
  const testDb = await createTestDatabase(dialect);
  const queries: LogEvent['query'][] = [];
  const log = (e: LogEvent) => void queries.push(e.query);
  const pool = testDb.config.dialect === 'sqlite' ? null : new pg.Pool({ connectionString: testDb.config.url, max: 10 });
  // As src/core/db does: pool.end() resolves before the sockets close, and dropping the database
  // (WITH FORCE) then ends those backends; without a listener that error would be unhandled.
  pool?.on('error', () => {});
  const db = pool
    ? new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log })
    : new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite((testDb.config as { path: string }).path) }), log });
  await migrateToLatest(db);
  const database: DatabaseHandle = { db, dialect: testDb.config.dialect, close: () => db.destroy() };
  const config = loadConfig({
    DATABASE_URL: testDb.config.url,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_ENABLED: 'false',
    PUBLIC_URL: 'http://hackathon.test',
    // Background workers poll on their own timers; their queries are not the waiters' and would
    // land in the counted window whenever a slow machine stretches it past their poll interval.
    REVIEW_WORKERS: 'false',
    WEBHOOKS_WORKERS: 'false',
    // As in the harness: the events name a model no provider is configured for.
    AI_ACCEPT_UNCONFIGURED_MODELS: 'true',
    MAIL_WORKERS: 'false',
    ...env,
  });
  const clock = new ManualClock(T0);
  const { app, ctx } = await buildApp({ config, database, clock, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  return { app, ctx, url, clock, queries, testDb, database };
}

describe.each(DIALECTS)('waiting costs no query per waiter (%s)', (dialect) => {
  const N = 30;
  let s: Awaited<ReturnType<typeof countedApp>> & { app: App; ctx: AppContext };
  let t: TestApp;

  beforeAll(async () => {
    // A short shared re-check so that several of them run during the test.
    s = await countedApp(dialect, { WAIT_RECHECK_MS: '25' });
    // A TestApp facade over the counted app for the helpers (same server, same database).
    t = {
      dialect,
      url: s.url,
      clock: s.clock,
      ctx: s.ctx,
      app: s.app,
      database: s.database,
      config: s.ctx.config,
      async request(method, path, o = {}) {
        const headers: Record<string, string> = { ...o.headers };
        if (o.key) headers.authorization = `Bearer ${o.key}`;
        const body = o.body !== undefined ? JSON.stringify(o.body) : undefined;
        if (body) headers['content-type'] = 'application/json';
        const res = await fetch(s.url + path, { method, headers, ...(body ? { body } : {}) });
        const text = await res.text();
        return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, text };
      },
      api(method, path, o) {
        return this.request(method, `/api/v1${path}`, o);
      },
      user: () => Promise.reject(new Error('unused')),
      close: async () => {},
    };
  });
  afterAll(async () => {
    await s?.app.close();
    await s?.database.close();
    await s?.testDb.drop();
  });

  it(`${N} waiters are checked by one shared query per tick, and a decision wakes only its waiter`, async () => {
    const org = await quickUser(t, 'organizer');
    const eventId = await createEvent(t, org.key);
    const regs = [];
    for (let i = 0; i < N; i++) regs.push(await pendingRegistration(t, eventId));
    const answers = regs.map((r) => t.api('GET', `/events/${eventId}/my-registration?wait=45`, { key: r.team.key }));
    await until(`all ${N} long-polls to park`, () => s.ctx.registrations.waiting() === N);

    const parkedAt = s.queries.length;
    const isRecheck = (q: { sql: string }) => /from "registrations" where "id" in \(/.test(q.sql) && /"status" != /.test(q.sql);
    // Let several shared re-checks pass while the clock moves too (the wait does not depend on it).
    await until('three re-check queries', () => s.queries.slice(parkedAt).filter(isRecheck).length >= 3);
    s.clock.advance(3_600_000);
    const whileWaiting = s.queries.slice(parkedAt);
    // Every query run while they wait is the shared re-check, and each asks about all N at once.
    for (const q of whileWaiting) {
      expect(isRecheck(q), q.sql).toBe(true);
      expect(q.parameters.length).toBe(N + 1);
    }

    // A decision written by "another process" with no notifier: the shared re-check finds it.
    await s.ctx.db.updateTable('registrations').set({ status: 'rejected' }).where('id', '=', regs[0]!.id).execute();
    const first = await answers[0]!;
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('rejected');
    expect(s.ctx.registrations.waiting()).toBe(N - 1);

    // A decision through the API wakes its waiter at once (notifier); the others keep waiting.
    const approved = await t.api('POST', `/events/${eventId}/registrations/${regs[1]!.id}/approve`, { key: org.key });
    expect(approved.status).toBe(200);
    const second = await answers[1]!;
    expect(second.body.status).toBe('approved');
    expect(s.ctx.registrations.waiting()).toBe(N - 2);

    // Release the rest.
    await s.ctx.db.updateTable('registrations').set({ status: 'approved' }).where('event_id', '=', eventId).execute();
    const rest = await Promise.all(answers.slice(2));
    for (const r of rest) expect(r.body.status).toBe('approved');
    expect(s.ctx.registrations.waiting()).toBe(0);
  });
});
