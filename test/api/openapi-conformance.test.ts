import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';
import { conformanceChecker } from '../helpers/openapi-conformance.js';
import { quickUser } from '../helpers/quick-users.js';

const DAY = 86_400_000;

/**
 * The domain errors the fuzz rarely meets, each provoked on purpose: the answer must carry the
 * expected code, and the document must list that code for the route and status.
 */
describe.each(DIALECTS)('answers match the OpenAPI document along the whole flow (%s)', (dialect) => {
  let t: TestApp;
  let check: ReturnType<typeof conformanceChecker>;
  let org: TestUser;
  let team: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    check = conformanceChecker((await t.api('GET', '/openapi.json')).body);
    org = await quickUser(t, 'organizer');
    team = await quickUser(t);
    stranger = await quickUser(t);
  });
  afterAll(async () => t?.close());

  /** Calls `path` (a document path, `{id}` filled from `params`), expects status and code, and checks the answer against the document. */
  async function call(method: string, path: string, params: Record<string, string>, opts: { key?: string; body?: unknown }, status: number, code?: string) {
    const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params[name]!));
    const res = await t.request(method, url, opts);
    expect(res.status, `${method} ${url}: ${res.text.slice(0, 300)}`).toBe(status);
    if (code) expect(res.body.code).toBe(code);
    expect(check(method, path, { status: res.status, contentType: res.headers.get('content-type'), text: res.text }), `${method} ${path}`).toBeNull();
    return res;
  }

  it('documents every answer of registration, submission, decisions and publication', async () => {
    const E = '/api/v1/events/{id}';
    const id = await createEvent(t, org.key);
    const p = { id };
    await call('GET', '/api/v1/events/{id}', { id: 'evt_nope' }, {}, 404, 'event_not_found');
    await call('POST', `${E}/register`, { id: 'evt_nope' }, { key: team.key, body: registrationBody() }, 404, 'event_not_found');
    await call('POST', `${E}/register`, p, { key: team.key, body: { team_name: '' } }, 422, 'validation_failed');
    const reg = await call('POST', `${E}/register`, p, { key: team.key, body: registrationBody({ team_name: 'Owls' }) }, 201);
    await call('POST', `${E}/register`, p, { key: team.key, body: registrationBody() }, 409, 'already_registered');
    await call('POST', `${E}/register`, p, { key: stranger.key, body: registrationBody({ team_name: 'Owls' }) }, 409, 'team_name_taken');
    await call('POST', `${E}/register`, p, { body: registrationBody() }, 401, 'unauthorized');
    await call('GET', `${E}/my-registration`, p, { key: team.key }, 200);
    await call('GET', `${E}/my-registration`, p, { key: stranger.key }, 404, 'not_registered');
    const project = { project_name: 'Owl CLI', github_url: 'https://github.com/owls/cli' };
    await call('POST', `${E}/submit`, p, { key: team.key, body: project }, 403, 'registration_not_approved');
    await call('POST', `${E}/submit`, p, { key: stranger.key, body: project }, 404, 'not_registered');
    await call('POST', `${E}/registrations/{rid}/approve`, { id, rid: reg.body.id }, { key: stranger.key }, 403, 'forbidden');
    await call('POST', `${E}/registrations/{rid}/approve`, { id, rid: 'reg_nope' }, { key: org.key }, 404, 'registration_not_found');
    await call('POST', `${E}/registrations/{rid}/approve`, { id, rid: reg.body.id }, { key: org.key }, 200);
    await call('POST', `${E}/submit`, p, { key: team.key, body: project }, 201);
    await call('POST', `${E}/submit`, p, { key: team.key, body: { ...project, team_size: 3 } }, 200);
    await call('GET', `${E}/registrations`, p, { key: org.key }, 200);
    await call('GET', `${E}/projects`, p, { key: org.key }, 200);
    await call('GET', `${E}/result`, p, {}, 409, 'results_not_published');
    await call('POST', `${E}/results/publish`, p, { key: org.key }, 409, 'not_judging');
    await call('PATCH', E, p, { key: org.key, body: { status: 'draft' } }, 409, 'invalid_transition');
    await call('PATCH', E, p, { key: stranger.key, body: { name: 'Mine now' } }, 403, 'forbidden');

    t.clock.set(T0.getTime() + 2 * DAY + 3_600_000); // past both deadlines: judging
    await call('POST', `${E}/register`, p, { key: stranger.key, body: registrationBody() }, 409, 'registration_closed');
    await call('POST', `${E}/submit`, p, { key: team.key, body: project }, 409, 'submission_closed');
    await call('PATCH', E, p, { key: org.key, body: { tracks: [{ id: 'new', name: 'New' }] } }, 409, 'event_locked');
    await call('GET', `${E}/leaderboard`, p, { key: org.key }, 200);
    await call('GET', `${E}/leaderboard.csv`, p, { key: org.key }, 200);
    await call('GET', `${E}/reviews`, p, { key: org.key }, 200);
    // No AI review ran: the project is unscored, so publishing needs an explicit force.
    await call('POST', `${E}/results/publish`, p, { key: org.key }, 409, 'unscored_projects');
    await call('POST', `${E}/results/publish`, p, { key: org.key, body: { force: true } }, 200);
    await call('POST', `${E}/results/publish`, p, { key: org.key }, 409, 'results_already_published');
    await call('POST', `${E}/reviews/rerun`, p, { key: org.key, body: {} }, 409, 'results_already_published');
    await call('GET', `${E}/result`, p, {}, 200);
    await call('GET', '/api/v1/events', {}, {}, 200);
  });

  it('documents the organizer creation envelope and its errors', async () => {
    const deadlines = {
      registration_deadline: new Date(Date.now() + 86_400_000).toISOString(),
      submission_deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    };
    await call('POST', '/api/agent/events/create', {}, { key: stranger.key, body: { name: 'x', ...deadlines } }, 403, 'forbidden');
    await call('POST', '/api/agent/events/create', {}, { key: org.key, body: { name: 'No deadlines' } }, 422, 'validation_failed');
    const day = 86_400_000;
    const now = t.clock.now().getTime();
    await call(
      'POST',
      '/api/agent/events/create',
      {},
      {
        key: org.key,
        body: { name: 'Later', registration_deadline: new Date(now + day).toISOString(), submission_deadline: new Date(now + 2 * day).toISOString() },
      },
      201,
    );
  });
});
