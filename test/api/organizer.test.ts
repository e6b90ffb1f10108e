import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, eventBody, registrationBody, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser, quickApprovedTeam } from '../helpers/quick-users.js';

const DAY = 86_400_000;

describe.each(DIALECTS)('organizer API (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
    admin = await quickUser(t, 'admin');
  });
  afterAll(async () => t?.close());

  const patch = (id: string, body: unknown, key = org.key) => t.api('PATCH', `/events/${id}`, { key, body });

  describe('POST /events', () => {
    it('creates an open event and answers the full event with Location', async () => {
      const res = await t.api('POST', '/events', { key: org.key, body: eventBody(T0, { name: 'Created' }) });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        id: expect.stringMatching(/^evt_/),
        name: 'Created',
        status: 'open',
        dimensions: eventBody(T0).dimensions,
        registration_config: { open: true, auto_approve: false, fields: [expect.objectContaining({ key: 'repo', name: 'repo' }), expect.anything()] },
        co_organizers: [],
        created_at: T0.toISOString(),
      });
      expect(res.headers.get('location')).toBe(`${t.config.publicUrl}/api/v1/events/${res.body.id}`);
      expect((await t.api('GET', `/events/${res.body.id}`)).status).toBe(200);
    });

    it('applies defaults when registration_config and dimensions are not given', async () => {
      const body = { name: 'Minimal', registration_deadline: '2030-02-01T00:00:00Z', submission_deadline: '2030-02-02T00:00:00Z' };
      const res = await t.api('POST', '/events', { key: org.key, body });
      expect(res.status, res.text).toBe(201);
      expect(res.body.registration_config).toEqual({ open: true, auto_approve: false, fields: [], max_team_size: null, min_team_size: null });
      expect(res.body.dimensions.length).toBeGreaterThan(0);
      expect(res.body.tracks).toEqual([]);
      expect(res.body.registration_deadline).toBe('2030-02-01T00:00:00.000Z');
    });

    it('lets an admin create events and refuses a plain user with 403', async () => {
      expect((await t.api('POST', '/events', { key: admin.key, body: eventBody(T0) })).status).toBe(201);
      const user = await quickUser(t, 'user');
      const res = await t.api('POST', '/events', { key: user.key, body: eventBody(T0) });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    });

    it.each([
      [{ registration_deadline: '2030-01-05T00:00:00Z', submission_deadline: '2030-01-04T00:00:00Z' }, 'submission_deadline'],
      [{ dimensions: [{ name: 'a', weight: 0 }] }, 'dimensions.0.weight'],
      [{ dimensions: [{ name: 'a', weight: -2 }] }, 'dimensions.0.weight'],
      [{ dimensions: [] }, 'dimensions'],
      [
        {
          dimensions: [
            { name: 'Impact', weight: 1 },
            { name: 'impact', weight: 1 },
          ],
        },
        'dimensions.1.name',
      ],
      [
        {
          tracks: [
            { id: 'a', name: 'A' },
            { id: 'a', name: 'B' },
          ],
        },
        'tracks.1.id',
      ],
      [{ registration_config: { fields: [{ key: 'x' }, { key: 'x' }] } }, 'registration_config.fields.1.key'],
      [{ registration_config: { fields: [{ key: 'x', name: 'y' }] } }, 'registration_config.fields.0'],
      [{ registration_config: { fields: [{ key: 'x', type: 'checkbox' }] } }, 'registration_config.fields.0.type'],
      [{ registration_deadline: 'next tuesday' }, 'registration_deadline'],
      [{ registration_deadline: '2030-02-30T00:00:00Z' }, 'registration_deadline'],
      [{ models: ['gpt-4o'] }, 'models.0'],
      [{ name: '' }, 'name'],
      [{ name: undefined }, 'name'],
      [{ status: 'judging' }, 'status'],
      [{ surprise: true }, 'surprise'],
    ])('refuses %j with 422 naming %s', async (over, field) => {
      const res = await t.api('POST', '/events', { key: org.key, body: eventBody(T0, over as Record<string, unknown>) });
      expect(res.status, res.text).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });
  });

  describe('PATCH /events/:id', () => {
    it('stores the time zone the deadlines are given in: validated, spelled as listed, kept by other changes, cleared by null', async () => {
      const created = await t.api('POST', '/events', { key: org.key, body: eventBody(T0, { time_zone: 'asia/shanghai' }) });
      expect(created.status).toBe(201);
      expect(created.body.time_zone).toBe('Asia/Shanghai');
      const id = created.body.id as string;
      const { registration_deadline, submission_deadline } = created.body;
      expect((await t.api('GET', `/events/${id}`)).body.time_zone).toBe('Asia/Shanghai');

      // Changing the zone moves no deadline (they are instants), and other changes keep the zone.
      const moved = await patch(id, { time_zone: 'America/New_York' });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ time_zone: 'America/New_York', registration_deadline, submission_deadline });
      expect((await patch(id, { name: 'Renamed' })).body.time_zone).toBe('America/New_York');

      for (const bad of ['Mars/Olympus_Mons', '+05:00', 'UTC+8', '']) {
        const res = await patch(id, { time_zone: bad });
        expect(res.status, bad).toBe(422);
        expect(res.body.code).toBe('validation_failed');
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('time_zone');
      }
      expect((await t.api('GET', `/events/${id}`)).body.time_zone).toBe('America/New_York');

      const cleared = await patch(id, { time_zone: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body.time_zone).toBeNull();
      // An event created without one says null (not missing).
      expect((await t.api('GET', `/events/${await createEvent(t, org.key)}`)).body.time_zone).toBeNull();
    });

    it('publishes a draft, and the event appears in the public list', async () => {
      const id = await createEvent(t, org.key, { status: 'draft' });
      expect((await t.api('GET', `/events/${id}`)).status).toBe(404);
      const res = await patch(id, { status: 'open' });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('open');
      const list = await t.api('GET', '/events?limit=100');
      expect(list.body.map((e: { id: string }) => e.id)).toContain(id);
    });

    it('moves forward open → active → judging and refuses every move back with 409 invalid_transition', async () => {
      const id = await createEvent(t, org.key);
      expect((await patch(id, { status: 'active' })).body.status).toBe('active');
      const back = await patch(id, { status: 'open' });
      expect(back.status).toBe(409);
      expect(back.body.code).toBe('invalid_transition');
      expect((await patch(id, { status: 'judging' })).body.status).toBe('judging');
      for (const status of ['open', 'active', 'draft']) {
        const res = await patch(id, { status });
        expect(res.status, status).toBe(409);
        expect(res.body.code).toBe('invalid_transition');
      }
      expect((await t.api('GET', `/events/${id}`)).body.status).toBe('judging');
    });

    it('refuses moving back to open once the deadline made the event active', async () => {
      const id = await createEvent(t, org.key);
      try {
        t.clock.set(T0.getTime() + DAY);
        const res = await patch(id, { status: 'open' });
        expect(res.status).toBe(409);
        expect(res.body.code).toBe('invalid_transition');
      } finally {
        t.clock.set(T0);
      }
    });

    it('refuses publishing a draft back to draft and ending by status', async () => {
      const id = await createEvent(t, org.key);
      expect((await patch(id, { status: 'draft' })).body.code).toBe('invalid_transition');
      expect((await patch(id, { status: 'ended' })).body.code).toBe('invalid_transition');
    });

    it('cancels from any state before ended; a cancelled event is final', async () => {
      const id = await createEvent(t, org.key);
      const res = await patch(id, { status: 'cancelled' });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('cancelled');
      expect((await patch(id, { status: 'open' })).body.code).toBe('invalid_transition');
      const locked = await patch(id, { name: 'Renamed' });
      expect(locked.status).toBe(409);
      expect(locked.body.code).toBe('event_locked');
      const draft = await createEvent(t, org.key, { status: 'draft' });
      expect((await patch(draft, { status: 'cancelled' })).status).toBe(200);
    });

    it('edits fields with the same validation as creation', async () => {
      const id = await createEvent(t, org.key);
      const ok = await patch(id, { name: 'Renamed', description: 'New text', registration_config: { auto_approve: true } });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ name: 'Renamed', description: 'New text', registration_config: { auto_approve: true, open: true } });
      expect(ok.body.registration_config.fields).toHaveLength(2);

      const cases: Array<[Record<string, unknown>, string]> = [
        [{ submission_deadline: new Date(T0.getTime() + DAY - 1).toISOString() }, 'submission_deadline'],
        [{ registration_deadline: new Date(T0.getTime() + 3 * DAY).toISOString() }, 'submission_deadline'],
        [{ dimensions: [{ name: 'x', weight: 0 }] }, 'dimensions.0.weight'],
        [
          {
            tracks: [
              { id: 'a', name: 'A' },
              { id: 'a', name: 'A' },
            ],
          },
          'tracks.1.id',
        ],
        [{ registration_config: { fields: [{ key: 'k' }, { name: 'k' }] } }, 'registration_config.fields.1.key'],
        [{ name: '   ' }, 'name'],
        [{ status: 'bogus' }, 'status'],
      ];
      for (const [body, field] of cases) {
        const res = await patch(id, body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(
          res.body.errors.map((e: { field: string }) => e.field),
          JSON.stringify(body),
        ).toContain(field);
      }
      const empty = await patch(id, {});
      expect(empty.status).toBe(422);
      expect((await t.api('GET', `/events/${id}`)).body.name).toBe('Renamed');
    });

    it('refuses removing a track that has registrations', async () => {
      const id = await createEvent(t, org.key);
      await quickApprovedTeam(t, id, org.key, { track_id: 'fun' });
      const res = await patch(id, { tracks: [{ id: 'tools', name: 'Tools' }] });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].field).toBe('tracks');
    });

    it('locks dimensions, models, deadlines and tracks once judging (409 event_locked), still allows the description', async () => {
      const id = await createEvent(t, org.key);
      expect((await patch(id, { status: 'judging' })).status).toBe(200);
      for (const body of [
        { dimensions: [{ name: 'x', weight: 1 }] },
        { models: ['openai/gpt-4o'] },
        { submission_deadline: new Date(T0.getTime() + 5 * DAY).toISOString() },
        { tracks: [] },
      ]) {
        const res = await patch(id, body);
        expect(res.status, JSON.stringify(body)).toBe(409);
        expect(res.body.code).toBe('event_locked');
      }
      expect((await patch(id, { description: 'Judging now' })).status).toBe(200);
    });

    it('locks the deadlines when the clock moved the event into judging', async () => {
      const id = await createEvent(t, org.key);
      try {
        t.clock.set(T0.getTime() + 2 * DAY);
        const res = await patch(id, { submission_deadline: new Date(T0.getTime() + 9 * DAY).toISOString() });
        expect(res.status).toBe(409);
        expect(res.body.code).toBe('event_locked');
      } finally {
        t.clock.set(T0);
      }
    });

    it('lets a named co-organizer and an admin edit, and nobody else', async () => {
      const co = await quickUser(t, 'user');
      const created = await t.api('POST', '/events', { key: org.key, body: eventBody(T0, { co_organizers: [co.email] }) });
      expect(created.body.co_organizers).toEqual([co.email]);
      const id = created.body.id;
      expect((await patch(id, { description: 'by co' }, co.key)).status).toBe(200);
      expect((await patch(id, { description: 'by admin' }, admin.key)).status).toBe(200);
      const other = await quickUser(t, 'organizer');
      const res = await patch(id, { description: 'by other' }, other.key);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    });

    it('names co-organizers by e-mail alike whether or not the address has an account; one who signs up later organizes the event', async () => {
      const existing = await quickUser(t, 'user');
      const later = `later-${dialect}-${Math.random().toString(36).slice(2, 8)}@example.com`;
      const a = await t.api('POST', '/events', { key: org.key, body: eventBody(T0, { co_organizers: [existing.email] }) });
      const b = await t.api('POST', '/events', { key: org.key, body: eventBody(T0, { co_organizers: [later.toUpperCase()] }) });
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(a.body.co_organizers).toEqual([existing.email]);
      expect(b.body.co_organizers).toEqual([later]);
      const pa = await patch(a.body.id, { co_organizers: [existing.email, later] });
      const pb = await patch(b.body.id, { co_organizers: [later, existing.email] });
      expect([pa.status, pb.status]).toEqual([200, 200]);
      expect(pa.body.co_organizers).toEqual(pb.body.co_organizers);

      // The address gets an account afterwards: it organizes both events at once.
      const u = await t.ctx.accounts.createUser({ email: later, role: 'user' });
      const key = (await t.ctx.accounts.createKey(u.id)).key;
      expect((await patch(b.body.id, { description: 'by the later co-organizer' }, key)).status).toBe(200);
      const mine = await t.api('GET', '/events?mine=true', { key });
      expect(mine.status).toBe(200);
      expect(mine.body.map((e: { id: string }) => e.id).sort()).toEqual([a.body.id, b.body.id].sort());
      // Taken off the list, the address no longer organizes the event.
      expect((await patch(b.body.id, { co_organizers: [] })).status).toBe(200);
      const off = await patch(b.body.id, { description: 'no longer' }, key);
      expect([off.status, off.body.code]).toEqual([403, 'forbidden']);
    });

    it('answers 404 event_not_found for unknown events', async () => {
      expect((await patch('evt_nope', { name: 'x' })).body.code).toBe('event_not_found');
    });
  });

  describe('registrations and projects', () => {
    it('lists registrations with contact details, filtered by ?status', async () => {
      const id = await createEvent(t, org.key);
      const a = await quickUser(t);
      const b = await quickUser(t);
      const ra = await t.api('POST', `/events/${id}/register`, { key: a.key, body: registrationBody({ team_name: 'A' }) });
      await t.api('POST', `/events/${id}/register`, { key: b.key, body: registrationBody({ team_name: 'B', contact_email: 'b-team@example.org' }) });
      await t.api('POST', `/events/${id}/registrations/${ra.body.id}/approve`, { key: org.key });

      const all = await t.api('GET', `/events/${id}/registrations`, { key: org.key });
      expect(all.status).toBe(200);
      expect(all.body.map((r: { team_name: string }) => r.team_name)).toEqual(['A', 'B']);
      expect(all.body[0]).toMatchObject({
        id: ra.body.id,
        event_id: id,
        status: 'approved',
        contact_email: a.email,
        track_id: 'tools',
        fields: { repo: 'https://github.com/example/repo' },
      });
      expect(all.body[1].contact_email).toBe('b-team@example.org');

      const pending = await t.api('GET', `/events/${id}/registrations?status=pending`, { key: org.key });
      expect(pending.body.map((r: { team_name: string }) => r.team_name)).toEqual(['B']);
      const approved = await t.api('GET', `/events/${id}/registrations?status=approved`, { key: org.key });
      expect(approved.body.map((r: { team_name: string }) => r.team_name)).toEqual(['A']);
      expect((await t.api('GET', `/events/${id}/registrations?status=bogus`, { key: org.key })).status).toBe(422);
    });

    it('approves and rejects; the reason is visible to the team and cleared on approval', async () => {
      const id = await createEvent(t, org.key);
      const team = await quickUser(t);
      const reg = await t.api('POST', `/events/${id}/register`, { key: team.key, body: registrationBody() });
      const rej = await t.api('POST', `/events/${id}/registrations/${reg.body.id}/reject`, { key: org.key, body: { reason: '  Not a fit  ' } });
      expect(rej.status).toBe(200);
      expect(rej.body).toMatchObject({ id: reg.body.id, status: 'rejected', reason: 'Not a fit' });
      const seen = await t.api('GET', `/events/${id}/my-registration`, { key: team.key });
      expect(seen.body).toMatchObject({ status: 'rejected', reason: 'Not a fit' });

      const ok = await t.api('POST', `/events/${id}/registrations/${reg.body.id}/approve`, { key: org.key });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ status: 'approved', reason: null });
      expect((await t.api('GET', `/events/${id}/my-registration`, { key: team.key })).body.status).toBe('approved');
    });

    it('rejects without a reason, with an empty body, and with Content-Type but no body', async () => {
      const id = await createEvent(t, org.key);
      for (const opts of [{}, { body: {} }, { raw: '', headers: { 'content-type': 'application/json' } }, { body: null }]) {
        const team = await quickUser(t);
        const reg = await t.api('POST', `/events/${id}/register`, { key: team.key, body: registrationBody() });
        const res = await t.api('POST', `/events/${id}/registrations/${reg.body.id}/reject`, { key: org.key, ...opts });
        expect(res.status, JSON.stringify(opts)).toBe(200);
        expect(res.body.reason).toBeNull();
      }
    });

    it('validates the decision body', async () => {
      const id = await createEvent(t, org.key);
      const team = await quickUser(t);
      const reg = await t.api('POST', `/events/${id}/register`, { key: team.key, body: registrationBody() });
      for (const body of [{ reason: 42 }, { reason: 'x'.repeat(1001) }, { why: 'x' }, ['x'], 'x']) {
        const res = await t.api('POST', `/events/${id}/registrations/${reg.body.id}/reject`, { key: org.key, body });
        expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(422);
      }
    });

    it('answers 404 registration_not_found for unknown ids and for registrations of another event', async () => {
      const id = await createEvent(t, org.key);
      const other = await createEvent(t, org.key);
      const team = await quickUser(t);
      const reg = await t.api('POST', `/events/${other}/register`, { key: team.key, body: registrationBody() });
      for (const rid of ['reg_nope', reg.body.id]) {
        const res = await t.api('POST', `/events/${id}/registrations/${rid}/approve`, { key: org.key });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('registration_not_found');
      }
      expect((await t.api('GET', `/events/${other}/my-registration`, { key: team.key })).body.status).toBe('pending');
    });

    it('lists every project with its team and registration status', async () => {
      const id = await createEvent(t, org.key);
      const a = await quickApprovedTeam(t, id, org.key, { team_name: 'Alpha' });
      const b = await quickApprovedTeam(t, id, org.key, { team_name: 'Beta' });
      await t.api('POST', `/events/${id}/submit`, { key: a.team.key, body: { project_name: 'PA', github_url: 'https://github.com/g/a' } });
      t.clock.advance(1000);
      await t.api('POST', `/events/${id}/submit`, { key: b.team.key, body: { name: 'PB', github_url: 'https://github.com/g/b' } });
      t.clock.set(T0);
      const res = await t.api('GET', `/events/${id}/projects`, { key: org.key });
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(2);
      expect(res.body[0]).toMatchObject({
        project_name: 'PA',
        name: 'PA',
        team_name: 'Alpha',
        registration_status: 'approved',
        registration_id: a.registrationId,
      });
      expect(res.body[1]).toMatchObject({ project_name: 'PB', team_name: 'Beta' });
    });
  });

  describe('POST /api/agent/events/create', () => {
    it('answers {success: true, data} with an open event listed at once', async () => {
      const res = await t.request('POST', '/api/agent/events/create', { key: org.key, body: eventBody(T0, { name: 'Agent made' }) });
      expect(res.status).toBe(201);
      expect(res.body.success).toBe(true);
      expect(res.body.data).toMatchObject({ id: expect.stringMatching(/^evt_/), name: 'Agent made', status: 'open' });
      const list = await t.api('GET', '/events');
      expect(list.body.map((e: { id: string }) => e.id)).toContain(res.body.data.id);
    });

    it('carries success:false on every error, as problem+json', async () => {
      const user = await quickUser(t, 'user');
      const cases: Array<[{ key?: string; body?: unknown; raw?: string; headers?: Record<string, string> }, number, string]> = [
        [{ body: eventBody(T0) }, 401, 'unauthorized'],
        [{ key: user.key, body: eventBody(T0) }, 403, 'forbidden'],
        [{ key: org.key, body: eventBody(T0, { dimensions: [] }) }, 422, 'validation_failed'],
        [{ key: org.key, raw: '{"name":', headers: { 'content-type': 'application/json' } }, 400, 'bad_request'],
      ];
      for (const [opts, status, code] of cases) {
        const res = await t.request('POST', '/api/agent/events/create', opts);
        expect(res.status, code).toBe(status);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(res.body).toMatchObject({ success: false, code, status });
      }
    });
  });
});
