import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedTeam, createEvent, type TestApp, type TestUser } from '../helpers/harness.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, signInSession, startWebApp } from './browser-harness.js';

const PASSWORD = 'correct horse battery';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The organizer runs the people's choice on the web: turns the vote on with its closing time typed
 * in the event's zone, sees the counts only organizers see (per project and per hour) as people
 * vote, and takes a project out of the vote (its votes stop counting). Phone and desktop, en and zh.
 */
describe("organizer's people's choice tab (SQLite)", () => {
  let t: TestApp;
  let browser: Browser;
  let org: TestUser;
  let eventId: string;
  const projects: Record<string, string> = {};
  let deadline: number;
  /** An instant as Tokyo's wall date and time, as the form takes them. */
  const tokyo = (ms: number) => {
    const [date, time] = new Date(ms + 9 * HOUR).toISOString().slice(0, 16).split('T') as [string, string];
    return { date, time };
  };

  beforeAll(async () => {
    t = await startWebApp('sqlite', { REVIEW_WORKERS: 'false' });
    browser = await launchBrowser();
    org = await t.user('organizer');
    // Deadlines read in Asia/Tokyo (UTC+9, no DST).
    eventId = await createEvent(t, org.key, { name: 'Vote Hack', models: [], time_zone: 'Asia/Tokyo' });
    for (const name of ['Heron', 'Ibis', 'Jacana']) {
      const { team } = await approvedTeam(t, eventId, org.key, { team_name: `${name} team`, track_id: 'tools' });
      const res = await t.api<any>('POST', `/events/${eventId}/submit`, {
        key: team.key,
        body: { project_name: name, github_url: `https://github.com/example/${name}` },
      });
      expect(res.status).toBe(201);
      projects[name] = res.body.id;
    }
    deadline = Date.parse((await t.api<any>('GET', `/events/${eventId}`, { key: org.key })).body.submission_deadline);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('turns the vote on, shows the live tally and takes a project out of the vote', { timeout: 120_000 }, async () => {
    const { page, context, problems } = await openPage(browser, { timezoneId: 'Europe/Berlin' });
    page.setDefaultTimeout(10_000);
    await signInSession(context, t.url, org.email, PASSWORD);
    await page.goto(`${t.url}/events/${eventId}/voting`);
    await settled(page);
    await page.getByText("This event runs no people's choice vote.").waitFor();
    await page.getByText('Times in Asia/Tokyo (UTC+09:00).').waitFor();

    // A closing time before the opening is the server's to refuse, shown at the field.
    await page.getByRole('checkbox', { name: "Run a people's choice vote" }).check();
    const closes = page.getByRole('group', { name: 'Voting closes' });
    const early = tokyo(deadline - HOUR);
    await closes.getByLabel('Date').fill(early.date);
    await closes.getByLabel('Time').fill(early.time);
    await page.getByRole('button', { name: 'Save the settings' }).click();
    await closes.getByText('must be after the voting opens').waitFor();

    // Closing two days after the deadline (typed in Tokyo time); two votes per person in each track.
    const late = tokyo(deadline + 2 * DAY);
    await closes.getByLabel('Date').fill(late.date);
    await closes.getByLabel('Time').fill(late.time);
    await page.getByRole('spinbutton', { name: 'Votes per person' }).fill('2');
    await page.getByRole('button', { name: 'Save the settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const stored = await t.api<any>('GET', `/events/${eventId}`, { key: org.key });
    expect(stored.body.voting).toMatchObject({
      enabled: true,
      closes_at: new Date(Math.floor((deadline + 2 * DAY) / 60_000) * 60_000).toISOString(),
      opens_at: new Date(deadline).toISOString(),
      votes_per_person: 2,
      per_track: true,
    });

    // People vote once the window opens (an hour after the deadline).
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'judging' } })).status).toBe(200);
    t.clock.set(deadline + HOUR);
    const voters: TestUser[] = [];
    for (const [i, name] of ['Heron', 'Heron', 'Ibis', 'Jacana'].entries()) {
      const voter = await t.user(undefined, `voter${i}@example.com`);
      voters.push(voter);
      expect((await t.api('POST', `/events/${eventId}/gallery/${projects[name]}/vote`, { key: voter.key })).status).toBe(201);
    }
    // An admin disables Jacana's only voter: that vote stays stored and is not counted.
    const admin = await t.user('admin');
    expect((await t.api('PATCH', `/admin/users/${voters[3]!.id}`, { key: admin.key, body: { disabled: true } })).status).toBe(200);
    await page.reload();
    await settled(page);
    const table = page.getByRole('table');
    const row = (name: string) => table.getByRole('row', { name: new RegExp(`^\\S+ ${name} `) });
    await expect.poll(() => row('Heron').getByRole('cell').allTextContents()).toEqual(['1', 'Heron team', 'Developer tools', '2', '0', 'Take out']);
    await expect(row('Ibis').getByRole('cell').allTextContents()).resolves.toEqual(['2', 'Ibis team', 'Developer tools', '1', '0', 'Take out']);
    // Jacana's vote was cast and is not counted, and the organizer reads why.
    await expect(row('Jacana').getByRole('cell').allTextContents()).resolves.toEqual([
      '–',
      'Jacana team',
      'Developer tools',
      '0',
      '1Disabled accounts: 1',
      'Take out',
    ]);
    await page.getByText('Voting is open').waitFor();
    // Votes cast, counted, not counted, voters.
    await expect(page.locator('.voting-figure').allTextContents()).resolves.toEqual(['4', '3', '1', '4']);
    const byReason = page.getByRole('region', { name: 'Not counted, by reason' });
    await expect(byReason.getByRole('listitem').allTextContents()).resolves.toEqual(['Disabled accounts: 1']);
    const hour = new Date(deadline + HOUR).toISOString().slice(0, 13).replace('T', ' ');
    await expect(page.locator('.voting-hours li').allTextContents()).resolves.toEqual([`${hour}:004`]);
    await expectAccessible(page);
    await screenshot(page, 'organizer-voting-en');

    // Heron out of the vote: its votes stop counting, Ibis leads.
    await page.getByRole('button', { name: 'Take out Heron from the vote' }).click();
    await expect
      .poll(() => row('Heron').getByRole('cell').allTextContents())
      .toEqual(['–', 'Heron team', 'Developer tools', 'Out of the vote', '2Project taken out: 2', 'Put back']);
    await expect(byReason.getByRole('listitem').allTextContents()).resolves.toEqual(['Project taken out: 2', 'Disabled accounts: 1']);
    await expect(row('Ibis').getByRole('cell').first().textContent()).resolves.toBe('1');
    const tally = await t.api<any>('GET', `/events/${eventId}/votes`, { key: org.key });
    expect(tally.body.projects.find((p: { project_id: string }) => p.project_id === projects.Heron)).toMatchObject({ excluded: true, votes: null });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('reads in Chinese at phone width', async () => {
    const { page, context, problems } = await openPage(browser, { locale: 'zh-CN', viewport: 'phone' });
    page.setDefaultTimeout(10_000);
    await signInSession(context, t.url, org.email, PASSWORD);
    await page.goto(`${t.url}/events/${eventId}/voting`);
    await settled(page);
    await page.getByRole('heading', { name: '当前票数' }).waitFor();
    await page.getByText('投票进行中').waitFor();
    const byReason = page.getByRole('region', { name: '不计入的票（按原因）' });
    await expect(byReason.getByRole('listitem').allTextContents()).resolves.toEqual(['作品已移出投票：2', '已停用的账户：1']);
    await expectAccessible(page);
    await screenshot(page, 'organizer-voting-zh');
    expect(problems).toEqual([]);
    await context.close();
  });
});
