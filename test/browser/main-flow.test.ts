import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { startFakeOpenAI, type FakeProvider } from '../helpers/fake-providers.js';
import type { TestApp, TestUser } from '../helpers/harness.js';
import { startSmtpReceiver, unfoldMail } from '../helpers/smtp-receiver.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, signInSession, startWebApp } from './browser-harness.js';

const PASSWORD = 'correct horse battery';
const DAY = 86_400_000;
const MODEL = 'openai/gpt-main';

/** YYYY-MM-DD, `days` from now (UTC). */
const dayFromNow = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

/**
 * The whole product through its pages, once per database: a person signs up, becomes an organizer,
 * makes and revokes an API key, creates an event with a custom form in the dashboard; a team
 * registers and submits over the API; the organizer approves in the dashboard; an AI model (a local
 * fake provider) and a human reviewer who accepted an e-mailed invitation score the project; the
 * organizer publishes; the public page shows the ranking.
 */
describe.each(DIALECTS)('main flow through the web app (%s)', (dialect) => {
  let t: TestApp;
  let browser: Browser;
  let oa: FakeProvider;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let admin: TestUser;

  beforeAll(async () => {
    oa = await startFakeOpenAI();
    smtp = await startSmtpReceiver();
    t = await startWebApp(dialect, {
      SIGNUP_MODE: 'open',
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: `${oa.url}/v1`,
      REVIEW_WORKERS: 'false',
      GITHUB_API_URL: 'http://127.0.0.1:9',
      GITHUB_TIMEOUT_MS: '300',
    });
    admin = await t.user('admin');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await oa?.close();
    await smtp?.close();
  });

  async function visit(page: Page, path: string) {
    await page.goto(`${t.url}${path}`);
    await settled(page);
  }

  it('sign up → organizer → API key → event with a custom form → approve → AI + human review → publish → public ranking', { timeout: 240_000 }, async () => {
    const email = `founder-${dialect}@example.com`;
    const person = await openPage(browser);
    const page = person.page;
    page.setDefaultTimeout(15_000);

    // 1. Sign up (open mode, SMTP configured): confirmed by the mailed link, then signed in.
    await visit(page, '/signup');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Name').fill('Ada Founder');
    await page.getByLabel('Password').fill(PASSWORD);
    const mailsBefore = smtp.count();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Check your inbox' }).waitFor();
    const signupLink = /http:\/\/127\.0\.0\.1:\d+\/signup\/confirm\?token=[A-Za-z0-9_-]{43}/.exec(unfoldMail((await smtp.nextTo(email, mailsBefore)).raw))![0];
    await page.goto(signupLink);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.waitForURL(`${t.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).first().getByRole('link', { name: 'Account' }).waitFor();

    // 2. An administrator makes them an organizer in the admin page.
    const adm = await openPage(browser);
    await signInSession(adm.context, t.url, admin.email, PASSWORD);
    await visit(adm.page, '/admin');
    await adm.page.getByRole('combobox', { name: `Role ${email}` }).selectOption('organizer');
    await adm.page.getByText(`Saved: ${email} is now Organizer.`).waitFor();
    await adm.context.close();

    // 3. A key: shown once, copied, works on the API, revoked, then 401.
    await visit(page, '/api-keys');
    await page.getByLabel('Name').fill('laptop agent');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('it will not be shown again').waitFor();
    await page.getByRole('button', { name: 'Copy key' }).click();
    const key = await page.evaluate(() => navigator.clipboard.readText());
    expect(key).toMatch(/^hk_/);
    const me = await t.api('GET', '/auth/session', { key });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email, role: 'organizer' });
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('button', { name: 'Revoke laptop agent' }).click();
    await page.getByRole('dialog', { name: 'Revoke “laptop agent”?' }).getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('Key “laptop agent” revoked.').waitFor();
    const revoked = await t.api('GET', '/auth/session', { key });
    expect(revoked.status).toBe(401);
    expect(revoked.body.code).toBe('unauthorized');

    // 4. The dashboard: a new event with a custom registration form, saved as a draft, then published.
    await visit(page, '/events/new');
    await page.getByLabel('Event name').fill('Harvest Hack');
    await page.getByLabel('Description').fill('Tools for small farms.');
    await page.getByLabel('Time zone').selectOption('UTC');
    const deadline = async (group: string, date: string) => {
      const box = page.getByRole('group', { name: group, exact: true });
      await box.getByLabel('Date').fill(date);
      await box.getByLabel('Time').fill('12:00');
    };
    await deadline('Registration deadline', dayFromNow(2));
    await deadline('Submission deadline', dayFromNow(4));
    await page.getByRole('button', { name: 'Add a track' }).click();
    await page.getByRole('group', { name: 'Track 1', exact: true }).getByLabel('Name').fill('Field tools');
    const dim = (n: number) => page.getByRole('group', { name: `Dimension ${n}`, exact: true });
    await dim(1).getByLabel('Name').fill('impact');
    await dim(1).getByLabel('Weight').fill('2');
    await page.getByRole('button', { name: 'Add a dimension' }).click();
    await dim(2).getByLabel('Name').fill('craft');
    await dim(2).getByLabel('Weight').fill('1');
    await page.getByRole('button', { name: 'Add a model' }).click();
    await page.getByRole('textbox', { name: 'Model 1', exact: true }).fill(MODEL);
    await page.getByRole('button', { name: 'Add a question' }).click();
    const question = page.getByRole('group', { name: 'Question 1', exact: true });
    await question.getByLabel('Label').fill('Farm size');
    await question.getByLabel('Required').check();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(/\/events\/evt_[0-9a-z]+$/);
    const eventId = new URL(page.url()).pathname.split('/')[2]!;
    await visit(page, `/events/${eventId}/edit`);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('dialog', { name: 'Publish this event?' }).getByRole('button', { name: 'Publish now' }).click();
    await page.getByText('Published: the event is open for registration.').waitFor();
    const event = await t.api('GET', `/events/${eventId}`);
    expect(event.body).toMatchObject({
      status: 'open',
      tracks: [{ id: 'field-tools', name: 'Field tools' }],
      dimensions: [
        { name: 'impact', weight: 2 },
        { name: 'craft', weight: 1 },
      ],
      models: [MODEL],
      registration_config: { auto_approve: false, fields: [{ key: 'farm_size', label: 'Farm size', type: 'text', required: true }] },
    });

    // 5. A team registers over the API with the custom form; the organizer approves it in the dashboard.
    const team = await t.user();
    const reg = await t.api('POST', `/events/${eventId}/register`, {
      key: team.key,
      body: { team_name: 'Seed Savers', track_id: 'field-tools', fields: { farm_size: '3 hectares' } },
    });
    expect(reg.status).toBe(201);
    expect(reg.body.status).toBe('pending');
    await visit(page, `/events/${eventId}/registrations`);
    await page.getByRole('button', { name: 'Approve Seed Savers' }).click();
    await expect.poll(async () => (await t.api('GET', `/events/${eventId}/my-registration`, { key: team.key })).body.status).toBe('approved');
    await screenshot(page, `main-flow-registrations-${dialect}`);

    // 6. The team submits over the API.
    const sub = await t.api('POST', `/events/${eventId}/submit`, {
      key: team.key,
      body: { project_name: 'Seed Ledger', github_url: 'https://github.com/acme/seed-ledger', description: 'A ledger of saved seeds.' },
    });
    expect(sub.status).toBe(201);
    const projectId = sub.body.id as string;

    // 7. A human reviewer: invited in the dashboard, the e-mailed link opened, an account created.
    const judgeEmail = `judge-${dialect}@example.com`;
    await visit(page, `/events/${eventId}/reviewers`);
    const before = smtp.count();
    await page.getByLabel('E-mail address').fill(judgeEmail);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    const mail = unfoldMail((await smtp.nextTo(judgeEmail, before)).raw);
    const link = /(http:\/\/127\.0\.0\.1:\d+\/invitations\/[A-Za-z0-9_-]{43})/.exec(mail)![1]!;
    const judge = await openPage(browser);
    judge.page.setDefaultTimeout(15_000);
    await judge.page.goto(link);
    await settled(judge.page);
    await judge.page.getByLabel('New password').fill(PASSWORD);
    await judge.page.getByRole('button', { name: 'Create account and accept' }).click();
    await judge.page.getByRole('link', { name: 'Continue to the projects' }).click();
    await judge.page.waitForURL(`${t.url}/reviews/${eventId}`);

    // 8. The submission deadline passes: judging; the AI model reviews; the human scores in the page.
    t.clock.set(t.clock.now().getTime() + 5 * DAY);
    expect((await t.api('GET', `/events/${eventId}`)).body.status).toBe('judging');
    await t.ctx.reviews.drain();
    await visit(judge.page, `/reviews/${eventId}/projects/${projectId}`);
    await judge.page.getByRole('spinbutton', { name: 'impact' }).fill('9');
    await judge.page.getByRole('spinbutton', { name: 'craft' }).fill('6');
    await judge.page.getByRole('button', { name: 'Save', exact: true }).click();
    // The save lands when the page says so; wait for the review itself, not for any answer.
    await expect
      .poll(async () => JSON.stringify((await t.api('GET', `/events/${eventId}/reviews?limit=100`, { key: admin.key })).body), { timeout: 15_000 })
      .toContain('"reviewer_kind":"human"');
    const reviews = (await t.api('GET', `/events/${eventId}/reviews?limit=100`, { key: admin.key })).body;
    expect(JSON.stringify(reviews)).toContain(MODEL);
    await screenshot(judge.page, `main-flow-review-${dialect}`);
    expect(judge.problems).toEqual([]);
    await judge.context.close();

    // 9. The organizer sees the live ranking and publishes it.
    await visit(page, `/events/${eventId}/leaderboard`);
    const ranking = page.getByRole('table', { name: 'Leaderboard' });
    await ranking.getByText('Seed Ledger').waitFor();
    await visit(page, `/events/${eventId}/publish`);
    await page.getByRole('button', { name: 'Publish results' }).click();
    await page.getByRole('dialog', { name: 'Publish the results?' }).getByRole('button', { name: 'Publish results' }).click();
    await page.getByRole('link', { name: 'View the public result' }).waitFor();
    expect(person.problems).toEqual([]);
    await person.context.close();

    // 10. Anyone sees the published ranking on the public page.
    const visitor = await openPage(browser, { viewport: 'phone' });
    await visit(visitor.page, `/hackathons/${eventId}/result`);
    await visitor.page.getByRole('heading', { level: 1, name: 'Results: Harvest Hack' }).waitFor();
    const table = visitor.page.getByRole('table');
    await table.getByText('Seed Ledger').waitFor();
    await table.getByText('Seed Savers').waitFor();
    const published = await t.api('GET', `/events/${eventId}/result`);
    expect(published.status).toBe(200);
    expect(published.body).toEqual([expect.objectContaining({ rank: 1, project_id: projectId, team_name: 'Seed Savers' })]);
    await expectAccessible(visitor.page);
    await screenshot(visitor.page, `main-flow-result-${dialect}`);
    expect(visitor.problems).toEqual([]);
    await visitor.context.close();
  });
});
