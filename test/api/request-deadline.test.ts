import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/app.js';
import type { Config } from '../../src/core/config.js';
import { createTestDatabase, PG_ADMIN_URL, type TestDatabase } from '../helpers/databases.js';
import { startFreezableProxy, type FreezableProxy } from '../helpers/freezable-proxy.js';
import { createEvent, eventBody, registrationBody, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';

/**
 * The request deadline (REQUEST_DEADLINE_MS) against a frozen PostgreSQL: a proxy in front of it
 * holds every byte, so queries never answer and never fail. The database's own limits are set far
 * beyond the test's timeout (a minute against 30 s): a request can only come back in time through
 * the deadline (1.5 s). It comes back 503 `database_unavailable` with Retry-After, whether it hung in
 * a hook (the key lookup, the Idempotency-Key claim) or in its handler; the outage is logged once at
 * warn, its end once at info; the work that finishes after the thaw sends nothing and logs no
 * warning or error. A long-poll is not cut by the deadline: its wait is added to it.
 *
 * PostgreSQL only: SQLite's calls are synchronous in the server's process, so nothing (the deadline
 * included) runs while one waits on a lock; its busy timeout (5 s) is its bound.
 */
const DEADLINE_MS = 1500;

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  component?: string;
  failed_requests?: number;
}

const late = (l: LogLine) => l.msg === 'work of a request finished after its deadline had answered it';

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('request deadline, frozen database (postgres)', () => {
  let db: TestDatabase;
  let proxy: FreezableProxy;
  let t: TestApp;
  let organizer: TestUser;
  let unseen: TestUser;
  let eventId: string;
  const logged: LogLine[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    proxy = await startFreezableProxy(Number(new URL(PG_ADMIN_URL).port || 5432));
    const viaProxy = new URL(db.config.url);
    viaProxy.port = String(proxy.port);
    const options = loggerOptions({ logLevel: 'info', logFormat: 'json' } as Config, { isTTY: false }) as object;
    t = await startTestApp('postgres', {
      database: { config: { dialect: 'postgres', url: viaProxy.toString() }, drop: () => db.drop() },
      databaseLimits: true,
      env: {
        REQUEST_DEADLINE_MS: String(DEADLINE_MS),
        // Far beyond the test's timeout: only the deadline can answer in time.
        DB_CONNECT_TIMEOUT_MS: '60000',
        DB_STATEMENT_TIMEOUT_MS: '50000',
        DB_QUERY_TIMEOUT_MS: '60000',
        // A key checked once is trusted for a minute: the write below gets past authentication to its Idempotency-Key claim.
        AUTH_CACHE_TTL_MS: '60000',
        EVENT_CACHE_TTL_MS: '0',
        MAX_WAIT_SECONDS: '3',
        REVIEW_WORKERS: 'false',
        WEBHOOKS_WORKERS: 'false',
      },
      logger: { ...options, stream: { write: (line: string) => void logged.push(JSON.parse(line) as LogLine) } },
    });
    organizer = await t.user('organizer');
    unseen = await t.user();
    eventId = await createEvent(t, organizer.key);
  });
  afterAll(async () => {
    proxy?.thaw();
    await t?.close();
    await proxy?.close();
    await db?.drop();
  });

  it('does not cut a long-poll: a wait longer than the deadline ends as a wait (REST and MCP)', async () => {
    const team = await t.user();
    expect((await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() })).status).toBe(201);
    // MAX_WAIT_SECONDS=3: twice the deadline, and nothing decides the registration meanwhile.
    const polled = await t.api('GET', `/events/${eventId}/my-registration?wait=45`, { key: team.key });
    expect(polled.status).toBe(200);
    expect(polled.body.status).toBe('pending');

    const viaMcp = await t.api('POST', '/mcp', {
      key: team.key,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_my_registration', arguments: { event_id: eventId, wait: 45 } } },
    });
    expect(viaMcp.status).toBe(200);
    expect(viaMcp.body.result.isError, viaMcp.body.result.content[0].text).toBeFalsy();
    expect(viaMcp.body.result.structuredContent.status).toBe('pending');
  }, 30_000);

  it('keeps the Idempotency-Key of a write cut by the deadline claimed: a retry cannot run it twice while the first may still commit', async () => {
    // The database answers, but the events table is locked: the key is claimed, then the insert waits.
    const locker = new pg.Client({ connectionString: db.config.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE events IN ACCESS EXCLUSIVE MODE');
    const body = eventBody(T0, { name: 'Locked out' });
    let first, retry;
    try {
      first = await t.api('POST', '/events', { key: organizer.key, headers: { 'idempotency-key': 'locked-1' }, body });
      retry = await t.api('POST', '/events', { key: organizer.key, headers: { 'idempotency-key': 'locked-1' }, body });
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    expect(first.status).toBe(503);
    expect(first.body.code).toBe('database_unavailable');
    expect(retry.status).toBe(409);
    expect(retry.body.code).toBe('idempotency_key_in_use');
    expect(retry.headers.get('retry-after')).toBe('1');
    // The first request's insert goes through once the lock is gone; only once.
    const named = async () => (await t.ctx.db.selectFrom('events').select('id').where('name', '=', 'Locked out').execute()).length;
    await until('the cut request to finish its work', () => logged.some((l) => late(l) && l.reqId === first.body.request_id));
    expect(await named()).toBe(1);
  }, 30_000);

  it('answers 503 database_unavailable with Retry-After at the deadline while frozen, logs the outage once, and resumes', async () => {
    // The organizer's key is checked (and cached) before the freeze; `unseen`'s is not.
    expect((await t.api('GET', '/events?mine=true', { key: organizer.key })).status).toBe(200);
    const seen = logged.length;
    proxy.freeze();

    const answers = [
      // In its handler (public reads; no cache).
      await t.api('GET', '/events'),
      await t.api('GET', `/events/${eventId}`),
      // In the authentication hook: the key was never seen.
      await t.api('GET', '/events?mine=true', { key: unseen.key }),
      // In the Idempotency-Key claim (a preHandler); its answer must not wait to free the key either.
      await t.api('POST', '/events', { key: organizer.key, headers: { 'idempotency-key': 'frozen-1' }, body: eventBody(T0, { name: 'Frozen' }) }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('database_unavailable');
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
    }
    const during = logged.slice(seen);
    const warnings = during.filter((l) => l.level >= 40);
    expect(warnings.map((l) => l.msg)).toEqual([
      'database unavailable: requests answer 503 database_unavailable until it answers again (further failures are logged at debug)',
    ]);
    expect(warnings[0]!.reqId).toBe(answers[0]!.body.request_id);

    proxy.thaw();
    // The held queries answer now: the handlers that were cut finish, and their answers go nowhere.
    await until('the cut handlers to finish', () => logged.slice(seen).filter(late).length >= 2);
    expect(
      logged
        .slice(seen)
        .filter(late)
        .map((l) => l.reqId)
        .sort(),
    ).toEqual([answers[0]!.body.request_id as string, answers[1]!.body.request_id as string].sort());
    const recovered = logged.slice(seen).filter((l) => l.msg === 'database available again');
    expect(recovered).toHaveLength(1);
    expect(recovered[0]).toMatchObject({ level: 30, component: 'database', failed_requests: 4 });

    expect((await t.api('GET', '/events')).status).toBe(200);
    const created = await t.api('POST', '/events', { key: organizer.key, headers: { 'idempotency-key': 'thawed-1' }, body: eventBody(T0, { name: 'Thawed' }) });
    expect(created.status).toBe(201);
    // One warning in all: the outage's first line. No error, no "reply already sent".
    expect(
      logged
        .slice(seen)
        .filter((l) => l.level >= 40)
        .map((l) => l.msg),
    ).toHaveLength(1);
  }, 30_000);
});
