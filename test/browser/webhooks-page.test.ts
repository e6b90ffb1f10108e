import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from '../helpers/harness.js';
import { startReceiver, verifySignature } from '../helpers/webhook-receiver.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, signInSession, startWebApp } from './browser-harness.js';

const PASSWORD = 'correct horse battery';

/**
 * The webhooks page, as an organizer or a team uses it: add an endpoint (the secret shown once),
 * send a test message that a local receiver gets signed, read the delivery, delete the endpoint.
 * Loopback endpoints are allowed here only because the operator setting says so.
 */
describe('Webhooks page (SQLite)', () => {
  let t: TestApp;
  let browser: Browser;
  let user: TestUser;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    t = await startWebApp('sqlite', { WEBHOOKS_ALLOW_LOOPBACK: 'true', WEBHOOKS_POLL_MS: '50' });
    browser = await launchBrowser();
    receiver = await startReceiver();
    const created = await t.ctx.accounts.createUser({ email: `hooks-${Date.now()}@example.com`, password: PASSWORD, role: 'user' });
    user = { id: created.id, email: created.email, role: created.role, key: '' };
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
  });

  it('adds an endpoint with its secret shown once, sends a signed test message, lists the delivery and deletes the endpoint', async () => {
    const { page, context, problems } = await openPage(browser);
    await signInSession(context, t.url, user.email, PASSWORD);
    await page.goto(`${t.url}/webhooks`);
    await settled(page);
    await page.getByText('No webhooks yet').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'webhooks-empty');

    // No event kind picked: the page says so and creates nothing.
    await page.getByLabel('Endpoint URL').fill(receiver.url('/hook'));
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText('Pick at least one event.').waitFor();
    await expect(page.getByRole('article').count()).resolves.toBe(0);

    await page.getByRole('checkbox', { name: 'registration.created' }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('heading', { name: 'Endpoint added' }).waitFor();
    await page.getByText('it will not be shown again').waitFor();
    await page.getByRole('button', { name: 'Copy secret' }).click();
    const secret = await page.evaluate(() => navigator.clipboard.readText());
    expect(secret).toMatch(/^whsec_/);
    await expectAccessible(page);
    await screenshot(page, 'webhooks-created');
    await page.getByRole('button', { name: 'I have stored it' }).click();

    const card = page.getByRole('article', { name: receiver.url('/hook') });
    await card.getByText('Enabled').waitFor();
    await card.getByRole('button', { name: 'Send test' }).click();
    await page.getByText('Test message queued.').waitFor();
    await receiver.until((all) => all.length === 1);
    expect(verifySignature(secret, receiver.received[0]!)).toBe(true);

    // Sending a test opens the deliveries, which follow the delivery until it is done.
    await card.locator('td', { hasText: /^200$/ }).waitFor();
    await expect(card.locator('td', { hasText: /^delivered$/ }).count()).resolves.toBe(1);
    await screenshot(page, 'webhooks-deliveries');

    await card.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete this endpoint?' }).getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByText('No webhooks yet').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('reads in Chinese on a phone, accessibly', async () => {
    const { page, context, problems } = await openPage(browser, { locale: 'zh-CN', viewport: 'phone' });
    await signInSession(context, t.url, user.email, PASSWORD);
    await page.goto(`${t.url}/webhooks`);
    await settled(page);
    await page.getByRole('heading', { name: 'Webhook 订阅' }).waitFor();
    await page.getByText('还没有 Webhook').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'webhooks-empty-zh');
    expect(problems).toEqual([]);
    await context.close();
  });
});
