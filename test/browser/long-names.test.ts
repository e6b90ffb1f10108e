import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { approvedTeam, createEvent, type TestApp, type TestUser } from '../helpers/harness.js';
import { startSmtpReceiver, unfoldMail } from '../helpers/smtp-receiver.js';
import { launchBrowser, openPage, screenshot, settled, signInSession, startWebApp, type ViewportName } from './browser-harness.js';

const PASSWORD = 'correct horse battery';

/** Names as people write them: long, unbroken, Chinese. */
const PROJECTS = [
  'An Extraordinarily Long Project Name That Keeps Going Well Past Any Chart Label Width',
  'Supercalifragilisticexpialidocious-Agent-Orchestration-Framework',
  '一个名字非常非常长的多智能体协作平台项目用于农业灌溉与天气预报',
  'Short',
  'Retrieval-Augmented Generation Pipeline for Multilingual Legal Document Review',
  '面向中小企业的智能客服与知识库自动构建系统',
];
const MODELS = ['openai/gpt-4o-mini-2024-07-18', 'anthropic/claude-sonnet-4-5-20250929', 'ollama/llama3.1:70b-instruct-q4_K_M'];
const DIMENSIONS = [
  { name: 'Real-world impact on the community', weight: 3 },
  { name: 'Technical depth', weight: 2 },
  { name: 'Craft', weight: 1 },
  { name: '演示质量', weight: 1 },
];

/** How far the page is wider than the screen (0 when it fits). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Whether `cell` is wholly inside its scrolling table box and the screen, as the page opened (no scrolling). */
async function cellInView(page: Page, cell: string, wrap: string) {
  return page.evaluate(
    ([cellSel, wrapSel]) => {
      const c = document.querySelector(cellSel!)!.getBoundingClientRect();
      const w = document.querySelector(wrapSel!)!.getBoundingClientRect();
      const ok = c.width > 0 && c.left >= w.left && c.right <= w.right && c.right <= window.innerWidth;
      return ok || JSON.stringify({ cellSel, c: [c.left, c.right], w: [w.left, w.right], iw: window.innerWidth });
    },
    [cell, wrap],
  );
}

/**
 * The names on each chart's category axis: every one there (none dropped for lack of room), with the
 * full name as its title, inside the chart (not clipped at its left edge), none over another.
 */
async function chartNames(page: Page) {
  return page.evaluate(() =>
    // The charts' own surfaces (the legend's icons are small ones of their own).
    [...document.querySelectorAll('svg.recharts-surface')]
      .filter((svg) => svg.querySelector('.recharts-yAxis'))
      .map((svg) => {
        const box = svg.getBoundingClientRect();
        const names = [...svg.querySelectorAll('text.chart-name')].map((el) => {
          const r = el.getBoundingClientRect();
          return {
            title: el.querySelector('title')?.textContent ?? '',
            shown: [...el.querySelectorAll('tspan')].map((s) => s.textContent).join(' '),
            top: r.top,
            bottom: r.bottom,
            left: r.left,
          };
        });
        const sorted = [...names].sort((a, b) => a.top - b.top);
        return {
          titles: names.map((n) => n.title),
          inside: names.every((n) => n.left >= box.left - 0.5),
          apart: sorted.every((n, i) => i === 0 || n.top >= sorted[i - 1]!.bottom - 1),
          shown: names.map((n) => n.shown),
        };
      }),
  );
}

/** Full-page screenshots draw the sticky header where the page was scrolled to: keep it at the top. */
async function unstickHeader(page: Page) {
  await page.evaluate(() => {
    for (const el of document.querySelectorAll<HTMLElement>('header')) el.style.position = 'static';
    window.scrollTo(0, 0);
  });
}

/**
 * Long project, team, dimension and model names on the result page and the organizer's leaderboard,
 * and the invitation page, on a 360 px phone and a desktop, in English and Chinese: nothing wider
 * than the screen, the score always in view, the charts readable (screenshots, looked at by a person).
 */
describe('long names on charts and tables (SQLite)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let t: TestApp;
  let browser: Browser;
  let org: TestUser;
  let eventId = '';

  async function insertReview(projectId: string, kind: 'model' | 'human', reviewer: string, scores: Record<string, number>) {
    const now = t.clock.now().toISOString();
    await t.ctx.db
      .insertInto('reviews')
      .values({
        id: newId('rev'),
        event_id: eventId,
        project_id: projectId,
        reviewer_kind: kind,
        reviewer,
        group_key: kind === 'human' ? 'human' : reviewer,
        status: 'succeeded',
        scores: JSON.stringify(scores),
        attempts: 1,
        created_at: now,
        updated_at: now,
        completed_at: now,
      })
      .execute();
  }

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await startWebApp('sqlite', { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, REVIEW_WORKERS: 'false' });
    browser = await launchBrowser();
    org = await t.user('organizer');
    eventId = await createEvent(t, org.key, {
      name: 'Long Names Hack',
      models: [],
      dimensions: DIMENSIONS,
      tracks: [
        { id: 'tools', name: 'Developer tools and infrastructure for autonomous agents', prize: '$1000' },
        { id: 'fun', name: '趣味', prize: 'glory' },
      ],
    });
    const keys: string[] = [];
    for (const i of PROJECTS.keys()) {
      const team_name = i % 2 ? `团队${i}号：来自很远很远的地方的开发者们` : `The Remarkably Persistent Team Number ${i} From Far Away`;
      keys.push((await approvedTeam(t, eventId, org.key, { team_name, track_id: i % 2 ? 'fun' : 'tools' })).team.key);
    }
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'active' } })).status).toBe(200);
    const projects: string[] = [];
    for (const [i, name] of PROJECTS.entries()) {
      const res = await t.api('POST', `/events/${eventId}/submit`, {
        key: keys[i],
        body: { project_name: name, github_url: `https://github.com/example/p${i}` },
      });
      expect(res.status, res.text).toBe(201);
      projects.push(res.body.id);
    }
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'judging' } })).status).toBe(200);
    for (const [i, id] of projects.entries()) {
      const base = 9.5 - i * 1.1;
      const scores = (d: number) =>
        Object.fromEntries(DIMENSIONS.map((dim, k) => [dim.name, Math.max(0, Math.min(10, Math.round((base + d - k * 0.3) * 10) / 10))]));
      for (const [m, model] of MODELS.entries()) await insertReview(id, 'model', model, scores(m * 0.4 - 0.4));
      await insertReview(id, 'human', 'usr_h1', scores(0.2));
    }
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });

  async function open(locale: 'en' | 'zh-CN', viewport: ViewportName) {
    const opened = await openPage(browser, { locale, viewport });
    opened.page.setDefaultTimeout(10_000);
    return opened;
  }

  for (const locale of ['en', 'zh-CN'] as const) {
    for (const viewport of ['phone', 'desktop'] as const) {
      const tag = locale === 'en' ? 'en' : 'zh';

      it(`the organizer's leaderboard fits and its charts show the names (${locale}, ${viewport})`, async () => {
        const { page, context, problems } = await open(locale, viewport);
        await signInSession(context, t.url, org.email, PASSWORD);
        await page.goto(`${t.url}/events/${eventId}/leaderboard`);
        await page.locator('.recharts-surface').nth(1).waitFor();
        await settled(page);
        expect(await overflow(page)).toBe(0);
        // The score beside the longest names, without scrolling the table.
        expect(await cellInView(page, '.table-wrap table tbody tr:first-child td:nth-child(3)', '.table-wrap')).toBe(true);
        const charts = await chartNames(page);
        expect(charts).toHaveLength(2);
        for (const chart of charts) {
          expect(chart.titles).toEqual(PROJECTS);
          expect(chart.inside).toBe(true);
          expect(chart.apart).toBe(true);
        }
        await unstickHeader(page);
        await screenshot(page, `long-names-leaderboard-${tag}`);
        await page.locator('.detail-charts').screenshot({ path: `test-output/screenshots/long-names-leaderboard-charts-${tag}-${viewport}.png` });
        expect(problems).toEqual([]);
        await context.close();
      });
    }
  }

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`the invitation page fits a ${viewport}`, async () => {
      const email = `a.rather.long.reviewer.address.${viewport}@university-of-somewhere.example.org`;
      const before = smtp.count();
      expect((await t.api('POST', `/events/${eventId}/reviewers`, { key: org.key, body: { email } })).status).toBe(201);
      const token = /\/invitations\/([A-Za-z0-9_-]{43})/.exec(unfoldMail((await smtp.nextTo(email, before)).raw))![1]!;
      const { page, context, problems } = await open('en', viewport);
      await page.goto(`${t.url}/invitations/${token}`);
      await settled(page);
      await page.getByText(email).first().waitFor();
      expect(await overflow(page)).toBe(0);
      await screenshot(page, 'long-names-invitation');
      await page.getByLabel('New password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account and accept' }).click();
      await page.getByTestId('review-key').waitFor();
      expect(await overflow(page)).toBe(0);
      await screenshot(page, 'long-names-invitation-key');
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it('publishes', async () => {
    expect((await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key })).status).toBe(200);
  });

  for (const locale of ['en', 'zh-CN'] as const) {
    for (const viewport of ['phone', 'desktop'] as const) {
      const tag = locale === 'en' ? 'en' : 'zh';
      it(`the result page fits, keeps the score in view and shows the judges (${locale}, ${viewport})`, async () => {
        const { page, context, problems } = await open(locale, viewport);
        await page.goto(`${t.url}/hackathons/${eventId}/result`);
        await page.locator('.recharts-surface').first().waitFor();
        await settled(page);
        expect(await overflow(page)).toBe(0);
        const [chart] = await chartNames(page);
        expect(chart!.titles).toEqual(PROJECTS);
        expect(chart!.inside).toBe(true);
        expect(chart!.apart).toBe(true);
        const score = '.ranking tbody tr:first-child td.score-col';
        expect(await page.locator(score).textContent()).toBe('9.25');
        expect(await cellInView(page, score, '.ranking-wrap')).toBe(true);

        // Every judge's column too: the page stays within the screen, the score in view; on a
        // desktop the whole table fits (the headers wrap), on a phone it scrolls inside its box.
        await page.locator('.result-page input[type=checkbox]').check();
        await page.locator('th.judge-col').first().waitFor();
        expect(await page.locator('th.judge-col').count()).toBe(MODELS.length + 1);
        expect(await overflow(page)).toBe(0);
        expect(await cellInView(page, score, '.ranking-wrap')).toBe(true);
        const lastJudge = '.ranking tbody tr:first-child td.judge-col:last-child';
        expect((await cellInView(page, lastJudge, '.ranking-wrap')) === true).toBe(viewport === 'desktop');
        if (viewport === 'phone') {
          // Scrolled to inside the table's box, the last judge's column is all there.
          await page.locator('.ranking-wrap').evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
          expect(await cellInView(page, lastJudge, '.ranking-wrap')).toBe(true);
          await page.locator('.ranking-wrap').evaluate((el) => el.scrollTo({ left: 0 }));
        }
        await unstickHeader(page);
        await screenshot(page, `long-names-result-${tag}`);
        await page.locator('.chart-card').screenshot({ path: `test-output/screenshots/long-names-result-chart-${tag}-${viewport}.png` });
        await page.locator('.ranking-wrap').screenshot({ path: `test-output/screenshots/long-names-result-table-${tag}-${viewport}.png` });
        expect(problems).toEqual([]);
        await context.close();
      });
    }
  }
});
