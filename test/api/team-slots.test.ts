import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

/**
 * The stored member count follows the members both ways: a full team that loses a member (removed
 * by the leader, or leaving) has room again, and the maximum still holds after that.
 */
describe.each(DIALECTS)('team member count (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => t?.close());

  it('a full team that loses a member, removed or leaving, takes a new one, and is full again after', async () => {
    const eventId = await createEvent(t, org.key, { registration_config: { open: true, auto_approve: false, fields: [], max_team_size: 3 } });
    const leader = await quickUser(t);
    const reg = await t.api<any>('POST', `/events/${eventId}/register`, { key: leader.key, body: registrationBody({ fields: {} }) });
    expect(reg.status).toBe(201);
    expect((await t.api('POST', `/events/${eventId}/registrations/${reg.body.id}/approve`, { key: org.key })).status).toBe(200);
    const code = (await t.api<any>('POST', `/events/${eventId}/team/invitations`, { key: leader.key, body: {} })).body.join_code as string;
    const join = async () => {
      const who = await quickUser(t);
      const res = await t.api<any>('POST', `/events/${eventId}/team/join`, { key: who.key, body: { join_code: code } });
      return { who, res };
    };
    const count = async () => (await t.api<any>('GET', `/events/${eventId}/my-registration`, { key: leader.key })).body.member_count;

    const a = await join();
    const b = await join();
    expect([a.res.status, b.res.status]).toEqual([200, 200]);
    expect(await count()).toBe(3);
    const full = await join();
    expect(full.res.status).toBe(409);
    expect(full.res.body).toMatchObject({ code: 'team_full', max_team_size: 3 });

    // Removed by the leader: room for one.
    expect((await t.api('DELETE', `/events/${eventId}/team/members/${a.who.id}`, { key: leader.key })).status).toBe(204);
    expect(await count()).toBe(2);
    const c = await join();
    expect(c.res.status).toBe(200);
    expect(c.res.body.member_count).toBe(3);
    expect((await join()).res.body.code).toBe('team_full');

    // Leaving: room for one again.
    expect((await t.api('POST', `/events/${eventId}/team/leave`, { key: b.who.key })).status).toBe(204);
    expect(await count()).toBe(2);
    const d = await join();
    expect(d.res.status).toBe(200);
    expect(d.res.body.members.map((m: { user_id: string }) => m.user_id).sort()).toEqual([leader.id, c.who.id, d.who.id].sort());
    const again = await join();
    expect(again.res.status).toBe(409);
    expect(again.res.body.code).toBe('team_full');
    expect(await count()).toBe(3);
  });
});
