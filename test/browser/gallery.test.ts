import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { approvedTeam, createEvent, type TestApp, type TestUser } from '../helpers/harness.js';
import { tinyPng } from '../helpers/images.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, signInSession, startWebApp } from './browser-harness.js';

/** Whether an <img> has loaded and drawn (a blocked or broken image has no natural width). */
const drawn = (el: SVGElement | HTMLElement) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0;

/** A screenshot added through the team's real route (raw PNG bytes); its public address, as a page path. */
async function addScreenshot(t: TestApp, eventId: string, key: string): Promise<string> {
  const res = await fetch(`${t.url}/api/v1/events/${eventId}/project/screenshots`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'image/png' },
    body: new Uint8Array(tinyPng(160, 90, [40, 90, 200])),
  });
  expect(res.status).toBe(201);
  const shots = ((await res.json()) as { screenshots: Array<{ url: string }> }).screenshots;
  const url = new URL(shots[0]!.url);
  return `${url.pathname}${url.search}`;
}

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
  const teamKeys: Record<string, string> = {};
  let lighthouseShot: string;

  async function status(id: string, next: string) {
    expect((await t.api('PATCH', `/events/${id}`, { key: org.key, body: { status: next } })).status).toBe(200);
  }

  beforeAll(async () => {
    t = await startWebApp('sqlite', { REVIEW_WORKERS: 'false' });
    browser = await launchBrowser();
    org = await t.user('organizer');
    eventId = await createEvent(t, org.key, { name: 'Gallery Hack', models: [] });
    for (const [name, track, description, showcase] of [
      [
        'Lighthouse',
        'tools',
        '# Lighthouse\n\nFinds **slow** pages. Docs: https://example.com/docs\n\n<script>window.__xss = 1</script>',
        { tagline: 'Finds the slow parts of any site', tags: ['rust', 'cli'] },
      ],
      ['Tidy Bot', 'tools', 'Keeps your repo tidy.', { tagline: 'Keeps your repository tidy', tags: ['rust'] }],
      ['Pixel Garden', 'fun', 'Grow a **garden** of pixels:\n\n- seeds\n- sprouts', {}],
    ] as const) {
      const { team } = await approvedTeam(t, eventId, org.key, { team_name: `${name} team`, track_id: track });
      const res = await t.api<any>('POST', `/events/${eventId}/submit`, {
        key: team.key,
        body: { project_name: name, github_url: `https://github.com/example/${name.replace(' ', '-')}`, description, ...showcase },
      });
      expect(res.status).toBe(201);
      projects[name] = res.body.id;
      teamKeys[name] = team.key;
    }
    lighthouseShot = await addScreenshot(t, eventId, teamKeys.Lighthouse!);
    // Pixel Garden has no screenshot: its card shows the event's cover.
    const cover = await fetch(`${t.url}/api/v1/events/${eventId}/media/cover`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${org.key}`, 'content-type': 'image/png' },
      body: new Uint8Array(tinyPng(120, 63, [20, 140, 90])),
    });
    expect(cover.status).toBe(200);
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
      // Each card: a picture (the first screenshot, else the event's cover) at a fixed ratio, tagline, tags, track, team.
      const lighthouse = page.locator('.gallery-card').filter({ has: page.getByRole('link', { name: 'Lighthouse' }) });
      await expect(lighthouse.locator('img').getAttribute('src')).resolves.toBe(lighthouseShot);
      await expect(lighthouse.locator('img').getAttribute('loading')).resolves.toBe('lazy');
      await lighthouse.getByText('Finds the slow parts of any site').waitFor();
      await expect(lighthouse.locator('.tag-chips').getByRole('button').allTextContents()).resolves.toEqual(['#rust', '#cli']);
      await lighthouse.getByText(locale === 'en' ? 'Lighthouse team · Developer tools' : 'Lighthouse team · Developer tools').waitFor();
      const garden = page.locator('.gallery-card').filter({ has: page.getByRole('link', { name: 'Pixel Garden' }) });
      await expect(garden.locator('img').getAttribute('src')).resolves.toMatch(new RegExp(`^/api/v1/events/${eventId}/media/cover\\?v=`));
      // Without a tagline the card shows the description's start rendered from Markdown, not its source.
      await garden.locator('.gallery-card-excerpt strong').getByText('garden').waitFor();
      await expect(garden.locator('.gallery-card-excerpt li').allTextContents()).resolves.toEqual(['seeds', 'sprouts']);
      await expect(garden.locator('.gallery-card-excerpt').textContent()).resolves.not.toContain('**');
      for (const card of [lighthouse, garden]) {
        await card.locator('img').scrollIntoViewIfNeeded();
        await expect.poll(() => card.locator('img').evaluate(drawn)).toBe(true);
        // The picture's box is fixed before it loads: 16:9 of the card's width.
        const box = (await card.locator('.gallery-card-media').boundingBox())!;
        expect(Math.abs(box.width / box.height - 16 / 9)).toBeLessThan(0.02);
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      await expectAccessible(page);
      await screenshot(page, `gallery-${locale}`);
      if (locale === 'en') {
        await page.getByLabel('Track').selectOption('fun');
        await page.waitForURL(/\?track=fun$/);
        await expect.poll(() => cards.allTextContents()).toEqual(['Pixel Garden']);
        await page.getByLabel('Track').selectOption('');
        // A tag on a card filters by it (in the address); the chosen tag is a chip that removes it.
        await lighthouse.getByRole('button', { name: '#cli' }).click();
        await page.waitForURL(/\?tag=cli$/);
        await expect.poll(() => cards.allTextContents()).toEqual(['Lighthouse']);
        await page.getByRole('button', { name: '#cli (remove this tag filter)' }).click();
        await expect.poll(() => cards.allTextContents()).toEqual(['Lighthouse', 'Tidy Bot', 'Pixel Garden']);
        await page.locator('.gallery-filters').getByRole('button', { name: '#rust' }).click();
        await page.waitForURL(/\?tag=rust$/);
        await expect.poll(() => cards.allTextContents()).toEqual(['Lighthouse', 'Tidy Bot']);
        await page.getByRole('button', { name: '#rust (remove this tag filter)' }).click();
        await page.waitForURL(`${t.url}/hackathons/${eventId}/gallery`);
        // The search filters as one types (after a pause), over names, taglines and tags, and goes into the address.
        await page.getByLabel('Search projects').fill('repository');
        await page.waitForURL(/\?q=repository$/);
        await expect.poll(() => cards.allTextContents()).toEqual(['Tidy Bot']);
        await page.getByLabel('Search projects').fill('nothing like it');
        await page.getByLabel('Search projects').press('Enter');
        await page.getByText('No project matches.').waitFor();
        // A shared address opens filtered.
        await page.goto(`${t.url}/hackathons/${eventId}/gallery?tag=rust&q=slow`);
        await settled(page);
        await expect.poll(() => cards.allTextContents()).toEqual(['Lighthouse']);
        await expect(page.getByLabel('Search projects').inputValue()).resolves.toBe('slow');
        await page.getByLabel('Search projects').fill('');
        await page.getByRole('button', { name: '#rust (remove this tag filter)' }).click();
        await page.waitForURL(`${t.url}/hackathons/${eventId}/gallery`);
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

    // The gallery: winners first, with their places and prizes on the cards.
    for (const [locale, viewport] of [
      ['en', 'desktop'],
      ['zh-CN', 'phone'],
    ] as const) {
      const opened = await openPage(browser, { locale, viewport });
      await opened.page.goto(`${t.url}/hackathons/${eventId}/gallery`);
      await settled(opened.page);
      await expect(opened.page.locator('.gallery-card h2').allTextContents()).resolves.toEqual(['Lighthouse', 'Pixel Garden', 'Tidy Bot']);
      const badges = (name: string) =>
        opened.page
          .locator('.gallery-card')
          .filter({ has: opened.page.getByRole('link', { name }) })
          .locator('.badge')
          .allTextContents();
      if (locale === 'en') {
        await expect(badges('Lighthouse')).resolves.toEqual(['1st place', '1st in Developer tools', 'Prize: $1000']);
        await expect(badges('Pixel Garden')).resolves.toEqual(['2nd place', '1st in Just for fun', 'Prize: glory']);
        await expect(badges('Tidy Bot')).resolves.toEqual(['3rd place']);
        await opened.page.getByText('Winners first.').waitFor();
      } else {
        await expect(badges('Pixel Garden')).resolves.toEqual(['第二名', 'Just for fun 第一名', '奖项：glory']);
      }
      await expectAccessible(opened.page);
      await screenshot(opened.page, `gallery-winners-${locale}`);
      expect(opened.problems).toEqual([]);
      await opened.context.close();
    }
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

  it('votes from the gallery cards: the votes left go down and up, never a vote button on the own project; the event page invites to vote', async () => {
    // Signed out: the event page and the gallery invite to sign in; no vote buttons.
    const anon = await openPage(browser, { viewport: 'phone' });
    await anon.page.goto(`${t.url}/hackathons/${eventId}`);
    await settled(anon.page);
    const invite = anon.page.getByRole('region', { name: 'Vote for your favourites' });
    await invite.getByRole('link', { name: 'Sign in to vote' }).waitFor();
    await screenshot(anon.page, 'event-vote-invite');
    const listSeeds: Array<string | null> = [];
    anon.page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === `/api/v1/events/${eventId}/gallery`) listSeeds.push(url.searchParams.get('seed'));
    });
    await anon.page.goto(`${t.url}/hackathons/${eventId}/gallery`);
    await settled(anon.page);
    await anon.page.locator('.vote-bar').getByRole('link', { name: 'Sign in to vote' }).waitFor();
    await expect(anon.page.getByRole('button', { name: /^Vote for / }).count()).resolves.toBe(0);
    await anon.page.getByText('a random order of your own').waitFor();
    // An anonymous visitor keeps one shuffle seed for the tab's session.
    const seed = await anon.page.evaluate(() => sessionStorage.getItem('gallery-seed'));
    expect(seed).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(listSeeds).toEqual([seed]);
    await anon.context.close();

    const visitor = await t.user();
    for (const [locale, viewport] of [
      ['en', 'desktop'],
      ['en', 'phone'],
    ] as const) {
      const { page, context, problems } = await openPage(browser, { locale, viewport });
      page.setDefaultTimeout(8000);
      await signInSession(context, t.url, visitor.email, 'correct horse battery');
      await page.goto(`${t.url}/hackathons/${eventId}`);
      await settled(page);
      await page.getByRole('region', { name: 'Vote for your favourites' }).getByText('Developer tools: 1 vote left · Just for fun: 1 vote left').waitFor();
      await page.getByRole('link', { name: 'Vote in the gallery' }).click();
      await page.waitForURL(`${t.url}/hackathons/${eventId}/gallery`);
      await settled(page);
      const bar = page.locator('.vote-bar');
      await bar.getByText('Developer tools: 1 vote left').waitFor();
      await page.getByRole('button', { name: 'Vote for Alpha' }).click();
      await bar.getByText('Developer tools: 0 votes left').waitFor();
      const alpha = page.locator('.gallery-card').filter({ has: page.getByRole('link', { name: 'Alpha' }) });
      await alpha.getByText('Voted').waitFor();
      // The track's one vote is used: Beta's button waits until it is taken back.
      await expect(page.getByRole('button', { name: 'Vote for Beta' }).isDisabled()).resolves.toBe(true);
      // Keyboard: the undo button is reachable and shows its focus.
      await alpha.getByRole('link', { name: 'Repository' }).focus();
      await page.keyboard.press('Tab');
      const undo = alpha.getByRole('button', { name: 'Undo the vote for Alpha' });
      await expect(undo.evaluate((el) => el === document.activeElement && getComputedStyle(el).outlineStyle !== 'none')).resolves.toBe(true);
      await expectAccessible(page);
      await screenshot(page, 'gallery-voting-en');
      await page.keyboard.press('Enter');
      await bar.getByText('Developer tools: 1 vote left').waitFor();
      await expect(page.getByRole('button', { name: 'Vote for Beta' }).isEnabled()).resolves.toBe(true);
      expect(problems).toEqual([]);
      await context.close();
    }

    // A team's member: no vote button on their own project, told why, in Chinese.
    const own = await openPage(browser, { locale: 'zh-CN', viewport: 'phone' });
    await signInSession(own.context, t.url, teams[0]!.user.email, 'correct horse battery');
    await own.page.goto(`${t.url}/hackathons/${eventId}/gallery`);
    await settled(own.page);
    await own.page.locator('.vote-bar').getByText('Developer tools：还剩 1 票').waitFor();
    const mine = own.page.locator('.gallery-card').filter({ has: own.page.getByRole('link', { name: 'Alpha' }) });
    await mine.getByText('你所在团队的作品').waitFor();
    await expect(mine.getByRole('button').filter({ hasText: '投票' }).count()).resolves.toBe(0);
    await own.page.getByRole('button', { name: '为 Beta 投票' }).waitFor();
    await expectAccessible(own.page);
    await screenshot(own.page, 'gallery-voting-zh');
    await own.page.goto(`${t.url}/hackathons/${eventId}/gallery`);
    await own.page.setViewportSize({ width: 1280, height: 800 });
    await settled(own.page);
    await own.page.getByRole('button', { name: '为 Beta 投票' }).waitFor();
    await screenshot(own.page, 'gallery-voting-zh');
    expect(own.problems).toEqual([]);
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
