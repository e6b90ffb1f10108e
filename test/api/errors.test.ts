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

  it('answers 404 not_found for unknown routes and 405 method_not_allowed for a known path with another method, as problem+json', async () => {
    expectProblem(await t.api('GET', '/nope'), 404, 'not_found');
    expectProblem(await t.request('GET', '/api/v2/events'), 404, 'not_found');
    const wrong = await t.api('DELETE', `/events/${eventId}`, { key: org.key });
    expectProblem(wrong, 405, 'method_not_allowed');
    expect(wrong.headers.get('allow')).toBe('GET, HEAD, PATCH');
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

  it('answers 422 for text that is not valid Unicode (a lone surrogate escape), naming the field, and stores nothing', async () => {
    const user = await quickUser(t);
    for (const name of ['\\ud800', 'Team \\udc00 one', 'a\\ud83d']) {
      const raw = `{"team_name":"${name}","track_id":"tools","fields":{"repo":"https://github.com/example/repo"}}`;
      const res = await t.api('POST', `/events/${eventId}/register`, { key: user.key, raw, headers: { 'content-type': 'application/json' } });
      expectProblem(res, 422, 'validation_failed');
      expect(res.body.errors).toEqual([{ field: 'team_name', message: expect.stringContaining('surrogate') }]);
    }
    expect((await t.api('GET', `/events/${eventId}/my-registration`, { key: user.key })).status).toBe(404);
    // A pair written as escapes is a real character and is accepted.
    const ok = await t.api('POST', `/events/${eventId}/register`, {
      key: user.key,
      raw: '{"team_name":"Team \\ud83d\\ude00","track_id":"tools","fields":{"repo":"https://github.com/example/repo"}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.team_name).toBe('Team 😀');
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
    for (const body of [
      null,
      [],
      'team',
      42,
      true,
      [registrationBody()],
      { team_name: 42 },
      { team_name: null },
      { team_name: ['a'] },
      { team_name: { a: 1 } },
    ]) {
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
    /** Each case names the exact answer: a client mistake is a 4xx with its stable code (and the failing field), never a 500. */
    function expectAnswer(res: ApiResponse, status: number, code: string | null, field?: string) {
      expect(res.status, res.text.slice(0, 300)).toBe(status);
      if (code === null) return expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expectProblem(res, status, code);
      if (field !== undefined) expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }

    const nasty: Array<[unknown, number, string | null, string?]> = [
      [{ team_name: '\u0000' }, 422, 'validation_failed', 'team_name'],
      [{ team_name: 'a\u0000b', track_id: 'tools', fields: { repo: 'https://x.dev' } }, 422, 'validation_failed', 'team_name'],
      [{ team_name: 'ok', track_id: '\u0000', fields: { repo: 'https://x.dev' } }, 422, 'validation_failed', 'track_id'],
      [{ team_name: 'ok', track_id: 'tools', fields: { repo: 'https://x.dev/\u0000' } }, 422, 'validation_failed', 'fields.repo'],
      [{ team_name: 'ok', track_id: 'tools', fields: { 'a\u0000': 'x' } }, 422, 'validation_failed', 'fields.a\u0000'],
      // 40 emoji are 80 UTF-16 units but 40 characters: within the 80-character limit.
      [{ team_name: '😀'.repeat(40), track_id: 'tools', fields: { repo: 'https://x.dev' } }, 201, null],
      // A lone surrogate cannot be stored as UTF-8 (it would come back as U+FFFD): refused.
      [{ team_name: '\ud800', track_id: 'tools', fields: { repo: 'https://x.dev' } }, 422, 'validation_failed', 'team_name'],
      [{ team_name: 'ok', track_id: 'tools', fields: { repo: 'https://例え.テスト/パス' } }, 201, null],
      [{ team_name: 'ok', track_id: 'tools', fields: { repo: 'https://x.dev', why: 1e308 } }, 422, 'validation_failed', 'fields.why'],
      [{ team_name: 'ok', track_id: 'tools', fields: { repo: 'https://x.dev', why: -0 } }, 422, 'validation_failed', 'fields.why'],
      [{ team_name: 'x'.repeat(90_000) }, 422, 'validation_failed', 'team_name'],
      [{ team_name: 'ok', contact_email: '\u0000@x.io', track_id: 'tools', fields: { repo: 'https://x.dev' } }, 422, 'validation_failed', 'contact_email'],
      [{ team_name: 'ok %00', github_url: 'https://github.com/x/dev', track_id: 'tools', fields: { repo: 'https://x.dev/' + '%00'.repeat(100) } }, 201, null],
      [{ team_name: "Robert'); DROP TABLE registrations;--", track_id: 'tools', fields: { repo: 'https://x.dev' } }, 201, null],
    ];
    it.each(nasty.map(([b, status, code, field], i) => [i, b, status, code, field] as const))(
      'register body #%i answers %i',
      async (_i, body, status, code, field) => {
        const res = await t.api('POST', `/events/${eventId}/register`, { key: (await quickUser(t)).key, body });
        expectAnswer(res, status, code, field);
      },
    );

    it('a team name already taken by one of the cases above answers 409 team_name_taken, not a 500', async () => {
      const res = await t.api('POST', `/events/${eventId}/register`, { key: (await quickUser(t)).key, body: registrationBody({ team_name: 'OK' }) });
      expectProblem(res, 409, 'team_name_taken');
    });

    it.each([
      ['nested arrays', '['.repeat(45_000) + ']'.repeat(45_000)],
      ['nested objects', '{"a":'.repeat(15_000) + '1' + '}'.repeat(15_000)],
      ['nested value', '{"team_name":' + '['.repeat(40_000) + ']'.repeat(40_000) + '}'],
      // A lone surrogate escape makes the parser walk the whole body for broken Unicode: iteratively.
      ['40,000 deep with a lone \\ud800', '['.repeat(40_000) + '"\\ud800"' + ']'.repeat(40_000)],
      ['a lone \\ud800 team name', '{"team_name":"\\ud800"}'],
    ])('deeply nested JSON (%s) answers 422, not 500', async (_name, raw) => {
      const res = await t.api('POST', `/events/${eventId}/register`, { key: (await quickUser(t)).key, raw, headers: { 'content-type': 'application/json' } });
      expectProblem(res, 422, 'validation_failed');
    });

    it.each([
      [{ project_name: 'a\u0000', github_url: 'https://github.com/x/dev' }, 'project_name'],
      [{ project_name: 'ok', github_url: 'https://github.com/x/dev', description: '\u0000'.repeat(100) }, 'description'],
      [{ project_name: 'ok', github_url: 'https://github.com/x/dev', team_size: Infinity }, 'team_size'],
      [{ project_name: 'ok', github_url: 'https://github.com/x/dev', team_size: null }, 'team_size'],
      [{ project_name: null, github_url: null }, 'github_url'],
      [{ project_name: 'ok', github_url: 'https://github.com/x/dev', track_id: '\u0000' }, 'track_id'],
    ])('submit body %j answers 422 naming %s', async (body, field) => {
      const res = await t.api('POST', `/events/${eventId}/submit`, { key: team.key, body });
      expectAnswer(res, 422, 'validation_failed', field);
    });

    it.each([
      [{ name: 'a\u0000' }, 'name'],
      [{ description: '\u0000' }, 'description'],
      [{ tracks: [{ id: 'a', name: '\u0000' }] }, 'tracks.0.name'],
      [{ dimensions: [{ name: '\u0000', weight: 1 }] }, 'dimensions.0.name'],
      [
        {
          dimensions: [
            { name: 'x', weight: 1e308 },
            { name: 'y', weight: 1e308 },
          ],
        },
        'dimensions.0.weight',
      ],
      [{ registration_config: { fields: [{ key: 'k', label: '\u0000' }] } }, 'registration_config.fields.0.label'],
      [{ co_organizers: ['\u0000@x.io'] }, 'co_organizers.0'],
      // An address without an account is a valid co-organizer (naming one must not tell whether it has an account).
      [{ co_organizers: ['nobody@example.com'] }, null],
      // Far-off deadlines are odd but valid: the event is created and the edit accepted.
      [{ registration_deadline: '9999-12-31T23:59:59Z', submission_deadline: '9999-12-31T23:59:59Z' }, null],
      // A published event cannot be created with a deadline already past; an existing one may move
      // its deadline (even into the past: that closes the window at once).
      [{ registration_deadline: '0000-01-01T00:00:00Z' }, 'registration_deadline', null],
      [{ models: ['a/\u0000'] }, 'models.0'],
    ] as Array<[Record<string, unknown>, string | null, (string | null)?]>)('event body %j (failing field %s)', async (over, field, patchField = field) => {
      const res = await t.api('POST', '/events', { key: org.key, body: eventBody(T0, over) });
      expectAnswer(res, field === null ? 201 : 422, field === null ? null : 'validation_failed', field ?? undefined);
      // A throwaway event: these edits must not disturb the shared one.
      const target = await createEvent(t, org.key);
      const p = await t.api('PATCH', `/events/${target}`, { key: org.key, body: over });
      expectAnswer(p, patchField === null ? 200 : 422, patchField === null ? null : 'validation_failed', patchField ?? undefined);
    });

    it.each([
      ['/events/%00', 422, 'validation_failed'],
      ['/events/%00/register', 422, 'validation_failed'],
      ['/events/%00/result', 422, 'validation_failed'],
      ['/events/%E2%80%AE%00x/my-registration', 422, 'validation_failed'],
      ['/events/' + 'a'.repeat(500), 414, 'uri_too_long'],
      ['/events/%F0%9F%98%80', 404, 'event_not_found'],
      ['/events/%ZZ', 400, 'bad_request'],
      ['/events?status=%00', 422, 'validation_failed'],
      ['/events?cursor=%00', 422, 'validation_failed'],
      ['/events?limit=%00', 422, 'validation_failed'],
      ['/events?limit=99999999999999999999', 422, 'validation_failed'],
      ['/events?status=' + 'open,'.repeat(100), 422, 'validation_failed'],
    ] as const)('GET %s answers %i %s', async (path, status, code) => {
      const res = await t.api('GET', path, { key: team.key });
      expectAnswer(res, status, code);
    });

    it('organizer paths with strange ids', async () => {
      for (const [rid, status, code] of [
        ['%00', 422, 'validation_failed'],
        ['reg_%00', 422, 'validation_failed'],
        ['%E2%80%AE', 404, 'registration_not_found'],
      ] as const) {
        const res = await t.api('POST', `/events/${eventId}/registrations/${rid}/approve`, { key: org.key });
        expectAnswer(res, status, code);
        const res2 = await t.api('POST', `/events/%00/registrations/${rid}/reject`, { key: org.key, body: { reason: '\u0000' } });
        expectAnswer(res2, 422, 'validation_failed');
      }
      const q = await t.api('GET', `/events/${eventId}/registrations?status=%00`, { key: org.key });
      expectAnswer(q, 422, 'validation_failed', 'status');
    });

    it('strange Authorization headers answer 401', async () => {
      for (const header of [
        'Bearer',
        'Bearer ',
        'Basic dXNlcjpwYXNz',
        'Bearer hk_' + 'a'.repeat(5000),
        'Bearer a b',
        'bearer hk_short',
        'Bearer hk_\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9',
      ]) {
        // Every one of these reaches the server (fetch accepts Latin-1 header values), so each is checked.
        const res = await t.api('GET', `/events/${eventId}/my-registration`, { headers: { authorization: header } });
        expectProblem(res, 401, 'unauthorized');
      }
    });

    it('a registration stored with unicode survives the round trip', async () => {
      const user = await quickUser(t);
      const name = 'Équipe 😀 日本 Ωmega';
      const res = await t.api('POST', `/events/${eventId}/register`, {
        key: user.key,
        body: registrationBody({ team_name: name, fields: { repo: 'https://x.dev', why: 'ça va ✓' } }),
      });
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
