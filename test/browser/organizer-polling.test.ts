import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, type TestApp, type TestUser } from '../helpers/harness.js';
import { launchBrowser, openPage, settled, signInSession, startWebApp } from './browser-harness.js';

const PASSWORD = 'correct horse battery';

/**
 * The organizer's tabs poll every 5 s while an event can still change, and stop once it is final
 * (ended or cancelled). The page's clock is Playwright's: time moves only when the test says so, so
 * "no request in a minute" is a minute of the page's timers, not of waiting.
 */
describe('organizer polling stops for final events (SQLite)', () => {
  let t: TestApp;
  let browser: Browser;
  let org: TestUser;
  beforeAll(async () => {
    t = await startWebApp('sqlite', { REVIEW_WORKERS: 'false' });
    browser = await launchBrowser();
    org = await t.user('organizer');
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A signed-in organizer page on a fake clock, recording the API reads of event `id`. */
  async function openWatched(id: string) {
    const opened = await openPage(browser);
    opened.page.setDefaultTimeout(10_000);
    await opened.page.clock.install();
    await signInSession(opened.context, t.url, org.email, PASSWORD);
    const reads: string[] = [];
    opened.page.on('request', (r: Request) => {
      const path = new URL(r.url()).pathname;
      if (r.method() === 'GET' && path.startsWith(`/api/v1/events/${id}`)) reads.push(path.slice(`/api/v1/events/${id}`.length) || '/');
    });
    return { ...opened, reads };
  }

  /** Moves the page's clock by `ms`, then waits for what that started to finish. */
  async function advance(page: Page, ms: number) {
    await page.clock.runFor(ms);
    await settled(page);
  }

  it('polls an open event, and stops as soon as it is cancelled', async () => {
    const id = await createEvent(t, org.key, { name: 'Polled Hack', models: [] });
    const { page, context, reads, problems } = await openWatched(id);
    await page.goto(`${t.url}/events/${id}`);
    await page.getByRole('heading', { level: 1, name: 'Polled Hack' }).waitFor();
    await settled(page);

    // While it is open: every 5 s, the event and its counts again.
    let before = reads.length;
    const asked = page.waitForRequest((r) => r.url().endsWith(`/events/${id}/stats`));
    await advance(page, 5_100);
    await asked;
    expect(reads.slice(before)).toEqual(expect.arrayContaining(['/', '/stats']));

    // Cancelled elsewhere: the next poll sees it, and then nothing more is asked.
    expect((await t.api('PATCH', `/events/${id}`, { key: org.key, body: { status: 'cancelled' } })).status).toBe(200);
    await advance(page, 5_100);
    await page.getByText('Final figures: the event is over, so this page no longer updates.').waitFor();
    await advance(page, 100);
    before = reads.length;
    for (let i = 0; i < 12; i++) await advance(page, 5_000);
    expect(reads.slice(before)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('never polls the tabs of an ended event', async () => {
    const id = await createEvent(t, org.key, { name: 'Ended Hack', models: [] });
    expect((await t.api('PATCH', `/events/${id}`, { key: org.key, body: { status: 'judging' } })).status).toBe(200);
    const published = await t.api('POST', `/events/${id}/results/publish`, { key: org.key });
    expect(published.status, published.text).toBe(200);
    const { page, context, reads, problems } = await openWatched(id);
    for (const tab of ['leaderboard', 'registrations', 'reviewers', 'overview']) {
      await page.goto(`${t.url}/events/${id}/${tab}`);
      await page.getByText('Final figures: the event is over, so this page no longer updates.').waitFor();
      await settled(page);
      const before = reads.length;
      expect(before).toBeGreaterThan(0);
      for (let i = 0; i < 12; i++) await advance(page, 5_000);
      expect(reads.slice(before), tab).toEqual([]);
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});
