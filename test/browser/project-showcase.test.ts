import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedTeam, createEvent, type TestApp, type TestUser } from '../helpers/harness.js';
import { tinyPng } from '../helpers/images.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, signInSession, startWebApp } from './browser-harness.js';

const PASSWORD = 'correct horse battery';
const DESCRIPTION = '# PlanetPal\n\nAn **agent** that plans your week.\n\n- tracks habits\n- suggests `plans`\n\n```js\nplan()\n```';
const VIDEO = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
const EMBED = 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ';

/**
 * A project as its team edits it and as visitors, reviewers and the team see it: tagline, tags,
 * screenshots, a demo video that loads nothing from its host before the click, and the description
 * rendered from Markdown everywhere (issue 30's bar).
 */
describe('project pages (SQLite)', () => {
  let t: TestApp;
  let browser: Browser;
  let org: TestUser;
  let team: TestUser;
  let reviewer: TestUser;
  let eventId: string;
  let projectId: string;

  async function uploadShot(width: number, rgb: [number, number, number]) {
    const res = await fetch(`${t.url}/api/v1/events/${eventId}/project/screenshots`, {
      method: 'POST',
      headers: { authorization: `Bearer ${team.key}`, 'content-type': 'image/png' },
      body: new Uint8Array(tinyPng(width, Math.round(width * 0.6), rgb)),
    });
    expect(res.status).toBe(201);
  }

  beforeAll(async () => {
    t = await startWebApp('sqlite', { REVIEW_WORKERS: 'false' });
    browser = await launchBrowser();
    org = await t.user('organizer');
    eventId = await createEvent(t, org.key, { name: 'Planet Hack', models: [] });
    const made = await approvedTeam(t, eventId, org.key, { team_name: 'Pals', track_id: 'tools' });
    team = made.team;
    expect((await t.api('PATCH', '/me/settings', { key: team.key, body: { name: 'Ada Pal' } })).status).toBe(200);
    const res = await t.api<any>('POST', `/events/${eventId}/submit`, {
      key: team.key,
      body: {
        project_name: 'PlanetPal',
        github_url: 'https://github.com/example/planetpal',
        demo_video_url: VIDEO,
        description: DESCRIPTION,
        tagline: 'Your week, planned by an agent',
        tags: ['TypeScript', 'OpenAI'],
      },
    });
    expect(res.status).toBe(201);
    projectId = res.body.id;
    await uploadShot(64, [30, 120, 200]);
    await uploadShot(80, [200, 90, 40]);
    reviewer = await t.user();
    await t.database.db.insertInto('event_reviewers').values({ event_id: eventId, user_id: reviewer.id, created_at: t.clock.now().toISOString() }).execute();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('the team edits tagline and tags, previews its Markdown and adds a screenshot', async () => {
    for (const [locale, viewport] of [
      ['en', 'desktop'],
      ['zh-CN', 'phone'],
    ] as const) {
      const { page, context, problems } = await openPage(browser, { locale, viewport });
      if (viewport === 'phone') await page.setViewportSize({ width: 390, height: 844 });
      await signInSession(context, t.url, team.email, PASSWORD);
      await page.goto(`${t.url}/hackathons/${eventId}/project`);
      await settled(page);
      const en = locale === 'en';
      await expect(page.getByLabel(en ? 'Tagline' : '一句话介绍').inputValue()).resolves.toBe('Your week, planned by an agent');
      // The chips (each with its remove button); the English round added next-js.
      const chips = await page.getByTestId('tag-chips').locator('li').allInnerTexts();
      expect(chips.map((c) => c.replace('×', '').trim())).toEqual(en ? ['typescript', 'openai'] : ['typescript', 'openai', 'next-js']);
      await page
        .getByText(en ? 'Markdown works' : '支持 Markdown')
        .first()
        .waitFor();
      await page.getByRole('button', { name: en ? 'Preview' : '预览' }).click();
      const preview = page.getByTestId('markdown-preview');
      await preview.locator('strong', { hasText: 'agent' }).waitFor();
      await expect(preview.locator('li').count()).resolves.toBe(2);
      await page.getByRole('button', { name: en ? 'Write' : '编辑' }).click();
      await expect(page.locator('.shots-edit-list img').count()).resolves.toBe(en ? 2 : 3);
      await screenshot(page, `project-editor-${locale}`);
      if (en) {
        // The third screenshot through the page's file picker.
        await page.getByTestId('screenshot-input').setInputFiles({ name: 'third.png', mimeType: 'image/png', buffer: tinyPng(96, 60, [60, 160, 90]) });
        await expect.poll(() => page.locator('.shots-edit-list img').count()).toBe(3);
        // A tag added with Enter is saved normalised with the project.
        await page.getByLabel('Built with').fill('Next JS');
        await page.getByLabel('Built with').press('Enter');
        await page.getByRole('button', { name: 'Save changes' }).click();
        await page.getByText('Saved.').waitFor();
        const mine = await t.api('GET', `/events/${eventId}/my-registration`, { key: team.key });
        expect(mine.body.project.tags).toEqual(['typescript', 'openai', 'next-js']);
        expect(mine.body.project.screenshots).toHaveLength(3);
        expect(mine.body.project.description).toBe(DESCRIPTION);
      }
      await expectAccessible(page);
      expect(problems).toEqual([]);
      await context.close();
    }
  }, 120_000);

  it('the project page shows tagline, screenshots, tags, team and track; nothing leaves the site before the video is clicked', async () => {
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'judging' } })).status).toBe(200);
    for (const [locale, viewport] of [
      ['en', 'desktop'],
      ['zh-CN', 'phone'],
      ['en', 'phone'],
      ['zh-CN', 'desktop'],
    ] as const) {
      const { page, context, problems } = await openPage(browser, { locale, viewport });
      if (viewport === 'phone') await page.setViewportSize({ width: 390, height: 844 });
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      // The player's host never answers from the internet here: a local stub stands in for it.
      await context.route('https://www.youtube-nocookie.com/**', (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>player</title><p>stub player</p>' }),
      );
      await page.goto(`${t.url}/hackathons/${eventId}/projects/${projectId}`);
      await settled(page);
      await page.getByRole('heading', { level: 1, name: 'PlanetPal' }).waitFor();
      await expect(page.getByTestId('tagline').innerText()).resolves.toBe('Your week, planned by an agent');
      await expect(page.getByTestId('tags').locator('li').allInnerTexts()).resolves.toEqual(['typescript', 'openai', 'next-js']);
      const shots = page.getByTestId('screenshots').locator('img');
      await expect(shots.count()).resolves.toBe(3);
      await expect
        .poll(() => shots.evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0)))
        .toBe(true);
      await page.getByText('Ada Pal').waitFor();
      await page.getByText('Developer tools').first().waitFor();
      await page.locator('.description strong', { hasText: 'agent' }).waitFor();
      await expect(page.locator('iframe').count()).resolves.toBe(0);
      await expectAccessible(page);
      await screenshot(page, `project-showcase-${locale}-${viewport}`);
      const offSite = requests.filter((u) => !u.startsWith(`${t.url}/`) && !u.startsWith('data:'));
      expect(offSite).toEqual([]);
      expect(requests.length).toBeGreaterThan(3);

      await page.getByTestId('video-play').click();
      const frame = page.getByTestId('video-iframe');
      await frame.waitFor();
      await expect(frame.getAttribute('src')).resolves.toBe(EMBED);
      await expect.poll(() => requests.some((u) => u.startsWith(EMBED))).toBe(true);
      expect(problems).toEqual([]);
      await context.close();
    }
  }, 180_000);

  it("renders the Markdown on the team's read-only page and the reviewer's page", async () => {
    const pages: Array<[TestUser, string, string]> = [
      [team, `/hackathons/${eventId}/project`, 'team'],
      [reviewer, `/reviews/${eventId}/projects/${projectId}`, 'reviewer'],
    ];
    for (const [user, path, who] of pages) {
      for (const locale of ['en', 'zh-CN'] as const) {
        const { page, context, problems } = await openPage(browser, { locale, viewport: locale === 'en' ? 'desktop' : 'phone' });
        if (locale !== 'en') await page.setViewportSize({ width: 390, height: 844 });
        await signInSession(context, t.url, user.email, PASSWORD);
        await page.goto(`${t.url}${path}`);
        await settled(page);
        const description = page.getByTestId('description');
        await description.locator('h3', { hasText: 'PlanetPal' }).waitFor();
        await description.locator('strong', { hasText: 'agent' }).waitFor();
        await expect(description.locator('pre code').innerText()).resolves.toContain('plan()');
        await expect(description.innerText()).resolves.not.toContain('**agent**');
        await expectAccessible(page);
        await screenshot(page, `project-markdown-${who}-${locale}`);
        expect(problems).toEqual([]);
        await context.close();
      }
    }
  }, 120_000);
});
