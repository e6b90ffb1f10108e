import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { eventBody, registrationBody, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { quickUser } from '../helpers/quick-users.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';
import { PASSWORD, sessionCookieFrom } from '../helpers/web-session.js';
import { untilWith } from '../helpers/until.js';

const PER_KEY = 10;
const FALLBACK_LOG = '"msg":"Redis is unreachable';
const RESTORED_LOG = '"msg":"Redis is reachable again';

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/**
 * Redis going away under two real server processes sharing one database and one Redis of the
 * test's own: the API keeps answering (in-process rate limits, local notifications, no stale
 * authentication), /healthz says `redis: "down"`, and when Redis is started again on the same port
 * both processes come back to the shared limits and the cross-process notifications by themselves.
 */
describe.each(DIALECTS)('Redis stopped and started under two server processes (%s)', (dialect) => {
  let db: TestDatabase;
  let seed: TestApp;
  let redis: TestRedis;
  const servers: Record<'a' | 'b', ServerProcess | null> = { a: null, b: null };
  /** Every answer the processes gave during the current test, for the "nothing failed" check. */
  const answers: Array<{ what: string; status: number }> = [];
  let org: TestUser;
  let eventId: string;

  async function call(
    who: 'a' | 'b',
    method: string,
    path: string,
    opts: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(servers[who]!.url + path, { method, headers, ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    answers.push({ what: `${who} ${method} ${path}`, status: res.status });
    return { status: res.status, body, headers: res.headers };
  }
  const api = (who: 'a' | 'b', method: string, path: string, opts?: Parameters<typeof call>[3]) => call(who, method, `/api/v1${path}`, opts);

  const logs = () => `--- a ---\n${servers.a?.stderr() ?? ''}\n--- b ---\n${servers.b?.stderr() ?? ''}`;
  const count = (who: 'a' | 'b', needle: string) =>
    servers[who]!.stderr()
      .split('\n')
      .filter((l) => l.includes(needle)).length;

  /** Waits for an observable condition (a state the processes reach by themselves), failing with their logs. */
  const until = untilWith({ ms: 20_000, every: 50, details: logs });
  const redisState = async (who: 'a' | 'b') => (await call(who, 'GET', '/healthz')).body?.redis as string | undefined;

  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    // Accounts and the event are written straight through an in-test app on the same database.
    seed = await startTestApp(dialect, { database: db, now: new Date(), env: { REVIEW_WORKERS: 'false' } });
    org = await quickUser(seed, 'organizer');
    const created = await seed.api('POST', '/events', { key: org.key, body: eventBody(new Date(), { name: 'Before the outage' }) });
    if (created.status !== 201) throw new Error(`event: ${created.status} ${created.text}`);
    eventId = created.body.id;
    redis = await startTestRedis();
    const env = {
      DATABASE_URL: db.config.url,
      REDIS_URL: redis.url,
      LOG_LEVEL: 'info',
      REVIEW_WORKERS: 'false',
      PASSWORD_SCRYPT_N: '16384',
      MAX_CONNECTIONS_PER_IP: '0',
      RATE_LIMIT_PER_KEY: String(PER_KEY),
      RATE_LIMIT_PER_IP: '100000',
      // One window for the whole test (windows are aligned on multiples of it).
      RATE_LIMIT_WINDOW_MS: '86400000',
      // Long caches and no re-check timer: only a notification can refresh another process's copy
      // of an event or wake its long-polls, and only the outage rule keeps a revoked key from
      // working where it was cached.
      AUTH_CACHE_TTL_MS: '60000',
      EVENT_CACHE_TTL_MS: '600000',
      WAIT_RECHECK_MS: '0',
    };
    [servers.a, servers.b] = await Promise.all([spawnServer(env), spawnServer(env)]);
    await until('both processes to reach Redis', async () => (await redisState('a')) === 'up' && (await redisState('b')) === 'up');
  }, 120_000);

  beforeEach(() => {
    answers.length = 0;
  });

  afterAll(async () => {
    for (const s of Object.values(servers)) s?.child.kill('SIGKILL');
    await Promise.all(Object.values(servers).flatMap((s) => (s ? [s.exited] : [])));
    await redis?.stop();
    await seed?.close();
    await db?.drop();
  });

  it('keeps serving while Redis is down: normal answers, sign-in, per-process limits, no stale keys, health says so', async () => {
    // Before the outage: b has checked (and cached, for 60 s) a key that a will revoke during it.
    const holder = await quickUser(seed);
    const doomed = await seed.ctx.accounts.createKey(holder.id, { name: 'doomed' });
    expect((await api('b', 'GET', '/auth/session', { key: doomed.key })).status).toBe(200);
    const signer = await seed.user();

    await redis.stop();
    await until('a to see Redis down', async () => (await redisState('a')) === 'down');
    await until('b to see Redis down', async () => (await redisState('b')) === 'down');

    for (const who of ['a', 'b'] as const) {
      const health = await call(who, 'GET', '/healthz');
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({ ok: true, redis: 'down' });
    }

    // Ordinary traffic on both processes answers as usual.
    const team = await quickUser(seed);
    expect((await api('a', 'GET', '/events')).status).toBe(200);
    expect((await api('b', 'GET', `/events/${eventId}`)).status).toBe(200);
    expect((await api('b', 'GET', '/auth/session', { key: team.key })).status).toBe(200);
    const reg = await api('b', 'POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() });
    expect(reg.status).toBe(201);
    expect(reg.body.status).toBe('pending');
    expect((await api('a', 'GET', '/events/no_such_event')).status).toBe(404);
    expect((await api('a', 'GET', '/auth/session', { key: 'hk_live_not_a_real_key' })).status).toBe(401);

    // A decision wakes a long-poll of the same process: the publish is delivered locally.
    const waiting = api('a', 'GET', `/events/${eventId}/my-registration?wait=20`, { key: team.key });
    await call('a', 'GET', '/healthz');
    expect((await api('a', 'POST', `/events/${eventId}/registrations/${reg.body.id}/approve`, { key: org.key })).status).toBe(200);
    expect((await waiting).body.status).toBe('approved');

    // Sign-in and the lockout's counters work without Redis.
    const wrong = await api('a', 'POST', '/auth/signin', { body: { email: signer.email, password: 'not the password' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('invalid_credentials');
    const signedIn = await api('a', 'POST', '/auth/signin', { body: { email: signer.email, password: PASSWORD } });
    expect(signedIn.status).toBe(200);
    const cookie = sessionCookieFrom({ ...signedIn, text: '' });
    expect(cookie).not.toBeNull();
    expect((await api('b', 'GET', '/auth/session', { headers: { cookie: cookie! } })).status).toBe(200);

    // Rate limits still hold, counted in each process.
    const busy = await quickUser(seed);
    const statuses: number[] = [];
    for (let i = 0; i <= PER_KEY; i++) statuses.push((await api('a', 'GET', '/events', { key: busy.key })).status);
    expect(statuses).toEqual([...Array(PER_KEY).fill(200), 429]);

    // A key revoked on a is refused on b at once, although b cached it and no message can reach it.
    expect((await api('a', 'DELETE', `/api-keys/${doomed.id}`, { key: holder.key })).status).toBe(204);
    const refused = await api('b', 'GET', '/auth/session', { key: doomed.key });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('unauthorized');

    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(servers.a!.child.exitCode).toBeNull();
    expect(servers.b!.child.exitCode).toBeNull();
    // Said once per process, however many requests and reconnection attempts went by.
    expect(count('a', FALLBACK_LOG)).toBe(1);
    expect(count('b', FALLBACK_LOG)).toBe(1);
  }, 90_000);

  it('comes back to shared rate limits and cross-process notifications by itself when Redis returns', async () => {
    await redis.start();
    await until('a to reach Redis again', async () => (await redisState('a')) === 'up');
    await until('b to reach Redis again', async () => (await redisState('b')) === 'up');
    // The line is written when the link comes up; it reaches us through the child's output pipe,
    // which can arrive after /healthz has already said "up".
    await until('a and b to log that Redis is back', () => count('a', RESTORED_LOG) >= 1 && count('b', RESTORED_LOG) >= 1);
    expect(count('a', RESTORED_LOG)).toBe(1);
    expect(count('b', RESTORED_LOG)).toBe(1);

    // One key, one limit across both processes again (each alone would still allow 5 more).
    const shared = await quickUser(seed);
    const statuses: number[] = [];
    for (let i = 0; i < PER_KEY; i++) statuses.push((await api(i % 2 ? 'b' : 'a', 'GET', '/events', { key: shared.key })).status);
    expect(statuses).toEqual(Array(PER_KEY).fill(200));
    const limitedA = await api('a', 'GET', '/events', { key: shared.key });
    expect(limitedA.status).toBe(429);
    expect(limitedA.body.code).toBe('rate_limited');
    expect((await api('b', 'GET', '/events', { key: shared.key })).status).toBe(429);

    // An edit on a reaches b's cached copy (cached for 10 minutes) through Redis.
    expect((await api('b', 'GET', `/events/${eventId}`)).body.name).toBe('Before the outage');
    expect((await api('a', 'PATCH', `/events/${eventId}`, { key: org.key, body: { name: 'After the outage' } })).status).toBe(200);
    await until('b to show the new name', async () => (await api('b', 'GET', `/events/${eventId}`)).body.name === 'After the outage', 5_000);

    // A decision on a wakes a long-poll on b (no re-check timer: only the message can).
    const team = await quickUser(seed);
    const reg = await api('a', 'POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() });
    expect(reg.status).toBe(201);
    const waiting = api('b', 'GET', `/events/${eventId}/my-registration?wait=20`, { key: team.key });
    await call('b', 'GET', '/healthz');
    expect((await api('a', 'POST', `/events/${eventId}/registrations/${reg.body.id}/approve`, { key: org.key })).status).toBe(200);
    expect((await waiting).body.status).toBe('approved');

    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(count('a', FALLBACK_LOG)).toBe(1);
    expect(count('b', FALLBACK_LOG)).toBe(1);
    expect(servers.a!.child.exitCode).toBeNull();
    expect(servers.b!.child.exitCode).toBeNull();
  }, 90_000);
});
