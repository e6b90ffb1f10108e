import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PasswordGateState } from '../../src/accounts/password-gate.js';
import { redisRateLimitStore } from '../../src/core/rate-limit.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { browser, ORIGIN, PASSWORD, signUp } from '../helpers/web-session.js';

const INVITATION_LINK = /http:\/\/hackathon\.test\/invitations\/([A-Za-z0-9_-]{43})/;
const RESET_LINK = /http:\/\/hackathon\.test\/reset-password\?token=([A-Za-z0-9_-]{43})/;

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

/**
 * Issue 15, accounts: the password lockout counts attempts before checking them (concurrent guesses
 * cannot pass it), covers every password check, scrypt runs behind a per-process gate, recovery
 * ends an attacker's access, the site keeps an active admin, a disabled account stays out.
 */
describe.each(DIALECTS)('account security (%s)', (dialect) => {
  let t: TestApp;
  let outbox: string;
  let org: TestUser;
  const seen = new Set<string>();

  beforeAll(async () => {
    outbox = mkdtempSync(join(tmpdir(), 'hk-acc-sec-'));
    t = await startTestApp(dialect, {
      env: {
        OUTBOX_DIR: outbox,
        REVIEW_WORKERS: 'false',
        SIGNIN_MAX_FAILURES_PER_ACCOUNT: '3',
        SIGNIN_MAX_FAILURES_PER_IP: '100000',
        SIGNIN_WINDOW_SECONDS: '600',
        PASSWORD_CHECKS_AT_ONCE: '1',
        AUTH_CACHE_TTL_MS: '60000',
      },
    });
    org = await t.user('organizer');
  });
  afterAll(async () => {
    await t?.close();
    rmSync(outbox, { recursive: true, force: true });
  });

  /** The one outbox mail written since the last call, its soft line breaks undone. */
  function nextMail(): string {
    const fresh = readdirSync(outbox).filter((f) => !seen.has(f));
    expect(fresh).toHaveLength(1);
    seen.add(fresh[0]!);
    // Quoted-printable: soft line breaks and =XX escapes (a link's "=" is "=3D").
    return readFileSync(join(outbox, fresh[0]!), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  const linkToken = (re: RegExp, mail: string) => {
    const m = re.exec(mail);
    if (!m) throw new Error(`no link in:\n${mail}`);
    return m[1]!;
  };
  async function inviteToken(eventId: string, email: string): Promise<string> {
    const res = await t.api('POST', `/events/${eventId}/reviewers`, { key: org.key, body: { email } });
    expect(res.status, res.text).toBe(201);
    return linkToken(INVITATION_LINK, nextMail());
  }
  async function resetToken(email: string): Promise<string> {
    const res = await t.api('POST', '/auth/password-reset', { body: { email }, headers: { origin: ORIGIN } });
    expect(res.status).toBe(202);
    await t.ctx.auth.drain();
    return linkToken(RESET_LINK, nextMail());
  }
  const signin = (email: string, password: string) => t.api('POST', '/auth/signin', { body: { email, password } });
  const accept = (token: string, body: Record<string, unknown>) => t.api('POST', `/invitations/${token}/accept`, { body });

  it('40 concurrent wrong guesses: exactly the limit is checked (401), the rest 429 with Retry-After; then the right password is 429', async () => {
    const email = `burst-${dialect}@example.com`;
    await signUp(t, email);
    const answers = await Promise.all(Array.from({ length: 40 }, () => signin(email, 'wrong password')));
    expect(tally(answers.map((a) => a.status))).toEqual({ 401: 3, 429: 37 });
    for (const a of answers.filter((x) => x.status === 429)) {
      expect(a.body.code).toBe('rate_limited');
      expect(a.headers.get('retry-after')).toBe('600');
    }
    const right = await signin(email, PASSWORD);
    expect(right.status).toBe(429);
    expect(right.body.code).toBe('rate_limited');
    expect(right.headers.get('retry-after')).toBe('600');
    t.clock.advance(600_000);
    expect((await signin(email, PASSWORD)).status).toBe(200);
  });

  it('a successful sign-in gives its count back: the right password between failures does not add to them', async () => {
    const email = `giveback-${dialect}@example.com`;
    await signUp(t, email);
    for (let i = 0; i < 2; i++) expect((await signin(email, 'wrong password')).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await signin(email, PASSWORD)).status).toBe(200);
    expect((await signin(email, 'wrong password')).status).toBe(401);
    expect((await signin(email, PASSWORD)).status).toBe(429);
    t.clock.advance(600_000);
  });

  it('password checks queue behind PASSWORD_CHECKS_AT_ONCE: a burst waits its turn instead of running at once', async () => {
    const emails = [0, 1, 2].map((i) => `queue${i}-${dialect}@example.com`);
    for (const e of emails) await t.ctx.accounts.createUser({ email: e, password: PASSWORD });
    const gate = t.ctx.accounts.passwordGate;
    let maxRunning = 0;
    let queued!: () => void;
    const threeWaiting = new Promise<void>((resolve) => (queued = resolve));
    const off = gate.observe((s: PasswordGateState) => {
      maxRunning = Math.max(maxRunning, s.running);
      if (s.waiting === 3) queued();
    });
    // Hold the only slot, so the three sign-ins below can only queue.
    let release!: () => void;
    const holder = gate.run(() => new Promise<void>((resolve) => (release = resolve)));
    const answers = Promise.all(emails.map((e) => signin(e, PASSWORD)));
    await threeWaiting;
    expect(gate.state()).toEqual({ running: 1, waiting: 3 });
    release();
    await holder;
    expect((await answers).map((a) => a.status)).toEqual([200, 200, 200]);
    off();
    expect(maxRunning).toBe(1);
    expect(gate.state()).toEqual({ running: 0, waiting: 0 });
  });

  it('POST /auth/password: a wrong current password counts in the lockout; past it 429, the right one included, and sign-in too', async () => {
    const email = `change-${dialect}@example.com`;
    const s = await signUp(t, email);
    const change = (current: string) =>
      t.api('POST', '/auth/password', { headers: browser(s), body: { current_password: current, new_password: 'a new password' } });
    for (let i = 0; i < 3; i++) {
      const wrong = await change('not my password');
      expect([wrong.status, wrong.body.code]).toEqual([422, 'validation_failed']);
    }
    const locked = await change(PASSWORD);
    expect([locked.status, locked.body.code]).toEqual([429, 'rate_limited']);
    expect(locked.headers.get('retry-after')).toBe('600');
    expect((await signin(email, PASSWORD)).status).toBe(429);
    t.clock.advance(600_000);
    expect((await change(PASSWORD)).status).toBe(204);
  });

  it('accepting an invitation with a wrong password counts in the lockout; past it 429, the right one included', async () => {
    const eventId = await createEvent(t, org.key, { name: 'Lockout Hack' });
    const judge = await t.user('user', `judge-lock-${dialect}@example.com`);
    const token = await inviteToken(eventId, judge.email);
    for (let i = 0; i < 3; i++) {
      const wrong = await accept(token, { password: 'not my password' });
      expect([wrong.status, wrong.body.code]).toEqual([401, 'unauthorized']);
    }
    const locked = await accept(token, { password: PASSWORD });
    expect([locked.status, locked.body.code]).toEqual([429, 'rate_limited']);
    expect(locked.headers.get('retry-after')).toBe('600');
    expect((await signin(judge.email, PASSWORD)).status).toBe(429);
    t.clock.advance(600_000);
    const ok = await accept(token, { password: PASSWORD });
    expect(ok.status, ok.text).toBe(200);
  });

  it('a password reset revokes every API key of the account (and its sessions)', async () => {
    const u = await t.user('organizer', `reset-keys-${dialect}@example.com`);
    const session = await t.api('POST', '/auth/signin', { body: { email: u.email, password: PASSWORD } });
    expect(session.status).toBe(200);
    expect((await t.api('GET', '/auth/session', { key: u.key })).status).toBe(200);
    const token = await resetToken(u.email);
    const confirm = await t.api('POST', '/auth/password-reset/confirm', { body: { token, password: 'brand new secret' }, headers: { origin: ORIGIN } });
    expect(confirm.status).toBe(204);
    const byKey = await t.api('GET', '/auth/session', { key: u.key });
    expect([byKey.status, byKey.body.code]).toEqual([401, 'unauthorized']);
    const signedIn = await t.api('POST', '/auth/signin', { body: { email: u.email, password: 'brand new secret' } });
    expect(signedIn.status).toBe(200);
    const cookie = /hk_session=[^;]*/.exec(signedIn.headers.get('set-cookie')!)![0];
    const keys = await t.api('GET', '/api-keys', { headers: { cookie } });
    expect(keys.status, keys.text).toBe(200);
    expect(keys.body.map((k: { revoked_at: string | null }) => k.revoked_at)).toEqual([expect.any(String)]);
  });

  it('a password change makes every reset link issued before it stop working', async () => {
    const email = `change-reset-${dialect}@example.com`;
    const s = await signUp(t, email);
    const token = await resetToken(email);
    const changed = await t.api('POST', '/auth/password', { headers: browser(s), body: { current_password: PASSWORD, new_password: 'changed it myself' } });
    expect(changed.status).toBe(204);
    const confirm = await t.api('POST', '/auth/password-reset/confirm', { body: { token, password: 'the attacker wants' }, headers: { origin: ORIGIN } });
    expect([confirm.status, confirm.body.code]).toEqual([410, 'reset_token_invalid']);
    expect((await signin(email, 'changed it myself')).status).toBe(200);
  });

  const activeAdmins = async () =>
    (await t.ctx.db.selectFrom('users').select('id').where('role', '=', 'admin').where('disabled_at', 'is', null).execute()).map((r) => r.id);
  const patchUser = (by: TestUser, target: TestUser, body: Record<string, unknown>) => t.api('PATCH', `/admin/users/${target.id}`, { key: by.key, body });

  it('two admins demoting or disabling each other at once: one wins, the other is refused, an active admin remains (several rounds)', async () => {
    // No other admin in this app: the race is between exactly two.
    expect(await activeAdmins()).toEqual([]);
    let survivor = await t.user('admin', `admin0-${dialect}@example.com`);
    for (let round = 1; round <= 6; round++) {
      const other = await t.user('admin', `admin${round}-${dialect}@example.com`);
      // Both principals cached (AUTH_CACHE_TTL_MS): both requests pass the role check at once, so
      // the race is decided in the transaction on SQLite too.
      for (const u of [survivor, other]) expect((await t.api('GET', '/admin/users?limit=1', { key: u.key })).status).toBe(200);
      const [a, b] = await Promise.all([
        patchUser(survivor, other, round % 2 ? { role: 'user' } : { disabled: true }),
        patchUser(other, survivor, round % 3 ? { role: 'organizer' } : { disabled: true }),
      ]);
      expect([a.status, b.status].filter((s) => s === 200)).toHaveLength(1);
      const refused = a.status === 200 ? b : a;
      // Refused in the transaction (both passed the role check first), or at the role check (the
      // winner committed before the loser's request was authenticated).
      expect([
        [409, 'last_admin'],
        [403, 'forbidden'],
        // Disabled by the winner first: its key stopped working.
        [401, 'unauthorized'],
      ]).toContainEqual([refused.status, refused.body.code]);
      const active = await activeAdmins();
      expect(active).toHaveLength(1);
      survivor = active[0] === survivor.id ? survivor : other;
      // The survivor still administers the site.
      expect((await t.api('GET', '/admin/users', { key: survivor.key })).status).toBe(200);
    }
    // Leave no admin behind for the next test.
    await t.ctx.db.updateTable('users').set({ role: 'user' }).where('id', '=', survivor.id).execute();
  });

  it('the last active admin cannot be demoted or disabled by a caller whose own role changed after it was authenticated: 409 last_admin', async () => {
    // An admin whose principal is cached (AUTH_CACHE_TTL_MS), then demoted by a change the cache did
    // not hear of: what a concurrent demotion committed between authentication and the transaction looks like.
    const last = await t.user('admin', `last-${dialect}@example.com`);
    const stale = await t.user('admin', `stale-${dialect}@example.com`);
    expect((await t.api('GET', '/admin/users', { key: stale.key })).status).toBe(200);
    await t.ctx.db.updateTable('users').set({ role: 'user' }).where('id', '=', stale.id).execute();
    for (const body of [{ role: 'organizer' }, { disabled: true }]) {
      const res = await patchUser(stale, last, body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([409, 'last_admin']);
    }
    expect(await activeAdmins()).toEqual([last.id]);
    // With another active admin the same change goes through.
    const second = await t.user('admin', `second-${dialect}@example.com`);
    expect((await patchUser(second, last, { role: 'organizer' })).status).toBe(200);
    expect(await activeAdmins()).toEqual([second.id]);
  });

  it('a disabled account cannot accept a reviewer invitation: 403 account_disabled, the invitation stays open', async () => {
    const eventId = await createEvent(t, org.key, { name: 'Disabled Hack' });
    const judge = await t.user('user', `judge-off-${dialect}@example.com`);
    const token = await inviteToken(eventId, judge.email);
    const admin = await t.user('admin', `admin-off-${dialect}@example.com`);
    expect((await t.api('PATCH', `/admin/users/${judge.id}`, { key: admin.key, body: { disabled: true } })).status).toBe(200);
    const res = await accept(token, { password: PASSWORD });
    expect([res.status, res.body.code]).toEqual([403, 'account_disabled']);
    const read = await t.api('GET', `/invitations/${token}`);
    expect([read.status, read.body.status]).toEqual([200, 'pending']);
    const reviewers = await t.ctx.db.selectFrom('event_reviewers').select('user_id').where('event_id', '=', eventId).execute();
    expect(reviewers).toEqual([]);
  });
});

/** The same counting through Redis (the store several processes share): concurrent guesses cannot pass it either. */
describe.each(DIALECTS)('password lockout through Redis (%s)', (dialect) => {
  let t: TestApp;
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    const prefix = `hk:test:${randomBytes(6).toString('hex')}:rl:`;
    t = await startTestApp(dialect, {
      env: { SIGNIN_MAX_FAILURES_PER_ACCOUNT: '4', SIGNIN_MAX_FAILURES_PER_IP: '100000', SIGNIN_WINDOW_SECONDS: '600' },
      rateLimitStore: redisRateLimitStore(redis, prefix),
    });
  });
  afterAll(async () => {
    await t?.close();
    redis?.disconnect();
  });

  it('20 concurrent wrong guesses: 4 × 401, 16 × 429; right passwords give their count back', async () => {
    const email = `redis-burst-${dialect}@example.com`;
    await signUp(t, email);
    const signin = (password: string) => t.api('POST', '/auth/signin', { body: { email, password } });
    for (let i = 0; i < 3; i++) expect((await signin(PASSWORD)).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 20 }, () => signin('wrong password')));
    expect(tally(answers.map((a) => a.status))).toEqual({ 401: 4, 429: 16 });
    const right = await signin(PASSWORD);
    expect([right.status, right.headers.get('retry-after')]).toEqual([429, '600']);
  });
});
