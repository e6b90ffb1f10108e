import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/harness.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, signInSession, startWebApp } from './browser-harness.js';

const PASSWORD = 'correct horse battery';

/** YYYY-MM-DD of today + `days` (UTC), for deadlines typed into the form. */
function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

async function fillDeadline(page: Page, group: string, date: string, time: string) {
  const box = page.getByRole('group', { name: group, exact: true });
  await box.getByLabel('Date').fill(date);
  await box.getByLabel('Time').fill(time);
}

describe('organizer events pages (SQLite)', () => {
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

  /** A fresh context whose waits fail fast (a missing element is reported in seconds, not at the test timeout). */
  async function open(opts: Parameters<typeof openPage>[1] = {}) {
    const opened = await openPage(browser, opts);
    opened.page.setDefaultTimeout(8_000);
    return opened;
  }

  async function signIn(context: BrowserContext, user: { email: string }) {
    await signInSession(context, t.url, user.email, PASSWORD);
  }

  it('tells a plain user that the dashboard is not for them', async () => {
    const user = await t.user('user');
    const { page, context, problems } = await open();
    await signIn(context, user);
    await page.goto(`${t.url}/events`);
    await page.getByRole('heading', { level: 1, name: 'Not allowed' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('creates an event with tracks, weighted dimensions, a custom form and deadlines in a time zone; publishes it; lists it with counts', async () => {
    const organizer = await t.user('organizer');
    const { page, context, problems } = await open();
    await signIn(context, organizer);

    // A new organizer sees the steps, and the way to start.
    await page.goto(`${t.url}/events`);
    await page.getByRole('heading', { name: 'Run your first hackathon' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'events-list-empty-en');
    await page.getByRole('link', { name: 'Create your first event' }).click();
    await page.getByRole('heading', { level: 1, name: 'New event' }).waitFor();

    await page.getByLabel('Event name').fill('Monsoon Agents Hack');
    await page.getByLabel('Description').fill('Build agents that help farmers.');
    await page.getByText('31 / 10,000 characters').waitFor();

    // Deadlines in Iran (UTC+03:30, no DST): 09:00 and 18:30 there are 05:30 and 15:00 UTC.
    const regDate = dayFromNow(10);
    const subDate = dayFromNow(20);
    await page.getByLabel('Time zone').selectOption('Asia/Tehran');
    await fillDeadline(page, 'Registration deadline', regDate, '09:00');
    await fillDeadline(page, 'Submission deadline', subDate, '18:30');
    await page.getByText(`= ${regDate} 05:30 UTC`).waitFor();
    await page.getByText(`= ${subDate} 15:00 UTC`).waitFor();

    // Two tracks; the id follows the name until it is edited.
    await page.getByRole('button', { name: 'Add a track' }).click();
    const track1 = page.getByRole('group', { name: 'Track 1', exact: true });
    await track1.getByLabel('Name').fill('Developer tools');
    expect(await track1.getByLabel('ID').inputValue()).toBe('developer-tools');
    await track1.getByLabel('Prize').fill('$1000');
    await page.getByRole('button', { name: 'Add a track' }).click();
    const track2 = page.getByRole('group', { name: 'Track 2', exact: true });
    await track2.getByLabel('Name').fill('Open science');
    await track2.getByLabel('ID').fill('science');
    await track2.getByLabel('Prize').fill('$500');

    // Three dimensions, weights 3 : 2 : 1 -> 50 %, 33 %, 17 % (shown shares add up to 100).
    const dim = (n: number) => page.getByRole('group', { name: `Dimension ${n}`, exact: true });
    await dim(1).getByLabel('Name').fill('Impact');
    await dim(1).getByLabel('Weight').fill('3');
    await page.getByRole('button', { name: 'Add a dimension' }).click();
    await dim(2).getByLabel('Name').fill('Craft');
    await dim(2).getByLabel('Weight').fill('2');
    await page.getByRole('button', { name: 'Add a dimension' }).click();
    await dim(3).getByLabel('Name').fill('Novelty');
    await dim(3).getByLabel('Weight').fill('1');
    expect(await dim(1).locator('output').textContent()).toBe('50% of the score');
    expect(await dim(2).locator('output').textContent()).toBe('33% of the score');
    expect(await dim(3).locator('output').textContent()).toBe('17% of the score');

    // One AI judge.
    await page.getByRole('button', { name: 'Add a model' }).click();
    await page.getByRole('textbox', { name: 'Model 1', exact: true }).fill('openai/gpt-4o-mini');

    // The registration form: a required text question and an optional link.
    const q = (n: number) => page.getByRole('group', { name: `Question ${n}`, exact: true });
    await page.getByRole('button', { name: 'Add a question' }).click();
    await q(1).getByLabel('Label').fill('Project pitch');
    expect(await q(1).getByLabel('Key').inputValue()).toBe('project_pitch');
    await q(1).getByLabel('Required').check();
    await page.getByRole('button', { name: 'Add a question' }).click();
    await q(2).getByLabel('Label').fill('Demo link');
    await q(2).getByLabel('Type').selectOption('url');
    // Reorder: the link first, then back.
    await page.getByRole('button', { name: 'Move up: Question 2' }).click();
    expect(await q(1).getByLabel('Label').inputValue()).toBe('Demo link');
    await page.getByRole('button', { name: 'Move down: Question 1' }).click();
    expect(await q(1).getByLabel('Label').inputValue()).toBe('Project pitch');
    // The preview shows the form as a team sees it.
    const preview = page.getByRole('region', { name: 'Preview: what a team sees' });
    await preview.getByLabel('Project pitch (required)').waitFor();
    await preview.getByLabel('Demo link').waitFor();
    await preview.getByLabel('Track (required)').waitFor();

    await page.getByLabel('Approve teams automatically').check();
    // Teams of 2 to 4 people.
    const teamSize = page.getByRole('group', { name: 'Team size' });
    await teamSize.getByLabel('At least').fill('2');
    await teamSize.getByLabel('At most').fill('4');
    await screenshot(page, 'event-new-filled-en');

    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(/\/events\/evt_[0-9a-z]+$/);
    const id = new URL(page.url()).pathname.split('/')[2]!;

    const draft = await t.api('GET', `/events/${id}`, { key: organizer.key });
    expect(draft.status).toBe(200);
    expect(draft.body).toMatchObject({
      name: 'Monsoon Agents Hack',
      description: 'Build agents that help farmers.',
      status: 'draft',
      registration_deadline: `${regDate}T05:30:00.000Z`,
      submission_deadline: `${subDate}T15:00:00.000Z`,
      tracks: [
        { id: 'developer-tools', name: 'Developer tools', prize: '$1000' },
        { id: 'science', name: 'Open science', prize: '$500' },
      ],
      dimensions: [
        { name: 'Impact', weight: 3 },
        { name: 'Craft', weight: 2 },
        { name: 'Novelty', weight: 1 },
      ],
      models: ['openai/gpt-4o-mini'],
      registration_config: {
        open: true,
        auto_approve: true,
        fields: [
          { key: 'project_pitch', name: 'project_pitch', label: 'Project pitch', type: 'text', required: true },
          { key: 'demo_link', name: 'demo_link', label: 'Demo link', type: 'url', required: false },
        ],
        min_team_size: 2,
        max_team_size: 4,
      },
      co_organizers: [],
    });

    // Publish from the editor: the dialog says what happens first.
    await page.goto(`${t.url}/events/${id}/edit`);
    await page.getByRole('heading', { level: 1, name: 'Edit “Monsoon Agents Hack”' }).waitFor();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish this event?' });
    await dialog.getByText('registrations open until').waitFor();
    await dialog.getByRole('button', { name: 'Publish now' }).click();
    await page.getByText('Published: the event is open for registration.').waitFor();
    const published = await t.api('GET', `/events/${id}`, { key: organizer.key });
    expect(published.body.status).toBe('open');
    expect({ ...published.body, status: 'draft', updated_at: draft.body.updated_at }).toEqual(draft.body);

    // A team registers over the API with the custom form.
    const team = await t.user();
    const reg = await t.api('POST', `/events/${id}/register`, {
      key: team.key,
      body: { team_name: 'Rain Makers', track_id: 'science', fields: { project_pitch: 'Crop advice by SMS', demo_link: 'https://example.com/demo' } },
    });
    expect(reg.status).toBe(201);
    expect(reg.body.status).toBe('approved');

    // The list shows the event, its status and (where the server has /stats) its live counts.
    await page.goto(`${t.url}/events`);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Monsoon Agents Hack' }) });
    await card.getByText('Open', { exact: true }).waitFor();
    await settled(page);
    const stats = await t.api('GET', `/events/${id}/stats`, { key: organizer.key });
    const shown = await card.getByRole('list', { name: 'Registrations and projects' }).locator('strong').allTextContents();
    expect(shown).toEqual(stats.status === 200 ? ['0', '1', '0'] : []);
    // The status filter asks the server again.
    await page.getByLabel('Status').selectOption('draft');
    await page.getByText('No events with this status.').waitFor();
    await page.getByRole('button', { name: 'Show all events' }).click();
    await page.getByRole('heading', { name: 'Monsoon Agents Hack' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('puts the problems the server finds next to their fields and focuses the first', async () => {
    const organizer = await t.user('organizer');
    const { page, context, problems } = await open();
    await signIn(context, organizer);
    await page.goto(`${t.url}/events/new`);
    await page.getByLabel('Event name').fill('Late Hack');
    await page.getByLabel('Time zone').selectOption('UTC');

    // The form itself catches a submission deadline before the registration deadline.
    await fillDeadline(page, 'Registration deadline', dayFromNow(5), '12:00');
    await fillDeadline(page, 'Submission deadline', dayFromNow(4), '12:00');
    await page.getByRole('button', { name: 'Save draft' }).click();
    const sub = page.getByRole('group', { name: 'Submission deadline', exact: true });
    await sub.getByText('Must not be before the registration deadline.').waitFor();
    expect(await sub.getByLabel('Date').getAttribute('aria-invalid')).toBe('true');

    // The server refuses publishing with a past registration deadline and a co-organizer address it
    // does not take (no top-level domain: the form's own check lets it through). An address without
    // an account would be accepted: co-organizers are not looked up.
    await fillDeadline(page, 'Registration deadline', dayFromNow(-1), '12:00');
    await page.getByRole('button', { name: 'Add a co-organizer' }).click();
    await page.getByRole('textbox', { name: 'Co-organizer 1 e-mail', exact: true }).fill('ghost@localhost');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('dialog', { name: 'Publish this event?' }).getByRole('button', { name: 'Publish now' }).click();
    const reg = page.getByRole('group', { name: 'Registration deadline', exact: true });
    await reg.getByText(/must be in the future when the event is published/).waitFor();
    await page.getByText('must be one plain e-mail address (local@domain)').waitFor();
    expect(await page.getByRole('textbox', { name: 'Co-organizer 1 e-mail', exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await sub.getByLabel('Date').getAttribute('aria-invalid')).toBeNull();
    // Focus moves to the first invalid input: the registration date.
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('date');
    expect(await reg.getByLabel('Date').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByText('Some fields need attention; they are marked below.').waitFor();
    const list = await t.api('GET', '/events?mine=true', { key: organizer.key });
    expect(list.body).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('edits an event and sends only what changed; cancels it after a confirmation', async () => {
    const organizer = await t.user('organizer');
    const co = await t.user('organizer');
    const created = await t.api('POST', '/events', {
      key: organizer.key,
      body: {
        name: 'Edit Me',
        registration_deadline: new Date(Date.now() + 5 * 86_400_000).toISOString(),
        submission_deadline: new Date(Date.now() + 9 * 86_400_000).toISOString(),
        tracks: [{ id: 'tools', name: 'Tools', prize: '$1' }],
        dimensions: [{ name: 'overall', weight: 1 }],
        co_organizers: [co.email],
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const { page, context, problems } = await open();
    await signIn(context, organizer);
    await page.goto(`${t.url}/events/${id}/edit`);
    expect(await page.getByRole('textbox', { name: 'Co-organizer 1 e-mail', exact: true }).inputValue()).toBe(co.email);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Nothing has changed.').waitFor();
    await page.getByLabel('Event name').fill('Edited');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    const after = await t.api('GET', `/events/${id}`, { key: organizer.key });
    // The event had no zone: the one its deadlines were shown in (the browser's) is recorded with the change.
    const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect({ ...after.body, updated_at: created.body.updated_at }).toEqual({ ...created.body, name: 'Edited', time_zone: browserZone });

    await page.getByRole('button', { name: 'Cancel event' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this event?' });
    await dialog.getByText('This cannot be undone.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel the event' }).click();
    await page.getByText('The event is cancelled.').waitFor();
    expect((await t.api('GET', `/events/${id}`, { key: organizer.key })).body.status).toBe('cancelled');
    expect(await page.getByLabel('Event name').isDisabled()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  for (const locale of ['en', 'zh-CN'] as const) {
    for (const viewport of ['phone', 'desktop'] as const) {
      it(`draws the list, new and edit pages accessibly in ${locale} on a ${viewport}`, async () => {
        const organizer = await t.user('organizer');
        const created = await t.api('POST', '/events', {
          key: organizer.key,
          body: {
            name: locale === 'en' ? 'Harbour Hack' : '港口黑客松',
            description: 'Tools for ports.',
            registration_deadline: new Date(Date.now() + 5 * 86_400_000).toISOString(),
            submission_deadline: new Date(Date.now() + 9 * 86_400_000).toISOString(),
            tracks: [{ id: 'tools', name: 'Tools', prize: '$1000' }],
            dimensions: [
              { name: 'impact', weight: 2 },
              { name: 'craft', weight: 1 },
            ],
            models: ['openai/gpt-4o-mini'],
            registration_config: { fields: [{ key: 'repo', label: 'Repository', type: 'url', required: true }] },
          },
        });
        expect(created.status).toBe(201);
        await t.api('POST', '/events', {
          key: organizer.key,
          body: { name: 'Draft', status: 'draft', registration_deadline: '2031-01-01T00:00:00Z', submission_deadline: '2031-02-01T00:00:00Z' },
        });
        const { page, context, problems } = await open({ locale, viewport });
        await signIn(context, organizer);
        for (const [name, path] of [
          ['events-list', '/events'],
          ['event-new', '/events/new'],
          ['event-edit', `/events/${created.body.id}/edit`],
        ] as const) {
          await page.goto(`${t.url}${path}`);
          await page.getByRole('heading', { level: 1 }).waitFor();
          await settled(page);
          await expectAccessible(page);
          await screenshot(page, `${name}-${locale}`);
        }
        expect(problems).toEqual([]);
        await context.close();
      });
    }
  }
});
