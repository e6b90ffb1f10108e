import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, eventBody, registrationBody, startTestApp, T0, type ApiResponse, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser, quickApprovedTeam } from '../helpers/quick-users.js';

function expectProblem(res: ApiResponse, status: number, code: string) {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status, code, type: expect.stringContaining(code), title: expect.any(String), detail: expect.any(String) });
  expect(res.body.title.length).toBeGreaterThan(0);
}

describe.each(DIALECTS)('errors (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let eventId: string;
  let team: TestUser;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
    eventId = await createEvent(t, org.key);
    team = (await quickApprovedTeam(t, eventId, org.key)).team;
  });
  afterAll(async () => t?.close());

  it('renders RFC 9457 problem documents with the site URL in type', async () => {
    const res = await t.api('GET', '/events/evt_nope');
    expectProblem(res, 404, 'event_not_found');
    expect(res.body.type).toBe(`${t.config.publicUrl}/problems/event_not_found`);
  });

  it('answers 404 not_found for unknown routes and methods, as problem+json', async () => {
    expectProblem(await t.api('GET', '/nope'), 404, 'not_found');
    expectProblem(await t.request('GET', '/api/v2/events'), 404, 'not_found');
    expectProblem(await t.api('DELETE', `/events/${eventId}`, { key: org.key }), 404, 'not_found');
  });

  it('answers 400 bad_request for malformed JSON', async () => {
    for (const raw of ['{"team_name":', '{team_name: "x"}', "{'a':1}", '{"a":1}}', 'nul', '\u0000']) {
      const res = await t.api('POST', `/events/${eventId}/register`, { key: team.key, raw, headers: { 'content-type': 'application/json' } });
      expectProblem(res, 400, 'bad_request');
    }
  });

  it('answers 400 for prototype-poisoning JSON', async () => {
    const res = await t.api('POST', `/events/${eventId}/register`, {
      key: (await quickUser(t)).key,
      raw: '{"team_name":"x","__proto__":{"admin":true}}',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(res, 400, 'bad_request');
  });

  it('answers 413 payload_too_large for a body over 100 KB', async () => {
    const body = registrationBody({ fields: { repo: 'https://x.dev', why: 'x'.repeat(101 * 1024) } });
    const res = await t.api('POST', `/events/${eventId}/register`, { key: (await quickUser(t)).key, body });
    expectProblem(res, 413, 'payload_too_large');
  });

  it('answers 415 for a body that is not JSON', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await t.api('POST', `/events/${eventId}/register`, { key: (await quickUser(t)).key, raw: 'team_name=x', headers: { 'content-type': type } });
      expectProblem(res, 415, 'unsupported_media_type');
    }
  });

  it('accepts application/json with a charset', async () => {
    const res = await t.api('POST', `/events/${eventId}/register`, {
      key: (await quickUser(t)).key,
      raw: JSON.stringify(registrationBody()),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(201);
  });

  it('answers 422 with errors[] when the body has the wrong shape', async () => {
    const user = await quickUser(t);
    for (const body of [null, [], 'team', 42, true, [registrationBody()], { team_name: 42 }, { team_name: null }, { team_name: ['a'] }, { team_name: { a: 1 } }]) {
      const res = await t.api('POST', `/events/${eventId}/register`, { key: user.key, body });
      expectProblem(res, 422, 'validation_failed');
      expect(Array.isArray(res.body.errors)).toBe(true);
      expect(res.body.errors.length).toBeGreaterThan(0);
      for (const e of res.body.errors) expect(e).toEqual({ field: expect.any(String), message: expect.any(String) });
    }
  });

  it('names the failing field in errors[] for schema failures', async () => {
    const res = await t.api('POST', `/events/${eventId}/register`, { key: (await quickUser(t)).key, body: { team_name: 42, fields: { repo: ['x'] } } });
    expectProblem(res, 422, 'validation_failed');
    const fields = res.body.errors.map((e: { field: string }) => e.field);
    expect(fields).toContain('team_name');
    expect(fields).toContain('fields.repo');
  });

  describe('never a 500 for client mistakes', () => {
    const nasty: unknown[] = [
      { team_name: '\u0000' },
      { team_name: 'a\u0000b', track_id: 'tools', fields: { repo: 'https://x.dev' } },
      { team_name: 'ok', track_id: '\u0000', fields: { repo: 'https://x.dev' } },
      { team_name: 'ok', track_id: 'tools', fields: { repo: 'https://x.dev/\u0000' } },
      { team_name: 'ok', track_id: 'tools', fields: { 'a\u0000': 'x' } },
      { team_name: '😀'.repeat(40), track_id: 'tools', fields: { repo: 'https://x.dev' } },
      { team_name: '\ud800', track_id: 'tools', fields: { repo: 'https://x.dev' } },
      { team_name: 'ok', track_id: 'tools', fields: { repo: 'https://例え.テスト/パス' } },
      { team_name: 'ok', track_id: 'tools', fields: { repo: 'https://x.dev', why: 1e308 } },
      { team_name: 'ok', track_id: 'tools', fields: { repo: 'https://x.dev', why: -0 } },
      { team_name: 'x'.repeat(90_000) },
      { team_name: 'ok', contact_email: '\u0000@x.io', track_id: 'tools', fields: { repo: 'https://x.dev' } },
      { team_name: 'ok', github_url: 'https://x.dev/' + '%00'.repeat(100), track_id: 'tools', fields: { repo: 'https://x.dev' } },
      { team_name: 'Robert\'); DROP TABLE registrations;--', track_id: 'tools', fields: { repo: 'https://x.dev' } },
    ];
    it.each(nasty.map((b, i) => [i, b]))('register body #%i', async (_i, body) => {
      const res = await t.api('POST', `/events/${eventId}/register`, { key: (await quickUser(t)).key, body });
      expect(res.status, res.text.slice(0, 300)).toBeLessThan(500);
      expect(res.headers.get('content-type')).toMatch(/json/);
    });

    it.each([
      ['nested arrays', '['.repeat(45_000) + ']'.repeat(45_000)],
      ['nested objects', '{"a":'.repeat(15_000) + '1' + '}'.repeat(15_000)],
      ['nested value', '{"team_name":' + '['.repeat(40_000) + ']'.repeat(40_000) + '}'],
    ])('deeply nested JSON (%s) answers 422, not 500', async (_name, raw) => {
      const res = await t.api('POST', `/events/${eventId}/register`, { key: (await quickUser(t)).key, raw, headers: { 'content-type': 'application/json' } });
      expectProblem(res, 422, 'validation_failed');
    });

    it.each([
      { project_name: 'a\u0000', github_url: 'https://x.dev' },
      { project_name: 'ok', github_url: 'https://x.dev', description: '\u0000'.repeat(100) },
      { project_name: 'ok', github_url: 'https://x.dev', team_size: 1e400 },
      { project_name: 'ok', github_url: 'https://x.dev', team_size: null },
      { project_name: null, github_url: null },
      { project_name: 'ok', github_url: 'https://x.dev', track_id: '\u0000' },
    ])('submit body %j', async (body) => {
      const res = await t.api('POST', `/events/${eventId}/submit`, { key: team.key, body });
      expect(res.status, res.text.slice(0, 300)).toBeLessThan(500);
    });

    it.each([
      { name: 'a\u0000' },
      { description: '\u0000' },
      { tracks: [{ id: 'a', name: '\u0000' }] },
      { dimensions: [{ name: '\u0000', weight: 1 }] },
      { dimensions: [{ name: 'x', weight: 1e308 }, { name: 'y', weight: 1e308 }] },
      { registration_config: { fields: [{ key: 'k', label: '\u0000' }] } },
      { co_organizers: ['\u0000@x.io'] },
      { co_organizers: ['nobody@example.com'] },
      { registration_deadline: '9999-12-31T23:59:59Z', submission_deadline: '9999-12-31T23:59:59Z' },
      { registration_deadline: '0000-01-01T00:00:00Z' },
      { models: ['a/\u0000'] },
    ])('event body %j', async (over) => {
      const res = await t.api('POST', '/events', { key: org.key, body: eventBody(T0, over) });
      expect(res.status, res.text.slice(0, 300)).toBeLessThan(500);
      // A throwaway event: these edits must not disturb the shared one.
      const target = await createEvent(t, org.key);
      const p = await t.api('PATCH', `/events/${target}`, { key: org.key, body: over });
      expect(p.status, p.text.slice(0, 300)).toBeLessThan(500);
    });

    it.each([
      '/events/%00',
      '/events/%00/register',
      '/events/%00/result',
      '/events/%E2%80%AE%00x/my-registration',
      '/events/' + 'a'.repeat(500),
      '/events/%F0%9F%98%80',
      '/events/%ZZ',
      '/events?status=%00',
      '/events?cursor=%00',
      '/events?limit=%00',
      '/events?limit=99999999999999999999',
      '/events?status=' + 'open,'.repeat(100),
    ])('GET %s', async (path) => {
      const res = await t.api('GET', path, { key: team.key });
      expect(res.status, res.text.slice(0, 300)).toBeLessThan(500);
      expect(res.status).toBeGreaterThanOrEqual(400);
    });

    it('organizer paths with strange ids', async () => {
      for (const rid of ['%00', 'reg_%00', '%E2%80%AE']) {
        const res = await t.api('POST', `/events/${eventId}/registrations/${rid}/approve`, { key: org.key });
        expect(res.status, res.text.slice(0, 300)).toBeLessThan(500);
        const res2 = await t.api('POST', `/events/%00/registrations/${rid}/reject`, { key: org.key, body: { reason: '\u0000' } });
        expect(res2.status, res2.text.slice(0, 300)).toBeLessThan(500);
      }
      const q = await t.api('GET', `/events/${eventId}/registrations?status=%00`, { key: org.key });
      expect(q.status).toBe(422);
    });

    it('strange Authorization headers answer 401', async () => {
      for (const header of ['Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Bearer hk_' + 'a'.repeat(5000), 'Bearer a b', 'bearer hk_short', 'Bearer hk_\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9']) {
        let res: ApiResponse;
        try {
          res = await t.api('GET', `/events/${eventId}/my-registration`, { headers: { authorization: header } });
        } catch {
          continue; // fetch itself refuses some header values; nothing reached the server
        }
        expectProblem(res, 401, 'unauthorized');
      }
    });

    it('a registration stored with unicode survives the round trip', async () => {
      const user = await quickUser(t);
      const name = 'Équipe 😀 日本 Ωmega';
      const res = await t.api('POST', `/events/${eventId}/register`, { key: user.key, body: registrationBody({ team_name: name, fields: { repo: 'https://x.dev', why: 'ça va ✓' } }) });
      expect(res.status).toBe(201);
      const mine = await t.api('GET', `/events/${eventId}/my-registration`, { key: user.key });
      expect(mine.body.team_name).toBe(name);
      expect(mine.body.fields.why).toBe('ça va ✓');
    });
  });

  it('refuses NUL characters with 422 naming the field, on both dialects alike', async () => {
    const res = await t.api('POST', `/events/${eventId}/register`, { key: (await quickUser(t)).key, body: registrationBody({ team_name: 'a\u0000b' }) });
    expectProblem(res, 422, 'validation_failed');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('team_name');
  });
});

describe.each(DIALECTS)('rate limits (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { RATE_LIMIT_PER_IP: '3', RATE_LIMIT_PER_KEY: '5' } });
  });
  afterAll(async () => t?.close());

  it('limits anonymous requests per IP with 429 rate_limited, Retry-After and RateLimit headers', async () => {
    for (let i = 1; i <= 3; i++) {
      const res = await t.api('GET', '/events');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('3');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(3 - i));
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    }
    const res = await t.api('GET', '/events');
    expectProblem(res, 429, 'rate_limited');
    const retry = Number(res.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(res.headers.get('ratelimit-remaining')).toBe('0');
    expect(res.headers.get('ratelimit-limit')).toBe('3');
    // Bad keys count against the IP too, so guessing keys is throttled.
    expectProblem(await t.api('GET', '/events', { key: 'hk_' + 'x'.repeat(40) }), 429, 'rate_limited');
  });

  it('counts a valid key per key, separately from the IP and from other keys', async () => {
    const a = await quickUser(t);
    const b = await quickUser(t);
    for (let i = 1; i <= 5; i++) {
      const res = await t.api('GET', '/events', { key: a.key });
      expect(res.status, `request ${i}`).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('5');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(5 - i));
    }
    const limited = await t.api('GET', '/events', { key: a.key });
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Authenticated routes are limited as well.
    expectProblem(await t.api('GET', '/events/evt_x/my-registration', { key: a.key }), 429, 'rate_limited');
    // Another key still has its own budget although the IP's is spent.
    expect((await t.api('GET', '/events', { key: b.key })).status).toBe(200);
  });

  it('the health check is not rate limited', async () => {
    for (let i = 0; i < 5; i++) expect((await t.request('GET', '/healthz')).status).toBe(200);
  });
});
