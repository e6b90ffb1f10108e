import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickApprovedTeam, quickUser } from '../helpers/quick-users.js';

const REPLACES = 'submit replaces the whole project, so send every field each time, not only the changed ones (your current project is in GET my-registration)';

describe.each(DIALECTS)('validation errors that say what to send (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let eventId: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
    eventId = await createEvent(t, org.key);
  });
  afterAll(async () => t?.close());

  it('a form answer sent at the top level of a registration is told to go under fields', async () => {
    const res = await t.api('POST', `/events/${eventId}/register`, { key: (await quickUser(t)).key, body: { ...registrationBody(), team_size: 3 } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([
      { field: 'team_size', message: 'is not a known property; answers to the event\'s form go under `fields`, e.g. {"fields": {"team_size": …}}' },
    ]);
  });

  it('near-miss names get the name meant', async () => {
    const { team } = await quickApprovedTeam(t, eventId, org.key);
    const res = await t.api('POST', `/events/${eventId}/submit`, {
      key: team.key,
      body: { project_name: 'Rocket', github_url: 'https://github.com/acme/rocket', repo_url: 'https://github.com/acme/rocket', summary: 'x' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { field: 'repo_url', message: 'is not a known property; did you mean `github_url`?' },
      { field: 'summary', message: 'is not a known property; did you mean `description`?' },
    ]);
  });

  it('a partial update is told that submit replaces the whole project; a missing name and its alias is one error', async () => {
    const { team } = await quickApprovedTeam(t, eventId, org.key);
    expect(
      (await t.api('POST', `/events/${eventId}/submit`, { key: team.key, body: { project_name: 'Rocket', github_url: 'https://github.com/acme/rocket' } }))
        .status,
    ).toBe(201);
    const res = await t.api('POST', `/events/${eventId}/submit`, { key: team.key, body: { description: 'only the new description' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { field: 'project_name', message: `is required (send project_name or name): ${REPLACES}` },
      { field: 'github_url', message: `is required: ${REPLACES}` },
    ]);
  });

  it('a form answer of a wrong type gets one sentence, not one line per allowed type', async () => {
    const res = await t.api('POST', `/events/${eventId}/register`, {
      key: (await quickUser(t)).key,
      body: registrationBody({ fields: { repo: 'https://github.com/a/b', why: true } }),
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: 'fields.why', message: 'must be a string, a number or null' }]);
  });
});
