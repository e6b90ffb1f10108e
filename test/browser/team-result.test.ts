import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { approvedTeam, createEvent, type TestApp, type TestUser } from '../helpers/harness.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, signInSession, startWebApp } from './browser-harness.js';

const PASSWORD = 'correct horse battery';

/**
 * A team hears back on the web: after publication every member (not only the leader) sees the
 * team's rank, score and per-dimension scores on the team page, and, once the organizer releases
 * it, the reviewers' comments and the AI summary without the reviewers' names; withholding the
 * feedback again hides it. The event page keeps the team's box after the results.
 */
describe('a team’s result on the web (SQLite)', () => {
  let t: TestApp;
  let browser: Browser;
  let org: TestUser;
  let member: TestUser;
  let leader: TestUser;
  let eventId: string;

  beforeAll(async () => {
    t = await startWebApp('sqlite', { REVIEW_WORKERS: 'false' });
    browser = await launchBrowser();
    org = await t.user('organizer');
    eventId = await createEvent(t, org.key, { name: 'Result Hack', models: [] });
    const now = t.clock.now().toISOString();
    const projects: Record<string, string> = {};

    for (const name of ['Kestrel', 'Lantern']) {
      const { team } = await approvedTeam(t, eventId, org.key, { team_name: `${name} team`, track_id: 'tools' });
      const res = await t.api<any>('POST', `/events/${eventId}/submit`, {
        key: team.key,
        body: { project_name: name, github_url: `https://github.com/example/${name}`, description: `${name} does things.` },
      });
      expect(res.status).toBe(201);
      projects[name] = res.body.id;
      if (name === 'Lantern') leader = team;
    }
    // A second person joins the Lantern team: the result is theirs too.
    member = await t.user();
    const inv = await t.api<any>('POST', `/events/${eventId}/team/invitations`, { key: leader.key, body: {} });
    expect(inv.status).toBe(201);
    expect((await t.api('POST', `/events/${eventId}/team/join`, { key: member.key, body: { join_code: inv.body.join_code } })).status).toBe(200);
    const review = (project: string, kind: 'human' | 'model', reviewer: string, scores: Record<string, number>, summary: string) => ({
      id: newId('rev'),
      event_id: eventId,
      project_id: projects[project]!,
      reviewer_kind: kind,
      reviewer,
      group_key: kind === 'human' ? 'human' : reviewer,
      status: 'succeeded' as const,
      scores: JSON.stringify(scores),
      summary,
      attempts: 1,
      created_at: now,
      updated_at: now,
      completed_at: now,
    });
    await t.ctx.db
      .insertInto('reviews')
      .values([
        review('Kestrel', 'human', 'usr_judge_a', { impact: 9, craft: 9 }, 'Strong.'),
        review('Lantern', 'human', 'usr_judge_a', { impact: 8, craft: 6 }, 'Clear pitch; the demo crashed twice.'),
        review('Lantern', 'model', 'fake-model-1', { impact: 7, craft: 5 }, 'Solid idea; tests are thin.'),
      ])
      .execute();
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'judging' } })).status).toBe(200);
    const published = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key, body: { release_feedback: true } });
    expect(published.status).toBe(200);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('a member reads the rank, the scores by dimension and the released feedback (phone and desktop, en and zh)', { timeout: 120_000 }, async () => {
    for (const [locale, viewport] of [
      ['en', 'desktop'],
      ['zh-CN', 'phone'],
    ] as const) {
      const { page, context, problems } = await openPage(browser, { locale, viewport });
      page.setDefaultTimeout(10_000);
      await signInSession(context, t.url, member.email, PASSWORD);
      await page.goto(`${t.url}/hackathons/${eventId}/team`);
      await settled(page);
      const en = locale === 'en';
      const result = page.getByRole('region', { name: en ? 'Your result' : '你的结果' });
      await result.waitFor();
      // Lantern by dimension: impact (8 + 7) / 2 = 7.5, craft (6 + 5) / 2 = 5.5; weights 2 : 1 → 20.5 / 3 = 6.83; second of two.
      await expect(result.locator('.team-result-rank').textContent()).resolves.toBe(en ? '2 of 2' : '第 2 名（共 2 个）');
      await result.getByText('6.83', { exact: true }).waitFor();
      const dims = result.getByRole('table', { name: en ? 'Scores by dimension' : '各维度得分' });
      await expect(
        dims
          .getByRole('row', { name: /impact/ })
          .getByRole('cell')
          .textContent(),
      ).resolves.toBe('7.5');
      await expect(dims.getByRole('row', { name: /craft/ }).getByRole('cell').textContent()).resolves.toBe('5.5');
      const comments = result.locator('.team-result-comment');
      await expect(comments.allTextContents()).resolves.toEqual(['Clear pitch; the demo crashed twice.', 'Solid idea; tests are thin.']);
      await result.getByText(en ? 'Reviewers are not named.' : '评审人不予显示。').waitFor();
      // No reviewer identity reaches the page.
      const html = await page.content();
      expect(html).not.toContain('usr_judge_a');
      expect(html).not.toContain('fake-model-1');
      await expectAccessible(page);
      await screenshot(page, `team-result-${en ? 'en' : 'zh'}`);

      // The event page keeps the team's box after the results.
      await page.goto(`${t.url}/hackathons/${eventId}`);
      await settled(page);
      await page.getByRole('region', { name: en ? 'Your team: Lantern team' : '你的团队：Lantern team' }).waitFor();
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it('after publication the leader is offered nothing that would change the team, nor past deadlines as what comes next', async () => {
    const { page, context, problems } = await openPage(browser, { viewport: 'phone' });
    await signInSession(context, t.url, leader.email, PASSWORD);
    await page.goto(`${t.url}/hackathons/${eventId}/team`);
    await settled(page);
    await page.getByRole('region', { name: 'Your result' }).waitFor();
    const members = page.getByRole('region', { name: 'Members' });
    await members.getByText(member.email).waitFor();
    // The members are listed, without "Make leader" or "Remove"; no withdrawal, no "What happens next".
    await expect(members.getByRole('button').count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Withdraw the registration' }).count()).resolves.toBe(0);
    await expect(page.getByRole('heading', { name: 'What happens next' }).count()).resolves.toBe(0);
    await screenshot(page, 'team-after-publication-leader-phone');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('withheld feedback is hidden again; the rank stays', async () => {
    expect((await t.api('PUT', `/events/${eventId}/results/feedback`, { key: org.key, body: { released: false } })).status).toBe(200);
    const { page, context, problems } = await openPage(browser);
    await signInSession(context, t.url, member.email, PASSWORD);
    await page.goto(`${t.url}/hackathons/${eventId}/team`);
    await settled(page);
    const result = page.getByRole('region', { name: 'Your result' });
    await result.getByText('The organizer has not released the reviewers’ feedback.').waitFor();
    await expect(result.locator('.team-result-comment').count()).resolves.toBe(0);
    await expect(result.locator('.team-result-rank').textContent()).resolves.toBe('2 of 2');
    expect(problems).toEqual([]);
    await context.close();
  });

  it(
    'a track winner reads "1st in Climate" with its prize: publish preview, result page and team page (phone and desktop, en and zh)',
    { timeout: 180_000 },
    async () => {
      const climateEvent = await createEvent(t, org.key, {
        name: 'Planet Hack',
        models: [],
        tracks: [
          { id: 'climate', name: 'Climate', prize: '€500' },
          { id: 'tools', name: 'Developer tools', prize: '$1000' },
        ],
        // The people's choice is voted per track: one list per track on the result page.
        voting: { enabled: true, closes_at: new Date(t.clock.now().getTime() + 4 * 86_400_000).toISOString(), per_track: true },
      });
      const ids: Record<string, string> = {};
      const now = t.clock.now().toISOString();
      let planetLeader: TestUser | undefined;
      for (const [name, track, impact] of [
        ['Tooly', 'tools', 9],
        ['PlanetPal', 'climate', 8],
        ['Greenish', 'climate', 6],
      ] as const) {
        const { team } = await approvedTeam(t, climateEvent, org.key, { team_name: `${name} team`, track_id: track });
        const res = await t.api<any>('POST', `/events/${climateEvent}/submit`, {
          key: team.key,
          body: { project_name: name, github_url: `https://github.com/example/${name}` },
        });
        expect(res.status).toBe(201);
        if (name === 'PlanetPal') planetLeader = team;
        ids[name] = res.body.id;
        await t.ctx.db
          .insertInto('reviews')
          .values({
            id: newId('rev'),
            event_id: climateEvent,
            project_id: res.body.id,
            reviewer_kind: 'human',
            reviewer: 'usr_judge_a',
            group_key: 'human',
            status: 'succeeded',
            scores: JSON.stringify({ impact, craft: impact }),
            summary: null,
            attempts: 1,
            created_at: now,
            updated_at: now,
            completed_at: now,
          })
          .execute();
      }
      // Past the submission deadline: judging, and the vote open. Greenish leads Climate's vote, Tooly is alone in Tools.
      t.clock.advance(2 * 86_400_000 + 3_600_000);
      for (const name of ['Greenish', 'Greenish', 'PlanetPal', 'Tooly']) {
        const voter = await t.user();
        expect((await t.api('POST', `/events/${climateEvent}/gallery/${ids[name]}/vote`, { key: voter.key })).status).toBe(201);
      }

      // The organizer's preview: in Climate's box PlanetPal is 1st with the prize, 2nd overall beside it.
      for (const [locale, viewport] of [
        ['en', 'desktop'],
        ['zh-CN', 'phone'],
      ] as const) {
        const en = locale === 'en';
        const { page, context, problems } = await openPage(browser, { locale, viewport });
        page.setDefaultTimeout(10_000);
        await signInSession(context, t.url, org.email, PASSWORD);
        await page.goto(`${t.url}/events/${climateEvent}/publish`);
        await settled(page);
        const box = page.locator('.detail-top', { has: page.getByRole('heading', { name: en ? 'Top of Climate' : 'Climate 前列' }) });
        await box.getByText(en ? '1st in Climate — €500' : 'Climate 赛道第 1 名 — €500').waitFor();
        await expect(box.locator('li').first().locator('.detail-podium-rank').textContent()).resolves.toBe('1');
        await expect(box.locator('li').first().textContent()).resolves.toContain('PlanetPal');
        await box.getByText(en ? 'overall 2' : '总排名第 2').waitFor();
        await screenshot(page, `publish-preview-winners-${en ? 'en' : 'zh'}`);
        expect(problems).toEqual([]);
        await context.close();
      }
      expect((await t.api('POST', `/events/${climateEvent}/results/publish`, { key: org.key })).status).toBe(200);

      for (const [locale, viewport] of [
        ['en', 'desktop'],
        ['zh-CN', 'phone'],
        ['en', 'phone'],
        ['zh-CN', 'desktop'],
      ] as const) {
        const en = locale === 'en';
        const { page, context, problems } = await openPage(browser, { locale, viewport });
        page.setDefaultTimeout(10_000);
        await page.goto(`${t.url}/hackathons/${climateEvent}/result`);
        await settled(page);
        const winners = page.getByRole('region', { name: en ? 'Winners' : '获奖作品' });
        const climate = winners.locator('.winner-item', { hasText: 'PlanetPal' });
        await climate.getByText(en ? '1st in Climate' : 'Climate 赛道第 1 名', { exact: true }).waitFor();
        await climate.getByText('€500', { exact: true }).waitFor();
        await climate.getByText(en ? 'Overall: place 2' : '总排名：第 2 名', { exact: false }).waitFor();
        await winners
          .locator('.winner-item', { hasText: 'Tooly' })
          .getByText(en ? '1st in Developer tools' : 'Developer tools 赛道第 1 名')
          .waitFor();
        // The winners come first, the overall places after them.
        const order = await page.locator('h2').allTextContents();
        expect(order.indexOf(en ? 'Winners' : '获奖作品')).toBeLessThan(order.indexOf(en ? 'Overall ranking: top places' : '总排名前列'));
        // The people's choice: one list per track, under the track's name, ranked within it.
        const pcClimate = page.locator('.pc-track', { has: page.getByRole('heading', { name: en ? "People's choice: Climate" : '人气奖：Climate' }) });
        await expect(pcClimate.locator('li').allTextContents()).resolves.toEqual([
          expect.stringMatching(en ? /^1 Greenish Greenish team · 2 votes$/ : /^1 Greenish Greenish team · 2 票$/),
          expect.stringMatching(en ? /^2 PlanetPal PlanetPal team · 1 vote$/ : /^2 PlanetPal PlanetPal team · 1 票$/),
        ]);
        const pcTools = page.locator('.pc-track', {
          has: page.getByRole('heading', { name: en ? "People's choice: Developer tools" : '人气奖：Developer tools' }),
        });
        await expect(pcTools.locator('li').allTextContents()).resolves.toEqual([expect.stringMatching(/^1 Tooly Tooly team · 1/)]);
        // In the ranking the Climate winner's row says so too.
        await page
          .locator('.ranking tr', { hasText: 'PlanetPal' })
          .getByText(en ? '1st in Climate' : 'Climate 赛道第 1 名')
          .waitFor();
        await expectAccessible(page);
        await screenshot(page, `result-winners-${en ? 'en' : 'zh'}`);
        expect(problems).toEqual([]);
        await context.close();
      }

      // The team's own result: 1st in Climate with its prize, the overall place below.
      for (const [locale, viewport] of [
        ['en', 'phone'],
        ['zh-CN', 'desktop'],
      ] as const) {
        const en = locale === 'en';
        const { page, context, problems } = await openPage(browser, { locale, viewport });
        page.setDefaultTimeout(10_000);
        await signInSession(context, t.url, planetLeader!.email, PASSWORD);
        await page.goto(`${t.url}/hackathons/${climateEvent}/team`);
        await settled(page);
        const result = page.getByRole('region', { name: en ? 'Your result' : '你的结果' });
        await result.getByText(en ? '1st in Climate' : 'Climate 赛道第 1 名', { exact: true }).waitFor();
        await result.getByText(en ? 'Prize: €500' : '奖品：€500', { exact: true }).waitFor();
        await result.getByText(en ? 'Overall rank' : '总排名', { exact: true }).waitFor();
        await expect(result.locator('.team-result-rank').textContent()).resolves.toBe(en ? '2 of 3' : '第 2 名（共 3 个）');
        await expectAccessible(page);
        await screenshot(page, `team-result-winner-${en ? 'en' : 'zh'}`);
        expect(problems).toEqual([]);
        await context.close();
      }
    },
  );
});
