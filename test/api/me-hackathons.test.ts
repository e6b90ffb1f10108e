import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, type ApiResponse, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

const DAY = 86_400_000;

/** `GET /me/hackathons`: every event the caller is in, with the parts they have in it, paged by Link rel="next". */
describe.each(DIALECTS)('GET /me/hackathons (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let person: TestUser;
  let stranger: TestUser;
  let registered: string;
  let organized: string;
  let reviewed: string;
  let coOrganized: string;

  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { REVIEW_WORKERS: 'false' } });
    org = await quickUser(t, 'organizer');
    person = await quickUser(t, 'organizer');
    stranger = await quickUser(t);
    registered = await createEvent(t, org.key, { name: 'registered' });
    const reg = await t.api('POST', `/events/${registered}/register`, { key: person.key, body: registrationBody({ team_name: 'Night Owls' }) });
    expect(reg.status).toBe(201);
    organized = await createEvent(t, person.key, { name: 'organized', status: 'draft' });
    reviewed = await createEvent(t, org.key, { name: 'reviewed' });
    await t.database.db.insertInto('event_reviewers').values({ event_id: reviewed, user_id: person.id, created_at: t.clock.now().toISOString() }).execute();
    coOrganized = await createEvent(t, org.key, { name: 'co-organized', co_organizers: [person.email] });
    await createEvent(t, org.key, { name: 'not theirs' });
  });
  afterAll(async () => t?.close());

  it('lists each event the caller is in once, with role, team status and the next deadline', async () => {
    const res = await t.api('GET', '/me/hackathons', { key: person.key });
    expect(res.status).toBe(200);
    const byId = new Map((res.body as Array<{ event_id: string }>).map((e) => [e.event_id, e]));
    expect([...byId.keys()].sort()).toEqual([registered, organized, reviewed, coOrganized].sort());
    expect(byId.get(registered)).toMatchObject({
      event_name: 'registered',
      status: 'open',
      roles: ['leader'],
      team: { team_name: 'Night Owls', status: expect.stringMatching(/^(pending|approved)$/), reason: null },
      next_deadline: { kind: 'registration' },
    });
    expect(byId.get(organized)).toMatchObject({ status: 'draft', roles: ['organizer'], team: null });
    expect(byId.get(reviewed)).toMatchObject({ roles: ['reviewer'], team: null });
    expect(byId.get(coOrganized)).toMatchObject({ roles: ['organizer'], team: null });
  });

  it('moves the next deadline to the submission deadline, then none, as the clock passes them', async () => {
    const event = (await t.api('GET', `/events/${registered}`)).body;
    const start = t.clock.now().getTime();
    try {
      t.clock.set(Date.parse(event.registration_deadline) + 1000);
      const during = (await t.api('GET', '/me/hackathons', { key: person.key })).body.find((e: { event_id: string }) => e.event_id === registered);
      expect(during).toMatchObject({ status: 'active', next_deadline: { kind: 'submission', at: event.submission_deadline } });
      t.clock.set(Date.parse(event.submission_deadline) + DAY);
      const after = (await t.api('GET', '/me/hackathons', { key: person.key })).body.find((e: { event_id: string }) => e.event_id === registered);
      expect(after).toMatchObject({ status: 'judging', next_deadline: null });
    } finally {
      t.clock.set(start);
    }
  });

  it('pages with Link rel="next", each event exactly once', async () => {
    const seen: string[] = [];
    let next: string | null = '/api/v1/me/hackathons?limit=1';
    for (let i = 0; next; i++) {
      expect(i).toBeLessThan(6);
      const res: ApiResponse = await t.request('GET', next.replace('http://hackathon.test', ''), { key: person.key });
      expect(res.status).toBe(200);
      expect(res.body.length).toBeLessThanOrEqual(1);
      seen.push(...res.body.map((e: { event_id: string }) => e.event_id));
      const link = res.headers.get('link');
      next = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1]! : null;
    }
    expect(seen.sort()).toEqual([registered, organized, reviewed, coOrganized].sort());
  });

  it('names a member who joined by code as member, and drops the event when they leave', async () => {
    const member = await quickUser(t);
    const invitation = await t.api('POST', `/events/${registered}/team/invitations`, { key: person.key, body: {} });
    expect(invitation.status).toBe(201);
    const joined = await t.api('POST', `/events/${registered}/team/join`, { key: member.key, body: { join_code: invitation.body.join_code } });
    expect(joined.status).toBe(200);
    const mine = await t.api('GET', '/me/hackathons', { key: member.key });
    expect(mine.body).toEqual([
      expect.objectContaining({ event_id: registered, roles: ['member'], team: expect.objectContaining({ team_name: 'Night Owls' }) }),
    ]);
    const leaderView = (await t.api('GET', '/me/hackathons', { key: person.key })).body.find((e: { event_id: string }) => e.event_id === registered);
    expect(leaderView.roles).toEqual(['leader']);
    expect((await t.api('POST', `/events/${registered}/team/leave`, { key: member.key })).status).toBe(204);
    expect((await t.api('GET', '/me/hackathons', { key: member.key })).body).toEqual([]);
  });

  it('is empty for a person in no event, refuses a cursor of another person, and needs a key', async () => {
    const none = await t.api('GET', '/me/hackathons', { key: stranger.key });
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
    const first = await t.api('GET', '/me/hackathons?limit=1', { key: person.key });
    const cursor = new URL(/^<([^>]+)>/.exec(first.headers.get('link')!)![1]!).searchParams.get('cursor')!;
    const foreign = await t.api('GET', `/me/hackathons?cursor=${cursor}`, { key: stranger.key });
    expect(foreign.status).toBe(422);
    expect(foreign.body.code).toBe('validation_failed');
    const anonymous = await t.api('GET', '/me/hackathons');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('unauthorized');
  });
});
