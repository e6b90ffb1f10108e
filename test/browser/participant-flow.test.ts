import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, type TestApp, type TestUser } from '../helpers/harness.js';
import { startSmtpReceiver, unfoldMail } from '../helpers/smtp-receiver.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, signInSession, startWebApp, type OpenedPage } from './browser-harness.js';

const PASSWORD = 'correct horse battery';

/** Every field type the server's forms support, required and optional, and two tracks. */
const FORM = {
  open: true,
  auto_approve: false,
  fields: [
    { key: 'pitch', label: 'One-line pitch', type: 'text', required: true },
    { key: 'plan', label: 'What you will build', type: 'textarea', required: true },
    { key: 'site', label: 'Team website', type: 'url', required: false },
    { key: 'mentor', label: 'Mentor e-mail', type: 'email', required: false },
    { key: 'hours', label: 'Hours per week', type: 'number', required: true },
  ],
};

/**
 * A participant's way through the pages, once per database: signed out, "Register" leads through
 * sign-up (confirmed by the mailed link) back to the web form; the form shows the errors next to
 * their fields, then registers the team and lands on the team page; the organizer approves in the
 * dashboard; the team submits its project on the web and changes it; the event page and "my
 * hackathons" say the same status. The leader invites two people by link; one joins with an
 * account, the other through sign-up; one member submits the project and the other changes it. Screenshots at phone and desktop width, in English and Chinese.
 */
describe.each(DIALECTS)('participant flow through the web app (%s)', (dialect) => {
  let t: TestApp;
  let browser: Browser;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let organizer: TestUser;
  let eventId: string;
  const leaderEmail = `leader-${dialect}@example.com`;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await startWebApp(dialect, { SIGNUP_MODE: 'open', SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, REVIEW_WORKERS: 'false' });
    organizer = await t.user('organizer');
    eventId = await createEvent(t, organizer.key, { name: 'Harbour Hack', time_zone: 'Asia/Shanghai', registration_config: FORM });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });

  async function visit(page: Page, path: string) {
    await page.goto(`${t.url}${path}`);
    await settled(page);
  }

  /** Screenshots of one page at phone and desktop width in both languages, each checked by axe. */
  async function shoot(path: string, name: string, email: string) {
    for (const locale of ['en', 'zh-CN'] as const) {
      for (const viewport of ['phone', 'desktop'] as const) {
        const o: OpenedPage = await openPage(browser, { locale, viewport, timezoneId: 'Europe/Berlin' });
        await signInSession(o.context, t.url, email, PASSWORD);
        await visit(o.page, path);
        await o.page.locator('h1').first().waitFor();
        await expectAccessible(o.page);
        await screenshot(o.page, `participant-${name}-${locale === 'en' ? 'en' : 'zh'}-${dialect}`);
        expect(o.problems).toEqual([]);
        await o.context.close();
      }
    }
  }

  it('signed out → sign up → web form (errors by the fields) → team page → approved → project submitted and changed', { timeout: 240_000 }, async () => {
    const leader = await openPage(browser, { timezoneId: 'Europe/Berlin' });
    const page = leader.page;
    page.setDefaultTimeout(15_000);

    // 1. Signed out, the event page's "Register" leads to sign-up, which comes back to the form.
    await visit(page, `/hackathons/${eventId}`);
    await page.getByRole('link', { name: 'Register', exact: true }).first().click();
    await page.waitForURL(/\/signup\?next=/);
    await page.getByLabel('E-mail address').fill(leaderEmail);
    await page.getByLabel('Name').fill('Lea Leader');
    await page.getByLabel('Password').fill(PASSWORD);
    const before = smtp.count();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Check your inbox' }).waitFor();
    const link = /http:\/\/127\.0\.0\.1:\d+\/signup\/confirm\?token=[A-Za-z0-9_-]{43}/.exec(unfoldMail((await smtp.nextTo(leaderEmail, before)).raw))![0];
    await page.goto(link);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.waitForURL(`${t.url}/hackathons/${eventId}/register`);

    // 2. The form: every field type, required marks; an empty send shows the problems next to their fields.
    await page.getByRole('heading', { level: 1, name: 'Register for Harbour Hack' }).waitFor();
    await page.getByRole('button', { name: 'Register the team' }).click();
    const teamName = page.getByRole('textbox', { name: /^Team name/ });
    await expect.poll(() => teamName.getAttribute('aria-invalid')).toBe('true');
    await page.getByText('Choose a track.').waitFor();
    expect(await page.getByRole('textbox', { name: /^One-line pitch/ }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('spinbutton', { name: /^Hours per week/ }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('textbox', { name: /^Team website/ }).getAttribute('aria-invalid')).toBeNull();
    await expectAccessible(page);

    // The server's own check (a URL that is none) comes back next to its field too.
    await teamName.fill('Tide Pool');
    await page.getByRole('radio', { name: /Developer tools/ }).check();
    await page.getByRole('textbox', { name: /^One-line pitch/ }).fill('Buoys that report water quality');
    await page.getByRole('textbox', { name: /^What you will build/ }).fill('Cheap sensors.\nA map.');
    await page.getByRole('spinbutton', { name: /^Hours per week/ }).fill('12');
    await page.getByRole('textbox', { name: /^Team website/ }).fill('not a url');
    await page.getByRole('button', { name: 'Register the team' }).click();
    await page.getByText('must be an absolute http(s) URL').waitFor();
    expect(await page.getByRole('textbox', { name: /^Team website/ }).getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('textbox', { name: /^Team website/ }).fill('https://tide.example.org');
    await page.getByRole('textbox', { name: /^Mentor e-mail/ }).fill('mentor@example.org');
    await page.getByRole('button', { name: 'Register the team' }).click();
    await page.waitForURL(`${t.url}/hackathons/${eventId}/team`);
    const leaderUser = (await t.database.db.selectFrom('users').select(['id']).where('email', '=', leaderEmail).executeTakeFirstOrThrow()).id;
    const regRow = await t.database.db
      .selectFrom('registrations')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('user_id', '=', leaderUser)
      .executeTakeFirstOrThrow();
    expect(regRow).toMatchObject({ team_name: 'Tide Pool', track_id: 'tools', status: 'pending' });
    expect(JSON.parse(regRow.fields)).toEqual({
      pitch: 'Buoys that report water quality',
      plan: 'Cheap sensors.\nA map.',
      site: 'https://tide.example.org',
      mentor: 'mentor@example.org',
      hours: 12,
    });

    // 2b. The team page: the leader invites two people by link (copy button; each link shown once).
    await page.getByRole('heading', { level: 1, name: 'Tide Pool' }).waitFor();
    // While pending, the leader may rename the team (and back).
    const rename = async (name: string) => {
      await page.getByRole('textbox', { name: /^Name/ }).fill(name);
      await page.getByRole('button', { name: 'Save the name' }).click();
      await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    };
    await rename('Tide Pool Crew');
    expect((await t.database.db.selectFrom('registrations').select('team_name').where('id', '=', regRow.id).executeTakeFirstOrThrow()).team_name).toBe(
      'Tide Pool Crew',
    );
    await rename('Tide Pool');
    await screenshot(page, `participant-team-pending-${dialect}`);
    const invite = async () => {
      await page.getByRole('button', { name: 'Create invitation link' }).click();
      await page.getByText('Invitation link created.').waitFor();
      const url = (await page.locator('.invite-link').textContent())!;
      await page.getByRole('button', { name: 'Copy link' }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
      await page.getByRole('button', { name: 'Done' }).click();
      return url;
    };
    const link1 = await invite();
    const link2 = await invite();
    expect(link1).toMatch(new RegExp(`^${t.url}/hackathons/${eventId}/join\\?code=[A-Za-z0-9_-]{20,}$`));
    expect(link2).not.toBe(link1);
    await expect.poll(() => page.getByRole('button', { name: /^Revoke the invitation/ }).count()).toBe(2);
    await expectAccessible(page);

    // 2c. Member one has an account: signs in, opens the link, joins.
    const one = await t.user();
    await t.database.db.updateTable('users').set({ name: 'Omar One' }).where('id', '=', one.id).execute();
    const m1 = await openPage(browser, { timezoneId: 'Asia/Tokyo' });
    m1.page.setDefaultTimeout(15_000);
    await signInSession(m1.context, t.url, one.email, PASSWORD);
    await m1.page.goto(link1);
    await settled(m1.page);
    await m1.page.getByRole('button', { name: 'Join the team' }).click();
    await m1.page.waitForURL(`${t.url}/hackathons/${eventId}/team`);
    await m1.page.getByRole('heading', { level: 1, name: 'Tide Pool' }).waitFor();

    // 2d. Member two has none: the link leads through sign-up (confirmed by mail) and back to the join button.
    const twoEmail = `two-${dialect}@example.com`;
    const m2 = await openPage(browser, { locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
    m2.page.setDefaultTimeout(15_000);
    await m2.page.goto(link2);
    await settled(m2.page);
    await m2.page.getByRole('link', { name: '创建账户' }).click();
    await m2.page.getByLabel('电子邮箱').fill(twoEmail);
    await m2.page.getByLabel('姓名').fill('Tina Two');
    await m2.page.getByLabel('密码', { exact: true }).fill(PASSWORD);
    const mailsBefore = smtp.count();
    await m2.page.getByRole('button', { name: '创建账户' }).click();
    const twoLink = /http:\/\/127\.0\.0\.1:\d+\/signup\/confirm\?token=[A-Za-z0-9_-]{43}/.exec(unfoldMail((await smtp.nextTo(twoEmail, mailsBefore)).raw))![0];
    await m2.page.goto(twoLink);
    await m2.page.getByRole('button', { name: '创建我的账户' }).click();
    await m2.page.waitForURL(link2);
    await m2.page.getByRole('button', { name: '加入团队' }).click();
    await m2.page.waitForURL(`${t.url}/hackathons/${eventId}/team`);

    // The leader's page lists all three; the used invitations are gone.
    await visit(page, `/hackathons/${eventId}/team`);
    for (const name of ['Lea Leader', 'Omar One', 'Tina Two']) await page.getByRole('listitem').filter({ hasText: name }).first().waitFor();

    // 3. The event page shows the person's own status near the top; the project page waits for approval.
    await visit(page, `/hackathons/${eventId}`);
    const box = page.getByRole('region', { name: 'Your team: Tide Pool' });
    await box.getByText('Pending').waitFor();
    await visit(page, `/hackathons/${eventId}/project`);
    await page.getByText('Your registration is waiting for the organizers.').waitFor();

    // 4. The organizer approves in the dashboard.
    const org = await openPage(browser);
    await signInSession(org.context, t.url, organizer.email, PASSWORD);
    await visit(org.page, `/events/${eventId}/registrations`);
    // The registration lists its members (name, role, e-mail).
    const members = org.page.locator('.registration-members');
    await members.getByText('Tina Two').waitFor();
    await members.getByText('Omar One').waitFor();
    await members.getByText(leaderEmail).waitFor();
    await screenshot(org.page, `participant-registrations-${dialect}`);
    await org.page.getByRole('button', { name: 'Approve Tide Pool' }).click();
    await expect
      .poll(async () => (await t.database.db.selectFrom('registrations').select('status').where('id', '=', regRow.id).executeTakeFirstOrThrow()).status)
      .toBe('approved');
    expect(org.problems).toEqual([]);
    await org.context.close();

    // 5. The project: one member submits it on the web, another changes it; the page says who changed it last.
    await visit(m1.page, `/hackathons/${eventId}/project`);
    await m1.page.getByRole('heading', { name: 'Submit your project' }).waitFor();
    await m1.page.getByText('Developer tools').first().waitFor();
    await m1.page.getByRole('textbox', { name: /^Project name/ }).fill('Tide Watch');
    await m1.page.getByRole('textbox', { name: /^GitHub repository/ }).fill('https://github.com/tide/watch');
    await m1.page.getByRole('textbox', { name: 'Demo video' }).fill('https://video.example.org/tide');
    await m1.page.getByRole('textbox', { name: 'Description' }).fill('Water quality, every hour.');
    await m1.page.getByRole('button', { name: 'Submit project' }).click();
    await m1.page.getByRole('heading', { name: 'Edit your project' }).waitFor();
    await m1.page.getByText('Last changed by Omar One').waitFor();
    await visit(m2.page, `/hackathons/${eventId}/project`);
    await m2.page.getByRole('heading', { name: '编辑作品' }).waitFor();
    await m2.page.getByRole('textbox', { name: '网站' }).fill('https://tide.example.org/watch');
    await m2.page.getByRole('button', { name: '保存修改' }).click();
    await m2.page.getByRole('status').getByText('已保存。').waitFor();
    await m2.page.getByText('最后由 Tina Two 修改').waitFor();
    await visit(page, `/hackathons/${eventId}/project`);
    await page.getByText('Last changed by Tina Two').waitFor();
    const saved = await t.database.db.selectFrom('projects').selectAll().where('registration_id', '=', regRow.id).executeTakeFirstOrThrow();
    expect(saved).toMatchObject({
      project_name: 'Tide Watch',
      github_url: 'https://github.com/tide/watch',
      project_website: 'https://tide.example.org/watch',
      demo_video_url: 'https://video.example.org/tide',
      track_id: 'tools',
    });
    await expectAccessible(page);
    expect(m1.problems).toEqual([]);
    expect(m2.problems).toEqual([]);
    await m1.context.close();
    await m2.context.close();

    // 6. My hackathons lists the event with the role and status; the header links to it.
    await page.getByRole('navigation', { name: 'Main' }).first().getByRole('link', { name: 'My hackathons' }).click();
    await page.waitForURL(`${t.url}/me/hackathons`);
    const card = page.getByRole('listitem').filter({ hasText: 'Harbour Hack' });
    await card.getByText('Team leader').waitFor();
    await card.getByText('Approved').waitFor();
    expect(leader.problems).toEqual([]);
    await leader.context.close();

    // 7. Every page at phone and desktop width, in English and Chinese, axe-clean.
    for (const [path, name] of [
      [`/hackathons/${eventId}`, 'event'],
      [`/hackathons/${eventId}/team`, 'team'],
      [`/hackathons/${eventId}/project`, 'project'],
      ['/me/hackathons', 'my-hackathons'],
    ] as const) {
      await shoot(path, name, leaderEmail);
    }
  });

  it('shows the register form in Chinese with its required marks, at phone width', { timeout: 60_000 }, async () => {
    const person = await t.user();
    await t.database.db.updateTable('users').set({ name: '新人' }).where('id', '=', person.id).execute();
    const o = await openPage(browser, { locale: 'zh-CN', viewport: 'phone' });
    await signInSession(o.context, t.url, person.email, PASSWORD);
    await visit(o.page, `/hackathons/${eventId}/register`);
    await o.page.getByRole('heading', { level: 1, name: '报名：Harbour Hack' }).waitFor();
    await o.page.getByRole('button', { name: '提交报名' }).click();
    await o.page.getByText('请选择赛道。').waitFor();
    await expectAccessible(o.page);
    await screenshot(o.page, `participant-register-errors-zh-${dialect}`);
    await o.context.close();
    for (const locale of ['en', 'zh-CN'] as const) {
      for (const viewport of ['phone', 'desktop'] as const) {
        const p = await openPage(browser, { locale, viewport });
        await signInSession(p.context, t.url, person.email, PASSWORD);
        await visit(p.page, `/hackathons/${eventId}/register`);
        await p.page.locator('form').waitFor();
        await expectAccessible(p.page);
        await screenshot(p.page, `participant-register-${locale === 'en' ? 'en' : 'zh'}-${dialect}`);
        expect(p.problems).toEqual([]);
        await p.context.close();
      }
    }
  });
});
