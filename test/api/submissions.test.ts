import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser, quickApprovedTeam } from '../helpers/quick-users.js';

const DAY = 86_400_000;
const project = (over: Record<string, unknown> = {}) => ({
  project_name: 'Rocket',
  github_url: 'https://github.com/team/rocket',
  ...over,
});

describe.each(DIALECTS)('submission (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let eventId: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
    eventId = await createEvent(t, org.key);
  });
  afterAll(async () => t?.close());

  const submit = (key: string, body: unknown, id = eventId) => t.api('POST', `/events/${id}/submit`, { key, body });

  it('answers 404 not_registered without a registration, 403 registration_not_approved for pending and rejected teams', async () => {
    const stranger = await quickUser(t);
    const none = await submit(stranger.key, project());
    expect(none.status).toBe(404);
    expect(none.body.code).toBe('not_registered');
    expect(none.body.detail).toContain(`POST /api/v1/events/${eventId}/register`);

    const pending = await quickUser(t);
    const reg = await t.api('POST', `/events/${eventId}/register`, { key: pending.key, body: registrationBody() });
    const p = await submit(pending.key, project());
    expect(p.status).toBe(403);
    expect(p.body.code).toBe('registration_not_approved');

    await t.api('POST', `/events/${eventId}/registrations/${reg.body.id}/reject`, { key: org.key, body: {} });
    const r = await submit(pending.key, project());
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('registration_not_approved');
    const rows = await t.ctx.db.selectFrom('projects').select('id').where('registration_id', '=', reg.body.id).execute();
    expect(rows).toEqual([]);
  });

  it('creates with 201 then replaces with 200, updated telling which, one project, last write wins', async () => {
    const { team, registrationId } = await quickApprovedTeam(t, eventId, org.key);
    const first = await submit(team.key, project({ team_size: 3, description: 'v1', project_website: 'https://rocket.dev' }));
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      id: expect.stringMatching(/^prj_/),
      event_id: eventId,
      registration_id: registrationId,
      project_name: 'Rocket',
      name: 'Rocket',
      github_url: 'https://github.com/team/rocket',
      project_website: 'https://rocket.dev',
      demo_video_url: null,
      demo_url: null,
      team_size: 3,
      description: 'v1',
      track_id: 'tools',
      status: 'submitted',
      review_status: 'pending',
      updated: false,
    });

    t.clock.advance(60_000);
    try {
      const second = await submit(team.key, { name: 'Rocket 2', github_url: 'https://github.com/team/rocket2', demo_url: 'https://youtu.be/r' });
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({
        id: first.body.id,
        project_name: 'Rocket 2',
        name: 'Rocket 2',
        github_url: 'https://github.com/team/rocket2',
        demo_video_url: 'https://youtu.be/r',
        demo_url: 'https://youtu.be/r',
        updated: true,
        submitted_at: first.body.submitted_at,
      });
      // Last write wins entirely: fields not sent again are cleared, not kept.
      expect(second.body.team_size).toBeNull();
      expect(second.body.description).toBeNull();
      expect(second.body.updated_at).not.toBe(first.body.updated_at);
    } finally {
      t.clock.set(T0);
    }
    const rows = await t.ctx.db.selectFrom('projects').selectAll().where('registration_id', '=', registrationId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.project_name).toBe('Rocket 2');
  });

  it('accepts demo_video_url and the registered track, repeated or left out', async () => {
    const { team } = await quickApprovedTeam(t, eventId, org.key, { track_id: 'fun' });
    const res = await submit(team.key, project({ demo_video_url: 'https://v.io/1', track_id: 'fun' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ demo_video_url: 'https://v.io/1', demo_url: 'https://v.io/1', track_id: 'fun' });
    const again = await submit(team.key, project());
    expect(again.status).toBe(200);
    expect(again.body.track_id).toBe('fun');
  });

  it('never moves a project out of the registered track: another track_id is 422 naming the registered one, and changes nothing', async () => {
    const { team, registrationId } = await quickApprovedTeam(t, eventId, org.key, { track_id: 'tools' });
    expect((await submit(team.key, project())).status).toBe(201);
    const moved = await submit(team.key, project({ project_name: 'Moved', track_id: 'fun' }));
    expect(moved.status).toBe(422);
    expect(moved.body.code).toBe('validation_failed');
    expect(moved.body.errors).toEqual([{ field: 'track_id', message: 'must be your registered track "tools" (leave track_id out to keep it)' }]);
    const row = await t.ctx.db
      .selectFrom('projects')
      .select(['track_id', 'project_name'])
      .where('registration_id', '=', registrationId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ track_id: 'tools', project_name: project().project_name });
    const mine = await t.api('GET', `/events/${eventId}/my-registration`, { key: team.key });
    expect(mine.body.track_id).toBe('tools');
    expect(mine.body.project.track_id).toBe('tools');
  });

  it('accepts submissions up to 1 ms before the deadline and refuses them from the deadline on with 409 submission_closed', async () => {
    const id = await createEvent(t, org.key);
    const { team } = await quickApprovedTeam(t, id, org.key);
    try {
      t.clock.set(T0.getTime() + 2 * DAY - 1);
      expect((await submit(team.key, project(), id)).status).toBe(201);
      t.clock.set(T0.getTime() + 2 * DAY);
      const res = await submit(team.key, project({ project_name: 'Late' }), id);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('submission_closed');
      const mine = await t.api('GET', `/events/${id}/my-registration`, { key: team.key });
      expect(mine.body.project.project_name).toBe('Rocket');
    } finally {
      t.clock.set(T0);
    }
  });

  it('refuses submissions once the organizer starts judging early or cancels', async () => {
    for (const status of ['judging', 'cancelled'] as const) {
      const id = await createEvent(t, org.key);
      const { team } = await quickApprovedTeam(t, id, org.key);
      expect((await t.api('PATCH', `/events/${id}`, { key: org.key, body: { status } })).status).toBe(200);
      const res = await submit(team.key, project(), id);
      expect(res.status, status).toBe(409);
      expect(res.body.code).toBe('submission_closed');
    }
  });

  it('validates the body with 422 and field errors', async () => {
    const { team } = await quickApprovedTeam(t, eventId, org.key);
    const cases: Array<[unknown, string]> = [
      [{ github_url: 'https://github.com/x/y' }, 'project_name'],
      [{ project_name: 'x' }, 'github_url'],
      [project({ github_url: 'not a url' }), 'github_url'],
      [project({ github_url: 'javascript:alert(1)' }), 'github_url'],
      [project({ demo_url: 'ftp://x.org' }), 'demo_url'],
      [project({ project_website: '/relative' }), 'project_website'],
      [project({ team_size: 0 }), 'team_size'],
      [project({ team_size: 101 }), 'team_size'],
      [project({ team_size: 2.5 }), 'team_size'],
      [project({ team_size: '3' }), 'team_size'],
      [project({ project_name: 'x'.repeat(121) }), 'project_name'],
      [project({ description: 'x'.repeat(10_001) }), 'description'],
      [project({ track_id: 'nope' }), 'track_id'],
      [project({ name: 'Different' }), 'name'],
      [project({ extra: 1 }), 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await submit(team.key, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(
        res.body.errors.map((e: { field: string }) => e.field),
        JSON.stringify(body).slice(0, 80),
      ).toContain(field);
    }
    const mine = await t.api('GET', `/events/${eventId}/my-registration`, { key: team.key });
    expect(mine.body.project).toBeNull();
  });

  it('takes only a GitHub repository URL as github_url: 422 says what to send and where other links go', async () => {
    const { team } = await quickApprovedTeam(t, eventId, org.key);
    for (const bad of [
      'http://github.com/acme/rocket',
      'https://gitlab.com/acme/rocket',
      'https://github.com/acme',
      'https://github.com/acme/rocket/tree/main',
    ]) {
      const res = await submit(team.key, project({ github_url: bad }));
      expect(res.status, bad).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors, bad).toEqual([
        { field: 'github_url', message: 'must be a GitHub repository URL, https://github.com/<owner>/<repo>; put any other link in project_website' },
      ]);
    }
    for (const ok of ['https://github.com/acme/rocket.git', 'https://github.com/acme/rocket/']) {
      const res = await submit(team.key, project({ github_url: ok, project_website: 'https://gitlab.com/acme/rocket' }));
      expect(res.status, ok).toBeLessThan(300);
      expect(res.body.github_url).toBe(ok);
    }
    const doc = await t.api('GET', '/openapi.json');
    const bodySchema = doc.body.paths['/api/v1/events/{id}/submit'].post.requestBody.content['application/json'].schema;
    expect(bodySchema.properties.github_url.pattern).toMatch(/^\^https:\/\/github/);
    const reg = await t.api('POST', `/events/${eventId}/register`, {
      key: (await quickUser(t)).key,
      body: { team_name: 'Gitlab Team', track_id: 'tools', github_url: 'https://gitlab.com/a/b', fields: { repo: 'https://gitlab.com/a/b' } },
    });
    expect(reg.status).toBe(422);
    expect(reg.body.errors).toEqual([{ field: 'github_url', message: 'must be a GitHub repository URL, https://github.com/<owner>/<repo>' }]);
  });

  it('answers 404 event_not_found for unknown events', async () => {
    const team = await quickUser(t);
    const res = await submit(team.key, project(), 'evt_nope');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('event_not_found');
  });
});
