import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedTeam, createEvent, type TestApp, type TestUser } from '../helpers/harness.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, signInSession, startWebApp } from './browser-harness.js';

const PASSWORD = 'correct horse battery';
const DAY = 86_400_000;

/**
 * Announcements on the web: the organizer composes one on the event's Announcements tab and sends
 * it (the list shows it sent, with its recipients) or schedules one and cancels it; a team member
 * reads it on the team page, Markdown rendered; moving a deadline in the editor offers "Tell the
 * teams?" with the change filled in. English and Chinese, phone and desktop.
 */
describe('announcements on the web (SQLite)', () => {
  let t: TestApp;
  let browser: Browser;
  let org: TestUser;
  let member: TestUser;
  let eventId: string;

  beforeAll(async () => {
    t = await startWebApp('sqlite', { REVIEW_WORKERS: 'false' });
    browser = await launchBrowser();
    org = await t.user('organizer');
    eventId = await createEvent(t, org.key, { name: 'News Hack', models: [], time_zone: 'Asia/Tokyo' });
    ({ team: member } = await approvedTeam(t, eventId, org.key, { team_name: 'Heron team' }));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('the organizer sends one and schedules and cancels another; the team member reads it on the team page', { timeout: 120_000 }, async () => {
    const { page, context, problems } = await openPage(browser, { timezoneId: 'Europe/Berlin' });
    page.setDefaultTimeout(10_000);
    await signInSession(context, t.url, org.email, PASSWORD);
    await page.goto(`${t.url}/events/${eventId}/announcements`);
    await settled(page);
    await page.getByText('No announcements yet.').waitFor();

    await page.getByLabel('Title').fill('Kick-off tonight');
    await page.getByLabel('Message').fill('We start at **19:00**.\n\n- bring a laptop\n- [rules](https://example.com/rules)');
    await page.getByLabel('Send to').selectOption('approved');
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByText('Sent to 1 person.').waitFor();
    const item = page.locator('.announcement-item').filter({ hasText: 'Kick-off tonight' });
    await item.getByText('Sent', { exact: true }).waitFor();
    await item.getByText('1 recipient').waitFor();
    expect(await item.locator('strong').textContent()).toBe('19:00');
    // The server's clock stands still unless moved: the next one is written a minute later.
    t.clock.advance(60_000);

    // One for later, in the event's zone (Tokyo), then cancelled.
    await page.getByLabel('Title').fill('Reminder');
    await page.getByLabel('Message').fill('Half time.');
    await page.getByLabel('Send later').check();
    await page.getByText('Times in Asia/Tokyo (UTC+09:00).').waitFor();
    const later = new Date(t.clock.now().getTime() + DAY + 9 * 3_600_000).toISOString();
    await page.getByLabel('Date').fill(later.slice(0, 10));
    await page.getByLabel('Time').fill('10:00');
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.getByText(/^Scheduled for /).waitFor();
    const scheduled = page.locator('.announcement-item').filter({ hasText: 'Reminder' });
    await scheduled.getByText('Scheduled', { exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'announcements-organizer');
    await scheduled.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel the announcement' }).click();
    await scheduled.getByText('Cancelled', { exact: true }).waitFor();
    const listed = (await t.api('GET', `/events/${eventId}/announcements`, { key: org.key })).body.announcements;
    expect(listed.map((a: { title: string; state: string }) => [a.title, a.state])).toEqual([
      ['Reminder', 'cancelled'],
      ['Kick-off tonight', 'published'],
    ]);
    expect(problems).toEqual([]);
    await context.close();

    for (const viewport of ['phone', 'desktop'] as const) {
      const m = await openPage(browser, { viewport });
      m.page.setDefaultTimeout(10_000);
      await signInSession(m.context, t.url, member.email, PASSWORD);
      await m.page.goto(`${t.url}/hackathons/${eventId}/team`);
      await settled(m.page);
      const section = m.page.getByRole('region', { name: 'Announcements' });
      await section.getByRole('heading', { name: 'Kick-off tonight' }).waitFor();
      expect(await section.getByText('Reminder').count()).toBe(0);
      expect(await section.locator('a[href="https://example.com/rules"]').count()).toBe(1);
      await expectAccessible(m.page);
      await screenshot(m.page, 'announcements-team-page');
      expect(m.problems).toEqual([]);
      await m.context.close();
    }
  });

  it('moving a deadline in the editor offers a prefilled announcement to the teams (zh, phone)', { timeout: 120_000 }, async () => {
    const { page, context, problems } = await openPage(browser, { locale: 'zh-CN', viewport: 'phone' });
    page.setDefaultTimeout(10_000);
    await signInSession(context, t.url, org.email, PASSWORD);
    t.clock.advance(60_000);
    await page.goto(`${t.url}/events/${eventId}/edit`);
    await settled(page);
    const submission = page.getByRole('group', { name: '提交截止时间' });
    const before = await submission.getByLabel('日期').inputValue();
    // A day later (a day earlier would meet the registration deadline).
    const moved = new Date(Date.parse(`${before}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
    await submission.getByLabel('日期').fill(moved);
    await page.getByRole('button', { name: '保存修改' }).click();
    const offer = page.getByRole('region', { name: '通知各团队？' });
    await offer.waitFor().catch(async (err: unknown) => {
      await screenshot(page, 'announcements-deadline-offer-failed');
      throw err;
    });
    expect(await offer.getByLabel('标题').inputValue()).toBe('截止时间已变更');
    const body = await offer.getByLabel('内容').inputValue();
    expect(body).toContain('主办方修改了 News Hack 的截止时间');
    expect(body).toContain('作品提交截止：~~');
    expect(body).not.toContain('报名截止');
    expect(body).toContain('时间按 Asia/Tokyo');
    expect(await offer.getByLabel('发送给').inputValue()).toBe('registered');
    await expectAccessible(page);
    await screenshot(page, 'announcements-deadline-offer-zh');
    // The offer alone, readable (the editor below it is long).
    await offer.screenshot({ path: 'test-output/screenshots/announcements-deadline-offer-zh-card-phone.png' });
    await offer.getByRole('button', { name: '立即发送' }).click();
    await offer.getByText('已发送给 1 人。').waitFor();
    const listed = (await t.api('GET', `/events/${eventId}/announcements`, { key: member.key })).body.announcements;
    expect(listed[0]).toMatchObject({ title: '截止时间已变更', segment: 'registered' });
    expect(listed[0].body_html).toContain('<s>');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a save that moves no deadline offers nothing (en, desktop)', { timeout: 60_000 }, async () => {
    const { page, context } = await openPage(browser);
    page.setDefaultTimeout(10_000);
    await signInSession(context, t.url, org.email, PASSWORD);
    await page.goto(`${t.url}/events/${eventId}/edit`);
    await settled(page);
    await page.getByLabel('Event name', { exact: true }).fill('News Hack 2');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    expect(await page.getByRole('region', { name: 'Tell the teams?' }).count()).toBe(0);
    await context.close();
  });
});
