import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, eventBody, registrationBody, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser, quickApprovedTeam } from '../helpers/quick-users.js';
import { until } from '../helpers/until.js';

const DAY = 86_400_000;

describe.each(DIALECTS)('registration (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let eventId: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
    eventId = await createEvent(t, org.key);
  });
  afterAll(async () => t?.close());

  const register = (key: string, body: unknown, id = eventId) => t.api('POST', `/events/${id}/register`, { key, body });

  it('answers 201 with id, status pending, team_name, track_id, required_fields and created_at', async () => {
    const team = await quickUser(t);
    const res = await register(team.key, registrationBody({ team_name: '  The   Rockets ' }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^reg_/),
      event_id: eventId,
      status: 'pending',
      team_name: 'The Rockets',
      track_id: 'tools',
      required_fields: [{ key: 'repo', label: 'Repository' }],
      attempt: 1,
      reapplied: false,
      created_at: T0.toISOString(),
    });
    expect(res.headers.get('location')).toBe(`${t.config.publicUrl}/api/v1/events/${eventId}/my-registration`);
  });

  it('auto_approve makes a new registration approved at once', async () => {
    const auto = await createEvent(t, org.key, { registration_config: { auto_approve: true, fields: [] } });
    const team = await quickUser(t);
    const res = await register(team.key, { team_name: 'Auto', track_id: 'fun' }, auto);
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('approved');
    expect(res.body.required_fields).toEqual([]);
    const mine = await t.api('GET', `/events/${auto}/my-registration`, { key: team.key });
    expect(mine.body.status).toBe('approved');
  });

  it('refuses registration at and after the registration deadline with 409 registration_closed', async () => {
    const id = await createEvent(t, org.key);
    const team = await quickUser(t);
    try {
      t.clock.set(T0.getTime() + DAY);
      const res = await register(team.key, registrationBody(), id);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('registration_closed');
      t.clock.set(T0.getTime() + DAY - 1);
      expect((await register(team.key, registrationBody(), id)).status).toBe(201);
    } finally {
      t.clock.set(T0);
    }
  });

  it('refuses registration when registration_config.open is false, and after the organizer reopens accepts it', async () => {
    const id = await createEvent(t, org.key, { registration_config: { ...eventBody(T0).registration_config, open: false } });
    const team = await quickUser(t);
    const res = await register(team.key, registrationBody(), id);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('registration_closed');
    const reopen = await t.api('PATCH', `/events/${id}`, { key: org.key, body: { registration_config: { open: true } } });
    expect(reopen.status).toBe(200);
    expect((await register(team.key, registrationBody(), id)).status).toBe(201);
  });

  it('refuses registration for cancelled events and for events moved to active early', async () => {
    for (const status of ['cancelled', 'active'] as const) {
      const id = await createEvent(t, org.key);
      expect((await t.api('PATCH', `/events/${id}`, { key: org.key, body: { status } })).status).toBe(200);
      const res = await register((await quickUser(t)).key, registrationBody(), id);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('registration_closed');
    }
  });

  it('answers 404 event_not_found for unknown events and drafts', async () => {
    const team = await quickUser(t);
    expect((await register(team.key, registrationBody(), 'evt_nope')).body.code).toBe('event_not_found');
    const draft = await createEvent(t, org.key, { status: 'draft' });
    const res = await register(team.key, registrationBody(), draft);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('event_not_found');
  });

  it('refuses a second registration with 409 already_registered carrying the existing id', async () => {
    const team = await quickUser(t);
    const first = await register(team.key, registrationBody());
    expect(first.status).toBe(201);
    for (const body of [registrationBody(), registrationBody({ team_name: first.body.team_name })]) {
      const again = await register(team.key, body);
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('already_registered');
      expect(again.body.id).toBe(first.body.id);
    }
  });

  it('refuses a team name taken in the event, case- and space-insensitively, with 409 team_name_taken', async () => {
    const a = await quickUser(t);
    const b = await quickUser(t);
    expect((await register(a.key, registrationBody({ team_name: 'Night Owls' }))).status).toBe(201);
    for (const name of ['night owls', 'NIGHT OWLS', '  Night   Owls ', 'Ｎｉｇｈｔ Ｏｗｌｓ']) {
      const res = await register(b.key, registrationBody({ team_name: name }));
      expect(res.status, name).toBe(409);
      expect(res.body.code).toBe('team_name_taken');
    }
    // The same name in another event is fine.
    const other = await createEvent(t, org.key);
    expect((await register(b.key, registrationBody({ team_name: 'Night Owls' }), other)).status).toBe(201);
  });

  it('rejects unknown form keys with 422 and errors[].field fields.<key>, storing nothing', async () => {
    const team = await quickUser(t);
    const res = await register(team.key, registrationBody({ fields: { repo: 'https://github.com/x/y', favourite_colour: 'blue' } }));
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([{ field: 'fields.favourite_colour', message: expect.any(String) }]);
    expect((await t.api('GET', `/events/${eventId}/my-registration`, { key: team.key })).status).toBe(404);
  });

  it('requires team_name, required form fields and a valid track', async () => {
    const team = await quickUser(t);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ track_id: 'tools', fields: { repo: 'https://x.dev' } }, 'team_name'],
      [registrationBody({ team_name: '   ' }), 'team_name'],
      [registrationBody({ team_name: 'x'.repeat(81) }), 'team_name'],
      [registrationBody({ fields: {} }), 'fields.repo'],
      [registrationBody({ fields: undefined }), 'fields.repo'],
      [registrationBody({ track_id: undefined }), 'track_id'],
      [registrationBody({ track_id: 'nope' }), 'track_id'],
    ];
    for (const [body, field] of cases) {
      const res = await register(team.key, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(
        res.body.errors.map((e: { field: string }) => e.field),
        JSON.stringify(body),
      ).toContain(field);
    }
  });

  it('refuses URLs that are not absolute http(s), in github_url and url fields', async () => {
    const team = await quickUser(t);
    for (const bad of ['github.com/x', 'javascript:alert(1)', 'ftp://x.org/y', '//x.org', 'http://']) {
      const a = await register(team.key, registrationBody({ github_url: bad }));
      expect(a.status, bad).toBe(422);
      expect(a.body.errors.map((e: { field: string }) => e.field)).toEqual(['github_url']);
      const b = await register(team.key, registrationBody({ fields: { repo: bad } }));
      expect(b.status, bad).toBe(422);
      expect(b.body.errors.map((e: { field: string }) => e.field)).toEqual(['fields.repo']);
    }
    expect((await register(team.key, registrationBody({ contact_email: 'not-mail' }))).body.errors[0].field).toBe('contact_email');
  });

  it('answers 401 without a key', async () => {
    const res = await t.api('POST', `/events/${eventId}/register`, { body: registrationBody() });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
  });
});

describe.each(DIALECTS)('my-registration (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let eventId: string;

  beforeAll(async () => {
    // No shared re-check timer: only the decision's own notification can wake a waiter.
    t = await startTestApp(dialect, { env: { WAIT_RECHECK_MS: '0' } });
    org = await quickUser(t, 'organizer');
    eventId = await createEvent(t, org.key);
  });
  afterAll(async () => t?.close());

  const mine = (key: string, query = '', id = eventId) => t.api('GET', `/events/${id}/my-registration${query}`, { key });

  it('answers 404 not_registered when the caller has no registration', async () => {
    const res = await mine((await quickUser(t)).key);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_registered');
  });

  it('returns the full registration with contact details and project null', async () => {
    const team = await quickUser(t);
    const reg = await t.api('POST', `/events/${eventId}/register`, {
      key: team.key,
      body: registrationBody({ team_name: 'Full', github_url: 'https://github.com/acme/full', fields: { repo: 'https://g.io/r', why: 'fun' } }),
    });
    const res = await mine(team.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: null,
      id: reg.body.id,
      event_id: eventId,
      status: 'pending',
      team_name: 'Full',
      track_id: 'tools',
      contact_email: team.email,
      github_url: 'https://github.com/acme/full',
      fields: { repo: 'https://g.io/r', why: 'fun' },
      reason: null,
      final: false,
      attempt: 1,
      reapplied_at: null,
      reapply_until: null,
      next_step: 'Pending: wait for the organizer to decide (GET my-registration?wait=…).',
      member_count: 1,
      created_at: T0.toISOString(),
      updated_at: T0.toISOString(),
      project: null,
    });
  });

  it('includes the project once submitted', async () => {
    const { team } = await quickApprovedTeam(t, eventId, org.key);
    const sub = await t.api('POST', `/events/${eventId}/submit`, { key: team.key, body: { project_name: 'P', github_url: 'https://github.com/acme/p' } });
    expect(sub.status).toBe(201);
    const res = await mine(team.key);
    expect(res.body.status).toBe('approved');
    expect(res.body.project).toMatchObject({ id: sub.body.id, project_name: 'P', name: 'P', github_url: 'https://github.com/acme/p', status: 'submitted' });
  });

  it('shows the reject reason to the team', async () => {
    const team = await quickUser(t);
    const reg = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() });
    const rej = await t.api('POST', `/events/${eventId}/registrations/${reg.body.id}/reject`, { key: org.key, body: { reason: 'Team too large' } });
    expect(rej.status).toBe(200);
    const res = await mine(team.key);
    expect(res.body.status).toBe('rejected');
    expect(res.body.reason).toBe('Team too large');
  });

  it('?wait= answers as soon as the organizer approves, well before the wait ends', async () => {
    const team = await quickUser(t);
    const reg = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() });
    const before = t.ctx.registrations.waitsStarted();
    const waiting = mine(team.key, '?wait=20');
    await until('the request to park', () => t.ctx.registrations.waitsStarted() === before + 1);
    const ok = await t.api('POST', `/events/${eventId}/registrations/${reg.body.id}/approve`, { key: org.key });
    expect(ok.status).toBe(200);
    // With the re-check timer off, a wait that runs out answers "pending" without reading again:
    // "approved" can only come from the approval's notification waking the request.
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('approved');
    expect(t.ctx.registrations.waiting()).toBe(0);
  });

  it('?wait= returns at once when the registration is already decided', async () => {
    const { team } = await quickApprovedTeam(t, eventId, org.key);
    const before = t.ctx.registrations.waitsStarted();
    const res = await mine(team.key, '?wait=20');
    expect(res.body.status).toBe('approved');
    expect(t.ctx.registrations.waitsStarted()).toBe(before); // never parked
  });

  it('?wait= gives up after the wait and still answers pending', async () => {
    const team = await quickUser(t);
    await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() });
    const before = t.ctx.registrations.waitsStarted();
    const res = await mine(team.key, '?wait=1');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('pending');
    // It parked once, and nothing woke it: the wait ran out.
    expect(t.ctx.registrations.waitsStarted()).toBe(before + 1);
    expect(t.ctx.registrations.waiting()).toBe(0);
  });

  it('refuses a bad ?wait with 422', async () => {
    const team = await quickUser(t);
    for (const q of ['?wait=-1', '?wait=abc', '?wait=1.5']) {
      const res = await mine(team.key, q);
      expect(res.status, q).toBe(422);
      expect(res.body.errors[0].field).toBe('wait');
    }
  });
});
