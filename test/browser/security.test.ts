import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/harness.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, signInSession, startWebApp } from './browser-harness.js';

const PASSWORD = 'correct horse battery';

/**
 * A page on another origin (another port of 127.0.0.1: the same *site*, so SameSite=Lax still sends
 * the cookie, which leaves the Origin check and the CSRF token as the only defence).
 */
function attackerSite(target: string): Promise<{ server: Server; url: string }> {
  const html = `<!doctype html><html lang="en"><head><title>Win a prize</title></head><body>
<form method="post" action="${target}/api/v1/api-keys" enctype="text/plain">
<input type="hidden" name='{"name":"stolen","x":"' value='"}'><button type="submit">Claim</button></form></body></html>`;
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })),
  );
}

describe('web security in a real browser (SQLite)', () => {
  let t: TestApp;
  let browser: Browser;
  let attacker: { server: Server; url: string };
  beforeAll(async () => {
    t = await startWebApp('sqlite');
    browser = await launchBrowser();
    attacker = await attackerSite(t.url);
  });
  afterAll(async () => {
    attacker?.server.close();
    await browser?.close();
    await t?.close();
  });

  it('a cross-origin form post carrying the session cookie is refused, while the app itself may write', async () => {
    const user = await t.user('user');
    const { context, page } = await openPage(browser);
    await signInSession(context, t.url, user.email, PASSWORD);

    await page.goto(attacker.url);
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${t.url}/api/v1/api-keys`),
      page.getByRole('button', { name: 'Claim' }).click(),
    ]);
    expect(answer.status()).toBe(403);
    expect((await answer.json()).code).toBe('csrf_failed');
    expect(answer.request().headers().cookie ?? (await answer.request().allHeaders()).cookie).toContain('hk_session=');

    // The same write from the app's own pages (its origin, its token) goes through.
    await page.goto(`${t.url}/hackathons/none/x/y`);
    const status = await page.evaluate(async () => {
      const session = await (await fetch('/api/v1/auth/session')).json();
      const res = await fetch('/api/v1/api-keys', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token },
        body: JSON.stringify({ name: 'from the app' }),
      });
      return res.status;
    });
    expect(status).toBe(201);
    const keys = await t.api('GET', '/api-keys', { key: user.key });
    expect(keys.body.map((k: { name: string }) => k.name).sort()).toEqual(['default', 'from the app']);
    await context.close();
  });

  for (const [path, role] of [
    ['/events', 'user'],
    ['/events/new', 'user'],
    ['/admin', 'user'],
    ['/admin', 'organizer'],
  ] as const) {
    it(`a ${role} opening ${path} is told it is not allowed`, async () => {
      const person = await t.user(role);
      const { context, page, problems } = await openPage(browser);
      await signInSession(context, t.url, person.email, PASSWORD);
      await page.goto(`${t.url}${path}`);
      await page.getByRole('heading', { level: 1, name: 'Not allowed' }).waitFor();
      await expectAccessible(page);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it('a signed-out visitor of a private page is sent to sign in, with the way back', async () => {
    const { context, page } = await openPage(browser, { locale: 'zh-CN', viewport: 'phone' });
    await page.goto(`${t.url}/api-keys`);
    await page.waitForURL(`${t.url}/signin?next=%2Fapi-keys`);
    await settled(page);
    await screenshot(page, 'redirect-to-signin-zh');
    await context.close();
  });
});
