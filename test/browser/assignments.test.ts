import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedTeam, createEvent, type TestApp, type TestUser } from '../helpers/harness.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, signInSession, startWebApp } from './browser-harness.js';

const PASSWORD = 'correct horse battery';
const DAY = 86_400_000;

describe('assigned reviewing in the browser (SQLite)', () => {
  let t: TestApp;
  let browser: Browser;
  let org: TestUser;
  let eventId: string;
  const reviewers: TestUser[] = [];

  beforeAll(async () => {
    t = await startWebApp('sqlite', { REVIEW_WORKERS: 'false' });
    browser = await launchBrowser();
    org = await t.user('organizer');
    // No AI models: the human reviews alone score, so publication meets only the judging warning.
    eventId = await createEvent(t, org.key, { name: 'Panel Hack', models: [] });
    for (let i = 1; i <= 12; i++) {
      const { team } = await approvedTeam(t, eventId, org.key);
      const res = await t.api('POST', `/events/${eventId}/submit`, {
        key: team.key,
        body: { project_name: `Project ${String(i).padStart(2, '0')}`, github_url: `https://github.com/example/p${i}` },
      });
      expect(res.status, res.text).toBe(201);
      t.clock.advance(1000);
    }
    for (let i = 1; i <= 4; i++) {
      const r = await t.user('user', `judge${i}@panel.example`);
      t.clock.advance(1000);
      await t.database.db.insertInto('event_reviewers').values({ event_id: eventId, user_id: r.id, created_at: t.clock.now().toISOString() }).execute();
      reviewers.push(r);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signedIn(user: TestUser, opts: Parameters<typeof openPage>[1] = {}) {
    const opened = await openPage(browser, opts);
    opened.page.setDefaultTimeout(10_000);
    await signInSession(opened.context, t.url, user.email, PASSWORD);
    return opened;
  }

  it('the organizer assigns 2 per project, each reviewer sees only their 6, publication warns about unfinished human judging', async () => {
    // The organizer assigns 2 reviewers per project from the reviewers tab.
    const organizer = await signedIn(org);
    const page = organizer.page;
    await page.goto(`${t.url}/events/${eventId}/reviewers`);
    await settled(page);
    await page.getByRole('heading', { name: 'Who reviews what' }).waitFor();
    await page.getByText('Every reviewer reviews every project.').waitFor();
    await page.getByLabel('Reviewers per project').fill('2');
    await page.getByRole('button', { name: 'Assign automatically' }).click();
    await page.getByText('2 reviewers per project, assigned automatically; each reviewer has 6 to 6 projects.').waitFor();
    await page.getByRole('table', { name: 'Projects and their reviewers' }).waitFor();
    // Each reviewer's progress counts their 6, not all 12.
    expect(await page.getByText('0 of 6 reviewed').count()).toBe(4);
    expect(await page.getByRole('table', { name: 'Projects and their reviewers' }).locator('tbody tr').count()).toBe(12);
    await expectAccessible(page);
    await screenshot(page, 'assignments-organizer');

    let list = (await t.api('GET', `/events/${eventId}/assignments`, { key: org.key })).body as Array<{ project_id: string; reviewer_ids: string[] }>;
    for (const r of reviewers) expect(list.filter((a) => a.reviewer_ids.includes(r.id))).toHaveLength(6);

    // Judging starts; each reviewer's queue lists their 6 projects only (one in Chinese on a phone).
    t.clock.advance(3 * DAY);
    for (const [i, r] of reviewers.entries()) {
      const zh = i === 3;
      const { page: rp, context, problems } = await signedIn(r, zh ? { locale: 'zh-CN', viewport: 'phone' } : {});
      await rp.goto(`${t.url}/reviews/${eventId}`);
      await settled(rp);
      await rp.getByText(zh ? '已评审 0 / 6' : '0 of 6 reviewed').waitFor();
      await rp
        .getByText(
          zh ? '这些作品由主办方分配给你；其余作品由其他评审负责。' : 'The organizers assigned these projects to you; other reviewers review the rest.',
        )
        .waitFor();
      const mine = list.filter((a) => a.reviewer_ids.includes(r.id)).length;
      expect(mine).toBe(6);
      if (i === 0 || zh) {
        await expectAccessible(rp);
        await screenshot(rp, `assignments-reviewer-queue-${zh ? 'zh' : 'en'}`);
      }
      if (i === 0) {
        // The first reviewer knows one team: they declare a conflict, the project leaves their list.
        const first = rp.getByRole('link', { name: /^Review / }).first();
        const label = (await first.getAttribute('aria-label'))!;
        await first.click();
        await settled(rp);
        await rp.getByRole('button', { name: 'Declare a conflict of interest' }).click();
        await rp.getByRole('dialog').getByRole('button', { name: 'Declare a conflict of interest' }).click();
        await rp.waitForURL(`${t.url}/reviews/${eventId}`);
        // Its place is taken by a project moved from the busiest reviewer: still six, evenly.
        await rp.getByText('0 of 6 reviewed').waitFor();
        expect(await rp.getByRole('link', { name: label }).count()).toBe(0);
      }
      expect(problems).toEqual([]);
      await context.close();
    }

    // The declared conflict moved projects around; loads stay six each.
    list = (await t.api('GET', `/events/${eventId}/assignments`, { key: org.key })).body;
    for (const r of reviewers) expect(list.filter((a) => a.reviewer_ids.includes(r.id))).toHaveLength(6);
    // Each project's first reviewer scores it: every project is scored, 12 assigned reviews stay open.
    for (const a of list) {
      const r = reviewers.find((x) => x.id === a.reviewer_ids[0])!;
      const put = await t.api('PUT', `/events/${eventId}/projects/${a.project_id}/review`, { key: r.key, body: { scores: { impact: 7, craft: 6 } } });
      expect(put.status, put.text).toBe(201);
    }
    const open = new Set(list.map((a) => a.reviewer_ids[1])).size;

    await page.goto(`${t.url}/events/${eventId}/publish`);
    await settled(page);
    await page.getByRole('button', { name: 'Publish results' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Publish results' }).click();
    await dialog.getByRole('heading', { name: 'Human judging is unfinished' }).waitFor();
    await dialog.getByText(`12 projects have fewer human reviews than reviewers assigned; ${open} reviewers have 12 reviews still open.`).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'assignments-publish-unfinished');
    await dialog.getByRole('button', { name: 'Publish anyway' }).click();
    await page.getByText('The results are published.').waitFor();
    expect(organizer.problems).toEqual([]);
    await organizer.context.close();
  });
});
