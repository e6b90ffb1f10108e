import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

const DAY = 86_400_000;
const DEADLINE = new Date(T0.getTime() + DAY).toISOString();

describe.each(DIALECTS)('re-application after a rejection (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => t?.close());

  const register = (key: string, eventId: string, body: unknown) => t.api('POST', `/events/${eventId}/register`, { key, body });
  const reject = (eventId: string, rid: string, body: unknown) => t.api('POST', `/events/${eventId}/registrations/${rid}/reject`, { key: org.key, body });
  const mine = (key: string, eventId: string) => t.api('GET', `/events/${eventId}/my-registration`, { key });

  async function rejectedTeam(final: boolean) {
    const eventId = await createEvent(t, org.key);
    const team = await quickUser(t);
    const first = await register(team.key, eventId, registrationBody({ team_name: 'First Try' }));
    expect(first.status).toBe(201);
    const rejected = await reject(eventId, first.body.id, { reason: 'tell us more', final });
    expect(rejected.status).toBe(200);
    return { eventId, team, id: first.body.id as string, rejected };
  }

  it('a rejected team reads that it may re-apply until the registration deadline', async () => {
    const { eventId, team, rejected } = await rejectedTeam(false);
    expect(rejected.body).toMatchObject({ status: 'rejected', final: false, attempt: 1, reapply_until: DEADLINE });
    const res = await mine(team.key, eventId);
    expect(res.body).toMatchObject({ status: 'rejected', reason: 'tell us more', final: false, reapply_until: DEADLINE, reapplied_at: null });
    expect(res.body.next_step).toBe(`Rejected: you may re-apply with changed answers (POST register again) until ${DEADLINE}.`);
  });

  it('registering again with changed answers puts the same registration back to pending, marked as a re-application', async () => {
    const { eventId, team, id } = await rejectedTeam(false);
    t.clock.set(T0.getTime() + 60_000);
    try {
      const again = await register(team.key, eventId, {
        team_name: 'Second Try',
        track_id: 'fun',
        fields: { repo: 'https://github.com/example/better', why: 'we grew' },
      });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ id, status: 'pending', team_name: 'Second Try', track_id: 'fun', attempt: 2, reapplied: true });
      const read = await mine(team.key, eventId);
      expect(read.body).toMatchObject({
        id,
        status: 'pending',
        reason: null,
        team_name: 'Second Try',
        track_id: 'fun',
        fields: { repo: 'https://github.com/example/better', why: 'we grew' },
        attempt: 2,
        reapplied_at: new Date(T0.getTime() + 60_000).toISOString(),
        reapply_until: null,
      });
      const list = await t.api('GET', `/events/${eventId}/registrations`, { key: org.key });
      expect(list.body).toHaveLength(1);
      expect(list.body[0]).toMatchObject({ id, status: 'pending', attempt: 2, reapplied_at: new Date(T0.getTime() + 60_000).toISOString() });
      // Once pending again, a further registration is a duplicate as before.
      const third = await register(team.key, eventId, registrationBody());
      expect(third.status).toBe(409);
      expect(third.body).toMatchObject({ code: 'already_registered', id, registration_status: 'pending' });
    } finally {
      t.clock.set(T0);
    }
  });

  it('a re-application stays pending on an auto-approving event', async () => {
    const eventId = await createEvent(t, org.key, { registration_config: { auto_approve: true, fields: [] } });
    const team = await quickUser(t);
    const first = await register(team.key, eventId, { team_name: 'Auto One', track_id: 'fun' });
    expect(first.body.status).toBe('approved');
    expect((await reject(eventId, first.body.id, null)).status).toBe(200);
    const again = await register(team.key, eventId, { team_name: 'Auto One', track_id: 'fun' });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('pending');
  });

  it('a final rejection refuses a re-application with 409 registration_rejected_final', async () => {
    const { eventId, team, id, rejected } = await rejectedTeam(true);
    expect(rejected.body).toMatchObject({ status: 'rejected', final: true, reapply_until: null });
    const res = await register(team.key, eventId, registrationBody());
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'registration_rejected_final', id });
    expect((await mine(team.key, eventId)).body).toMatchObject({
      status: 'rejected',
      final: true,
      next_step: 'Rejected as final: you may not re-apply to this event.',
    });
  });

  it('after the registration deadline a rejected team can no longer re-apply: 409 registration_closed', async () => {
    const { eventId, team } = await rejectedTeam(false);
    t.clock.set(T0.getTime() + DAY);
    try {
      expect((await mine(team.key, eventId)).body).toMatchObject({
        reapply_until: null,
        next_step: 'Rejected: registration has closed, so you can no longer re-apply.',
      });
      const res = await register(team.key, eventId, registrationBody());
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('registration_closed');
    } finally {
      t.clock.set(T0);
    }
  });

  it('a re-application may not take another team’s name: 409 team_name_taken, still rejected', async () => {
    const { eventId, team } = await rejectedTeam(false);
    const other = await quickUser(t);
    expect((await register(other.key, eventId, registrationBody({ team_name: 'Taken Name' }))).status).toBe(201);
    const res = await register(team.key, eventId, registrationBody({ team_name: 'taken name' }));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('team_name_taken');
    expect((await mine(team.key, eventId)).body).toMatchObject({ status: 'rejected', attempt: 1 });
  });

  it('approving after a final rejection clears it', async () => {
    const { eventId, id } = await rejectedTeam(true);
    const ok = await t.api('POST', `/events/${eventId}/registrations/${id}/approve`, { key: org.key });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'approved', final: false });
  });

  it('refuses final on approve (422 validation_failed)', async () => {
    const { eventId, id } = await rejectedTeam(false);
    const res = await t.api('POST', `/events/${eventId}/registrations/${id}/approve`, { key: org.key, body: { final: true } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
  });

  it('sixteen re-applications at once make one pending registration: one 200, the rest already_registered', async () => {
    const { eventId, team, id } = await rejectedTeam(false);
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => register(team.key, eventId, registrationBody({ team_name: `Racer ${i}` }))));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(15).fill(409)]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body).toMatchObject({ code: 'already_registered', id, registration_status: 'pending' });
    const rows = await t.ctx.db.selectFrom('registrations').selectAll().where('event_id', '=', eventId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'pending', attempt: 2 });
  });
});
