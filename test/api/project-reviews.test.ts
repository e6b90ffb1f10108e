import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { startFakeOpenAI, type FakeProvider } from '../helpers/fake-providers.js';
import { createEvent, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';
import { callTool, connectMcp, toolOk, toolProblem } from '../helpers/mcp-client.js';
import { decodeMail, mailSubject, startSmtpReceiver } from '../helpers/smtp-receiver.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const GPT = 'openai/gpt-rp';
/** A provider nobody configured: its reviews fail with a reason the organizer reads. */
const MISTRAL = 'mistral/large-rp';

/**
 * The organizer's review page of one project (every AI and human review, the score line) and the
 * reviewer reminders (e-mail through the mail queue, once a day per reviewer), over HTTP and MCP,
 * with a real SMTP receiver and a fake model provider.
 */
describe.each(DIALECTS)('project review page and reviewer reminders (%s)', (dialect) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let oa: FakeProvider;
  let org: TestUser;
  let co: TestUser;
  let admin: TestUser;
  let otherOrg: TestUser;
  let outsider: TestUser;
  let grace: TestUser; // a reviewer with a display name, in no team
  let ada: TestUser; // a reviewer who registered the team of project C
  let idle: TestUser; // a reviewer who reviews everything
  let eventId: string;
  let otherEventId: string;
  let otherProject: string;
  const projects: Record<string, string> = {};

  const page = (pid: string, key: string | null = org.key, id = eventId) => t.api('GET', `/events/${id}/projects/${pid}/reviews`, { key });
  const remind = (userId: string, key = org.key, id = eventId) => t.api('POST', `/events/${id}/reviewers/${userId}/remind`, { key });
  const review = (who: TestUser, pid: string, scores: Record<string, number>, comment?: string) =>
    t.api('PUT', `/events/${eventId}/projects/${pid}/review`, { key: who.key, body: { scores, ...(comment !== undefined ? { comment } : {}) } });
  const addReviewer = (u: TestUser, id = eventId) =>
    t.database.db.insertInto('event_reviewers').values({ event_id: id, user_id: u.id, created_at: t.clock.now().toISOString() }).execute();

  async function submit(id: string, team: TestUser, name: string) {
    const reg = await t.api('POST', `/events/${id}/register`, { key: team.key, body: { team_name: `Team ${name}`, track_id: 'tools' } });
    expect(reg.status).toBe(201);
    const res = await t.api('POST', `/events/${id}/submit`, {
      key: team.key,
      body: { project_name: `Project ${name}`, github_url: `https://github.com/acme/${name.toLowerCase()}`, description: `About ${name}` },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  beforeAll(async () => {
    [smtp, oa] = await Promise.all([startSmtpReceiver(), startFakeOpenAI()]);
    t = await startTestApp(dialect, {
      env: {
        MAIL_WORKERS: 'true',
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Site <no-reply@hackathon.test>',
        MAIL_POLL_MS: '50',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: `${oa.url}/v1`,
        GITHUB_API_URL: 'http://127.0.0.1:9',
        GITHUB_TIMEOUT_MS: '300',
        REVIEW_WORKERS: 'false',
        REVIEW_BACKOFF_MS: '0',
      },
    });
    oa.setDefault({ kind: 'ok', scores: { impact: 8, craft: 6 }, summary: 'Solid **tooling**; <script>alert(1)</script> tests are thin.' }, 'gpt-rp');
    org = await t.user('organizer');
    co = await t.user('user', `co-${Math.random().toString(36).slice(2, 8)}@example.com`);
    admin = await t.user('admin');
    otherOrg = await t.user('organizer');
    outsider = await t.user();
    grace = await t.user();
    ada = await t.user();
    idle = await t.user();
    expect((await t.api('PATCH', '/me/settings', { key: org.key, body: { name: 'Olga Organizer' } })).status).toBe(200);
    expect((await t.api('PATCH', '/me/settings', { key: grace.key, body: { name: 'Grace Hopper' } })).status).toBe(200);

    eventId = await createEvent(t, org.key, {
      name: 'Review Hack',
      models: [GPT, MISTRAL],
      co_organizers: [co.email],
      registration_config: { open: true, auto_approve: true, fields: [] },
    });
    projects.A = await submit(eventId, await t.user(), 'Alpha');
    projects.B = await submit(eventId, await t.user(), 'Beta');
    projects.C = await submit(eventId, ada, 'Gamma');
    for (const r of [grace, ada, idle]) await addReviewer(r);

    otherEventId = await createEvent(t, otherOrg.key, { registration_config: { open: true, auto_approve: true, fields: [] } });
    otherProject = await submit(otherEventId, await t.user(), 'Elsewhere');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await oa?.close();
  });

  it('before judging: reminders are refused (409 not_judging); the page shows the project with no reviews', async () => {
    const res = await remind(grace.id);
    expect([res.status, res.body.code]).toEqual([409, 'not_judging']);
    const all = await t.api('POST', `/events/${eventId}/reviewer-reminders`, { key: org.key });
    expect([all.status, all.body.code]).toEqual([409, 'not_judging']);

    const before = await page(projects.A!);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      event_id: eventId,
      project: { id: projects.A, project_name: 'Project Alpha', name: 'Project Alpha', team_name: 'Team Alpha', description: 'About Alpha', judged: true },
      standing: { score: null, scores_by_model: {}, scores_by_dimension: {} },
      ai_reviews: [],
      human_reviews: [],
    });
  });

  it('in judging: every AI review (scores, summary as plain text, failures with attempts) and every human review (named, comment) with the score line', async () => {
    t.clock.set(T0.getTime() + 2 * DAY + 1000);
    await t.ctx.reviews.drain();
    expect((await review(grace, projects.A!, { impact: 10, craft: 7 }, 'Great demo.\n<b>Needs docs</b>')).status).toBe(201);
    expect((await review(ada, projects.A!, { impact: 6, craft: 5 })).status).toBe(201);

    const res = await page(projects.A!);
    expect(res.status).toBe(200);
    expect(res.body.dimensions).toEqual([
      { name: 'impact', weight: 2 },
      { name: 'craft', weight: 1 },
    ]);
    expect(res.body.project.review_status).toBe('reviewed');
    const [gpt, mistral] = res.body.ai_reviews;
    expect(res.body.ai_reviews).toHaveLength(2);
    expect(gpt).toMatchObject({
      model: GPT,
      status: 'succeeded',
      scores: { impact: 8, craft: 6 },
      summary: 'Solid **tooling**; <script>alert(1)</script> tests are thin.',
      attempts: 1,
      failure_reason: null,
      last_error: null,
    });
    expect(mistral).toMatchObject({ model: MISTRAL, status: 'failed', scores: null, summary: null });
    expect(mistral.failure_reason).toMatch(/mistral/i);
    expect(res.body.human_reviews).toEqual([
      {
        id: expect.stringMatching(/^rev_/),
        reviewer_id: grace.id,
        reviewer_name: 'Grace Hopper',
        reviewer_email: grace.email,
        scores: { impact: 10, craft: 7 },
        comment: 'Great demo.\n<b>Needs docs</b>',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
      {
        id: expect.stringMatching(/^rev_/),
        reviewer_id: ada.id,
        reviewer_name: null,
        reviewer_email: ada.email,
        scores: { impact: 6, craft: 5 },
        comment: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
    // Worked by hand: GPT impact 8 craft 6; human impact (10+6)/2 = 8, craft (7+5)/2 = 6.
    // By dimension impact 8, craft 6; score (2·8 + 6)/3 = 7.3333.
    expect(res.body.standing).toEqual({
      score: 7.3333,
      scores_by_model: { [GPT]: 7.3333, human: 7.3333 },
      scores_by_dimension: { impact: 8, craft: 6 },
    });
    // The same line as the leaderboard's.
    const board = await t.api('GET', `/events/${eventId}/leaderboard`, { key: org.key });
    const entry = (board.body as any[]).find((e) => e.project_id === projects.A);
    expect({ score: entry.score, scores_by_model: entry.scores_by_model, scores_by_dimension: entry.scores_by_dimension }).toEqual(res.body.standing);
  });

  it('owners only: co-organizer and admin read it; another organizer, a team, a reviewer 403; no key 401; foreign or unknown project 404', async () => {
    for (const who of [co, admin]) expect((await page(projects.A!, who.key)).status).toBe(200);
    for (const who of [otherOrg, outsider, grace]) {
      const res = await page(projects.A!, who.key);
      expect([res.status, res.body.code]).toEqual([403, 'forbidden']);
    }
    const anon = await page(projects.A!, null);
    expect([anon.status, anon.body.code]).toEqual([401, 'unauthorized']);
    const foreign = await page(otherProject);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'project_not_found']);
    const unknown = await page('prj_nope');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'project_not_found']);
    const noEvent = await page(projects.A!, org.key, 'evt_nope');
    expect([noEvent.status, noEvent.body.code]).toEqual([404, 'event_not_found']);
    // The other organizer's project through their own event is fine; through ours it is not ours.
    expect((await page(otherProject, otherOrg.key, otherEventId)).status).toBe(200);
    const tooLong = await page('p'.repeat(65));
    expect([tooLong.status, tooLong.body.code]).toEqual([422, 'validation_failed']);
  });

  it('the reviewers list says who owes how many reviews (own team left out)', async () => {
    const res = await t.api('GET', `/events/${eventId}/reviewers`, { key: org.key });
    expect(res.status).toBe(200);
    const byId = Object.fromEntries((res.body.reviewers as any[]).map((r) => [r.user_id, r]));
    // Grace reviewed A of A, B, C: 2 open. Ada reviewed A, C is her own team's: 1 open (B).
    expect(byId[grace.id]).toMatchObject({ reviews_count: 1, open_reviews: 2, last_reminded_at: null });
    expect(byId[ada.id]).toMatchObject({ reviews_count: 1, open_reviews: 1, last_reminded_at: null });
    expect(byId[idle.id]).toMatchObject({ reviews_count: 0, open_reviews: 3 });
  });

  it('remind: one mail through the queue to the reviewer (count, link to the queue); again within a day 429 reminder_too_soon; a day later again', async () => {
    const before = smtp.count();
    const res = await remind(grace.id);
    expect(res.status).toBe(201);
    const now = t.clock.now().getTime();
    expect(res.body).toEqual({
      event_id: eventId,
      user_id: grace.id,
      open_reviews: 2,
      sent_at: new Date(now).toISOString(),
      next_allowed_at: new Date(now + DAY).toISOString(),
      mail_queued: true,
    });
    const raw = (await smtp.nextTo(grace.email, before)).raw;
    const mail = decodeMail(raw);
    expect(mailSubject(raw)).toBe('[Hackathon platform] Review Hack: 2 projects are waiting for your review');
    expect(mail).toContain('Olga Organizer reminds you: 2 projects in Review Hack still wait for your review.');
    expect(mail).toContain(`http://hackathon.test/reviews/${eventId}`);
    expect(mail).not.toContain(org.email);

    t.clock.advance(23 * HOUR);
    const soon = await remind(grace.id, co.key);
    expect([soon.status, soon.body.code]).toEqual([429, 'reminder_too_soon']);
    expect(soon.body).toMatchObject({ last_sent_at: new Date(now).toISOString(), next_allowed_at: new Date(now + DAY).toISOString() });
    expect(soon.headers.get('retry-after')).toBe(String(HOUR / 1000));

    const listed = await t.api('GET', `/events/${eventId}/reviewers`, { key: org.key });
    expect((listed.body.reviewers as any[]).find((r) => r.user_id === grace.id).last_reminded_at).toBe(new Date(now).toISOString());

    t.clock.advance(HOUR);
    const later = smtp.count();
    const again = await remind(grace.id);
    expect(again.status).toBe(201);
    expect(again.body.open_reviews).toBe(2);
    await smtp.nextTo(grace.email, later);
    const rows = await t.ctx.db.selectFrom('mail_queue').select('kind').where('to_address', '=', grace.email).where('kind', '=', 'reviewer_reminder').execute();
    expect(rows).toHaveLength(2);
  });

  it('two organizers reminding at once: exactly one reminder, one mail', async () => {
    const [a, b] = await Promise.all([remind(ada.id), remind(ada.id, co.key)]);
    expect([a.status, b.status].sort()).toEqual([201, 429]);
    expect([a, b].find((r) => r.status === 429)!.body.code).toBe('reminder_too_soon');
    const rows = await t.ctx.db.selectFrom('mail_queue').select('id').where('to_address', '=', ada.email).where('kind', '=', 'reviewer_reminder').execute();
    expect(rows).toHaveLength(1);
  });

  it('refusals: not a reviewer 404 not_found, nothing open 409 no_open_reviews, not an owner 403', async () => {
    const stranger = await remind(outsider.id);
    expect([stranger.status, stranger.body.code]).toEqual([404, 'not_found']);
    // Idle reviews everything: nothing left to remind of.
    for (const pid of [projects.A!, projects.B!, projects.C!]) expect((await review(idle, pid, { impact: 5, craft: 5 })).status).toBe(201);
    const none = await remind(idle.id);
    expect([none.status, none.body.code]).toEqual([409, 'no_open_reviews']);
    expect(none.body.open_reviews).toBe(0);
    for (const who of [otherOrg, grace]) {
      const res = await remind(ada.id, who.key);
      expect([res.status, res.body.code]).toEqual([403, 'forbidden']);
    }
    const elsewhere = await remind(grace.id, otherOrg.key, otherEventId);
    expect([elsewhere.status, elsewhere.body.code]).toEqual([404, 'not_found']);
  });

  it('remind all: everyone with open reviews who was not reminded today; the rest are named as too soon', async () => {
    const late = await t.user();
    await addReviewer(late);
    const res = await t.api('POST', `/events/${eventId}/reviewer-reminders`, { key: org.key });
    expect(res.status).toBe(200);
    expect((res.body.reminded as any[]).map((r) => [r.user_id, r.open_reviews])).toEqual([[late.id, 3]]);
    expect((res.body.skipped_too_soon as any[]).map((r) => r.user_id).sort()).toEqual([grace.id, ada.id].sort());
  });

  it('MCP: get_project_reviews and remind_reviewer answer as REST does', async () => {
    const client = await connectMcp(t, org.key);
    try {
      const got = toolOk(await callTool(client, 'get_project_reviews', { event_id: eventId, project_id: projects.B }));
      expect(got.project).toMatchObject({ id: projects.B, project_name: 'Project Beta' });
      expect(got.ai_reviews.map((r: any) => r.model)).toEqual([GPT, MISTRAL]);
      const refused = toolProblem(await callTool(client, 'remind_reviewer', { event_id: eventId, user_id: grace.id }));
      expect(refused).toMatchObject({ code: 'reminder_too_soon', next_allowed_at: expect.any(String) });
      t.clock.advance(DAY);
      const sent = toolOk(await callTool(client, 'remind_reviewer', { event_id: eventId, user_id: grace.id }));
      expect(sent).toMatchObject({ user_id: grace.id, open_reviews: 2, mail_queued: true });
    } finally {
      await client.close();
    }
  });

  it('after publication reminders are refused (409 results_already_published); the page stays readable', async () => {
    const pub = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key, body: { force: true } });
    expect(pub.status).toBe(200);
    const res = await remind(ada.id);
    expect([res.status, res.body.code]).toEqual([409, 'results_already_published']);
    expect((await page(projects.A!)).status).toBe(200);
  });
});
