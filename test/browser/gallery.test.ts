import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { approvedTeam, createEvent, type TestApp, type TestUser } from '../helpers/harness.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, signInSession, startWebApp } from './browser-harness.js';

/**
 * The gallery as a visitor meets it: closed while teams build, open once the event is judging
 * (cards, track filter, name search), a project page with its Markdown rendered and safe links,
 * and after publication the result page linking each entry to its project and naming track prizes.
 */
describe('project gallery pages (SQLite)', () => {
  let t: TestApp;
  let browser: Browser;
  let org: TestUser;
  let eventId: string;
  const projects: Record<string, string> = {};

  async function status(id: string, next: string) {
    expect((await t.api('PATCH', `/events/${id}`, { key: org.key, body: { status: next } })).status).toBe(200);
  }

  beforeAll(async () => {
    t = await startWebApp('sqlite', { REVIEW_WORKERS: 'false' });
    browser = await launchBrowser();
    org = await t.user('organizer');
    eventId = await createEvent(t, org.key, { name: 'Gallery Hack', models: [] });
    for (const [name, track, description] of [
      ['Lighthouse', 'tools', '# Lighthouse\n\nFinds **slow** pages. Docs: https://example.com/docs\n\n<script>window.__xss = 1</script>'],
      ['Tidy Bot', 'tools', 'Keeps your repo tidy.'],
      ['Pixel Garden', 'fun', 'Grow a garden of pixels.'],
    ] as const) {
      const { team } = await approvedTeam(t, eventId, org.key, { team_name: `${name} team`, track_id: track });
      const res = await t.api<any>('POST', `/events/${eventId}/submit`, {
        key: team.key,
        body: { project_name: name, github_url: `https://github.com/example/${name.replace(' ', '-')}`, description },
      });
      expect(res.status).toBe(201);
      projects[name] = res.body.id;
    }
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('is closed while teams build, and says when it opens', async () => {
    const { page, context, problems } = await openPage(browser);
    await page.goto(`${t.url}/hackathons/${eventId}/gallery`);
    await settled(page);
    await page.getByRole('heading', { level: 1, name: 'The gallery is not open yet' }).waitFor();
    await page.getByText('Projects become public after the submission deadline').waitFor();
    await expectAccessible(page);
    expect(problems.filter((p) => !p.includes('409'))).toEqual([]);
    await context.close();
  });

  it('lists the projects once judging starts, filters by track and name, and opens a project page', async () => {
    await status(eventId, 'judging');
    for (const [locale, viewport] of [
      ['en', 'desktop'],
      ['zh-CN', 'phone'],
    ] as const) {
      const { page, context, problems } = await openPage(browser, { locale, viewport });
      await page.goto(`${t.url}/hackathons/${eventId}`);
      await settled(page);
      await page.getByRole('link', { name: locale === 'en' ? 'See the projects' : '浏览作品' }).click();
      await page.waitForURL(`${t.url}/hackathons/${eventId}/gallery`);
      await settled(page);
      const cards = page.locator('.gallery-card h2');
      await expect(cards.allTextContents()).resolves.toEqual(['Lighthouse', 'Tidy Bot', 'Pixel Garden']);
      await expectAccessible(page);
      await screenshot(page, `gallery-${locale}`);
      if (locale === 'en') {
        await page.getByLabel('Track').selectOption('fun');
        await page.waitForURL(/\?track=fun$/);
        await expect.poll(() => cards.allTextContents()).toEqual(['Pixel Garden']);
        await page.getByLabel('Track').selectOption('');
        await page.getByLabel('Search by name').fill('tidy');
        await page.getByLabel('Search by name').press('Enter');
        await page.waitForURL(/\?q=tidy$/);
        await expect.poll(() => cards.allTextContents()).toEqual(['Tidy Bot']);
        await page.getByLabel('Search by name').fill('nothing like it');
        await page.getByLabel('Search by name').press('Enter');
        await page.getByText('No project matches.').waitFor();
        await page.getByLabel('Search by name').fill('');
        await page.getByLabel('Search by name').press('Enter');
        await expect.poll(() => cards.allTextContents()).toEqual(['Lighthouse', 'Tidy Bot', 'Pixel Garden']);
      }
      await page.getByRole('link', { name: 'Lighthouse' }).click();
      await page.waitForURL(`${t.url}/hackathons/${eventId}/projects/${projects.Lighthouse}`);
      await settled(page);
      await page.getByRole('heading', { level: 1, name: 'Lighthouse' }).waitFor();
      const about = page.locator('.description');
      await about.getByRole('heading', { level: 3, name: 'Lighthouse' }).waitFor();
      await expect(about.locator('strong').textContent()).resolves.toBe('slow');
      await expect(about.getByRole('link', { name: 'https://example.com/docs' }).getAttribute('rel')).resolves.toBe('noopener nofollow ugc');
      await expect(page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).resolves.toBeUndefined();
      await expect(page.getByRole('link', { name: locale === 'en' ? 'Repository' : '代码仓库' }).getAttribute('href')).resolves.toBe(
        'https://github.com/example/Lighthouse',
      );
      await expectAccessible(page);
      await screenshot(page, `project-page-${locale}`);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it("after publication, the result page links entries to their projects and names each track winner's prize; the project page shows its place", async () => {
    const now = t.clock.now().toISOString();
    for (const [name, score] of [
      ['Lighthouse', 8],
      ['Tidy Bot', 6],
      ['Pixel Garden', 7],
    ] as const) {
      await t.ctx.db
        .insertInto('reviews')
        .values({
          id: newId('rev'),
          event_id: eventId,
          project_id: projects[name]!,
          reviewer_kind: 'human',
          reviewer: 'usr_judge',
          group_key: 'human',
          status: 'succeeded',
          scores: JSON.stringify({ impact: score, craft: score }),
          attempts: 1,
          created_at: now,
          updated_at: now,
          completed_at: now,
        })
        .execute();
    }
    expect((await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key })).status).toBe(200);
    const { page, context, problems } = await openPage(browser, { viewport: 'phone' });
    await page.goto(`${t.url}/hackathons/${eventId}/result`);
    await settled(page);
    const lighthouse = page.getByRole('row', { name: /Lighthouse/ });
    await lighthouse.getByText('Prize: $1000').waitFor();
    await page
      .getByRole('row', { name: /Pixel Garden/ })
      .getByText('Prize: glory')
      .waitFor();
    await expect(
      page
        .getByRole('row', { name: /Tidy Bot/ })
        .getByText(/Prize/)
        .count(),
    ).resolves.toBe(0);
    // The verifiable results bundle is one click away, and downloads as JSON that verifies.
    const bundleLink = page.getByRole('link', { name: 'Download the verifiable results' });
    await expect(bundleLink.getAttribute('href')).resolves.toBe(`/api/v1/events/${eventId}/result/bundle`);
    // …and so is the verifier that checks it, with the command to run.
    await expect(page.getByRole('link', { name: 'the verifier' }).getAttribute('href')).resolves.toBe('/verify-bundle.mjs');
    await page.getByText(`node verify-bundle.mjs ${eventId}-result-bundle.json --site ${t.url}`).waitFor();
    const bundle = await t.api('GET', `/events/${eventId}/result/bundle`);
    expect(bundle.status).toBe(200);
    expect(bundle.body.ranking.map((e: any) => e.project_name)).toEqual(['Lighthouse', 'Pixel Garden', 'Tidy Bot']);
    await expectAccessible(page);
    await screenshot(page, 'result-prizes');
    await lighthouse.getByRole('link', { name: 'Lighthouse' }).click();
    await page.waitForURL(`${t.url}/hackathons/${eventId}/projects/${projects.Lighthouse}`);
    await settled(page);
    await page.getByText('Rank 1 overall').waitFor();
    await page.getByText('Prize: $1000').waitFor();
    await screenshot(page, 'project-page-result');
    expect(problems).toEqual([]);
    await context.close();
  });
});

/**
 * People's choice as a visitor meets it: signs in from the project page, votes, cannot vote for
 * their own team's project, withdraws and votes again; after publication the result page shows the
 * people's choice apart from the ranking.
 */
describe("people's choice pages (SQLite)", () => {
  let t: TestApp;
  let browser: Browser;
  let org: TestUser;
  let eventId: string;
  const teams: Array<{ user: TestUser; project: string }> = [];

  beforeAll(async () => {
    t = await startWebApp('sqlite', { REVIEW_WORKERS: 'false' });
    browser = await launchBrowser();
    org = await t.user('organizer');
    eventId = await createEvent(t, org.key, { name: 'Vote Hack', models: [] });
    for (const name of ['Alpha', 'Beta']) {
      const { team } = await approvedTeam(t, eventId, org.key, { team_name: `${name} team`, track_id: 'tools' });
      const res = await t.api<any>('POST', `/events/${eventId}/submit`, {
        key: team.key,
        body: { project_name: name, github_url: `https://github.com/example/${name}` },
      });
      expect(res.status).toBe(201);
      teams.push({ user: team, project: res.body.id });
    }
    // The voting window open now (the browser's clock is the real one): deadlines moved into the past in the database.
    const now = Date.now();
    await t.ctx.db
      .updateTable('events')
      .set({
        registration_deadline: new Date(now - 120_000).toISOString(),
        submission_deadline: new Date(now - 60_000).toISOString(),
        voting: JSON.stringify({
          enabled: true,
          opens_at: new Date(now - 60_000).toISOString(),
          closes_at: new Date(now + 3_600_000).toISOString(),
          votes_per_person: 1,
          per_track: true,
        }),
      })
      .where('id', '=', eventId)
      .execute();
    t.ctx.events.changed(eventId);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('signs in from the project page, votes, withdraws and votes again; never for the own team', async () => {
    const visitor = await t.user();
    const { page, context, problems } = await openPage(browser, { viewport: 'phone' });
    page.setDefaultTimeout(8000);
    const alpha = `${t.url}/hackathons/${eventId}/projects/${teams[0]!.project}`;
    await page.goto(alpha);
    await settled(page);
    await page.getByRole('link', { name: 'Sign in to vote' }).click();
    await page.waitForURL(/\/signin\?next=/);
    await page.getByLabel('E-mail address').fill(visitor.email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(alpha);
    await settled(page);
    await page.getByText('You have 1 vote left in this track.').waitFor();
    await page.getByRole('button', { name: 'Vote for this project' }).click();
    await page.getByText('You voted for this project.').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'vote-cast');
    // The one vote of the track is used: Beta cannot have it until it is withdrawn.
    await page.goto(`${t.url}/hackathons/${eventId}/projects/${teams[1]!.project}`);
    await settled(page);
    await page.getByText('You have 0 votes left in this track.').waitFor();
    await page.getByRole('button', { name: 'Vote for this project' }).click();
    await page.getByText('withdraw one to vote for another project').waitFor();
    await page.goto(alpha);
    await settled(page);
    await page.getByRole('button', { name: 'Withdraw my vote' }).click();
    await page.getByText('You have 1 vote left in this track.').waitFor();
    await page.goto(`${t.url}/hackathons/${eventId}/projects/${teams[1]!.project}`);
    await settled(page);
    await page.getByRole('button', { name: 'Vote for this project' }).click();
    await page.getByText('You voted for this project.').waitFor();
    expect(problems.filter((p) => !p.includes('409'))).toEqual([]);
    await context.close();

    // Alpha's own member is told it is their team's project, in Chinese.
    const own = await openPage(browser, { locale: 'zh-CN' });
    await signInSession(own.context, t.url, teams[0]!.user.email, 'correct horse battery');
    await own.page.goto(alpha);
    await settled(own.page);
    // Told before any click: no vote button on the own team's project.
    await own.page.getByText('这是你所在（或曾在）团队的作品，不能为它投票。').waitFor();
    await expect(own.page.getByRole('button', { name: '为这个作品投票' }).count()).resolves.toBe(0);
    await screenshot(own.page, 'vote-own-project');
    await own.context.close();
  });

  it("shows the people's choice beside the ranking once the results are out", async () => {
    const now = new Date().toISOString();
    for (const [i, team] of teams.entries()) {
      await t.ctx.db
        .insertInto('reviews')
        .values({
          id: newId('rev'),
          event_id: eventId,
          project_id: team.project,
          reviewer_kind: 'human',
          reviewer: 'usr_judge',
          group_key: 'human',
          status: 'succeeded',
          scores: JSON.stringify({ impact: 8 - i, craft: 8 - i }),
          attempts: 1,
          created_at: now,
          updated_at: now,
          completed_at: now,
        })
        .execute();
    }
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'judging' } })).status).toBe(200);
    const published = await t.api<any>('POST', `/events/${eventId}/results/publish`, { key: org.key });
    expect(published.status).toBe(200);
    expect(published.body.peoples_choice).toEqual([expect.objectContaining({ rank: 1, project_name: 'Beta', votes: 1 })]);
    const { page, context, problems } = await openPage(browser);
    await page.goto(`${t.url}/hackathons/${eventId}/result`);
    await settled(page);
    const section = page.getByRole('region', { name: "People's choice" });
    await section.getByRole('link', { name: 'Beta' }).waitFor();
    await section.getByText('1 vote').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'result-peoples-choice');
    expect(problems).toEqual([]);
    await context.close();
  });
});
