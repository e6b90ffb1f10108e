import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcToWall } from '../../web/src/features/organizer/event-form-time.js';
import type { TestApp } from '../helpers/harness.js';
import { launchBrowser, openPage, signInSession, startWebApp } from './browser-harness.js';

const PASSWORD = 'correct horse battery';
const DAY = 86_400_000;

/** The date and time inputs of one deadline, as the page shows them. */
async function shownWall(page: Page, group: string) {
  const box = page.getByRole('group', { name: group, exact: true });
  return { date: await box.getByLabel('Date').inputValue(), time: await box.getByLabel('Time').inputValue() };
}

/**
 * The editor keeps an event's deadlines where they are: it reopens in the event's own zone (not the
 * browser's), a new zone converts the digits (same instants), and a save sends only what was edited.
 */
describe('event editor time zone (SQLite)', () => {
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

  it('reopens in the event zone, converts on a new zone, and sends only the deadlines edited', async () => {
    const organizer = await t.user('organizer');
    // Instants with seconds the form cannot show: an untouched deadline must come back exactly.
    const minute = (ms: number) => Math.floor(ms / 60_000) * 60_000;
    const reg = new Date(minute(Date.now() + 5 * DAY) + 42_123).toISOString();
    const sub = new Date(minute(Date.now() + 9 * DAY) + 7_000).toISOString();
    const created = await t.api('POST', '/events', {
      key: organizer.key,
      body: { name: 'Zoned Hack', registration_deadline: reg, submission_deadline: sub, time_zone: 'Asia/Kolkata', status: 'draft' },
    });
    expect(created.status).toBe(201);
    expect(created.body.time_zone).toBe('Asia/Kolkata');
    const id = created.body.id as string;

    // The browser is in New York: the editor still opens in the event's zone, with its digits.
    const { page, context, problems } = await openPage(browser, { timezoneId: 'America/New_York' });
    page.setDefaultTimeout(8_000);
    const patches: Record<string, unknown>[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PATCH' && r.url().endsWith(`/api/v1/events/${id}`)) patches.push(r.postDataJSON() as Record<string, unknown>);
    });
    await signInSession(context, t.url, organizer.email, PASSWORD);
    await page.goto(`${t.url}/events/${id}/edit`);
    await page.getByRole('heading', { level: 1, name: 'Edit “Zoned Hack”' }).waitFor();
    expect(await page.getByLabel('Time zone').inputValue()).toBe('Asia/Kolkata');
    expect(await shownWall(page, 'Registration deadline')).toEqual(utcToWall(reg, 'Asia/Kolkata'));
    expect(await shownWall(page, 'Submission deadline')).toEqual(utcToWall(sub, 'Asia/Kolkata'));
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Nothing has changed.').waitFor();
    expect(patches).toEqual([]);

    // A new zone: the same instants in its digits.
    await page.getByLabel('Time zone').selectOption('America/Los_Angeles');
    expect(await shownWall(page, 'Registration deadline')).toEqual(utcToWall(reg, 'America/Los_Angeles'));
    expect(await shownWall(page, 'Submission deadline')).toEqual(utcToWall(sub, 'America/Los_Angeles'));
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    expect(patches).toEqual([{ time_zone: 'America/Los_Angeles' }]);
    const rezoned = await t.api('GET', `/events/${id}`, { key: organizer.key });
    expect(rezoned.body).toMatchObject({ time_zone: 'America/Los_Angeles', registration_deadline: reg, submission_deadline: sub });

    // Reopened: the zone picked, the same digits.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Edit “Zoned Hack”' }).waitFor();
    expect(await page.getByLabel('Time zone').inputValue()).toBe('America/Los_Angeles');
    expect(await shownWall(page, 'Registration deadline')).toEqual(utcToWall(reg, 'America/Los_Angeles'));
    expect(await shownWall(page, 'Submission deadline')).toEqual(utcToWall(sub, 'America/Los_Angeles'));

    // One deadline edited: only that one is sent and changes.
    const subWall = utcToWall(sub, 'America/Los_Angeles')!;
    const newSubTime = subWall.time === '23:00' ? '22:00' : '23:00';
    await page.getByRole('group', { name: 'Submission deadline', exact: true }).getByLabel('Time').fill(newSubTime);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    expect(patches.length).toBe(2);
    expect(Object.keys(patches[1]!)).toEqual(['submission_deadline']);
    const edited = await t.api('GET', `/events/${id}`, { key: organizer.key });
    expect(edited.body.registration_deadline).toBe(reg);
    expect(edited.body.time_zone).toBe('America/Los_Angeles');
    expect(utcToWall(edited.body.submission_deadline, 'America/Los_Angeles')).toEqual({ date: subWall.date, time: newSubTime });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('records the zone a new event is typed in', async () => {
    const organizer = await t.user('organizer');
    const { page, context, problems } = await openPage(browser, { timezoneId: 'Europe/Berlin' });
    page.setDefaultTimeout(8_000);
    await signInSession(context, t.url, organizer.email, PASSWORD);
    await page.goto(`${t.url}/events/new`);
    await page.getByLabel('Event name').fill('Berlin Hack');
    expect(await page.getByLabel('Time zone').inputValue()).toBe('Europe/Berlin');
    await page.getByLabel('Time zone').selectOption('Asia/Tokyo');
    const date = new Date(Date.now() + 10 * DAY).toISOString().slice(0, 10);
    for (const [group, time] of [
      ['Registration deadline', '09:00'],
      ['Submission deadline', '18:00'],
    ] as const) {
      const box = page.getByRole('group', { name: group, exact: true });
      await box.getByLabel('Date').fill(date);
      await box.getByLabel('Time').fill(time);
    }
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(/\/events\/evt_[0-9a-z]+$/);
    const id = new URL(page.url()).pathname.split('/')[2]!;
    const saved = await t.api('GET', `/events/${id}`, { key: organizer.key });
    expect(saved.body).toMatchObject({ time_zone: 'Asia/Tokyo', registration_deadline: `${date}T00:00:00.000Z`, submission_deadline: `${date}T09:00:00.000Z` });
    expect(problems).toEqual([]);
    await context.close();
  });
});
