import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickApprovedTeam, quickUser } from '../helpers/quick-users.js';

const DAY = 86_400_000;
const project = { project_name: 'Rocket', github_url: 'https://github.com/team/rocket' };

/** What a closed window says, and the `recruiting` alias and enum messages of status inputs. */
describe.each(DIALECTS)('closed windows and status inputs (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => t?.close());

  const patch = (id: string, body: unknown) => t.api('PATCH', `/events/${id}`, { key: org.key, body });
  const register = async (id: string) => t.api('POST', `/events/${id}/register`, { key: (await quickUser(t)).key, body: registrationBody() });

  it('an early move to judging says the organizer closed submissions on the date of the move, not "closed at" a future date', async () => {
    t.clock.set(T0);
    const id = await createEvent(t, org.key);
    const { team } = await quickApprovedTeam(t, id, org.key);
    t.clock.advance(60_000);
    const movedAt = t.clock.now().toISOString();
    expect((await patch(id, { status: 'judging' })).status).toBe(200);
    t.clock.advance(60_000);
    const res = await t.api('POST', `/events/${id}/submit`, { key: team.key, body: project });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('submission_closed');
    expect(res.body.detail).toMatch(new RegExp(`closed submissions early: the event was moved to judging on ${movedAt.replace(/\./g, '\\.')}`));
    expect(res.body.detail).not.toMatch(/closed at/);
  });

  it('a passed submission deadline is named as such', async () => {
    t.clock.set(T0);
    const id = await createEvent(t, org.key);
    const { team } = await quickApprovedTeam(t, id, org.key);
    t.clock.advance(2 * DAY);
    const res = await t.api('POST', `/events/${id}/submit`, { key: team.key, body: project });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('submission_closed');
    expect(res.body.detail).toMatch(/the submission deadline passed at 2030-01-03T12:00:00\.000Z/);
  });

  it('a cancelled event says it was cancelled, for registration and submission', async () => {
    t.clock.set(T0);
    const id = await createEvent(t, org.key);
    const { team } = await quickApprovedTeam(t, id, org.key);
    expect((await patch(id, { status: 'cancelled' })).status).toBe(200);
    const sub = await t.api('POST', `/events/${id}/submit`, { key: team.key, body: project });
    expect(sub.status).toBe(409);
    expect(sub.body.code).toBe('submission_closed');
    expect(sub.body.detail).toMatch(/the organizer cancelled the event on 2030-01-01T12:00:00\.000Z/);
    const reg = await register(id);
    expect(reg.status).toBe(409);
    expect(reg.body.code).toBe('registration_closed');
    expect(reg.body.detail).toMatch(/cancelled the event/);
  });

  it('registration closed early, by the form switch and by the deadline each say so', async () => {
    t.clock.set(T0);
    const early = await createEvent(t, org.key);
    expect((await patch(early, { status: 'active' })).status).toBe(200);
    const a = await register(early);
    expect(a.status).toBe(409);
    expect(a.body.code).toBe('registration_closed');
    expect(a.body.detail).toMatch(
      /the organizer closed registration early: the event was moved to active on 2030-01-01T12:00:00\.000Z, before the registration deadline/,
    );

    const closedForm = await createEvent(t, org.key, { registration_config: { open: false } });
    const b = await register(closedForm);
    expect(b.status).toBe(409);
    expect(b.body.code).toBe('registration_closed');
    expect(b.body.detail).toMatch(/registration_config\.open is false/);

    const late = await createEvent(t, org.key);
    t.clock.advance(DAY);
    const c = await register(late);
    expect(c.status).toBe(409);
    expect(c.body.code).toBe('registration_closed');
    expect(c.body.detail).toMatch(/the registration deadline passed at 2030-01-02T12:00:00\.000Z; the event is now active/);
  });

  it('accepts "recruiting" as open wherever a status is an input', async () => {
    t.clock.set(T0);
    const draft = await createEvent(t, org.key, { status: 'draft' });
    const patched = await patch(draft, { status: 'recruiting' });
    expect(patched.status).toBe(200);
    expect(patched.body.status).toBe('open');
    const id = await createEvent(t, org.key, { status: 'recruiting' });
    expect((await t.api('GET', `/events/${id}`)).body.status).toBe('open');
    const listed = await t.api('GET', '/events?status=recruiting&limit=100');
    expect(listed.status).toBe(200);
    expect(listed.body.map((e: { id: string }) => e.id)).toContain(id);
  });

  it('lists the allowed values when an enum input is wrong, on bodies and query strings', async () => {
    const id = await createEvent(t, org.key);
    const bad = await patch(id, { status: 'finished' });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('validation_failed');
    expect(bad.body.errors).toEqual([{ field: 'status', message: 'must be one of: draft, open, active, judging, ended, cancelled, recruiting' }]);

    const create = await t.api('POST', '/events', { key: org.key, body: { name: 'x', status: 'active' } });
    expect(create.status).toBe(422);
    expect(create.body.errors).toContainEqual({ field: 'status', message: 'must be one of: draft, open, recruiting' });

    const regs = await t.api('GET', `/events/${id}/registrations?status=waiting`, { key: org.key });
    expect(regs.status).toBe(422);
    expect(regs.body.errors).toEqual([{ field: 'status', message: 'must be one of: pending, approved, rejected, withdrawn' }]);
  });
});
