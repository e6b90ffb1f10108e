import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser, quickApprovedTeam } from '../helpers/quick-users.js';

const N = 20;

function tally(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

describe.each(DIALECTS)('concurrency (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => t?.close());

  it(`${N} concurrent first submits from one team: one 201, the rest 200, one project`, async () => {
    const eventId = await createEvent(t, org.key);
    const { team, registrationId } = await quickApprovedTeam(t, eventId, org.key);
    const results = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        t.api('POST', `/events/${eventId}/submit`, { key: team.key, body: { project_name: `Take ${i}`, github_url: `https://github.com/t/${i}` } }),
      ),
    );
    expect(tally(results.map((r) => r.status))).toEqual({ 201: 1, 200: N - 1 });
    expect(results.filter((r) => r.body.updated === false)).toHaveLength(1);
    const ids = new Set(results.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    const rows = await t.ctx.db.selectFrom('projects').selectAll().where('registration_id', '=', registrationId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe([...ids][0]);
    // Whichever write came last, the stored project is one of those sent, whole (name and URL together).
    const i = Number(rows[0]!.project_name.replace('Take ', ''));
    expect(rows[0]!.github_url).toBe(`https://github.com/t/${i}`);
  });

  it(`${N} concurrent registrations of one team name (different case) by different users: one 201, the rest team_name_taken`, async () => {
    const eventId = await createEvent(t, org.key);
    const users = await Promise.all(Array.from({ length: N }, () => quickUser(t)));
    const variants = ['Race Condition', 'race condition', 'RACE CONDITION', 'Race  condition', ' rAcE cOnDiTiOn '];
    const results = await Promise.all(
      users.map((u, i) => t.api('POST', `/events/${eventId}/register`, { key: u.key, body: registrationBody({ team_name: variants[i % variants.length] }) })),
    );
    expect(tally(results.map((r) => r.status))).toEqual({ 201: 1, 409: N - 1 });
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('team_name_taken');
    const rows = await t.ctx.db.selectFrom('registrations').select('id').where('event_id', '=', eventId).execute();
    expect(rows).toHaveLength(1);
  });

  it(`${N} concurrent registrations by one user: one 201, the rest already_registered with its id`, async () => {
    const eventId = await createEvent(t, org.key);
    const user = await quickUser(t);
    const results = await Promise.all(
      Array.from({ length: N }, (_, i) => t.api('POST', `/events/${eventId}/register`, { key: user.key, body: registrationBody({ team_name: `Solo ${i}` }) })),
    );
    expect(tally(results.map((r) => r.status))).toEqual({ 201: 1, 409: N - 1 });
    const created = results.find((r) => r.status === 201)!;
    for (const r of results.filter((x) => x.status === 409)) {
      expect(r.body.code).toBe('already_registered');
      expect(r.body.id).toBe(created.body.id);
    }
    const rows = await t.ctx.db.selectFrom('registrations').select('id').where('event_id', '=', eventId).where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
  });

  it(`${N} concurrent identical registrations by one user (a retried request): one 201, the rest already_registered`, async () => {
    const eventId = await createEvent(t, org.key);
    const user = await quickUser(t);
    const body = registrationBody({ team_name: 'Retry Team' });
    const results = await Promise.all(Array.from({ length: N }, () => t.api('POST', `/events/${eventId}/register`, { key: user.key, body })));
    expect(tally(results.map((r) => r.status))).toEqual({ 201: 1, 409: N - 1 });
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('already_registered');
  });
});
