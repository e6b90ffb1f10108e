import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { startFakeOpenAI, type FakeProvider } from '../helpers/fake-providers.js';
import { approvedTeam, createEvent, registrationBody, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';

const DAY = 86_400_000;
const GOOD = 'openai/gpt-stats';
/** No provider "nope" is configured: its reviews fail at once when judging starts. */
const MISSING = 'nope/model-x';

describe.each(DIALECTS)('GET /events/:id/stats (%s)', (dialect) => {
  let t: TestApp;
  let oa: FakeProvider;
  let org: TestUser;

  beforeAll(async () => {
    oa = await startFakeOpenAI();
    t = await startTestApp(dialect, {
      env: {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: `${oa.url}/v1`,
        REVIEW_WORKERS: 'false',
        REVIEW_BACKOFF_MS: '0',
        GITHUB_API_URL: 'http://127.0.0.1:9',
        GITHUB_TIMEOUT_MS: '300',
      },
    });
    org = await t.user('organizer');
  });
  afterAll(async () => {
    await t?.close();
    await oa?.close();
  });

  it('counts a fresh event as zeros, every model of the event listed', async () => {
    const eventId = await createEvent(t, org.key, { models: [GOOD, MISSING] });
    const res = await t.api('GET', `/events/${eventId}/stats`, { key: org.key });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.body).toEqual({
      event_id: eventId,
      registrations: { pending: 0, approved: 0, rejected: 0, withdrawn: 0 },
      projects: 0,
      judged_projects: 0,
      reviews: {
        by_model: [
          { reviewer: GOOD, pending: 0, running: 0, done: 0, failed: 0 },
          { reviewer: MISSING, pending: 0, running: 0, done: 0, failed: 0 },
        ],
        human: { reviewers: 0, invitations_pending: 0, reviews_done: 0 },
      },
      reviewers: [],
    });
  });

  it('counts registrations, projects, model reviews per status and human reviewer progress', async () => {
    const eventId = await createEvent(t, org.key, { models: [GOOD, MISSING] });
    // Three approved teams that submit, one pending, one rejected.
    const teams: TestUser[] = [];
    for (let i = 0; i < 3; i++) {
      const { team } = await approvedTeam(t, eventId, org.key);
      const sub = await t.api('POST', `/events/${eventId}/submit`, {
        key: team.key,
        body: { project_name: `P${i}`, github_url: `https://github.com/acme/p${i}` },
      });
      expect(sub.status).toBe(201);
      teams.push(team);
    }
    const pending = await t.user();
    expect((await t.api('POST', `/events/${eventId}/register`, { key: pending.key, body: registrationBody() })).status).toBe(201);
    const rejected = await t.user();
    const reg = await t.api('POST', `/events/${eventId}/register`, { key: rejected.key, body: registrationBody() });
    expect((await t.api('POST', `/events/${eventId}/registrations/${reg.body.id}/reject`, { key: org.key, body: { reason: 'no' } })).status).toBe(200);

    // Two reviewers: one outsider, one whose own team submitted (that project is not theirs to review).
    const outsider = await t.user();
    const now = t.clock.now().toISOString();
    await t.database.db
      .insertInto('event_reviewers')
      .values([
        { event_id: eventId, user_id: outsider.id, created_at: now },
        { event_id: eventId, user_id: teams[0]!.id, created_at: new Date(t.clock.now().getTime() + 1).toISOString() },
      ])
      .execute();
    const invite = await t.api('POST', `/events/${eventId}/reviewers`, { key: org.key, body: { email: 'later@example.com' } });
    expect(invite.status).toBe(201);

    let stats = (await t.api('GET', `/events/${eventId}/stats`, { key: org.key })).body;
    expect(stats.registrations).toEqual({ pending: 1, approved: 3, rejected: 1, withdrawn: 0 });
    expect(stats.projects).toBe(3);
    expect(stats.judged_projects).toBe(3);
    expect(stats.reviews.human).toEqual({ reviewers: 2, invitations_pending: 1, reviews_done: 0 });

    // Judging: the configured model scores all three, the unconfigured one fails all three.
    t.clock.set(t.clock.now().getTime() + 3 * DAY);
    await t.ctx.reviews.drain();
    const projects = (await t.api('GET', `/events/${eventId}/projects`, { key: org.key })).body as { id: string; registration_id: string }[];
    const put = await t.api('PUT', `/events/${eventId}/projects/${projects[1]!.id}/review`, { key: outsider.key, body: { scores: { impact: 5, craft: 5 } } });
    expect(put.status).toBe(201);

    stats = (await t.api('GET', `/events/${eventId}/stats`, { key: org.key })).body;
    expect(stats.reviews.by_model).toEqual([
      { reviewer: GOOD, pending: 0, running: 0, done: 3, failed: 0 },
      { reviewer: MISSING, pending: 0, running: 0, done: 0, failed: 3 },
    ]);
    expect(stats.reviews.human).toEqual({ reviewers: 2, invitations_pending: 1, reviews_done: 1 });
    expect(stats.reviewers).toEqual([
      { user_id: outsider.id, email: outsider.email, reviewed: 1, assigned: 3 },
      { user_id: teams[0]!.id, email: teams[0]!.email, reviewed: 0, assigned: 2 },
    ]);

    // Re-queued failures count as pending; an invitation that expired is no longer pending.
    expect((await t.api('POST', `/events/${eventId}/reviews/rerun`, { key: org.key, body: { model: MISSING } })).status).toBe(202);
    t.clock.set(t.clock.now().getTime() + 30 * DAY);
    stats = (await t.api('GET', `/events/${eventId}/stats`, { key: org.key })).body;
    expect(stats.reviews.human.invitations_pending).toBe(0);
    expect(stats.reviews.by_model[0]).toEqual({ reviewer: GOOD, pending: 0, running: 0, done: 3, failed: 0 });
    expect(stats.reviews.by_model[1].done).toBe(0);
    expect(stats.reviews.by_model[1].pending + stats.reviews.by_model[1].failed).toBe(3);
  });

  it('is for the event’s owners only', async () => {
    const eventId = await createEvent(t, org.key);
    const draftId = await createEvent(t, org.key, { status: 'draft' });
    const stranger = await t.user('organizer');
    const admin = await t.user('admin');
    const co = await t.user('organizer');
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { co_organizers: [co.email] } })).status).toBe(200);

    expect((await t.api('GET', `/events/${eventId}/stats`)).status).toBe(401);
    const other = await t.api('GET', `/events/${eventId}/stats`, { key: stranger.key });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('forbidden');
    const draft = await t.api('GET', `/events/${draftId}/stats`, { key: stranger.key });
    expect(draft.status).toBe(404);
    expect(draft.body.code).toBe('event_not_found');
    const missing = await t.api('GET', '/events/evt_nope/stats', { key: org.key });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('event_not_found');
    expect((await t.api('GET', `/events/${eventId}/stats`, { key: admin.key })).status).toBe(200);
    expect((await t.api('GET', `/events/${eventId}/stats`, { key: co.key })).status).toBe(200);
  });
});
