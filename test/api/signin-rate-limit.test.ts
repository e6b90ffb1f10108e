import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
