import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, registrationBody, type TestApp, type TestUser } from '../helpers/harness.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, signInSession, startWebApp } from './browser-harness.js';

const PASSWORD = 'correct horse battery';

/**
 * The team finder on the web: a person on their own goes from the event page to the finder, lists
 * themself, finds a team and asks to join; the leader sees the request on the team page, says what
 * the team needs, accepts, and the person's team page shows the team. English on a desktop, Chinese
 * on a phone.
 */
describe('the team finder on the web (SQLite)', () => {
  let t: TestApp;
  let browser: Browser;
  let org: TestUser;
  let leader: TestUser;
  let eventId: string;

  beforeAll(async () => {
    t = await startWebApp('sqlite', { REVIEW_WORKERS: 'false' });
    browser = await launchBrowser();
    org = await t.user('organizer');
    eventId = await createEvent(t, org.key, {
      name: 'Finder Hack',
      models: [],
      registration_config: { open: true, auto_approve: true, fields: [], max_team_size: 4 },
    });
    leader = await t.user();
    expect((await t.api('PATCH', '/me/settings', { key: leader.key, body: { name: 'Lena Leader' } })).status).toBe(200);
    const reg = await t.api('POST', `/events/${eventId}/register`, { key: leader.key, body: registrationBody({ fields: {}, team_name: 'Otters' }) });
    expect(reg.status).toBe(201);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('a person finds a team and asks to join; the leader accepts; they are a member (en desktop, zh phone)', { timeout: 180_000 }, async () => {
    let members = 1;
    for (const [locale, viewport, seekerName] of [
      ['en', 'desktop', 'Sam Seeker'],
      ['zh-CN', 'phone', '小明'],
    ] as const) {
      const en = locale === 'en';
      const seeker = await t.user();
      expect((await t.api('PATCH', '/me/settings', { key: seeker.key, body: { name: seekerName } })).status).toBe(200);

      // The person on their own: from the event page to the finder.
      const s = await openPage(browser, { locale, viewport });
      s.page.setDefaultTimeout(10_000);
      await signInSession(s.context, t.url, seeker.email, PASSWORD);
      await s.page.goto(`${t.url}/hackathons/${eventId}`);
      await settled(s.page);
      await s.page.getByRole('link', { name: en ? 'Find a team' : '寻找团队' }).click();
      await settled(s.page);
      const finder = s.page.getByRole('region', { name: en ? 'Find a team' : '寻找团队' });
      await finder.getByText(en ? 'Save your entry to see the teams and the people looking.' : '保存你的信息后即可查看团队和正在寻找团队的人。').waitFor();
      await finder.getByLabel(en ? 'About you' : '关于你').fill(en ? 'Frontend dev, likes maps' : '前端开发，喜欢地图');
      await finder.getByRole('textbox', { name: en ? 'Skills' : '技能', exact: true }).fill('React, Design');
      await finder.getByRole('button', { name: en ? 'Save and look for a team' : '保存并寻找团队' }).click();
      await settled(s.page);
      await finder.getByText(en ? 'You are listed as looking for a team.' : '你已在“寻找团队”名单中。').waitFor();
      const team = finder.getByRole('listitem').filter({ hasText: 'Otters' });
      await team.getByText(en ? `${members} of 4 places taken` : `已有 ${members} / 4 人`).waitFor();
      await expectAccessible(s.page);
      await screenshot(s.page, `team-finder-person-${en ? 'en' : 'zh'}`);
      await team.getByRole('button', { name: en ? 'Ask to join Otters' : '申请加入「Otters」' }).click();
      await team.getByLabel(en ? 'Message to the leader' : '给队长的留言').fill(en ? 'I can build the UI' : '我可以做界面');
      await team.getByRole('button', { name: en ? 'Send the request' : '发送申请' }).click();
      await settled(s.page);
      await team.getByText(en ? 'Requested' : '已申请').waitFor();
      await finder.getByText(en ? 'Waiting for the leader' : '等待队长回复').waitFor();
      const html = await s.page.content();
      expect(html).not.toContain(leader.email);

      // The leader: the request on the team page, what the team needs, accept.
      const l = await openPage(browser, { locale, viewport });
      l.page.setDefaultTimeout(10_000);
      await signInSession(l.context, t.url, leader.email, PASSWORD);
      await l.page.goto(`${t.url}/hackathons/${eventId}/team`);
      await settled(l.page);
      const teammates = l.page.getByRole('region', { name: en ? 'Find teammates' : '招募队友' });
      const request = teammates.getByRole('listitem').filter({ hasText: seekerName }).first();
      await request.getByText(en ? 'I can build the UI' : '我可以做界面').waitFor();
      await teammates.getByLabel(en ? 'What you are looking for' : '你们在找什么样的人').fill(en ? 'A designer for our map app' : '地图应用需要设计师');
      await teammates.getByRole('textbox', { name: en ? 'Skills' : '技能', exact: true }).fill('design, figma');
      await teammates.getByRole('button', { name: en ? 'Save' : '保存', exact: true }).click();
      await settled(l.page);
      await teammates.getByText(en ? 'Saved.' : '已保存。').waitFor();
      await expectAccessible(l.page);
      await screenshot(l.page, `team-finder-leader-${en ? 'en' : 'zh'}`);
      await request.getByRole('button', { name: en ? 'Accept' : '接受' }).click();
      await settled(l.page);
      members += 1;
      await l.page
        .getByRole('region', { name: en ? 'Members' : '成员' })
        .getByText(seekerName)
        .waitFor();
      await teammates.getByText(en ? 'No requests yet.' : '暂无申请。').waitFor();

      // The person is a member: their team page shows the team.
      await s.page.goto(`${t.url}/hackathons/${eventId}/team`);
      await settled(s.page);
      await s.page.getByRole('heading', { level: 1, name: 'Otters' }).waitFor();
      await screenshot(s.page, `team-finder-member-${en ? 'en' : 'zh'}`);
      expect(s.problems).toEqual([]);
      expect(l.problems).toEqual([]);
      await s.context.close();
      await l.context.close();
    }
    const team = await t.api('GET', `/events/${eventId}/team`, { key: leader.key });
    expect(team.body.member_count).toBe(3);
  });
});
