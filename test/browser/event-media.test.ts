import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedTeam, createEvent, type TestApp, type TestUser } from '../helpers/harness.js';
import { tinyPng } from '../helpers/images.js';
import { PASSWORD } from '../helpers/web-session.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, signInSession, startWebApp } from './browser-harness.js';

/** Whether an <img> has loaded and drawn (a blocked or broken image has no natural width). */
const drawn = (el: SVGElement | HTMLElement) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0;

/** An organizer uploads a cover and a logo in the event editor; the event page and the home card show them. */
describe('event cover image and logo (SQLite)', () => {
  let t: TestApp;
  let browser: Browser;
  let organizer: TestUser;
  beforeAll(async () => {
    t = await startWebApp('sqlite', { REVIEW_WORKERS: 'false' });
    browser = await launchBrowser();
    organizer = await t.user('organizer');
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows the cover and logo atop the gallery once it is open (en desktop, zh-CN phone)', async () => {
    const id = await createEvent(t, organizer.key, { name: 'Gallery pictures', models: [] });
    const { team } = await approvedTeam(t, id, organizer.key, { team_name: 'Owls', track_id: 'tools' });
    const sub = await t.api('POST', `/events/${id}/submit`, { key: team.key, body: { project_name: 'Owl CLI', github_url: 'https://github.com/owls/cli' } });
    expect(sub.status).toBe(201);
    for (const [kind, img] of [
      ['cover', tinyPng(120, 63, [20, 140, 90])],
      ['logo', tinyPng(16, 16, [200, 40, 90])],
    ] as const) {
      const res = await fetch(`${t.url}/api/v1/events/${id}/media/${kind}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${organizer.key}`, 'content-type': 'image/png' },
        body: new Uint8Array(img),
      });
      expect(res.status).toBe(200);
    }
    t.clock.advance(3 * 86_400_000);
    for (const [locale, viewport] of [
      ['en', 'desktop'],
      ['zh-CN', 'phone'],
    ] as const) {
      const { page, context, problems } = await openPage(browser, { locale, viewport });
      page.setDefaultTimeout(10_000);
      await page.goto(`${t.url}/hackathons/${id}/gallery`);
      await settled(page);
      await page.getByRole('link', { name: 'Owl CLI' }).first().waitFor();
      await expect(page.locator('.event-cover img').evaluate(drawn)).resolves.toBe(true);
      await expect(page.locator('.page-header .event-logo').evaluate(drawn)).resolves.toBe(true);
      await expectAccessible(page);
      await screenshot(page, `event-media-gallery-${locale}`);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  for (const [locale, viewport] of [
    ['en', 'desktop'],
    ['zh-CN', 'phone'],
    ['en', 'phone'],
    ['zh-CN', 'desktop'],
  ] as const) {
    it(`uploads, previews, refuses a fake image, and shows them on the event page and home card (${locale}, ${viewport})`, async () => {
      const eventId = await createEvent(t, organizer.key, { name: `Pictures ${locale} ${viewport}` });
      const { page, context, problems } = await openPage(browser, { locale, viewport });
      page.setDefaultTimeout(10_000);
      await signInSession(context, t.url, organizer.email, PASSWORD);
      await page.goto(`${t.url}/events/${eventId}/edit`);
      await settled(page);
      await page.locator('#ev-media').waitFor();

      // A text file named .png is refused, and the page says so in its language.
      await page.getByTestId('media-input-cover').setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') });
      const alert = page.locator('.event-media-cover [role="alert"]');
      await alert.waitFor();
      // English shows the server's own sentence; Chinese the page's translation of the code.
      await expect(alert.textContent()).resolves.toMatch(locale === 'en' ? /not a PNG, JPEG or WebP image/ : /^只接受 PNG、JPEG 和 WebP 图片。$/);

      await page.getByTestId('media-input-cover').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: tinyPng(120, 63, [59, 59, 214]) });
      await page.getByTestId('media-preview-cover').waitFor();
      await page.getByTestId('media-input-logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: tinyPng(32, 32, [255, 159, 26]) });
      await page.getByTestId('media-preview-logo').waitFor();
      await expect(alert.count()).resolves.toBe(0);
      await expect(page.getByTestId('media-preview-cover').evaluate(drawn)).resolves.toBe(true);
      await expectAccessible(page);
      await screenshot(page, `event-media-editor-${locale}`);

      // The public event page: the cover above the title, the logo beside it.
      await page.goto(`${t.url}/hackathons/${eventId}`);
      await settled(page);
      await expect(page.locator('.event-page .event-cover img').evaluate(drawn)).resolves.toBe(true);
      await expect(page.locator('.event-page .page-header .event-logo').evaluate(drawn)).resolves.toBe(true);
      await expectAccessible(page);
      await screenshot(page, `event-media-page-${locale}`);

      // The home card.
      await page.goto(`${t.url}/`);
      await settled(page);
      const card = page.locator('.event-card', { hasText: `Pictures ${locale} ${viewport}` });
      await expect(card.locator('.event-card-cover img').evaluate(drawn)).resolves.toBe(true);
      await expect(card.locator('.event-card-logo').evaluate(drawn)).resolves.toBe(true);
      await card.scrollIntoViewIfNeeded();
      await expectAccessible(page);
      await screenshot(page, `event-media-home-${locale}`);

      // Removing the logo takes it off the page.
      await page.goto(`${t.url}/events/${eventId}/edit`);
      await settled(page);
      await page
        .locator('.event-media-logo')
        .getByRole('button', { name: locale === 'en' ? 'Remove' : '移除' })
        .click();
      await page
        .locator('.event-media-logo')
        .getByText(locale === 'en' ? 'None yet.' : '尚未上传。')
        .waitFor();
      const event = await t.api('GET', `/events/${eventId}`);
      expect(event.body.logo_url).toBeNull();
      expect(event.body.cover_url).not.toBeNull();
      expect(problems.filter((p) => !p.includes('415'))).toEqual([]);
      await context.close();
    });
  }
});
