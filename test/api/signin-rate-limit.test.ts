import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisRateLimitStore } from '../../src/core/rate-limit.js';
import { DIALECTS } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { PASSWORD, signUp } from '../helpers/web-session.js';

/** Failed sign-ins are limited per account and per IP, through the rate-limit store, on the app's clock. */
describe.each(DIALECTS)('sign-in lockout (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { SIGNIN_MAX_FAILURES_PER_ACCOUNT: '3', SIGNIN_MAX_FAILURES_PER_IP: '8', SIGNIN_WINDOW_SECONDS: '600' } });
  });
  afterAll(async () => t?.close());

  const signin = (email: string, password: string) => t.api('POST', '/auth/signin', { body: { email, password } });

  it('locks an account after N failures, even for the right password, until the window ends', async () => {
    const email = `lock-${dialect}@example.com`;
    await signUp(t, email);
    for (let i = 0; i < 3; i++) expect((await signin(email, 'wrong password')).status).toBe(401);
    t.clock.advance(100_000);
    const locked = await signin(email, PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('rate_limited');
    expect(locked.headers.get('retry-after')).toBe('500');
    expect(locked.body.retry_after).toBe(500);
    expect(locked.body.detail).toBe('Too many sign-in attempts; try again in 500 s.');
    // The e-mail is the account, however it is written.
    expect((await signin(email.toUpperCase(), PASSWORD)).status).toBe(429);
    t.clock.advance(499_000);
    const last = await signin(email, PASSWORD);
    expect(last.status).toBe(429);
    expect(last.headers.get('retry-after')).toBe('1');
    t.clock.advance(1000);
    expect((await signin(email, PASSWORD)).status).toBe(200);
  });

  it('counts failures per IP across accounts, unknown ones included', async () => {
    t.clock.advance(600_000);
    const email = `ip-${dialect}@example.com`;
    await signUp(t, email);
    for (let i = 0; i < 8; i++) expect((await signin(`nobody${i}-${dialect}@example.com`, 'wrong password')).status).toBe(401);
    const res = await signin(email, PASSWORD);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('600');
    t.clock.advance(600_000);
    expect((await signin(email, PASSWORD)).status).toBe(200);
  });

  it('successful sign-ins are not counted', async () => {
    t.clock.advance(600_000);
    const email = `ok-${dialect}@example.com`;
    await signUp(t, email);
    for (let i = 0; i < 10; i++) expect((await signin(email, PASSWORD)).status).toBe(200);
  });

  it('a disabled account is 403 account_disabled for the right password, 401 for a wrong one', async () => {
    t.clock.advance(600_000);
    const email = `off-${dialect}@example.com`;
    const s = await signUp(t, email);
    await t.ctx.db.updateTable('users').set({ disabled_at: t.clock.now().toISOString() }).where('id', '=', s.userId).execute();
    const right = await signin(email, PASSWORD);
    expect(right.status).toBe(403);
    expect(right.body.code).toBe('account_disabled');
    expect((await signin(email, 'wrong password')).status).toBe(401);
  });
});

/** Several processes share the lockout through Redis: a second app sees the failures counted by the first. */
describe.each(DIALECTS)('sign-in lockout through Redis (%s)', (dialect) => {
  const apps: TestApp[] = [];
  const clients: Redis[] = [];
  beforeAll(async () => {
    const prefix = `hk:test:${randomBytes(6).toString('hex')}:rl:`;
    const env = { SIGNIN_MAX_FAILURES_PER_ACCOUNT: '2', SIGNIN_WINDOW_SECONDS: '600' };
    for (let i = 0; i < 2; i++) {
      const redis = new Redis(process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
      clients.push(redis);
      apps.push(await startTestApp(dialect, { env, rateLimitStore: redisRateLimitStore(redis, prefix) }));
    }
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    for (const c of clients) c.disconnect();
  });

  it('failures on one instance lock the account on the other, until the aligned window ends', async () => {
    const [a, b] = apps as [TestApp, TestApp];
    await b.ctx.accounts.createUser({ email: 'shared@example.com', password: PASSWORD });
    // Each app has its own database here; the account exists on both.
    await a.ctx.accounts.createUser({ email: 'shared@example.com', password: PASSWORD });
    for (let i = 0; i < 2; i++)
      expect((await a.api('POST', '/auth/signin', { body: { email: 'shared@example.com', password: 'wrong password' } })).status).toBe(401);
    const locked = await b.api('POST', '/auth/signin', { body: { email: 'shared@example.com', password: PASSWORD } });
    expect(locked.status).toBe(429);
    // T0 is on a 10-minute boundary: the Redis window (aligned on multiples of its length) ends 600 s later.
    expect(locked.headers.get('retry-after')).toBe('600');
    b.clock.advance(600_000);
    expect((await b.api('POST', '/auth/signin', { body: { email: 'shared@example.com', password: PASSWORD } })).status).toBe(200);
  });
});
