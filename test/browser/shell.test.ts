import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/harness.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, startWebApp } from './browser-harness.js';

describe('web app shell (SQLite)', () => {
  let t: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    t = await startWebApp('sqlite');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('serves the pages from the API process with a strict CSP and no inline script', async () => {
    const res = await t.request('GET', '/events');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    // An unknown path: a browser's navigation gets the app (which draws "not found") with 404;
    // an API client, or anything under /api/, gets problem+json.
    const browserNav = await t.request('GET', '/no/such/page', { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(browserNav.status).toBe(404);
    expect(browserNav.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(browserNav.headers.get('content-security-policy')).toContain("script-src 'self'");
    const client = await t.request('GET', '/no/such/page');
    expect(client.status).toBe(404);
    expect(client.body.code).toBe('not_found');
    const apiNav = await t.request('GET', '/api/v1/nope', { headers: { accept: 'text/html' } });
    expect(apiNav.status).toBe(404);
    expect(apiNav.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    // The API keeps its own answers beside the pages.
    const api = await t.request('GET', '/api/v1/nope');
    expect(api.status).toBe(404);
    expect(api.body.code).toBe('not_found');
  });

  it('an anonymous load of the home page logs no console error: the session probe answers 200 "signed out"', async () => {
    const { page, context } = await openPage(browser);
    // Every console error, 4xx resource failures included (the shared harness lets those pass).
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    const failed: string[] = [];
    page.on('response', (res) => {
      if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
    });
    const probe = page.waitForResponse((res) => res.url().endsWith('/api/v1/auth/status'));
    await page.goto(`${t.url}/`);
    const answer = await probe;
    await settled(page);
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toEqual({ signed_in: false, awaiting_confirmation: false, user: null, csrf_token: null, session: null, via: null });
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
    // Signed out, the page offers sign-in.
    await expect(
      page
        .getByRole('link', { name: /sign in/i })
        .first()
        .isVisible(),
    ).resolves.toBe(true);
    await context.close();
  });

  for (const locale of ['en', 'zh-CN'] as const) {
    it(`draws an unknown page as "not found" in ${locale}, accessibly`, async () => {
      const { page, context, problems } = await openPage(browser, { locale });
      await page.goto(`${t.url}/hackathons/x/y/z`);
      await settled(page);
      const heading = await page.getByRole('heading', { level: 1 }).textContent();
      expect(heading).toBe(locale === 'en' ? 'Page not found' : '页面不存在');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale);
      await expectAccessible(page);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it('lets a person switch the language and keeps the choice', async () => {
    const { page, context } = await openPage(browser, { locale: 'en', viewport: 'phone' });
    await page.goto(`${t.url}/hackathons/a/b/c`);
    await settled(page);
    await page.getByText('Menu').click();
    await page.locator('.nav-mobile').getByLabel('Language').selectOption('zh-CN');
    await page.getByRole('heading', { name: '页面不存在' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: '页面不存在' }).waitFor();
    await screenshot(page, 'not-found-zh');
    await context.close();
  });
});
