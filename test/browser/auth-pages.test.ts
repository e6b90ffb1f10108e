import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatWait } from '../../web/src/features/auth/logic.js';
import type { TestApp } from '../helpers/harness.js';
import { startSmtpReceiver, unfoldMail } from '../helpers/smtp-receiver.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, signInSession, startWebApp } from './browser-harness.js';

const PASSWORD = 'correct horse battery';

/**
 * The account pages over a real server: sign-up in the three modes, sign-in (wrong password, lockout
 * countdown, return path), sign-out, the password reset by e-mail through a local SMTP receiver, and
 * the account page's sessions. Server state is checked over the API.
 */
describe('account pages (SQLite)', () => {
  let t: TestApp;
  let browser: Browser;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await startWebApp('sqlite', { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SIGNIN_MAX_FAILURES_PER_ACCOUNT: '3' });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });

  async function open(opts: Parameters<typeof openPage>[1] = {}) {
    const opened = await openPage(browser, opts);
    opened.page.setDefaultTimeout(8000);
    return opened;
  }

  /** Signs in over the API as another device; returns that session's cookie. */
  async function apiSession(email: string, password = PASSWORD, userAgent = 'curl/8.5.0'): Promise<string> {
    const res = await t.api('POST', '/auth/signin', { body: { email, password }, headers: { origin: t.url, 'user-agent': userAgent } });
    expect(res.status).toBe(200);
    return /hk_session=[^;]*/.exec(res.headers.get('set-cookie') ?? '')![0];
  }

  async function sessionStatus(cookie: string): Promise<number> {
    return (await t.api('GET', '/auth/session', { headers: { cookie } })).status;
  }

  async function cookieOf(context: BrowserContext): Promise<string> {
    const c = (await context.cookies(t.url)).find((k) => k.name.endsWith('hk_session'));
    return `${c!.name}=${c!.value}`;
  }

  it('signs a person up in open mode, with field checks, by the link mailed to them, and signs them in', async () => {
    const { page, context, problems } = await open({ viewport: 'phone' });
    await page.goto(`${t.url}/signup`);
    await settled(page);
    await page.getByRole('heading', { level: 1, name: 'Create an account' }).waitFor();
    await page.getByText('At least 8 characters.').waitFor();
    await page.getByLabel('E-mail address').fill('new-person@example.com');
    await page.getByLabel('Name').fill('New Person');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Use at least 8 characters.').waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    let before = smtp.count();
    await page.getByRole('button', { name: 'Create account' }).click();
    // SMTP is configured: sign-up is confirmed by e-mail.
    await page.getByRole('heading', { level: 1, name: 'Check your inbox' }).waitFor();
    await page.getByRole('status').getByText('new-person@example.com').waitFor();
    const link = /http:\/\/127\.0\.0\.1:\d+\/signup\/confirm\?token=[A-Za-z0-9_-]{43}/.exec(
      unfoldMail((await smtp.nextTo('new-person@example.com', before)).raw),
    )![0];
    await page.goto(link);
    await settled(page);
    await page.getByRole('heading', { level: 1, name: 'Finish signing up' }).waitFor();
    await screenshot(page, 'signup-confirm');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.waitForURL(`${t.url}/`);
    await page.getByText('Menu').click();
    await page.locator('.nav-mobile').getByRole('link', { name: 'Account' }).waitFor();
    const session = await t.api('GET', '/auth/session', { headers: { cookie: await cookieOf(context) } });
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ email: 'new-person@example.com', name: 'New Person', role: 'user' });
    // The browser's language and time zone came along with the sign-up: the account's mails use them.
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const settings = await t.api('GET', '/me/settings', { headers: { cookie: await cookieOf(context) } });
    expect(settings.body).toMatchObject({ language: 'en', time_zone: zone });
    expect(problems).toEqual([]);
    await context.close();

    // The same address again: the page says the same as for a new one; the owner is told by mail.
    const second = await open({ locale: 'zh-CN' });
    await second.page.goto(`${t.url}/signup`);
    await settled(second.page);
    await second.page.getByLabel('电子邮箱').fill('new-person@example.com');
    await second.page.getByLabel('密码').fill(PASSWORD);
    before = smtp.count();
    await second.page.getByRole('button', { name: '创建账户' }).click();
    await second.page.getByRole('heading', { level: 1, name: '请查收邮件' }).waitFor();
    expect(unfoldMail((await smtp.nextTo('new-person@example.com', before)).raw)).toContain('Sign-up attempt with your address');
    // The used link again: not valid any more.
    await second.page.goto(link);
    await settled(second.page);
    await second.page.getByRole('button', { name: '创建我的账户' }).click();
    await second.page.getByRole('heading', { level: 1, name: '链接无效' }).waitFor();
    expect(second.problems).toEqual([]);
    await second.context.close();
  });

  it("lets a person who is signed in confirm their agent's account from the mailed link; the agent's key then works", async () => {
    const owner = await t.user('user');
    const before = smtp.count();
    const agent = await t.api('POST', '/agents/signup', { body: { email: 'owners-agent@example.com', name: 'Owner bot' } });
    expect(agent.status).toBe(201);
    expect(agent.body.awaiting_confirmation).toBe(true);
    const key = agent.body.api_key.key as string;
    expect((await t.api('GET', '/api-keys', { key })).body.code).toBe('account_unconfirmed');
    const link = /http:\/\/127\.0\.0\.1:\d+\/signup\/confirm\?token=[A-Za-z0-9_-]{43}/.exec(
      unfoldMail((await smtp.nextTo('owners-agent@example.com', before)).raw),
    )![0];
    const { page, context, problems } = await open();
    await signInSession(context, t.url, owner.email, PASSWORD);
    await page.goto(link);
    await settled(page);
    await page.getByRole('heading', { level: 1, name: 'Finish signing up' }).waitFor();
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.waitForURL(`${t.url}/`);
    expect((await t.api('GET', '/api-keys', { key })).status).toBe(200);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('says "wrong e-mail or password", then signs in to the asked-for page and out again', async () => {
    const user = await t.user('user');
    const { page, context, problems } = await open();
    await page.goto(`${t.url}/account`);
    await page.waitForURL(`${t.url}/signin?next=%2Faccount`);
    await settled(page);
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong e-mail address or password.' }).waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.url}/account`);
    await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
    await page.getByText(user.email).first().waitFor();
    const cookie = await cookieOf(context);
    expect(await sessionStatus(cookie)).toBe(200);

    await page.getByRole('navigation', { name: 'Main' }).first().getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${t.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).first().getByRole('link', { name: 'Sign in' }).waitFor();
    expect(await sessionStatus(cookie)).toBe(401);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a disabled account is told so', async () => {
    const admin = await t.user('admin');
    const user = await t.user('user');
    expect((await t.api('PATCH', `/admin/users/${user.id}`, { key: admin.key, body: { disabled: true } })).status).toBe(200);
    const { page, context, problems } = await open();
    await page.goto(`${t.url}/signin`);
    await settled(page);
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'This account is disabled. Contact the site administrator.' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('an organizer lands on the dashboard; too many failures show a countdown', async () => {
    const organizer = await t.user('organizer');
    const { page, context } = await open();
    await page.goto(`${t.url}/signin`);
    await settled(page);
    // Three failures lock the account (SIGNIN_MAX_FAILURES_PER_ACCOUNT=3), even for the right password.
    for (let i = 0; i < 3; i++) {
      const res = await t.api('POST', '/auth/signin', { body: { email: organizer.email, password: `wrong ${i}` }, headers: { origin: t.url } });
      expect(res.status).toBe(401);
    }
    await page.getByLabel('E-mail address').fill(organizer.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const wait = page.getByText(/^Too many attempts\. Try again in (\d+ s|\d+:\d\d)\.$/);
    await wait.waitFor();
    // The wait counts down on the page, second by second.
    const shown = / in (\S+( s)?)\.$/.exec((await wait.textContent())!)![1]!;
    const [min, sec] = shown.includes(':') ? shown.split(':').map(Number) : [0, Number.parseInt(shown, 10)];
    const seconds = min! * 60 + sec!;
    expect(seconds).toBeGreaterThan(1);
    await page.getByText(`Too many attempts. Try again in ${formatWait(seconds - 1)}.`).waitFor();
    expect(await page.getByRole('button', { name: 'Sign in' }).isDisabled()).toBe(true);
    await screenshot(page, 'signin-locked');
    await context.close();

    const other = await open();
    const admin = await t.user('admin');
    await other.page.goto(`${t.url}/signin`);
    await settled(other.page);
    await other.page.getByLabel('E-mail address').fill(admin.email);
    await other.page.getByLabel('Password').fill(PASSWORD);
    await other.page.getByRole('button', { name: 'Sign in' }).click();
    await other.page.waitForURL(`${t.url}/events`);
    await other.context.close();
  });

  it('resets a forgotten password through the e-mailed link', async () => {
    const user = await t.user('user');
    const { page, context, problems } = await open({ locale: 'zh-CN' });
    await page.goto(`${t.url}/signin`);
    await settled(page);
    await page.getByRole('link', { name: '忘记密码？' }).click();
    await page.waitForURL(`${t.url}/forgot-password`);
    const before = smtp.count();
    await page.getByLabel('电子邮箱').fill(user.email);
    await page.getByRole('button', { name: '发送链接' }).click();
    await page.getByRole('heading', { level: 1, name: '请查收邮件' }).waitFor();
    const mail = unfoldMail((await smtp.nextTo(user.email, before)).raw);
    const link = /(http:\/\/127\.0\.0\.1:\d+\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(mail)![1]!;
    expect(link.startsWith(`${t.url}/reset-password?token=`)).toBe(true);

    await page.goto(link);
    await settled(page);
    await page.getByRole('heading', { level: 1, name: '设置新密码' }).waitFor();
    await page.getByLabel('新密码', { exact: true }).fill('a brand new secret');
    await page.getByLabel('再次输入新密码').fill('a brand new secreT');
    await page.getByRole('button', { name: '修改密码' }).click();
    await page.getByText('两次输入的密码不一致。').waitFor();
    await page.getByLabel('再次输入新密码').fill('a brand new secret');
    await page.getByRole('button', { name: '修改密码' }).click();
    await page.getByRole('heading', { level: 1, name: '密码已修改' }).waitFor();
    await page.getByRole('link', { name: '登录' }).last().waitFor();
    expect((await t.api('POST', '/auth/signin', { body: { email: user.email, password: 'a brand new secret' }, headers: { origin: t.url } })).status).toBe(200);
    expect((await t.api('POST', '/auth/signin', { body: { email: user.email, password: PASSWORD }, headers: { origin: t.url } })).status).toBe(401);

    // The link works once.
    await page.goto(link);
    await settled(page);
    await page.getByLabel('新密码', { exact: true }).fill('another new secret');
    await page.getByLabel('再次输入新密码').fill('another new secret');
    await page.getByRole('button', { name: '修改密码' }).click();
    await page.getByRole('heading', { level: 1, name: '此链接已失效' }).waitFor();
    await page.getByRole('link', { name: '重新申请链接' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the account page lists sessions and signs another device out', async () => {
    const user = await t.user('user');
    const otherDevice = await apiSession(user.email);
    const { page, context, problems } = await open();
    await signInSession(context, t.url, user.email, PASSWORD);
    await page.goto(`${t.url}/account`);
    await settled(page);
    await page.getByText('This device').waitFor();
    await page.getByText('curl').waitFor();
    await page.getByRole('button', { name: 'Sign out the session of curl' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out this session?' });
    await dialog.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('Session signed out.').waitFor();
    await page.getByText('curl').waitFor({ state: 'detached' });
    expect(await sessionStatus(otherDevice)).toBe(401);
    expect(await sessionStatus(await cookieOf(context))).toBe(200);

    // A wrong current password is shown next to its field.
    await page.getByLabel('Current password').fill('not it');
    await page.getByLabel('New password').fill('a longer new password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The current password is wrong.').waitFor();
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed.').waitFor();
    expect((await t.api('POST', '/auth/signin', { body: { email: user.email, password: 'a longer new password' }, headers: { origin: t.url } })).status).toBe(
      200,
    );
    await screenshot(page, 'account');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('revoking this device signs the browser out', async () => {
    const user = await t.user('user');
    const { page, context } = await open();
    await signInSession(context, t.url, user.email, PASSWORD);
    const cookie = await cookieOf(context);
    await page.goto(`${t.url}/account`);
    await settled(page);
    await page.getByRole('button', { name: /^Sign out the session of / }).click();
    await page.getByText('This is the session you are using now: you will be signed out here.').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${t.url}/signin`);
    expect(await sessionStatus(cookie)).toBe(401);
    await context.close();
  });

  it('invite mode asks for a code (prefilled from the link) and says when it is wrong; closed mode says sign-up is closed', async () => {
    const invite = await startWebApp('sqlite', { SIGNUP_MODE: 'invite' });
    const closed = await startWebApp('sqlite', { SIGNUP_MODE: 'closed' });
    try {
      const admin = await invite.user('admin');
      const created = await invite.api('POST', '/admin/invite-codes', { key: admin.key, body: { max_uses: 1, note: 'browser test' } });
      expect(created.status).toBe(201);
      const { page, context, problems } = await open();
      await page.goto(`${invite.url}/signup?code=inv_wrong`);
      await settled(page);
      expect(await page.getByLabel('Invitation code').inputValue()).toBe('inv_wrong');
      await page.getByLabel('E-mail address').fill('invited@example.com');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText('This invitation code is not valid (wrong, used up, expired or revoked).').waitFor();
      expect(await page.getByLabel('Invitation code').getAttribute('aria-invalid')).toBe('true');
      await screenshot(page, 'signup-invite');
      await page.getByLabel('Invitation code').fill(created.body.code);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL(`${invite.url}/`);
      const codes = await invite.api('GET', '/admin/invite-codes', { key: admin.key });
      expect(codes.body[0].uses).toBe(1);
      expect(problems).toEqual([]);
      await context.close();

      const shut = await open({ viewport: 'phone' });
      await shut.page.goto(`${closed.url}/signup`);
      await settled(shut.page);
      await shut.page.getByRole('heading', { level: 1, name: 'Sign-up is closed' }).waitFor();
      expect(await shut.page.getByRole('textbox').count()).toBe(0);
      await expectAccessible(shut.page);
      await screenshot(shut.page, 'signup-closed');
      expect(shut.problems).toEqual([]);
      await shut.context.close();
    } finally {
      await invite.close();
      await closed.close();
    }
  });

  for (const locale of ['en', 'zh-CN'] as const) {
    for (const viewport of ['phone', 'desktop'] as const) {
      it(`every account page is accessible in ${locale} on a ${viewport}`, async () => {
        const user = await t.user('user');
        await apiSession(
          user.email,
          PASSWORD,
          'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15',
        );
        const { page, context, problems } = await open({ locale, viewport });
        for (const [path, name] of [
          ['/signin', 'signin'],
          ['/signup', 'signup'],
          ['/forgot-password', 'forgot-password'],
          ['/reset-password?token=x', 'reset-password'],
        ] as const) {
          await page.goto(`${t.url}${path}`);
          await settled(page);
          await page.getByRole('heading', { level: 1 }).waitFor();
          expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale);
          await expectAccessible(page);
          // Nothing makes the page wider than the screen (tables and code scroll inside their boxes).
          expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(page.viewportSize()!.width);
          await screenshot(page, `${name}-${locale}`);
        }
        await signInSession(context, t.url, user.email, PASSWORD);
        await page.goto(`${t.url}/account`);
        await settled(page);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await expectAccessible(page);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
        await screenshot(page, `account-${locale}`);
        await page.getByRole('button', { name: /^(Sign out the session of|退出) .*Safari/ }).click();
        await page.getByRole('dialog').waitFor();
        await expectAccessible(page);
        await screenshot(page, `account-revoke-${locale}`);
        expect(problems).toEqual([]);
        await context.close();
      });
    }
  }
});
