import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from '../helpers/harness.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, signInSession, startWebApp } from './browser-harness.js';

const PASSWORD = 'correct horse battery';

describe('API keys and admin pages (SQLite)', () => {
  let t: TestApp;
  let browser: Browser;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startWebApp('sqlite', { SIGNUP_MODE: 'invite' });
    browser = await launchBrowser();
    admin = await t.user('admin');
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signedIn(user: TestUser, opts: Parameters<typeof openPage>[1] = {}) {
    const opened = await openPage(browser, opts);
    await signInSession(opened.context, t.url, user.email, PASSWORD);
    return opened;
  }

  async function goto(page: Page, path: string) {
    await page.goto(`${t.url}${path}`);
    await settled(page);
  }

  it('creates a key shown once (copy + curl example), the key works, and revoking it makes it answer 401', async () => {
    // A person without any key yet (t.user() would make one).
    const created = await t.ctx.accounts.createUser({ email: `keyless-${Date.now()}@example.com`, password: PASSWORD, role: 'user' });
    const user = { id: created.id, email: created.email, role: created.role, key: '' };
    const { page, context, problems } = await signedIn(user);
    await goto(page, '/api-keys');
    await page.getByText('No API keys yet').waitFor();
    await screenshot(page, 'api-keys-empty');
    await expect(page.getByRole('link', { name: 'Read the agent guide (skill.md)' }).getAttribute('href')).resolves.toBe('/api/v1/skill.md');

    // The name is required: the problem shows next to the field, nothing is created.
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('Give the key a name.').waitFor();
    await expect(page.getByText('No API keys yet').count()).resolves.toBe(1);

    await page.getByLabel('Name').fill('my agent');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('heading', { name: 'Your new key “my agent”' }).waitFor();
    await page.getByText('it will not be shown again').waitFor();
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByRole('button', { name: 'Copied' }).first().waitFor();
    const key = await page.evaluate(() => navigator.clipboard.readText());
    expect(key).toMatch(/^hk_/);
    const command = await page.locator('pre code').textContent();
    expect(command).toBe(`curl -H 'Authorization: Bearer ${key}' '${t.url}/api/v1/auth/session'`);
    await expectAccessible(page);
    await screenshot(page, 'api-keys-created');

    const me = await t.api('GET', '/auth/session', { key });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(user.email);

    await page.getByRole('button', { name: 'I have stored it' }).click();
    const row = page.getByRole('row', { name: /my agent/ });
    await row.getByText('Active').waitFor();
    await page.getByRole('button', { name: 'Revoke my agent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “my agent”?' });
    await dialog.getByText('will get 401 at once').waitFor();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('Key “my agent” revoked.').waitFor();
    await row.getByText('Revoked').waitFor();
    const after = await t.api('GET', '/auth/session', { key });
    expect(after.status).toBe(401);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('lists keys accessibly in Chinese on a phone', async () => {
    const user = await t.user();
    await t.api('POST', '/api-keys', { key: user.key, body: { name: 'CI 脚本', expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString() } });
    const { page, context, problems } = await signedIn(user, { locale: 'zh-CN', viewport: 'phone' });
    await goto(page, '/api-keys');
    await page.getByRole('heading', { level: 1, name: 'API 密钥' }).waitFor();
    await page.getByText('CI 脚本', { exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'api-keys');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a plain user opening /admin is told it is not allowed', async () => {
    const user = await t.user();
    const { page, context, problems } = await signedIn(user);
    await goto(page, '/admin');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('an admin promotes a user to organizer (who can then open /events), cannot demote themself, and disables a user', async () => {
    const target = await t.user('user', `promote-${Date.now()}@example.com`);
    const victim = await t.user('user', `disable-${Date.now()}@example.com`);

    // Before: the dashboard is not for plain users.
    const other = await signedIn(target);
    await goto(other.page, '/events');
    await other.page.getByRole('heading', { name: 'Not allowed' }).waitFor();

    const { page, context, problems } = await signedIn(admin);
    await goto(page, '/admin');
    await page.waitForURL(`${t.url}/admin/users`);
    await page.getByRole('link', { name: 'Users' }).and(page.locator('[aria-current="page"]')).waitFor();

    // The admin's own row cannot be changed.
    await expect(page.getByRole('combobox', { name: `Role ${admin.email}` }).isDisabled()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: `Disable ${admin.email}` }).isDisabled()).resolves.toBe(true);

    await page.getByLabel('Search').fill('promote-');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('combobox', { name: `Role ${target.email}` }).waitFor();
    await expect(page.getByRole('row').count()).resolves.toBe(2);
    await page.getByRole('combobox', { name: `Role ${target.email}` }).selectOption('organizer');
    await page.getByText(`Saved: ${target.email} is now Organizer.`).waitFor();
    const patched = await t.api('GET', `/admin/users?q=promote-`, { key: admin.key });
    expect(patched.body.map((u: { role: string }) => u.role)).toEqual(['organizer']);

    await other.page.reload();
    await settled(other.page);
    await expect(other.page.getByRole('heading', { name: 'Not allowed' }).count()).resolves.toBe(0);
    await other.context.close();

    // Disable another user, with a confirmation first; their key stops working.
    await page.getByLabel('Search').fill(victim.email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: `Disable ${victim.email}` }).click();
    await page
      .getByRole('dialog', { name: `Disable ${victim.email}?` })
      .getByRole('button', { name: 'Disable' })
      .click();
    await page.getByText(`${victim.email} is disabled.`).waitFor();
    await page.getByRole('button', { name: `Enable ${victim.email}` }).waitFor();
    expect((await t.api('GET', '/auth/session', { key: victim.key })).status).toBe(401);

    await page.getByLabel('Search').fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await settled(page);
    await expectAccessible(page);
    await screenshot(page, 'admin-users');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('creates an invitation code that works for sign-up in invite mode, then shows it used up', async () => {
    const { page, context, problems } = await signedIn(admin);
    await goto(page, '/admin/invite-codes');
    await page.getByText('Sign-up mode: invite only').waitFor();
    await page.getByLabel('Note (optional)').fill('Spring judges');
    await page.getByLabel('Number of uses').fill('0');
    await page.getByRole('button', { name: 'Create code' }).click();
    await page.getByText('Enter a whole number from 1 to 10000.').waitFor();
    await page.getByLabel('Number of uses').fill('1');
    await page.getByRole('button', { name: 'Create code' }).click();
    await page.getByRole('heading', { name: 'New invitation code' }).waitFor();
    const code = (await page.getByTestId('new-code').textContent())!;
    expect(await page.getByTestId('signup-link').textContent()).toBe(`${t.url}/signup?code=${encodeURIComponent(code)}`);
    await expectAccessible(page);
    await screenshot(page, 'admin-invite-code-created');

    const email = `invited-${Date.now()}@example.com`;
    const signup = await t.api('POST', '/auth/signup', { body: { email, password: PASSWORD, invite_code: code }, headers: { origin: t.url } });
    expect(signup.status, signup.text).toBe(201);
    const again = await t.api('POST', '/auth/signup', { body: { email: `x${email}`, password: PASSWORD, invite_code: code }, headers: { origin: t.url } });
    expect([again.status, again.body.code]).toEqual([403, 'invite_code_invalid']);

    await page.getByRole('button', { name: 'Done' }).click();
    await page.reload();
    await settled(page);
    const row = page.getByRole('row', { name: /Spring judges/ });
    await row.getByText('1 of 1').waitFor();
    await row.getByText('Used up').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('draws the invitation codes and users tabs accessibly in Chinese on a phone, and revokes a code', async () => {
    await t.api('POST', '/admin/invite-codes', { key: admin.key, body: { note: '评委', max_uses: 3 } });
    const { page, context, problems } = await signedIn(admin, { locale: 'zh-CN', viewport: 'phone' });
    await goto(page, '/admin/invite-codes');
    await page.getByText('注册模式：仅限邀请').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'admin-invite-codes');
    await page
      .getByRole('button', { name: /^吊销邀请码 / })
      .first()
      .click();
    await page.getByRole('dialog').getByRole('button', { name: '吊销邀请码' }).click();
    await page.getByText(/已吊销。$/).waitFor();
    const codes = await t.api('GET', '/admin/invite-codes', { key: admin.key });
    expect(codes.body.filter((c: { revoked_at: string | null }) => c.revoked_at !== null)).toHaveLength(1);

    await goto(page, '/admin/users');
    await page.getByRole('heading', { level: 1, name: '管理' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'admin-users');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('draws the invitation codes tab on a desktop in English', async () => {
    const { page, context, problems } = await signedIn(admin);
    await goto(page, '/admin/invite-codes');
    await page.getByRole('heading', { name: 'Codes' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'admin-invite-codes');
    expect(problems).toEqual([]);
    await context.close();
  });
});
