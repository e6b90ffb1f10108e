import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestFingerprint } from '../../src/idempotency/idempotency-key.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { approvedTeam, createEvent, eventBody, registrationBody, startTestApp, type ApiResponse, type TestApp, type TestUser } from '../helpers/harness.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const newKey = () => `key-${randomBytes(8).toString('hex')}`;
const withKey = (key: string) => ({ 'idempotency-key': key });

/** An SMTP receiver on 127.0.0.1 that can be told to refuse mail (so an invitation answers 503). */
async function startReceiver() {
  const state = { refuse: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      callback(state.refuse ? Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }) : null);
    },
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => callback());
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.server.address() as AddressInfo).port,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A body whose deadlines stay in the future across the 24 h expiry test. */
const farEventBody = (t: TestApp, name: string) => eventBody(new Date(t.clock.now().getTime() + 10 * DAY), { name });

function expectReplayOf(first: ApiResponse, replay: ApiResponse): void {
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.status).toBe(first.status);
  expect(replay.text).toBe(first.text);
  expect(replay.headers.get('content-type')).toBe(first.headers.get('content-type'));
  expect(replay.headers.get('location')).toBe(first.headers.get('location'));
}

describe.each(DIALECTS)('Idempotency-Key (%s)', (dialect) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startReceiver>>;
  let org: TestUser;

  beforeAll(async () => {
    smtp = await startReceiver();
    // No webhook worker: the webhook rows below are only written, never delivered anywhere.
    t = await startTestApp(dialect, { env: { REVIEW_WORKERS: 'false', WEBHOOKS_WORKERS: 'false', SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } });
    org = await t.user('organizer');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const registrationsOf = async (eventId: string) =>
    (await t.ctx.db.selectFrom('registrations').select(['id', 'user_id']).where('event_id', '=', eventId).execute()).length;
  const eventsNamed = async (name: string) => (await t.ctx.db.selectFrom('events').select('id').where('name', '=', name).execute()).length;
  const keyRows = async (key: string) => t.ctx.db.selectFrom('idempotency_keys').selectAll().where('idem_key', '=', key).execute();

  it('replays the first answer for a retry with the same key and body, and writes once', async () => {
    const eventId = await createEvent(t, org.key);
    const team = await t.user();
    const key = newKey();
    const body = registrationBody();
    const first = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body, headers: withKey(key) });
    expect(first.status).toBe(201);
    const replay = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body, headers: withKey(key) });
    expectReplayOf(first, replay);
    expect(replay.headers.get('location')).toBe(`http://hackathon.test/api/v1/events/${eventId}/my-registration`);
    expect(await registrationsOf(eventId)).toBe(1);
    // The same JSON with its members in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: reordered, headers: withKey(key) });
    expectReplayOf(first, again);
    // …and so is the same path written another way (trailing slash, percent-encoded id).
    const encoded = eventId.replace(/^./, (c) => `%${c.charCodeAt(0).toString(16)}`);
    const variant = await t.request('POST', `/api/v1/events/${encoded}/register/`, { key: team.key, body, headers: withKey(key) });
    expectReplayOf(first, variant);
  });

  it('refuses the same key with another body or another path (409 idempotency_key_reused), writing nothing', async () => {
    const eventId = await createEvent(t, org.key);
    const otherEvent = await createEvent(t, org.key);
    const team = await t.user();
    const key = newKey();
    const first = await t.api('POST', `/events/${eventId}/register`, {
      key: team.key,
      body: registrationBody({ team_name: 'Reuse A' }),
      headers: withKey(key),
    });
    expect(first.status).toBe(201);
    const otherBody = await t.api('POST', `/events/${eventId}/register`, {
      key: team.key,
      body: registrationBody({ team_name: 'Reuse B' }),
      headers: withKey(key),
    });
    expect(otherBody.status).toBe(409);
    expect(otherBody.headers.get('content-type')).toContain('application/problem+json');
    expect(otherBody.body).toMatchObject({ code: 'idempotency_key_reused', status: 409 });
    const otherPath = await t.api('POST', `/events/${otherEvent}/register`, {
      key: team.key,
      body: registrationBody({ team_name: 'Reuse A' }),
      headers: withKey(key),
    });
    expect(otherPath.status).toBe(409);
    expect(otherPath.body.code).toBe('idempotency_key_reused');
    expect(await registrationsOf(otherEvent)).toBe(0);
  });

  it('runs concurrent duplicates once: the others replay or get 409 idempotency_key_in_use', async () => {
    const key = newKey();
    const name = `Concurrent ${key}`;
    const body = farEventBody(t, name);
    const answers = await Promise.all(Array.from({ length: 10 }, () => t.api('POST', '/events', { key: org.key, body, headers: withKey(key) })));
    const fresh = answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') === null);
    expect(fresh).toHaveLength(1);
    // Each of the other nine either waited for nothing (in use, retry in 1 s) or came after the first finished (replay).
    const outcome = (a: ApiResponse) =>
      a.status === 409
        ? `409 ${a.body.code} retry-after ${a.headers.get('retry-after')}`
        : `${a.status} replayed ${a.headers.get('idempotent-replayed')} same ${a.body.id === fresh[0]!.body.id}`;
    const others = answers.filter((a) => a !== fresh[0]).map(outcome);
    expect(others).toHaveLength(9);
    expect(others.filter((o) => o !== '409 idempotency_key_in_use retry-after 1' && o !== '201 replayed true same true')).toEqual([]);
    expect(await eventsNamed(name)).toBe(1);
    // Once the first has finished, every retry is a replay.
    expectReplayOf(fresh[0]!, await t.api('POST', '/events', { key: org.key, body, headers: withKey(key) }));
  });

  it("keeps one caller's key apart from another's, and each one's retry replays its own answer", async () => {
    const eventId = await createEvent(t, org.key);
    const [a, b] = [await t.user(), await t.user()];
    const key = newKey();
    const [bodyA, bodyB] = [registrationBody(), registrationBody()];
    const ra = await t.api('POST', `/events/${eventId}/register`, { key: a.key, body: bodyA, headers: withKey(key) });
    const rb = await t.api('POST', `/events/${eventId}/register`, { key: b.key, body: bodyB, headers: withKey(key) });
    expect([ra.status, rb.status]).toEqual([201, 201]);
    expect(rb.headers.get('idempotent-replayed')).toBeNull();
    expect(rb.body.id).not.toBe(ra.body.id);
    expect(await registrationsOf(eventId)).toBe(2);
    // Each one's retry replays its own answer: the lookup is by (user, route, key), not by key alone
    // (which would hand one of them the other's registration, or a 409 for the other's body).
    const retryB = await t.api('POST', `/events/${eventId}/register`, { key: b.key, body: bodyB, headers: withKey(key) });
    expectReplayOf(rb, retryB);
    expect(retryB.body.team_name).toBe(bodyB.team_name);
    const retryA = await t.api('POST', `/events/${eventId}/register`, { key: a.key, body: bodyA, headers: withKey(key) });
    expectReplayOf(ra, retryA);
    expect(retryA.body.team_name).toBe(bodyA.team_name);
    expect(await registrationsOf(eventId)).toBe(2);
  });

  it("replays each caller's own answer when two callers sent the very same request with one key", async () => {
    // Same route, same body, same key: only the user tells the two apart.
    const key = newKey();
    const body = farEventBody(t, `Same request ${key}`);
    const [a, b] = [await t.user('organizer'), await t.user('organizer')];
    const ra = await t.api('POST', '/events', { key: a.key, body, headers: withKey(key) });
    const rb = await t.api('POST', '/events', { key: b.key, body, headers: withKey(key) });
    expect([ra.status, rb.status]).toEqual([201, 201]);
    expect(rb.headers.get('idempotent-replayed')).toBeNull();
    expect(rb.body.id).not.toBe(ra.body.id);
    const retryB = await t.api('POST', '/events', { key: b.key, body, headers: withKey(key) });
    expectReplayOf(rb, retryB);
    expect(retryB.body.id).toBe(rb.body.id);
    const retryA = await t.api('POST', '/events', { key: a.key, body, headers: withKey(key) });
    expectReplayOf(ra, retryA);
    expect(retryA.body.id).toBe(ra.body.id);
    expect(await eventsNamed(body.name)).toBe(2);
  });

  it('is scoped to the user, not the API key: a second key of the same user replays', async () => {
    const eventId = await createEvent(t, org.key);
    const team = await t.user();
    const second = await t.ctx.accounts.createKey(team.id);
    const key = newKey();
    const body = registrationBody();
    const first = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body, headers: withKey(key) });
    expectReplayOf(first, await t.api('POST', `/events/${eventId}/register`, { key: second.key, body, headers: withKey(key) }));
  });

  it('stores answers the route gave (409 already_registered) and replays them', async () => {
    const eventId = await createEvent(t, org.key);
    const team = await t.user();
    expect((await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() })).status).toBe(201);
    const key = newKey();
    const body = registrationBody();
    const first = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body, headers: withKey(key) });
    expect(first.status).toBe(409);
    expect(first.body.code).toBe('already_registered');
    expectReplayOf(first, await t.api('POST', `/events/${eventId}/register`, { key: team.key, body, headers: withKey(key) }));
  });

  it("stores a 422 from the route's own checks (the event's form) and replays it", async () => {
    const eventId = await createEvent(t, org.key);
    const team = await t.user();
    const key = newKey();
    // Passes the body schema; the event's required custom field `repo` is checked by the route.
    const body = registrationBody({ fields: {} });
    const first = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body, headers: withKey(key) });
    expect(first.status).toBe(422);
    expect(first.body.code).toBe('validation_failed');
    expect(first.body.errors.map((e: { field: string }) => e.field)).toEqual(['fields.repo']);
    expectReplayOf(first, await t.api('POST', `/events/${eventId}/register`, { key: team.key, body, headers: withKey(key) }));
    expect(await registrationsOf(eventId)).toBe(0);
  });

  it('claims nothing for a request refused by its schema (422): the key stays free for the corrected request', async () => {
    const eventId = await createEvent(t, org.key);
    const team = await t.user();
    const key = newKey();
    const bad = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: { team_name: '' }, headers: withKey(key) });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('validation_failed');
    expect(await keyRows(key)).toHaveLength(0);
    const good = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody(), headers: withKey(key) });
    expect(good.status).toBe(201);
    expect(good.headers.get('idempotent-replayed')).toBeNull();
  });

  it('answers 422 validation_failed on field Idempotency-Key for a malformed key, and writes nothing', async () => {
    const eventId = await createEvent(t, org.key);
    const team = await t.user();
    for (const bad of ['', 'k'.repeat(256), 'caf\u00e9']) {
      const res = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody(), headers: withKey(bad) });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors).toEqual([{ field: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' }]);
    }
    expect(await registrationsOf(eventId)).toBe(0);
    // The longest and the widest allowed keys work.
    for (const good of ['k'.repeat(255), ' !~{}"\'\\ x']) {
      const res = await t.api('POST', `/events/${eventId}/register`, { key: (await t.user()).key, body: registrationBody(), headers: withKey(good) });
      expect(res.status).toBe(201);
    }
  });

  it('does not keep a 5xx answer: the key is released and a retry runs again', async () => {
    const eventId = await createEvent(t, org.key);
    const key = newKey();
    const body = { email: `reviewer-${key}@example.com` };
    smtp.state.refuse = true;
    try {
      const failed = await t.api('POST', `/events/${eventId}/reviewers`, { key: org.key, body, headers: withKey(key) });
      expect(failed.status).toBe(503);
      expect(failed.body.code).toBe('service_unavailable');
      expect(await keyRows(key)).toHaveLength(0);
    } finally {
      smtp.state.refuse = false;
    }
    const retried = await t.api('POST', `/events/${eventId}/reviewers`, { key: org.key, body, headers: withKey(key) });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expectReplayOf(retried, await t.api('POST', `/events/${eventId}/reviewers`, { key: org.key, body, headers: withKey(key) }));
  });

  it('lets a retry take over a claim whose process died, once its lease (60 s) has passed', async () => {
    const eventId = await createEvent(t, org.key);
    const team = await t.user();
    const key = newKey();
    const body = registrationBody();
    const now = t.clock.now();
    // What a process that crashed mid-request leaves behind: a running claim and no answer.
    await t.ctx.db
      .insertInto('idempotency_keys')
      .values({
        user_id: team.id,
        route: 'POST /api/v1/events/:id/register',
        idem_key: key,
        fingerprint: requestFingerprint('POST', '/api/v1/events/:id/register', { id: eventId }, body),
        state: 'running',
        lock_token: 'crashed',
        locked_until: new Date(now.getTime() + 60_000).toISOString(),
        expires_at: new Date(now.getTime() + DAY).toISOString(),
        created_at: now.toISOString(),
        response_status: null,
        response_headers: null,
        response_body: null,
      })
      .execute();
    const busy = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body, headers: withKey(key) });
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('idempotency_key_in_use');
    expect(busy.headers.get('retry-after')).toBe('1');
    t.clock.advance(60_001);
    const taken = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body, headers: withKey(key) });
    expect(taken.status).toBe(201);
    expect(taken.headers.get('idempotent-replayed')).toBeNull();
    expect(await registrationsOf(eventId)).toBe(1);
  });

  it('forgets a key after 24 hours: the same request runs anew, and expired rows are purged', async () => {
    const key = newKey();
    const other = newKey();
    const name = `Expiry ${key}`;
    const body = farEventBody(t, name);
    const first = await t.api('POST', '/events', { key: org.key, body, headers: withKey(key) });
    expect(first.status).toBe(201);
    expect((await t.api('POST', '/events', { key: org.key, body: farEventBody(t, `Other ${other}`), headers: withKey(other) })).status).toBe(201);
    t.clock.advance(DAY - 60_000);
    expectReplayOf(first, await t.api('POST', '/events', { key: org.key, body, headers: withKey(key) }));
    t.clock.advance(2 * 60_000);
    const anew = await t.api('POST', '/events', { key: org.key, body, headers: withKey(key) });
    expect(anew.status).toBe(201);
    expect(anew.headers.get('idempotent-replayed')).toBeNull();
    expect(anew.body.id).not.toBe(first.body.id);
    expect(await eventsNamed(name)).toBe(2);
    // The purge ran on that claim: the other key's expired row is gone, the renewed one is kept.
    expect(await keyRows(other)).toHaveLength(0);
    expect(await keyRows(key)).toHaveLength(1);
  });

  it('purges expired rows in bounded batches, and again at once while a batch comes back full', async () => {
    const user = await t.user();
    const past = new Date(t.clock.now().getTime() - HOUR).toISOString();
    const stale = Array.from({ length: 501 }, (_, i) => ({
      user_id: user.id,
      route: 'POST /api/v1/events',
      idem_key: `stale-${i}`,
      fingerprint: 'f',
      state: 'done' as const,
      lock_token: 't',
      locked_until: past,
      expires_at: past,
      created_at: past,
      response_status: 201,
      response_headers: '{}',
      response_body: '{}',
    }));
    for (let i = 0; i < stale.length; i += 100)
      await t.ctx.db
        .insertInto('idempotency_keys')
        .values(stale.slice(i, i + 100))
        .execute();
    const staleLeft = async () => (await t.ctx.db.selectFrom('idempotency_keys').select('idem_key').where('user_id', '=', user.id).execute()).length;
    t.clock.advance(61_000); // the purge runs at most once a minute…
    const claim = async () => t.api('POST', '/events', { key: org.key, body: farEventBody(t, `Purge ${newKey()}`), headers: withKey(newKey()) });
    expect((await claim()).status).toBe(201);
    expect(await staleLeft()).toBe(1);
    // …unless the last batch was full: then the next claim, at the same instant, purges again.
    expect((await claim()).status).toBe(201);
    expect(await staleLeft()).toBe(0);
  });

  // Every POST an agent makes: the same key and body twice give one answer, the second marked replayed.
  // A kind nothing in this file produces for that event, and no webhook worker: nothing is ever sent.
  const webhookBody = (eventId: string) => ({ url: 'https://hooks.example.com/idempotency', events: ['results.published'], event_id: eventId });
  async function webhookOf(user: TestUser): Promise<string> {
    const created = await t.api('POST', '/webhooks', { key: user.key, body: webhookBody(await createEvent(t, org.key)) });
    expect(created.status).toBe(201);
    return created.body.id as string;
  }

  const flagged: Array<{ route: string; status: number; prepare: () => Promise<{ path: string; body?: unknown; key: string }> }> = [
    { route: 'POST /api/v1/events', status: 201, prepare: async () => ({ path: '/api/v1/events', body: eventBody(t.clock.now()), key: org.key }) },
    {
      route: 'POST /api/agent/events/create',
      status: 201,
      prepare: async () => ({ path: '/api/agent/events/create', body: eventBody(t.clock.now()), key: org.key }),
    },
    {
      route: 'POST /api/v1/events/:id/register',
      status: 201,
      prepare: async () => ({ path: `/api/v1/events/${await createEvent(t, org.key)}/register`, body: registrationBody(), key: (await t.user()).key }),
    },
    ...(['approve', 'reject'] as const).map((action) => ({
      route: `POST /api/v1/events/:id/registrations/:rid/${action}`,
      status: 200,
      prepare: async () => {
        const eventId = await createEvent(t, org.key);
        const reg = await t.api('POST', `/events/${eventId}/register`, { key: (await t.user()).key, body: registrationBody() });
        return {
          path: `/api/v1/events/${eventId}/registrations/${reg.body.id}/${action}`,
          body: action === 'reject' ? { reason: 'full' } : undefined,
          key: org.key,
        };
      },
    })),
    {
      route: 'POST /api/v1/events/:id/submit',
      status: 201,
      prepare: async () => {
        const eventId = await createEvent(t, org.key);
        const { team } = await approvedTeam(t, eventId, org.key);
        return { path: `/api/v1/events/${eventId}/submit`, body: { name: 'Rocket', github_url: 'https://github.com/team/rocket' }, key: team.key };
      },
    },
    {
      route: 'POST /api/v1/events/:id/announcements',
      status: 201,
      prepare: async () => {
        const eventId = await createEvent(t, org.key);
        await approvedTeam(t, eventId, org.key);
        return { path: `/api/v1/events/${eventId}/announcements`, body: { title: 'Welcome', body: 'Hello **teams**.', segment: 'approved' }, key: org.key };
      },
    },
    {
      route: 'POST /api/v1/events/:id/reviewers',
      status: 201,
      prepare: async () => ({ path: `/api/v1/events/${await createEvent(t, org.key)}/reviewers`, body: { email: `r-${newKey()}@example.com` }, key: org.key }),
    },
    {
      route: 'POST /api/v1/webhooks',
      status: 201,
      // A kind nothing in this file produces for that event: no delivery is ever attempted.
      prepare: async () => ({ path: '/api/v1/webhooks', body: webhookBody(await createEvent(t, org.key)), key: org.key }),
    },
    {
      route: 'POST /api/v1/webhooks/:id/test',
      status: 202,
      prepare: async () => ({ path: `/api/v1/webhooks/${await webhookOf(org)}/test`, key: org.key }),
    },
    {
      route: 'POST /api/v1/webhooks/:id/deliveries/:delivery_id/retry',
      status: 202,
      prepare: async () => {
        const hook = await webhookOf(org);
        const queued = await t.api('POST', `/webhooks/${hook}/test`, { key: org.key });
        expect(queued.status).toBe(202);
        return { path: `/api/v1/webhooks/${hook}/deliveries/${queued.body.id}/retry`, key: org.key };
      },
    },
    {
      route: 'POST /api/v1/events/:id/gallery/:project_id/vote',
      status: 201,
      prepare: async () => {
        const eventId = await createEvent(t, org.key);
        const { team } = await approvedTeam(t, eventId, org.key);
        const project = await t.api('POST', `/events/${eventId}/submit`, {
          key: team.key,
          body: { name: 'Votable', github_url: 'https://github.com/team/votable' },
        });
        expect(project.status).toBe(201);
        // The voting window open now: the deadlines moved into the past in the database (the API refuses that).
        const now = t.clock.now().getTime();
        const past = new Date(now - 60_000).toISOString();
        await t.ctx.db
          .updateTable('events')
          .set({
            registration_deadline: new Date(now - 120_000).toISOString(),
            submission_deadline: past,
            voting: JSON.stringify({ enabled: true, opens_at: past, closes_at: new Date(now + 3_600_000).toISOString() }),
          })
          .where('id', '=', eventId)
          .execute();
        t.ctx.events.changed(eventId);
        return { path: `/api/v1/events/${eventId}/gallery/${project.body.id}/vote`, key: (await t.user()).key };
      },
    },
    {
      route: 'POST /api/v1/events/:id/assignments/auto',
      status: 200,
      prepare: async () => {
        // Assigning needs a reviewer (none: 409 no_reviewers).
        const eventId = await createEvent(t, org.key);
        const reviewer = await t.user();
        await t.ctx.db.insertInto('event_reviewers').values({ event_id: eventId, user_id: reviewer.id, created_at: t.clock.now().toISOString() }).execute();
        return { path: `/api/v1/events/${eventId}/assignments/auto`, body: { per_project: 2 }, key: org.key };
      },
    },
    ...(['one', 'all'] as const).map((who) => ({
      route: who === 'one' ? 'POST /api/v1/events/:id/reviewers/:userId/remind' : 'POST /api/v1/events/:id/reviewer-reminders',
      status: who === 'one' ? 201 : 200,
      prepare: async () => {
        // A judging event with one project and a reviewer who has not reviewed it.
        const eventId = await createEvent(t, org.key);
        const { team } = await approvedTeam(t, eventId, org.key);
        expect(
          (await t.api('POST', `/events/${eventId}/submit`, { key: team.key, body: { name: 'Owed', github_url: 'https://github.com/team/owed' } })).status,
        ).toBe(201);
        const reviewer = await t.user();
        await t.ctx.db.insertInto('event_reviewers').values({ event_id: eventId, user_id: reviewer.id, created_at: t.clock.now().toISOString() }).execute();
        expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'judging' } })).status).toBe(200);
        return {
          path: who === 'one' ? `/api/v1/events/${eventId}/reviewers/${reviewer.id}/remind` : `/api/v1/events/${eventId}/reviewer-reminders`,
          key: org.key,
        };
      },
    })),
    ...(['results/publish', 'reviews/rerun'] as const).map((action) => ({
      route: `POST /api/v1/events/:id/${action}`,
      status: action === 'results/publish' ? 200 : 202,
      prepare: async () => {
        const eventId = await createEvent(t, org.key);
        expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'judging' } })).status).toBe(200);
        return { path: `/api/v1/events/${eventId}/${action}`, key: org.key };
      },
    })),
  ];

  it('covers every flagged route in the table', () => {
    const declared = flagged.map((f) => f.route).sort();
    // The routes declared idempotent are exactly the ones tested below.
    expect(idempotentRoutes(t).sort()).toEqual(declared);
  });

  it.each(flagged.map((f) => [f.route, f] as const))('replays %s', async (_route, f) => {
    const { path, body, key } = await f.prepare();
    const idem = newKey();
    const first = await t.request('POST', path, { key, ...(body !== undefined ? { body } : {}), headers: withKey(idem) });
    expect(first.status).toBe(f.status);
    const replay = await t.request('POST', path, { key, ...(body !== undefined ? { body } : {}), headers: withKey(idem) });
    expectReplayOf(first, replay);
  });
});

/**
 * The POST routes carrying the idempotency hook, as "POST <url>", read from Fastify's own route tree
 * (printRoutes with hooks): a route flagged later without a row in the table fails the test.
 */
function idempotentRoutes(t: TestApp): string[] {
  const tree = t.app.printRoutes({ method: 'POST', includeHooks: true, commonPrefix: false });
  const stack: string[] = [];
  const found: string[] = [];
  for (const line of tree.split('\n')) {
    const route = /^([│ ]*)[├└]── (\S+) \(POST\)/.exec(line);
    if (route) {
      const depth = route[1]!.length / 4;
      stack.length = depth;
      stack.push(route[2]!);
      continue;
    }
    if (line.includes('(preHandler)') && line.includes('idempotencyPreHandler')) found.push(`POST ${stack.join('')}`);
  }
  return found;
}

describe.each(DIALECTS)('Idempotency-Key and rate limits (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { REVIEW_WORKERS: 'false', RATE_LIMIT_PER_KEY: '2' } });
  });
  afterAll(async () => t?.close());

  it('claims no key for a 429: once the window has passed, the request runs', async () => {
    const org = await t.user('organizer');
    const key = newKey();
    const body = eventBody(t.clock.now(), { name: `Limited ${key}` });
    expect((await t.api('GET', '/events', { key: org.key })).status).toBe(200);
    expect((await t.api('GET', '/events', { key: org.key })).status).toBe(200);
    const limited = await t.api('POST', '/events', { key: org.key, body, headers: withKey(key) });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(await t.ctx.db.selectFrom('idempotency_keys').selectAll().where('idem_key', '=', key).execute()).toHaveLength(0);
    t.clock.advance(60_000);
    const ran = await t.api('POST', '/events', { key: org.key, body, headers: withKey(key) });
    expect(ran.status).toBe(201);
    expect(ran.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe.each(DIALECTS)('Idempotency-Key across two server processes on one database (%s)', (dialect) => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    a = await startTestApp(dialect, { database: db, env: { REVIEW_WORKERS: 'false' } });
    b = await startTestApp(dialect, { database: db, env: { REVIEW_WORKERS: 'false' } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  it('runs one of the racing requests with one key, whichever instance gets them', async () => {
    const org = await a.user('organizer');
    const key = newKey();
    const name = `Two processes ${key}`;
    const body = eventBody(a.clock.now(), { name });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? b : a).api('POST', '/events', { key: org.key, body, headers: withKey(key) })),
    );
    const fresh = answers.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
    expect(fresh).toHaveLength(1);
    const outcomes = answers.filter((r) => r !== fresh[0]).map((r) => `${r.status} ${r.status === 409 ? r.body.code : r.headers.get('idempotent-replayed')}`);
    expect(outcomes.filter((o) => o !== '409 idempotency_key_in_use' && o !== '201 true')).toEqual([]);
    const rows = await a.ctx.db.selectFrom('events').select('id').where('name', '=', name).execute();
    expect(rows).toHaveLength(1);
    expectReplayOf(fresh[0]!, await b.api('POST', '/events', { key: org.key, body, headers: withKey(key) }));
  });
});
