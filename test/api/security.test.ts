import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, eventBody, registrationBody, startTestApp, T0, type ApiResponse, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser, quickApprovedTeam } from '../helpers/quick-users.js';

/**
 * In the style of Unkey's shared `runCommonRouteTests`: every authenticated route is checked with no
 * key, a garbage key, a revoked key, an expired key, and another user's key against an event that
 * is not theirs; none of these may leak data.
 */
interface Fixture {
  org: TestUser;
  admin: TestUser;
  /** Users with keys of their own but no right to the fixture event: the team, a plain user, another organizer. */
  strangers: TestUser[];
  eventId: string;
  draftId: string;
  team: TestUser;
  registrationId: string;
  draftRegistrationId: string;
}

interface RouteCase {
  name: string;
  /** Kind of route, for the foreign-key expectations. */
  kind: 'team' | 'organizer' | 'create';
  request(f: Fixture, eventId: string): { method: string; path: string; body?: unknown };
}

const ROUTES: RouteCase[] = [
  {
    name: 'POST /events/:id/register',
    kind: 'team',
    request: (_f, id) => ({ method: 'POST', path: `/api/v1/events/${id}/register`, body: registrationBody() }),
  },
  { name: 'GET /events/:id/my-registration', kind: 'team', request: (_f, id) => ({ method: 'GET', path: `/api/v1/events/${id}/my-registration` }) },
  {
    name: 'POST /events/:id/submit',
    kind: 'team',
    request: (_f, id) => ({ method: 'POST', path: `/api/v1/events/${id}/submit`, body: { project_name: 'Intruder', github_url: 'https://github.com/x/y' } }),
  },
  { name: 'POST /events', kind: 'create', request: () => ({ method: 'POST', path: '/api/v1/events', body: eventBody(T0, { name: 'Sneaky' }) }) },
  {
    name: 'POST /api/agent/events/create',
    kind: 'create',
    request: () => ({ method: 'POST', path: '/api/agent/events/create', body: eventBody(T0, { name: 'Sneaky' }) }),
  },
  { name: 'PATCH /events/:id', kind: 'organizer', request: (_f, id) => ({ method: 'PATCH', path: `/api/v1/events/${id}`, body: { name: 'Hijacked' } }) },
  { name: 'GET /events/:id/registrations', kind: 'organizer', request: (_f, id) => ({ method: 'GET', path: `/api/v1/events/${id}/registrations` }) },
  {
    name: 'POST /events/:id/registrations/:rid/approve',
    kind: 'organizer',
    request: (f, id) => ({ method: 'POST', path: `/api/v1/events/${id}/registrations/${id === f.draftId ? f.draftRegistrationId : f.registrationId}/approve` }),
  },
  {
    name: 'POST /events/:id/registrations/:rid/reject',
    kind: 'organizer',
    request: (f, id) => ({
      method: 'POST',
      path: `/api/v1/events/${id}/registrations/${id === f.draftId ? f.draftRegistrationId : f.registrationId}/reject`,
      body: { reason: 'hijacked' },
    }),
  },
  { name: 'GET /events/:id/projects', kind: 'organizer', request: (_f, id) => ({ method: 'GET', path: `/api/v1/events/${id}/projects` }) },
];

const SECRETS = ['Secret Team', 'secret-team@example.org', 'Secret Project', 'Hidden Draft', 'https://github.com/secret/repo'];

function expectNoLeak(res: ApiResponse) {
  for (const s of SECRETS) expect(res.text, `leaked ${s}`).not.toContain(s);
}

function expectProblem(res: ApiResponse, status: number, code: string) {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body.code).toBe(code);
  expectNoLeak(res);
}

describe.each(DIALECTS)('security of authenticated routes (%s)', (dialect) => {
  let t: TestApp;
  let f: Fixture;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const org = await quickUser(t, 'organizer');
    const eventId = await createEvent(t, org.key, { name: 'Public Event' });
    const draftId = await createEvent(t, org.key, { name: 'Hidden Draft', status: 'draft' });
    const { team, registrationId } = await quickApprovedTeam(t, eventId, org.key, {
      team_name: 'Secret Team',
      contact_email: 'secret-team@example.org',
      fields: { repo: 'https://github.com/secret/repo' },
    });
    const sub = await t.api('POST', `/events/${eventId}/submit`, {
      key: team.key,
      body: { project_name: 'Secret Project', github_url: 'https://github.com/secret/repo' },
    });
    expect(sub.status).toBe(201);
    // A registration inside the draft, made directly: nobody can register for a draft through the API.
    const draftRegistrationId = 'reg_draftfixture000000000000';
    await t.ctx.db
      .insertInto('registrations')
      .values({
        id: draftRegistrationId,
        event_id: draftId,
        user_id: team.id,
        team_name: 'Secret Team',
        team_name_key: 'secret team',
        track_id: 'tools',
        contact_email: 'secret-team@example.org',
        github_url: null,
        fields: '{}',
        status: 'pending',
        reason: null,
        created_at: T0.toISOString(),
        updated_at: T0.toISOString(),
      })
      .execute();
    const admin = await quickUser(t, 'admin');
    const strangers = [team, await quickUser(t, 'user'), await quickUser(t, 'organizer')];
    f = { org, admin, strangers, eventId, draftId, team, registrationId, draftRegistrationId };
  });
  afterAll(async () => t?.close());

  async function call(route: RouteCase, key: string | null, eventId = f.eventId, headers?: Record<string, string>) {
    const r = route.request(f, eventId);
    return t.request(r.method, r.path, { key, ...(r.body !== undefined ? { body: r.body } : {}), ...(headers ? { headers } : {}) });
  }

  /** Nothing a refused call attempted may have happened. */
  async function expectUntouched() {
    const ev = await t.ctx.db.selectFrom('events').select(['name', 'status']).where('id', '=', f.eventId).executeTakeFirstOrThrow();
    expect(ev).toEqual({ name: 'Public Event', status: 'open' });
    const draft = await t.ctx.db.selectFrom('events').select(['name', 'status']).where('id', '=', f.draftId).executeTakeFirstOrThrow();
    expect(draft).toEqual({ name: 'Hidden Draft', status: 'draft' });
    const reg = await t.ctx.db.selectFrom('registrations').select(['status', 'reason']).where('id', '=', f.registrationId).executeTakeFirstOrThrow();
    expect(reg).toEqual({ status: 'approved', reason: null });
    const draftReg = await t.ctx.db.selectFrom('registrations').select('status').where('id', '=', f.draftRegistrationId).executeTakeFirstOrThrow();
    expect(draftReg.status).toBe('pending');
    const projects = await t.ctx.db.selectFrom('projects').select('project_name').execute();
    expect(projects.map((p) => p.project_name)).toEqual(['Secret Project']);
    const sneaky = await t.ctx.db.selectFrom('events').select('id').where('name', '=', 'Sneaky').execute();
    expect(sneaky).toEqual([]);
  }

  describe.each(ROUTES.map((r) => [r.name, r] as const))('%s', (_name, route) => {
    it('answers 401 unauthorized without a key', async () => {
      expectProblem(await call(route, null), 401, 'unauthorized');
      await expectUntouched();
    });

    it('answers 401 unauthorized for garbage keys and malformed headers', async () => {
      for (const key of ['garbage', 'hk_' + 'A'.repeat(43), f.team.key.slice(0, -1) + (f.team.key.endsWith('A') ? 'B' : 'A'), f.team.key + 'x']) {
        expectProblem(await call(route, key), 401, 'unauthorized');
      }
      for (const authorization of [`Basic ${f.org.key}`, f.org.key, `Bearer`, `Bearer ${f.org.key} extra`]) {
        expectProblem(await call(route, null, f.eventId, { authorization }), 401, 'unauthorized');
      }
      await expectUntouched();
    });

    it('answers 401 unauthorized for a revoked key that worked before', async () => {
      const extra = await t.ctx.accounts.createKey(f.admin.id, { name: 'to revoke' });
      const before = await t.api('GET', '/events?mine=true', { key: extra.key });
      expect(before.status).toBe(200);
      await t.ctx.accounts.revokeKey(extra.id);
      expectProblem(await call(route, extra.key), 401, 'unauthorized');
      await expectUntouched();
    });

    it('answers 401 unauthorized for an expired key that worked before', async () => {
      const expiring = await t.ctx.accounts.createKey(f.admin.id, { expiresAt: new Date(t.clock.now().getTime() + 60_000) });
      expect((await t.api('GET', '/events?mine=true', { key: expiring.key })).status).toBe(200);
      try {
        t.clock.advance(60_000);
        expectProblem(await call(route, expiring.key), 401, 'unauthorized');
      } finally {
        t.clock.set(T0);
      }
      await expectUntouched();
    });

    if (route.kind === 'organizer') {
      it("answers 403 forbidden to another user's key on a visible event, 404 event_not_found on a draft", async () => {
        for (const s of f.strangers) {
          expectProblem(await call(route, s.key), 403, 'forbidden');
          expectProblem(await call(route, s.key, f.draftId), 404, 'event_not_found');
        }
        await expectUntouched();
      });
    }

    if (route.kind === 'team') {
      it("answers 404 event_not_found to another user's key on someone else's draft", async () => {
        for (const s of f.strangers) {
          expectProblem(await call(route, s.key, f.draftId), 404, 'event_not_found');
        }
        await expectUntouched();
      });
    }

    if (route.kind === 'create') {
      it('answers 403 forbidden to a plain user', async () => {
        const res = await call(route, f.team.key);
        expectProblem(res, 403, 'forbidden');
        // Only the agent endpoint wraps its answers in {success, data}.
        expect(res.body.success).toBe(route.name.includes('agent') ? false : undefined);
        await expectUntouched();
      });
    }
  });

  it("a team never reads another team's registration or project", async () => {
    const other = await quickUser(t);
    const mine = await t.api('GET', `/events/${f.eventId}/my-registration`, { key: other.key });
    expectProblem(mine, 404, 'not_registered');

    const { team: rival } = await quickApprovedTeam(t, f.eventId, f.org.key, { team_name: 'Rival' });
    const theirs = await t.api('GET', `/events/${f.eventId}/my-registration`, { key: rival.key });
    expect(theirs.status).toBe(200);
    expect(theirs.body.team_name).toBe('Rival');
    expect(theirs.body.project).toBeNull();
    expectNoLeak(theirs);

    // Submitting as the rival touches only the rival's project.
    const sub = await t.api('POST', `/events/${f.eventId}/submit`, {
      key: rival.key,
      body: { project_name: 'Rival Project', github_url: 'https://github.com/r/r' },
    });
    expect(sub.status).toBe(201);
    expectNoLeak(sub);
    const own = await t.api('GET', `/events/${f.eventId}/my-registration`, { key: f.team.key });
    expect(own.body.project.project_name).toBe('Secret Project');
  });

  it('public reads never show contact details, answers or projects', async () => {
    for (const [path, status] of [
      [`/events/${f.eventId}`, 200],
      [`/events/${f.eventId}/register`, 200],
      ['/events', 200],
      [`/events/${f.eventId}/result`, 409], // results_not_published: the problem must not leak either
    ] as const) {
      const res = await t.api('GET', path);
      expect(res.status, path).toBe(status);
      expectNoLeak(res);
    }
  });

  it('the owner and an admin are let through (the checks above are not refusing everyone)', async () => {
    for (const key of [f.org.key, f.admin.key]) {
      expect((await t.api('GET', `/events/${f.eventId}/registrations`, { key })).status).toBe(200);
      expect((await t.api('GET', `/events/${f.eventId}/projects`, { key })).status).toBe(200);
      expect((await t.api('GET', `/events/${f.draftId}`, { key })).status).toBe(200);
      expect((await t.api('PATCH', `/events/${f.draftId}`, { key, body: { description: 'still a draft' } })).status).toBe(200);
    }
  });
});
