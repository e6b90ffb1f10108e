import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type Behaviour, type FakeProvider } from '../helpers/fake-providers.js';
import { createEvent, type TestApp, type TestUser } from '../helpers/harness.js';
import { seedProjects } from '../helpers/seed-projects.js';
import { newId } from '../../src/core/ids.js';
import { expectAccessible, launchBrowser, openPage, screenshot, settled, signInSession, startWebApp } from './browser-harness.js';

const DAY = 86_400_000;
const GPT = 'openai/gpt-page';
const PASSWORD = 'correct horse battery';
const TABS = ['overview', 'registrations', 'projects', 'ai-reviews', 'reviewers', 'leaderboard', 'voting', 'publish'] as const;

/** The model's answer per project, picked by the project name in the prompt. */
function byProject(table: Record<string, Behaviour>): Behaviour {
  return {
    kind: 'by-prompt',
    choose: (prompt) => table[Object.keys(table).find((name) => prompt.includes(name)) ?? ''] ?? { kind: 'ok' },
  };
}

describe('organizer event page (SQLite)', () => {
  let t: TestApp;
  let browser: Browser;
  let oa: FakeProvider;
  let org: TestUser;
  let outbox: string;

  beforeAll(async () => {
    oa = await startFakeOpenAI();
    outbox = mkdtempSync(join(tmpdir(), 'hk-outbox-'));
    t = await startWebApp('sqlite', {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: `${oa.url}/v1`,
      REVIEW_WORKERS: 'false',
      REVIEW_BACKOFF_MS: '0',
      GITHUB_API_URL: 'http://127.0.0.1:9',
      GITHUB_TIMEOUT_MS: '300',
      OUTBOX_DIR: outbox,
    });
    org = await t.user('organizer');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await oa?.close();
    rmSync(outbox, { recursive: true, force: true });
  });

  async function signedIn(opts: Parameters<typeof openPage>[1] = {}) {
    const opened = await openPage(browser, opts);
    opened.page.setDefaultTimeout(10_000);
    await signInSession(opened.context, t.url, org.email, PASSWORD);
    return opened;
  }

  async function register(eventId: string, team: string, track = 'tools') {
    const user = await t.user();
    const res = await t.api('POST', `/events/${eventId}/register`, {
      key: user.key,
      body: { team_name: team, track_id: track, fields: { repo: `https://github.com/acme/${team.replace(/\W/g, '')}` } },
    });
    expect(res.status).toBe(201);
    return { user, id: res.body.id as string };
  }

  async function registration(eventId: string, id: string) {
    const all = (await t.api('GET', `/events/${eventId}/registrations?limit=1000`, { key: org.key })).body as any[];
    return all.find((r) => r.id === id);
  }

  it('filters, approves two registrations at once, rejects one with a reason, and shows a new one live', async () => {
    const eventId = await createEvent(t, org.key);
    const a1 = await register(eventId, 'Alpha Bots');
    const a2 = await register(eventId, 'Alpha Crew', 'fun');
    const beta = await register(eventId, 'Beta Squad');
    await register(eventId, 'Gamma Guild');

    const { page, context, problems } = await signedIn();
    await page.goto(`${t.url}/events/${eventId}/registrations`);
    await settled(page);
    await page.getByLabel('Status').selectOption('pending');
    await page.getByLabel('Team name starts with').fill('alpha');
    await page.getByText('Beta Squad').waitFor({ state: 'detached' });
    expect(await page.getByRole('checkbox', { name: /^Select Alpha/ }).count()).toBe(2);

    await page.getByLabel('Select all shown').check();
    await page.getByText('2 selected').waitFor();
    await page.getByRole('button', { name: 'Approve selected' }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve 2 registrations?' });
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('2 registrations updated.').waitFor();
    expect((await registration(eventId, a1.id)).status).toBe('approved');
    expect((await registration(eventId, a2.id)).status).toBe('approved');

    // Reject one with a reason, from its own row.
    await page.getByLabel('Team name starts with').fill('');
    await page.getByRole('button', { name: 'Reject Beta Squad' }).click();
    const reject = page.getByRole('dialog', { name: 'Reject 1 registration?' });
    await reject.getByLabel('Reason (the team reads it)').fill('Not a fit for this track');
    await reject.getByRole('button', { name: 'Reject' }).click();
    await page.getByText('1 registration updated.').waitFor();
    const rejected = await registration(eventId, beta.id);
    expect(rejected.status).toBe('rejected');
    expect(rejected.reason).toBe('Not a fit for this track');

    // A registration made meanwhile appears without a reload (the list polls).
    await page.getByLabel('Status').selectOption('');
    await register(eventId, 'Delta Live');
    await page.getByText('Delta Live').waitFor({ timeout: 15_000 });
    await page.getByText('Not a fit for this track').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('runs judging: AI failures and re-run, reviewer invitation and withdrawal, ranked leaderboard with charts, publish with the unscored warning', async () => {
    oa.setDefault(
      byProject({
        'Project Alpha': { kind: 'ok', scores: { impact: 9, craft: 8 } },
        'Project Beta': { kind: 'ok', scores: { impact: 6, craft: 7 } },
        'Project Gamma': { kind: 'status', status: 400, message: 'model refused the prompt' },
      }),
      'gpt-page',
    );
    const eventId = await createEvent(t, org.key, { name: 'Judging Jam', models: [GPT], registration_config: { open: true, auto_approve: true, fields: [] } });
    const projects: Record<string, string> = {};
    for (const [name, track] of [
      ['Alpha', 'tools'],
      ['Beta', 'fun'],
      ['Gamma', 'tools'],
    ] as const) {
      const team = await t.user();
      expect((await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: { team_name: `Team ${name}`, track_id: track } })).status).toBe(201);
      const sub = await t.api('POST', `/events/${eventId}/submit`, {
        key: team.key,
        body: { project_name: `Project ${name}`, github_url: `https://github.com/acme/${name.toLowerCase()}`, description: `${name} does things.` },
      });
      expect(sub.status).toBe(201);
      projects[name] = sub.body.id;
    }
    const human = await t.user();
    await t.database.db.insertInto('event_reviewers').values({ event_id: eventId, user_id: human.id, created_at: t.clock.now().toISOString() }).execute();
    t.clock.set(t.clock.now().getTime() + 3 * DAY);
    expect((await t.api('GET', `/events/${eventId}`)).body.status).toBe('judging');
    await t.ctx.reviews.drain();
    for (const [name, score] of [
      ['Alpha', 8],
      ['Beta', 9],
    ] as const) {
      const put = await t.api('PUT', `/events/${eventId}/projects/${projects[name]}/review`, {
        key: human.key,
        body: { scores: { impact: score, craft: score } },
      });
      expect(put.status).toBe(201);
    }

    const { page, context, problems } = await signedIn();
    const base = `${t.url}/events/${eventId}`;

    // AI reviews: the failure and its reason, then a re-run of the failed ones.
    await page.goto(`${base}/ai-reviews`);
    await settled(page);
    await page.getByText('request refused (HTTP 400)', { exact: false }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'organizer-event-ai-failures-en');
    await page.getByRole('button', { name: 'Re-run all failed' }).click();
    await page.getByRole('dialog', { name: 'Re-run failed reviews?' }).getByRole('button', { name: 'Re-run all failed' }).click();
    await page.getByText('1 review queued again.').waitFor();
    const queued = (await t.api('GET', `/events/${eventId}/reviews?project_id=${projects.Gamma}`, { key: org.key })).body as any[];
    expect(queued.map((r) => r.status)).toEqual(['queued']);

    // Reviewers: invite, see the invitation, withdraw it.
    await page.goto(`${base}/reviewers`);
    await settled(page);
    await page.getByText('2 of 3 reviewed', { exact: false }).waitFor();
    await page.getByLabel('E-mail address').fill('judge@example.com');
    await page.getByLabel('Their name (optional)').fill('Jude Judge');
    await page.getByLabel('Language of the invitation mail').selectOption('zh');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('Invitation sent to Jude Judge <judge@example.com>.').waitFor();
    const invited = (await t.api('GET', `/events/${eventId}/reviewers`, { key: org.key })).body;
    expect(invited.invitations.map((i: any) => [i.email, i.name])).toEqual([['judge@example.com', 'Jude Judge']]);
    const sent = await t.ctx.db.selectFrom('reviewer_invitations').select('language').where('email', '=', 'judge@example.com').executeTakeFirstOrThrow();
    expect(sent.language).toBe('zh');
    await page.getByText('Jude Judge', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Withdraw the invitation of judge@example.com' }).click();
    await page.getByRole('dialog', { name: 'Withdraw the invitation of judge@example.com?' }).getByRole('button', { name: 'Withdraw' }).click();
    await page.getByText('No open invitation.').waitFor();
    expect((await t.api('GET', `/events/${eventId}/reviewers`, { key: org.key })).body.invitations).toEqual([]);

    // Leaderboard: Alpha 8.33, Beta 7.67, Gamma unscored; charts and the disagreement view.
    await page.goto(`${base}/leaderboard`);
    await settled(page);
    const ranking = page.getByRole('table', { name: 'Leaderboard' });
    await ranking.waitFor();
    const names = await ranking.locator('tbody tr td:nth-child(2) strong').allTextContents();
    expect(names).toEqual(['Project Alpha', 'Project Beta', 'Project Gamma']);
    expect(await ranking.locator('tbody tr td:nth-child(3)').allTextContents()).toEqual(['8.33', '7.67', 'Unscored']);
    await page.getByText('Score by dimension (top 2)').waitFor();
    await page.getByText('Score by model and human reviewers (top 2)').waitFor();
    expect(await page.locator('.recharts-surface').count()).toBeGreaterThanOrEqual(2);
    const disagreement = page.getByRole('region', { name: 'Where the judges disagree' }).first();
    expect(await disagreement.locator('tbody tr td:first-child strong').allTextContents()).toEqual(['Project Beta', 'Project Alpha']);

    // Every tab, accessible and drawn, in English on a desktop and in Chinese on a phone.
    await tour(page, base, 'en');
    expect(problems).toEqual([]);
    const zh = await signedIn({ locale: 'zh-CN', viewport: 'phone' });
    await tour(zh.page, base, 'zh');
    expect(zh.problems).toEqual([]);
    await zh.context.close();

    // Publish: the unscored warning, then "Publish anyway".
    await page.goto(`${base}/publish`);
    await settled(page);
    await page.getByText('1 project has no score at all', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Publish results' }).click();
    await page.getByRole('dialog', { name: 'Publish the results?' }).getByRole('button', { name: 'Publish results' }).click();
    const anyway = page.getByRole('dialog', { name: 'Some projects are unscored' });
    await anyway.getByText('1 project has no score.', { exact: false }).waitFor();
    await anyway.getByRole('button', { name: 'Publish anyway' }).click();
    await page.getByRole('link', { name: 'View the public result' }).waitFor();
    const result = await t.api('GET', `/events/${eventId}/result`);
    expect(result.status).toBe(200);
    expect(result.body.map((e: any) => e.project_name)).toEqual(['Project Alpha', 'Project Beta', 'Project Gamma']);
    expect((await t.api('GET', `/events/${eventId}`)).body.status).toBe('ended');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('shows the header in English and Chinese on both sizes, and an unknown event as not found', async () => {
    const eventId = await createEvent(t, org.key, { name: 'Header Hack' });
    for (const [locale, viewport] of [
      ['en', 'phone'],
      ['zh-CN', 'desktop'],
    ] as const) {
      const { page, context, problems } = await signedIn({ locale, viewport });
      await page.goto(`${t.url}/events/${eventId}`);
      await settled(page);
      await page.getByRole('heading', { level: 1, name: 'Header Hack' }).waitFor();
      await page.getByRole('link', { name: locale === 'en' ? 'Leaderboard CSV' : '排行榜 CSV' }).waitFor();
      await expectAccessible(page);
      await screenshot(page, `organizer-event-overview-open-${locale}`);
      expect(problems).toEqual([]);
      await context.close();
    }
    const { page, context } = await signedIn();
    await page.goto(`${t.url}/events/evt_nope/leaderboard`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await context.close();
  });

  it('normalisation: the setting in the event form, raw and normalised scores side by side, reviewers far from the panel', async () => {
    const eventId = await createEvent(t, org.key, { name: 'Panel Hack', models: [], dimensions: [{ name: 'overall', weight: 1 }] });
    const ids = await seedProjects(t, eventId, [
      { track: 'tools', score: null },
      { track: 'tools', score: null },
      { track: 'fun', score: null },
    ]);
    // a: 2, 4, 6 · b: 6, 8, 10 → raw 4, 6, 8; zscore 6 ∓ √10: 2.84, 6, 9.16. Each is 4 points off the other.
    const now = new Date().toISOString();
    const judges = [await t.user(), await t.user()];
    const rows = [
      [0, 2, 4, 6],
      [1, 6, 8, 10],
    ].flatMap(([j, ...scores]) =>
      scores.map((score, i) => ({
        id: newId('rev'),
        event_id: eventId,
        project_id: ids[i]!,
        reviewer_kind: 'human' as const,
        reviewer: judges[j!]!.id,
        group_key: 'human',
        status: 'succeeded' as const,
        scores: JSON.stringify({ overall: score }),
        attempts: 1,
        created_at: now,
        updated_at: now,
      })),
    );
    await t.ctx.db.insertInto('reviews').values(rows).execute();

    const { page, context, problems } = await signedIn();
    await page.goto(`${t.url}/events/${eventId}/edit`);
    await settled(page);
    await page.getByLabel('Score normalisation').selectOption('zscore');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await t.api('GET', `/events/${eventId}`, { key: org.key })).body.normalization).toBe('zscore');
    await screenshot(page, 'organizer-event-normalization-setting-en');

    await page.goto(`${t.url}/events/${eventId}/leaderboard`);
    await settled(page);
    const ranking = page.getByRole('table', { name: 'Leaderboard' });
    await ranking.waitFor();
    expect(await ranking.locator('thead th').allTextContents()).toEqual(['Rank', 'Project', 'Score', 'Raw', 'Normalised', 'Reviews']);
    const cells = async (n: number) => ranking.locator(`tbody tr td:nth-child(${n})`).allTextContents();
    expect(await cells(3)).toEqual(['9.16', '6', '2.84']);
    expect(await cells(4)).toEqual(['8', '6', '4']);
    expect(await cells(5)).toEqual(['9.16', '6', '2.84']);
    const outliers = page.getByRole('region', { name: 'Reviewers far from the panel' });
    await outliers.waitFor();
    // Each 4 points off the other (equal sizes: in reviewer id order).
    expect((await outliers.locator('tbody tr td:nth-child(2)').allTextContents()).map((v) => v.replace('−', '-')).sort()).toEqual(['-4', '4']);
    await expectAccessible(page);
    await screenshot(page, 'organizer-event-leaderboard-normalized-en');
    expect(problems).toEqual([]);
    await context.close();

    const zh = await signedIn({ locale: 'zh-CN', viewport: 'phone' });
    await zh.page.goto(`${t.url}/events/${eventId}/leaderboard`);
    await settled(zh.page);
    await zh.page.getByRole('columnheader', { name: '标准化分' }).waitFor();
    await zh.page.getByRole('region', { name: '偏离评委组的评委' }).waitFor();
    await expectAccessible(zh.page);
    await screenshot(zh.page, 'organizer-event-leaderboard-normalized-zh');
    expect(zh.problems).toEqual([]);
    await zh.context.close();
  });

  // Last in this file: it stops the app's background recomputation of standings for good.
  it('says when the leaderboard is being recomputed after a bulk change', async () => {
    const eventId = await createEvent(t, org.key, { name: 'Bulk Hack', models: [] });
    const ids = await seedProjects(
      t,
      eventId,
      Array.from({ length: 12 }, (_, i) => ({ track: 'tools', score: 1 + (i % 9) })),
    );
    expect((await t.api('GET', `/events/${eventId}/leaderboard`, { key: org.key })).headers.get('leaderboard-pending')).toBeNull();
    // Held where a bulk change leaves it: every project re-scored, none recomputed yet.
    await t.ctx.standings.stop();
    await t.ctx.db
      .updateTable('reviews')
      .set({ scores: JSON.stringify({ impact: 2.5, craft: 2.5 }) })
      .where('project_id', 'in', ids)
      .execute();
    expect((await t.api('GET', `/events/${eventId}/leaderboard`, { key: org.key })).headers.get('leaderboard-pending')).toBe('12');
    for (const [locale, viewport, text] of [
      ['en', 'desktop', 'Recomputing the scores of 12 projects after a change.'],
      ['zh-CN', 'phone', '正在重新计算 12 个作品的得分'],
    ] as const) {
      const { page, context, problems } = await signedIn({ locale, viewport });
      await page.goto(`${t.url}/events/${eventId}/leaderboard`);
      await settled(page);
      await page.getByRole('status').filter({ hasText: text }).waitFor();
      // The previous numbers stay listed meanwhile.
      expect(await page.locator('table').first().locator('tbody tr').count()).toBe(12);
      await expectAccessible(page);
      await screenshot(page, `organizer-event-leaderboard-pending-${locale === 'en' ? 'en' : 'zh'}`);
      expect(problems).toEqual([]);
      await context.close();
    }
    // The publish tab's preview says so too (publication itself waits for every number).
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'judging' } })).status).toBe(200);
    const { page, context, problems } = await signedIn();
    await page.goto(`${t.url}/events/${eventId}/publish`);
    await settled(page);
    await page.getByRole('region', { name: 'What will be frozen' }).getByRole('status').filter({ hasText: 'Recomputing the scores of 12 projects' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'organizer-event-publish-pending-en');
    expect(problems).toEqual([]);
    await context.close();
  });
});

async function tour(page: Page, base: string, lang: 'en' | 'zh'): Promise<void> {
  for (const tab of TABS) {
    await page.goto(tab === 'overview' ? base : `${base}/${tab}`);
    await settled(page);
    if (tab === 'leaderboard') await page.locator('.recharts-surface').first().waitFor();
    await expectAccessible(page);
    await screenshot(page, `organizer-event-${tab}-${lang}`);
  }
}
