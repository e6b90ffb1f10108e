import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, type TestApp } from '../helpers/harness.js';
import { launchBrowser, openPage, signInSession, startWebApp } from './browser-harness.js';

const PASSWORD = 'correct horse battery';

/** The server's problems are English; a Chinese page says them in Chinese. */
describe('problems in the page language (SQLite)', () => {
  let t: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    t = await startWebApp('sqlite', { REVIEW_WORKERS: 'false' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('the event editor in Chinese shows a field problem and a problem code in Chinese', async () => {
    const organizer = await t.user('organizer');
    const id = await createEvent(t, organizer.key, { name: '语言测试', models: [] });
    const { page, context, problems } = await openPage(browser, { locale: 'zh-CN' });
    page.setDefaultTimeout(10_000);
    await signInSession(context, t.url, organizer.email, PASSWORD);
    await page.goto(`${t.url}/events/${id}/edit`);
    await page.getByRole('heading', { level: 1, name: /语言测试/ }).waitFor();

    // A co-organizer address the server refuses (no top-level domain; the form's own check lets it
    // through): the server's "must be one plain e-mail address …", in Chinese, at its input.
    await page.getByRole('button', { name: '添加协办者' }).click();
    const co = page.getByRole('textbox', { name: '协办者 1 邮箱', exact: true });
    await co.fill('ghost@localhost');
    await page.getByRole('button', { name: '保存修改' }).click();
    await page.getByText('必须是邮箱地址。').waitFor();
    expect(await co.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('must be one plain e-mail address').count()).toBe(0);

    // Judging started elsewhere: moving a deadline now is `409 event_locked`, said in Chinese.
    await page.getByRole('button', { name: '删除: 协办者 1 邮箱' }).click();
    expect((await t.api('PATCH', `/events/${id}`, { key: organizer.key, body: { status: 'judging' } })).status).toBe(200);
    await page.getByRole('group', { name: '报名截止时间', exact: true }).getByLabel('时间').fill('23:59');
    await page.getByRole('button', { name: '保存修改' }).click();
    await page.getByRole('alert').filter({ hasText: '活动的这部分内容已无法修改。' }).waitFor();
    expect(await page.getByText('cannot change once judging has started').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
