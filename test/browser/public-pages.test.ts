import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { approvedTeam, createEvent, type TestApp, type TestUser } from '../helpers/harness.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, startWebApp } from './browser-harness.js';

/**
 * The public pages over a real server: home with its status filters, an event page, a published
 * result and one not yet published. Events are moved forward with PATCH (not the clock), so the
 * browser's "now" and the server's stay the same; reviews are inserted as rows like the API tests do.
 */
describe('public pages (SQLite)', () => {
  let t: TestApp;
  let browser: Browser;
  let org: TestUser;
  const ids = { open: '', active: '', judging: '', ended: '' };

  async function insertReview(eventId: string, projectId: string, reviewer: string, scores: Record<string, number>) {
    const now = t.clock.now().toISOString();
    await t.ctx.db
      .insertInto('reviews')
      .values({
        id: newId('rev'),
        event_id: eventId,
        project_id: projectId,
        reviewer_kind: 'human',
        reviewer,
        group_key: 'human',
        status: 'succeeded',
        scores: JSON.stringify(scores),
        attempts: 1,
        created_at: now,
        updated_at: now,
        completed_at: now,
      })
      .execute();
  }

  async function patchStatus(id: string, status: string) {
    const res = await t.api('PATCH', `/events/${id}`, { key: org.key, body: { status } });
    expect(res.status).toBe(200);
  }

  beforeAll(async () => {
    t = await startWebApp('sqlite');
    browser = await launchBrowser();
    org = await t.user('organizer');
    ids.open = await createEvent(t, org.key, {
      name: 'Open Agents Hack',
      description: 'Build tools that agents love.\n\nSecond paragraph <b>not bold</b>.',
    });
    ids.active = await createEvent(t, org.key, { name: 'Building Hack', models: [] });
    await patchStatus(ids.active, 'active');
    ids.judging = await createEvent(t, org.key, { name: 'Judging Hack', models: [] });
    await patchStatus(ids.judging, 'judging');

    // An ended event with a published ranking: Beta 8.67 > Alpha 7 (tools), Gamma 5 (fun).
    ids.ended = await createEvent(t, org.key, { name: 'Finished Hack', models: [] });
    const teams = [
      ['Alpha Team', 'tools', 'Alpha'],
      ['Beta Team', 'tools', 'Beta'],
      ['Gamma Team', 'fun', 'Gamma'],
    ] as const;
    const keys: string[] = [];
    for (const [team, track] of teams) keys.push((await approvedTeam(t, ids.ended, org.key, { team_name: team, track_id: track })).team.key);
    await patchStatus(ids.ended, 'active');
    const projects: string[] = [];
    for (const [i, [, , project]] of teams.entries()) {
      const res = await t.api('POST', `/events/${ids.ended}/submit`, {
        key: keys[i],
        body: { project_name: project, github_url: `https://github.com/example/${project}` },
      });
      expect(res.status).toBe(201);
      projects.push(res.body.id);
    }
    await patchStatus(ids.ended, 'judging');
    await insertReview(ids.ended, projects[0]!, 'usr_h1', { impact: 7, craft: 7 });
    await insertReview(ids.ended, projects[1]!, 'usr_h1', { impact: 9, craft: 8 });
    await insertReview(ids.ended, projects[2]!, 'usr_h1', { impact: 5, craft: 5 });
    const published = await t.api('POST', `/events/${ids.ended}/results/publish`, { key: org.key });
    expect(published.status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A page whose waits fail fast, with the reason, well inside the test's own time limit. */
  async function open(b: Browser, opts: Parameters<typeof openPage>[1] = {}) {
    const opened = await openPage(b, opts);
    opened.page.setDefaultTimeout(8000);
    return opened;
  }

  const cardTitles = async (page: Page) => page.locator('#hackathons h3').allTextContents();

  it('home lists public events and filters them by status', async () => {
    const { page, context, problems } = await open(browser, { viewport: 'desktop' });
    await page.goto(`${t.url}/`);
    await settled(page);
    await page.getByRole('heading', { level: 1, name: 'Hackathons for people and AI agents' }).waitFor();
    expect((await cardTitles(page)).sort()).toEqual(['Building Hack', 'Finished Hack', 'Judging Hack', 'Open Agents Hack']);
    await expect(page.getByRole('link', { name: 'Read skill.md' }).getAttribute('href')).resolves.toBe('/api/v1/skill.md');
    await page.getByText(`curl -sS ${t.url}/api/v1/skill.md`).waitFor();

    const filters = page.getByRole('navigation', { name: 'Show hackathons by status' });
    await filters.getByRole('link', { name: 'Ended' }).click();
    await page.waitForURL(/\?status=ended$/);
    await settled(page);
    expect(await cardTitles(page)).toEqual(['Finished Hack']);
    await filters.getByRole('link', { name: 'Open' }).click();
    await settled(page);
    expect(await cardTitles(page)).toEqual(['Open Agents Hack']);
    await filters.getByRole('link', { name: 'Building' }).click();
    await settled(page);
    expect(await cardTitles(page)).toEqual(['Building Hack']);
    await screenshot(page, 'home');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('home says so when a filter has no event, and loads more events page by page', async () => {
    const other = await startWebApp('sqlite');
    try {
      const { page, context, problems } = await open(browser, { viewport: 'phone' });
      await page.goto(`${other.url}/?status=judging`);
      await settled(page);
      await page.getByText('No hackathon is being judged right now.').waitFor();
      await screenshot(page, 'home-empty');

      // 14 events: a page shows 12, "Load more" follows the Link header to the other 2.
      const organizer = await other.user('organizer');
      for (let i = 1; i <= 14; i++) await createEvent(other, organizer.key, { name: `Event ${String(i).padStart(2, '0')}`, models: [] });
      await page.goto(`${other.url}/?status=open`);
      await settled(page);
      expect(await cardTitles(page)).toHaveLength(12);
      await page.getByRole('button', { name: 'Load more' }).click();
      await page.getByText('Showing 14 hackathons').waitFor();
      expect((await cardTitles(page)).sort()).toEqual(Array.from({ length: 14 }, (_, i) => `Event ${String(i + 1).padStart(2, '0')}`));
      expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      await other.close();
    }
  });

  it('the event page shows tracks, the timeline in the viewer zone, the form and how to join with the real URL', async () => {
    const { page, context, problems } = await open(browser, { viewport: 'desktop' });
    await page.goto(`${t.url}/`);
    await settled(page);
    await page.getByRole('link', { name: 'Open Agents Hack' }).click();
    await page.waitForURL(`${t.url}/hackathons/${ids.open}`);
    await settled(page);
    await page.getByRole('heading', { level: 1, name: 'Open Agents Hack' }).waitFor();
    // Markup in a description stays text.
    await page.getByText('Second paragraph <b>not bold</b>.').waitFor();
    expect(await page.locator('.description b').count()).toBe(0);
    await page.getByRole('heading', { name: 'Developer tools' }).waitFor();
    await page.getByText('$1000').waitFor();
    await page.getByText('Registration closes').waitFor();
    // Created a moment ago with registration a day later: "in 23 hours" or so, or "tomorrow".
    await page
      .getByText(/^(in 2\d hours|tomorrow)$/)
      .first()
      .waitFor();
    await page.getByText(/Times are in your time zone, /).waitFor();
    // Weights 2 and 1 are shares of 67% and 33%.
    await page.getByText('67%').waitFor();
    await page.getByRole('cell', { name: 'Repository' }).waitFor();
    // "Register" opens the web form; the curl line is folded under "Or over the API".
    expect(await page.getByRole('link', { name: 'Register', exact: true }).first().getAttribute('href')).toBe(
      `/signup?next=${encodeURIComponent(`/hackathons/${ids.open}/register`)}`,
    );
    await page.getByText('Or over the API (curl)').click();
    const command = await page.getByRole('region', { name: 'Registration command' }).textContent();
    expect(command).toContain(`'${t.url}/api/v1/events/${ids.open}/register'`);
    expect(command).toContain('"track_id":"tools"');
    expect(command).toContain('"repo":"https://example.com"');
    await page.getByRole('button', { name: 'Copy command' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
    await page.getByText(`${t.url}/scripts/register.sh`).waitFor();
    await page.getByText(`${t.url}/api/v1/mcp`).waitFor();
    await screenshot(page, 'event');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('signing in from the event page comes back to it', async () => {
    const team = await t.user('user');
    const registered = await t.api('POST', `/events/${ids.open}/register`, {
      key: team.key,
      body: { team_name: 'Night Owls', track_id: 'tools', fields: { repo: 'https://github.com/example/owls' } },
    });
    expect(registered.status).toBe(201);
    const { page, context, problems } = await open(browser, { viewport: 'desktop' });
    await page.goto(`${t.url}/hackathons/${ids.open}`);
    await settled(page);
    await page.locator('.join').getByRole('link', { name: 'Sign in' }).click();
    const registerPath = `/hackathons/${ids.open}/register`;
    await page.waitForURL(`${t.url}/signin?next=${encodeURIComponent(registerPath)}`);
    await page.getByLabel('E-mail address').fill(team.email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Back at the form, which knows the team is registered already.
    await page.waitForURL(`${t.url}${registerPath}`);
    await page.getByText('You are already in the team “Night Owls” for this hackathon.').waitFor();
    await page.goto(`${t.url}/hackathons/${ids.open}`);
    await settled(page);
    await page.getByText(`You are signed in as ${team.email}.`).waitFor();
    // Their own registration is shown with its status, near the top.
    const mine = page.getByRole('region', { name: 'Your team: Night Owls' });
    await mine.getByText('Pending', { exact: true }).waitFor();
    await mine.getByText('The organizers have not decided yet.', { exact: false }).waitFor();
    await mine.getByRole('link', { name: 'Team page' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'event-signed-in');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('an unknown event is a friendly not-found page', async () => {
    const { page, context, problems } = await open(browser);
    await page.goto(`${t.url}/hackathons/evt_nope`);
    await settled(page);
    await page.getByRole('heading', { level: 1, name: 'Hackathon not found' }).waitFor();
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the ended event links to its ranking, in order, with a working track switch', async () => {
    const { page, context, problems } = await open(browser, { viewport: 'desktop' });
    await page.goto(`${t.url}/hackathons/${ids.ended}`);
    await settled(page);
    await page.getByText('The results are published.').waitFor();
    await page.getByRole('link', { name: 'See the ranking' }).click();
    await page.waitForURL(`${t.url}/hackathons/${ids.ended}/result`);
    await settled(page);
    await page.getByRole('heading', { level: 1, name: 'Results: Finished Hack' }).waitFor();
    const table = page.getByRole('table');
    const projectsInOrder = async () => table.locator('tbody th .project-cell-name').allTextContents();
    expect(await projectsInOrder()).toEqual(['Beta', 'Alpha', 'Gamma']);
    // Rank, the project with its team and track, then the score, then each dimension.
    // The track's winner says so first ("1st in <track>"), then its prize.
    expect(await table.locator('tbody th').first().textContent()).toBe('Beta1st in Developer toolsPrize: $1000Beta Team · Developer tools');
    expect(await table.locator('tbody tr').first().locator('td').allTextContents()).toEqual(['1', '8.67', '9', '8']);
    await page.locator('.recharts-surface').first().waitFor();
    // The judges' own scores, on request: here one group, the human reviewers.
    await page.getByLabel('Show the scores of each judge').check();
    await table.getByRole('columnheader', { name: 'Human reviewers' }).waitFor();
    expect(await table.locator('tbody tr').first().locator('td').last().textContent()).toBe('8.67');
    await screenshot(page, 'result');

    await page.getByLabel('Track').selectOption('fun');
    await page.waitForURL(/\?track=fun$/);
    await settled(page);
    expect(await projectsInOrder()).toEqual(['Gamma']);
    expect(await table.locator('tbody tr').first().locator('td').first().textContent()).toBe('1');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a result not published yet says so and links back to the event', async () => {
    const { page, context, problems } = await open(browser, { viewport: 'phone' });
    await page.goto(`${t.url}/hackathons/${ids.judging}/result`);
    await settled(page);
    await page.getByRole('heading', { level: 1, name: 'Results are not published yet' }).waitFor();
    await screenshot(page, 'result-not-published');
    await page.getByRole('link', { name: 'Back to the hackathon' }).click();
    await page.waitForURL(`${t.url}/hackathons/${ids.judging}`);
    await page.getByRole('heading', { level: 1, name: 'Judging Hack' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  for (const locale of ['en', 'zh-CN'] as const) {
    for (const viewport of ['phone', 'desktop'] as const) {
      it(`every public page is accessible in ${locale} on a ${viewport}`, async () => {
        const { page, context, problems } = await open(browser, { locale, viewport });
        const pages: Array<[string, string]> = [
          ['/', 'home'],
          [`/hackathons/${ids.open}`, 'event'],
          [`/hackathons/${ids.ended}`, 'event-ended'],
          [`/hackathons/${ids.ended}/result`, 'result'],
          [`/hackathons/${ids.judging}/result`, 'result-not-published'],
        ];
        for (const [path, name] of pages) {
          await page.goto(`${t.url}${path}`);
          await settled(page);
          await page.getByRole('heading', { level: 1 }).waitFor();
          expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale);
          await expectAccessible(page);
          // Nothing makes the page wider than the screen (tables and code scroll inside their boxes).
          expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(page.viewportSize()!.width);
          await screenshot(page, `${name}-${locale}`);
        }
        expect(problems).toEqual([]);
        await context.close();
      });
    }
  }
});
