import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedTeam, createEvent, type TestApp, type TestUser } from '../helpers/harness.js';
import { launchBrowser, openPage, seriousViolations, settled, signInSession, startWebApp } from './browser-harness.js';

const PASSWORD = 'correct horse battery';
const DAY = 86_400_000;

/**
 * Every page of the web app, in both languages, through axe-core: no serious or critical
 * violation, no console error or CSP violation, and a level-1 heading on each. The page tests check
 * what each page does; this one makes sure no page (or state of one) is left out of the check.
 */
describe('accessibility of every page, in English and Chinese (SQLite)', () => {
  let t: TestApp;
  let browser: Browser;
  let admin: TestUser;
  let eventId: string;
  let projectId: string;

  beforeAll(async () => {
    t = await startWebApp('sqlite', { REVIEW_WORKERS: 'false' });
    browser = await launchBrowser();
    admin = await t.user('admin');
    // An event with a team, a project, the admin as its (human) reviewer, and a published result.
    eventId = await createEvent(t, admin.key, { name: 'Sweep Hack', models: [] });
    const { team } = await approvedTeam(t, eventId, admin.key);
    const sub = await t.api('POST', `/events/${eventId}/submit`, {
      key: team.key,
      body: { project_name: 'Sweep Project', github_url: 'https://github.com/acme/sweep' },
    });
    projectId = sub.body.id;
    await t.database.db.insertInto('event_reviewers').values({ event_id: eventId, user_id: admin.id, created_at: t.clock.now().toISOString() }).execute();
    t.clock.set(t.clock.now().getTime() + 3 * DAY);
    expect((await t.api('PUT', `/events/${eventId}/projects/${projectId}/review`, { key: admin.key, body: { scores: { impact: 8, craft: 7 } } })).status).toBe(
      201,
    );
    expect((await t.api('POST', `/events/${eventId}/results/publish`, { key: admin.key, body: { force: true } })).status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const publicPages = () => [
    '/',
    `/hackathons/${eventId}`,
    `/hackathons/${eventId}/result`,
    '/signin',
    '/signup',
    '/forgot-password',
    '/reset-password?token=x',
    `/invitations/${'A'.repeat(43)}`,
    `/hackathons/${eventId}/join?code=x`,
    '/no/such/page',
  ];
  const signedInPages = () => [
    '/account',
    '/api-keys',
    '/admin',
    '/admin/invite-codes',
    '/events',
    '/events/new',
    `/events/${eventId}/edit`,
    ...['', '/registrations', '/projects', '/ai-reviews', '/reviewers', '/leaderboard', '/publish'].map((tab) => `/events/${eventId}${tab}`),
    '/reviews',
    `/reviews/${eventId}`,
    `/reviews/${eventId}/projects/${projectId}`,
    '/me/hackathons',
    `/hackathons/${eventId}/register`,
    `/hackathons/${eventId}/project`,
    `/hackathons/${eventId}/join?code=x`,
  ];

  async function sweep(page: Page, paths: string[]): Promise<string[]> {
    const found: string[] = [];
    for (const path of paths) {
      await page.goto(`${t.url}${path}`);
      await settled(page);
      await page
        .getByRole('heading', { level: 1 })
        .first()
        .waitFor({ timeout: 5_000 })
        .catch(() => found.push(`${path}: no level-1 heading`));
      for (const v of await seriousViolations(page)) found.push(`${path}: ${v.impact} ${v.id} (${v.help}) at ${v.nodes.join(', ')}`);
    }
    return found;
  }

  for (const locale of ['en', 'zh-CN'] as const) {
    it(`public and account pages, signed out (${locale})`, { timeout: 120_000 }, async () => {
      const { page, context, problems } = await openPage(browser, { locale });
      expect(await sweep(page, publicPages())).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    });

    it(`signed-in pages: account, keys, admin, dashboard with every tab, reviewing (${locale})`, { timeout: 120_000 }, async () => {
      const { page, context, problems } = await openPage(browser, { locale, viewport: locale === 'en' ? 'desktop' : 'phone' });
      await signInSession(context, t.url, admin.email, PASSWORD);
      expect(await sweep(page, signedInPages())).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
