import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, type TestApp } from '../helpers/harness.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, startWebApp } from './browser-harness.js';

const DESCRIPTION = [
  '# What to build',
  '',
  'Tools that **agents** love. Rules: https://example.com/rules',
  '',
  '- one repository per team',
  '- a demo video of at most *three* minutes',
  '',
  '| Prize | Amount |',
  '|---|---:|',
  '| First | $1000 |',
  '',
  '<img src=x onerror="window.__xss = 1"> [click](javascript:window.__xss=2)',
].join('\n');

/** The operator's SITE_NAME on every page, and an organizer's Markdown description rendered safely on the event page. */
describe('site name and Markdown descriptions (SQLite)', () => {
  let t: TestApp;
  let browser: Browser;
  let eventId: string;
  beforeAll(async () => {
    t = await startWebApp('sqlite', { SITE_NAME: 'Campus Hack Days', REVIEW_WORKERS: 'false' });
    browser = await launchBrowser();
    const org = await t.user('organizer');
    eventId = await createEvent(t, org.key, { name: 'Agents Week', description: DESCRIPTION });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  for (const [locale, viewport] of [
    ['en', 'desktop'],
    ['zh-CN', 'phone'],
  ] as const) {
    it(`renders the description as Markdown with safe links and names the site (${locale}, ${viewport})`, async () => {
      const { page, context, problems } = await openPage(browser, { locale, viewport });
      await page.goto(`${t.url}/hackathons/${eventId}`);
      await settled(page);
      const description = page.locator('.description');
      await description.getByRole('heading', { level: 3, name: 'What to build' }).waitFor();
      await expect(description.locator('strong').textContent()).resolves.toBe('agents');
      const link = description.getByRole('link', { name: 'https://example.com/rules' });
      await expect(link.getAttribute('href')).resolves.toBe('https://example.com/rules');
      await expect(link.getAttribute('rel')).resolves.toBe('noopener nofollow ugc');
      await expect(description.getByRole('listitem').count()).resolves.toBe(2);
      await expect(description.getByRole('cell', { name: '$1000' }).count()).resolves.toBe(1);
      // The raw HTML is shown as text and the javascript: link is not a link: nothing ran.
      await expect(description.locator('img').count()).resolves.toBe(0);
      await expect(description.getByRole('link', { name: 'click' }).count()).resolves.toBe(0);
      await expect(page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).resolves.toBeUndefined();

      // SITE_NAME in the header, the footer and the title, in every language.
      await page.locator('.site-header .brand').getByText('Campus Hack Days').waitFor();
      await page.locator('.site-footer').getByText('Campus Hack Days').waitFor();
      await expect(page.title()).resolves.toBe('Agents Week · Campus Hack Days');
      await expectAccessible(page);
      await screenshot(page, `event-markdown-${locale}`);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it('shows the plain text, not the Markdown marks, on the home cards', async () => {
    const { page, context, problems } = await openPage(browser);
    await page.goto(`${t.url}/`);
    await settled(page);
    const card = page.locator('.event-card-text').first();
    await expect(card.textContent()).resolves.toMatch(/^What to build Tools that agents love\./);
    await expect(page.title()).resolves.toContain('Campus Hack Days');
    expect(problems).toEqual([]);
    await context.close();
  });
});
