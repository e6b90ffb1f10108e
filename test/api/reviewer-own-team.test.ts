import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

const DAY = 86_400_000;

/**
 * Under the default settings (every reviewer reviews every project, no e-mail-domain rule), a
 * reviewer never judges the project of a team they are or were on — as its leader, as an ordinary
 * member, or after leaving it — in the queue, the review itself and the counts.
 */
describe.each(DIALECTS)("a reviewer and their own team's project (%s)", (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let eventId: string;
  let leader: TestUser;
  let member: TestUser;
  let former: TestUser;
  let projectA: string;
  let projectB: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
    eventId = await createEvent(t, org.key, { models: [], registration_config: { open: true, auto_approve: true, fields: [] } });
    leader = await quickUser(t);
    member = await quickUser(t);
    former = await quickUser(t);
    expect((await t.api('POST', `/events/${eventId}/register`, { key: leader.key, body: { ...registrationBody(), fields: {} } })).status).toBe(201);
    const code = (await t.api<any>('POST', `/events/${eventId}/team/invitations`, { key: leader.key, body: {} })).body.join_code as string;
    for (const who of [member, former]) {
      expect((await t.api('POST', `/events/${eventId}/team/join`, { key: who.key, body: { join_code: code } })).status).toBe(200);
    }
    const a = await t.api<any>('POST', `/events/${eventId}/submit`, {
      key: member.key,
      body: { project_name: 'Team A project', github_url: 'https://github.com/acme/a' },
    });
    expect(a.status).toBe(201);
    projectA = a.body.id;
    // The former member worked on it, then left.
    expect((await t.api('POST', `/events/${eventId}/team/leave`, { key: former.key })).status).toBe(204);
    const other = await quickUser(t);
    expect((await t.api('POST', `/events/${eventId}/register`, { key: other.key, body: { ...registrationBody(), fields: {} } })).status).toBe(201);
    const b = await t.api<any>('POST', `/events/${eventId}/submit`, {
      key: other.key,
      body: { project_name: 'Team B project', github_url: 'https://github.com/acme/b' },
    });
    expect(b.status).toBe(201);
    projectB = b.body.id;
    for (const who of [leader, member, former]) {
      await t.database.db.insertInto('event_reviewers').values({ event_id: eventId, user_id: who.id, created_at: t.clock.now().toISOString() }).execute();
    }
    t.clock.advance(3 * DAY);
    // The default: every reviewer reviews every project; no e-mail-domain rule.
    const settings = await t.api<any>('GET', `/events/${eventId}/assignments/summary`, { key: org.key });
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({ review_mode: 'every', same_email_domain_conflicts: false });
  });
  afterAll(async () => t?.close());

  it.each([
    ['the leader', () => leader],
    ['an ordinary member', () => member],
    ['a former member', () => former],
  ])('%s: the queue hides the team’s project, a review of it is 403 conflict_of_interest, the other team’s is taken', async (_who, reviewer) => {
    const who = reviewer();
    const queue = await t.api<any>('GET', `/events/${eventId}/review-assignments?limit=100`, { key: who.key });
    expect(queue.status).toBe(200);
    expect(queue.body.projects.map((p: { project_id: string }) => p.project_id)).toEqual([projectB]);
    expect(queue.body.hidden_for_conflict_of_interest).toBe(1);

    const own = await t.api<any>('PUT', `/events/${eventId}/projects/${projectA}/review`, { key: who.key, body: { scores: { overall: 10 } } });
    expect(own.status).toBe(403);
    expect(own.body.code).toBe('conflict_of_interest');
    expect((await t.api<any>('GET', `/events/${eventId}/projects/${projectA}/review`, { key: who.key })).body.code).toBe('conflict_of_interest');

    const mine = await t.api<any>('GET', '/me/review-events', { key: who.key });
    expect(mine.body).toEqual([expect.objectContaining({ event_id: eventId, projects: 1 })]);
    const list = await t.api<any>('GET', `/events/${eventId}/reviewers?limit=100`, { key: org.key });
    expect(list.body.reviewers.find((r: { user_id: string }) => r.user_id === who.id).open_reviews).toBe(1);
  });
});
