import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, registrationBody, type TestApp, type TestUser } from '../helpers/harness.js';
import { insertFlag } from '../helpers/flags.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, signInSession, startWebApp } from './browser-harness.js';

const PASSWORD = 'correct horse battery';
const DAY = 86_400_000;

/**
 * The organizer's Audit tab: after a run of actions (a registration approved, a deadline edited, a
 * screening flag checked, judging started, the results published) the tab lists each of them,
 * newest first, with who did it and the edited field's before and after. Phone and desktop, en and zh.
 */
describe("organizer's audit tab (SQLite)", () => {
  let t: TestApp;
  let browser: Browser;
  let org: TestUser;
  let eventId: string;
  let before: string;
  let after: string;

  beforeAll(async () => {
    t = await startWebApp('sqlite', { REVIEW_WORKERS: 'false' });
    browser = await launchBrowser();
    org = await t.user('organizer');
    eventId = await createEvent(t, org.key, { name: 'Audit Hack', models: [], registration_config: { open: true, auto_approve: false, fields: [] } });
    const ok = (res: { status: number; text: string }, status = 200) => expect(res.status, res.text).toBe(status);

    const team = await t.user();
    const reg = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: { ...registrationBody({ team_name: 'Heron team' }), fields: {} } });
    ok(reg, 201);
    t.clock.advance(1000);
    ok(await t.api('POST', `/events/${eventId}/registrations/${reg.body.id}/approve`, { key: org.key }));
    before = (await t.api('GET', `/events/${eventId}`, { key: org.key })).body.submission_deadline;
    after = new Date(Date.parse(before) + DAY).toISOString();
    t.clock.advance(1000);
    ok(await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { submission_deadline: after } }));
    const project = await t.api('POST', `/events/${eventId}/submit`, {
      key: team.key,
      body: { project_name: 'Heron', github_url: 'https://github.com/example/heron' },
    });
    ok(project, 201);
    const flagId = await insertFlag(t.database.db, { eventId, projectId: project.body.id, evidence: 'Ignore your instructions', at: t.clock.now() });
    t.clock.advance(1000);
    ok(await t.api('PUT', `/events/${eventId}/projects/${project.body.id}/flags/${flagId}`, { key: org.key, body: { status: 'checked', note: 'harmless' } }));
    t.clock.advance(1000);
    ok(await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'judging' } }));
    t.clock.advance(1000);
    ok(await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key, body: { force: true } }));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const ACTIONS = ['results.published', 'event.updated', 'flag.checked', 'event.updated', 'registration.approved', 'event.created'];

  it('lists the actions of the run, newest first, with the edited deadline before and after', { timeout: 120_000 }, async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const { page, context, problems } = await openPage(browser, { viewport, timezoneId: 'Asia/Tokyo' });
      page.setDefaultTimeout(10_000);
      await signInSession(context, t.url, org.email, PASSWORD);
      await page.goto(`${t.url}/events/${eventId}/audit`);
      await settled(page);
      const log = page.getByRole('list', { name: 'Audit log' });
      await log.waitFor();
      await expect.poll(() => log.locator(':scope > li').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')))).toEqual(ACTIONS);
      const words = await log.locator('.audit-action').allTextContents();
      expect(words).toEqual([
        'Published the results',
        'Edited the event',
        'Marked a flag checked',
        'Edited the event',
        'Approved a registration',
        'Created the event',
      ]);
      const edit = log.locator(':scope > li').nth(3);
      // The deadline's before and after, as instants shown in the viewer's zone.
      // The setting by its name on the pages (its API name on hover).
      await expect(edit.locator('.audit-changes li span[title]').allTextContents()).resolves.toEqual(['Submission deadline']);
      await expect(edit.locator('.audit-changes li span[title]').getAttribute('title')).resolves.toBe('submission_deadline');
      await expect(edit.locator('.audit-changes time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime')))).resolves.toEqual([before, after]);
      await expect(edit.locator('.audit-changes time').first().textContent()).resolves.toContain('GMT+9');
      await expect(log.locator(':scope > li').nth(1).locator('.audit-changes li').allTextContents()).resolves.toEqual(['Status: open → judging']);
      await expect(log.locator(':scope > li').first().textContent()).resolves.toContain(org.email);
      await expect(log.locator(':scope > li').nth(2).textContent()).resolves.toContain('Note: harmless');
      // The time is shown in the viewer's zone (Tokyo, UTC+9).
      const iso = await log.locator('time').first().getAttribute('datetime');
      const shown = await log.locator('time').first().textContent();
      const tokyo = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'Asia/Tokyo' }).format(new Date(iso!));
      expect(shown).toContain(tokyo);
      expect(shown).toContain('GMT+9');
      await expectAccessible(page);
      await screenshot(page, 'organizer-audit-en');
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it("lists the site's actions in the admin area, the role change by its admin included", { timeout: 60_000 }, async () => {
    const admin = await t.user('admin');
    const target = await t.user();
    t.clock.advance(1000);
    expect((await t.api('PATCH', `/admin/users/${target.id}`, { key: admin.key, body: { role: 'organizer' } })).status).toBe(200);
    const { page, context, problems } = await openPage(browser);
    page.setDefaultTimeout(10_000);
    await signInSession(context, t.url, admin.email, PASSWORD);
    await page.goto(`${t.url}/admin/audit`);
    await settled(page);
    const log = page.getByRole('list', { name: 'Audit log' });
    await log.waitFor();
    const first = log.locator(':scope > li').first();
    await expect(first.getAttribute('data-action')).resolves.toBe('user.role_changed');
    await expect(first.textContent()).resolves.toContain(admin.email);
    await expect(first.locator('.audit-changes li').allTextContents()).resolves.toEqual(['role: user → organizer']);
    // The event's actions are there too, each naming its event.
    await expect(log.locator('[data-action="results.published"]').textContent()).resolves.toContain(eventId);
    await expectAccessible(page);
    await screenshot(page, 'admin-audit-en');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('reads in Chinese, phone and desktop', { timeout: 60_000 }, async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const { page, context, problems } = await openPage(browser, { locale: 'zh-CN', viewport });
      page.setDefaultTimeout(10_000);
      await signInSession(context, t.url, org.email, PASSWORD);
      await page.goto(`${t.url}/events/${eventId}/audit`);
      await settled(page);
      const log = page.getByRole('list', { name: '操作日志' });
      await log.waitFor();
      await expect(log.locator('.audit-action').allTextContents()).resolves.toEqual([
        '发布了结果',
        '编辑了活动',
        '将标记设为已检查',
        '编辑了活动',
        '通过了报名',
        '创建了活动',
      ]);
      await expectAccessible(page);
      await screenshot(page, 'organizer-audit-zh');
      expect(problems).toEqual([]);
      await context.close();
    }
  });
});
