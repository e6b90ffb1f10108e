import { afterEach, describe, expect, it, vi } from 'vitest';
import { isDatabaseUnavailable } from '../../src/core/db/index.js';
import type { Db } from '../../src/core/db/index.js';
import { createDatabaseProbe } from '../../src/core/health.js';
import { toAppError } from '../../src/core/http/error-handler.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable: an outage, not a bug', () => {
  it('recognises connection-class errors of pg and the socket', () => {
    for (const err of [
      withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      withCode('ECONNRESET', 'read ECONNRESET'),
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('57P02', 'terminating connection due to crash of another server process'),
      withCode('57P03', 'the database system is starting up'),
      withCode('08006', 'connection failure'),
      withCode('53300', 'sorry, too many clients already'),
      withCode('57014', 'canceling statement due to statement timeout'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout', { cause: new Error('timeout expired') }),
      new Error('timeout exceeded when trying to connect'),
      new Error('Query read timeout'),
      new Error('Client has encountered a connection error and is not queryable'),
      // Node's connect to a name with several addresses.
      Object.assign(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], ''), { code: undefined }),
      // Wrapped by someone on the way.
      new Error('outer', { cause: withCode('57P01') }),
    ]) {
      expect(isDatabaseUnavailable(err), String(err)).toBe(true);
    }
  });

  it('recognises SQLite busy and locked', () => {
    expect(isDatabaseUnavailable(withCode('SQLITE_BUSY', 'database is locked'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('SQLITE_BUSY_SNAPSHOT'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('SQLITE_LOCKED'))).toBe(true);
  });

  it('leaves query mistakes and constraint violations alone', () => {
    for (const err of [
      withCode('23505', 'duplicate key value violates unique constraint'),
      withCode('42P01', 'relation "x" does not exist'),
      withCode('22P02', 'invalid input syntax'),
      withCode('SQLITE_CONSTRAINT_UNIQUE'),
      new TypeError('x is undefined'),
      null,
      'a string',
    ]) {
      expect(isDatabaseUnavailable(err), String(err)).toBe(false);
    }
  });

  it('maps to 503 database_unavailable through the error handler; other errors stay 500', () => {
    expect(toAppError(withCode('57P01'))).toMatchObject({ code: 'database_unavailable', status: 503 });
    expect(toAppError(new Error('boom'))).toMatchObject({ code: 'internal_error', status: 500 });
  });
});

describe('createDatabaseProbe: a cheap health check that never hangs', () => {
  afterEach(() => vi.useRealTimers());

  /** A stand-in for Kysely that answers the probe's one query with `answer()`. */
  function fakeDb(answer: () => Promise<unknown>) {
    let queries = 0;
    const chain = { select: () => chain, limit: () => chain, execute: () => (queries++, answer()) };
    return { db: { selectFrom: () => chain } as unknown as Db, queries: () => queries };
  }

  it('says down when the query does not answer within the limit', async () => {
    vi.useFakeTimers();
    const { db } = fakeDb(() => new Promise(() => {}));
    const probe = createDatabaseProbe(db, { timeoutMs: 2000 });
    const health = probe();
    await vi.advanceTimersByTimeAsync(2000);
    await expect(health).resolves.toBe('down');
  });

  it('says down when the query fails and up when it answers', async () => {
    let fail = true;
    let t = 0;
    const { db } = fakeDb(() => (fail ? Promise.reject(withCode('ECONNREFUSED')) : Promise.resolve([])));
    const probe = createDatabaseProbe(db, { timeoutMs: 1000, cacheMs: 1000, now: () => t });
    expect(await probe()).toBe('down');
    fail = false;
    t = 1000;
    expect(await probe()).toBe('up');
  });

  it('shares one query between checks that overlap or come within the cache time', async () => {
    let t = 0;
    let answer!: () => void;
    const { db, queries } = fakeDb(() => new Promise<unknown>((resolve) => (answer = () => resolve([]))));
    const probe = createDatabaseProbe(db, { timeoutMs: 60_000, cacheMs: 1000, now: () => t });
    const a = probe();
    const b = probe();
    answer();
    expect(await Promise.all([a, b])).toEqual(['up', 'up']);
    t = 999;
    expect(await probe()).toBe('up');
    expect(queries()).toBe(1);
    t = 1000;
    const c = probe();
    answer();
    await c;
    expect(queries()).toBe(2);
  });
});
