import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS } from '../helpers/databases.js';
import { callTool, connectMcp } from '../helpers/mcp-client.js';
import { createEvent, registrationBody, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';
import { startReceiver, verifySignature, type Received } from '../helpers/webhook-receiver.js';

const ENV = { WEBHOOKS_ALLOW_LOOPBACK: 'true', WEBHOOKS_POLL_MS: '20', WEBHOOKS_DISABLE_AFTER: '3' };

describe.each(DIALECTS)('webhooks (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let eventId: string;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  /** Paths answered 500 (all requests), or 500 once. */
  const down = new Set<string>();
  const failOnce = new Set<string>();

  beforeAll(async () => {
    rx = await startReceiver((r) => {
      if (down.has(r.path)) return 500;
      if (failOnce.delete(r.path)) return 500;
      return 200;
    });
    t = await startTestApp(dialect, { env: ENV });
    org = await quickUser(t, 'organizer');
    eventId = await createEvent(t, org.key);
  });
  afterAll(async () => {
    await t?.close();
    await rx?.close();
  });

  const subscribe = (key: string, path: string, events: string[], extra: Record<string, unknown> = {}) =>
    t.api('POST', '/webhooks', { key, body: { url: rx.url(path), events, ...extra } });
  const at = (path: string) => rx.received.filter((r) => r.path === path);
  /** Lets every due delivery finish (the worker also polls; this makes "nothing more was sent" checkable). */
  const settle = async () => {
    await t.ctx.webhooks.pump();
    await t.ctx.webhooks.whenIdle();
  };

  it('creates a subscription (secret shown once), delivers signed Standard Webhooks messages a receiver can verify', async () => {
    const team = await quickUser(t);
    const created = await subscribe(team.key, '/signed', ['registration.created', 'registration.decided'], { event_id: eventId });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^whk_/), url: rx.url('/signed'), event_id: eventId, enabled: true });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const listed = await t.api('GET', '/webhooks', { key: team.key });
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0].id).toBe(created.body.id);
    expect(listed.body[0]).not.toHaveProperty('secret');

    const reg = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() });
    expect(reg.status).toBe(201);
    await rx.until(() => at('/signed').length >= 1);
    const msg = at('/signed')[0]!;
    expect(verifySignature(created.body.secret, msg)).toBe(true);
    expect(verifySignature(`whsec_${Buffer.from('another secret').toString('base64')}`, msg)).toBe(false);
    expect(msg.headers['webhook-id']).toMatch(/^msg_/);
    expect(msg.headers['webhook-timestamp']).toBe(String(Math.floor(t.clock.now().getTime() / 1000)));
    expect(msg.headers['content-type']).toBe('application/json');
    expect(msg.json).toEqual({
      type: 'registration.created',
      timestamp: t.clock.now().toISOString(),
      data: { event_id: eventId, registration: expect.objectContaining({ id: reg.body.id, status: 'pending', team_name: reg.body.team_name }) },
    });

    await settle();
    const deliveries = await t.api('GET', `/webhooks/${created.body.id}/deliveries`, { key: team.key });
    expect(deliveries.status).toBe(200);
    expect(deliveries.body).toEqual([
      expect.objectContaining({
        id: msg.headers['webhook-id'],
        type: 'registration.created',
        status: 'delivered',
        attempts: 1,
        last_status_code: 200,
        last_error: null,
      }),
    ]);
  });

  it('a receiver answering 500 then 200 gets the delivery again, with the same webhook-id, once the backoff is due', async () => {
    const team = await quickUser(t);
    const hook = await subscribe(team.key, '/flaky', ['registration.created']);
    expect(hook.status).toBe(201);
    failOnce.add('/flaky');
    expect((await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() })).status).toBe(201);
    await rx.until(() => at('/flaky').length >= 1);
    await settle();
    const first = await t.api('GET', `/webhooks/${hook.body.id}/deliveries`, { key: team.key });
    expect(first.body[0]).toMatchObject({ status: 'queued', attempts: 1, last_status_code: 500, last_error: expect.stringContaining('HTTP 500') });
    const due = Date.parse(first.body[0].next_attempt_at as string) - t.clock.now().getTime();
    expect(due).toBeGreaterThanOrEqual(5000);
    expect(due).toBeLessThanOrEqual(6000);
    // Not due yet: nothing more is sent.
    await settle();
    expect(at('/flaky')).toHaveLength(1);

    t.clock.advance(6001);
    try {
      await settle();
      await rx.until(() => at('/flaky').length >= 2);
      const [a, b] = at('/flaky') as [Received, Received];
      expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
      expect(b.body).toBe(a.body);
      expect(verifySignature(hook.body.secret, b)).toBe(true);
      const after = await t.api('GET', `/webhooks/${hook.body.id}/deliveries`, { key: team.key });
      expect(after.body[0]).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 200, last_error: null });
    } finally {
      t.clock.set(t.clock.now().getTime() - 6001);
    }
  });

  it("one team's subscription never receives another team's events; the organizer's receives both", async () => {
    const a = await quickUser(t);
    const b = await quickUser(t);
    const kinds = ['registration.created', 'registration.decided', 'project.submitted', 'review.failed', 'judging.started'];
    expect((await subscribe(a.key, '/team-a', kinds)).status).toBe(201);
    expect((await subscribe(b.key, '/team-b', kinds)).status).toBe(201);
    // An organizer's subscription on another event it does not organize receives nothing either.
    const other = await quickUser(t, 'organizer');
    expect((await subscribe(other.key, '/other-org', kinds)).status).toBe(201);
    expect((await subscribe(org.key, '/org', kinds, { event_id: eventId })).status).toBe(201);

    const ra = await t.api('POST', `/events/${eventId}/register`, { key: a.key, body: registrationBody() });
    const rb = await t.api('POST', `/events/${eventId}/register`, { key: b.key, body: registrationBody() });
    expect((await t.api('POST', `/events/${eventId}/registrations/${ra.body.id}/approve`, { key: org.key })).status).toBe(200);
    await rx.until(() => at('/org').length >= 3 && at('/team-a').length >= 2 && at('/team-b').length >= 1);
    await settle();
    const seen = (path: string) => at(path).map((r) => `${r.json.type}:${r.json.data.registration.id}`);
    expect(seen('/team-a').sort()).toEqual([`registration.created:${ra.body.id}`, `registration.decided:${ra.body.id}`]);
    expect(seen('/team-b')).toEqual([`registration.created:${rb.body.id}`]);
    expect(seen('/org').sort()).toEqual(
      [`registration.created:${ra.body.id}`, `registration.created:${rb.body.id}`, `registration.decided:${ra.body.id}`].sort(),
    );
    expect(at('/other-org')).toEqual([]);
  });

  it('refuses private, non-https and credential-carrying URLs at creation with 422 webhook_url_refused', async () => {
    const u = await quickUser(t);
    for (const url of [
      'https://10.0.0.1/hook',
      'https://192.168.1.20/hook',
      'https://[fd00::1]/hook',
      'https://169.254.169.254/latest',
      'http://example.com/hook',
      'https://u:p@example.com/',
    ]) {
      const res = await t.api('POST', '/webhooks', { key: u.key, body: { url, events: ['registration.created'] } });
      expect(res.status, url).toBe(422);
      expect(res.body.code, url).toBe('webhook_url_refused');
    }
    const bad = await t.api('POST', '/webhooks', { key: u.key, body: { url: rx.url('/x'), events: ['no.such.kind'] } });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('validation_failed');
    const missing = await t.api('POST', '/webhooks', { key: u.key, body: { url: rx.url('/x'), events: ['registration.created'], event_id: 'evt_nope' } });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('event_not_found');
    expect((await t.api('POST', '/webhooks', { key: null, body: { url: rx.url('/x'), events: ['registration.created'] } })).status).toBe(401);
  });

  it("is owner-only: another account's subscription answers 404 webhook_not_found; unknown deliveries 404", async () => {
    const owner = await quickUser(t);
    const stranger = await quickUser(t);
    const hook = await subscribe(owner.key, '/owned', ['registration.created']);
    for (const [method, path] of [
      ['GET', `/webhooks/${hook.body.id}/deliveries`],
      ['DELETE', `/webhooks/${hook.body.id}`],
      ['POST', `/webhooks/${hook.body.id}/test`],
      ['POST', `/webhooks/${hook.body.id}/deliveries/msg_x/retry`],
    ] as const) {
      const res = await t.api(method, path, { key: stranger.key });
      expect(res.status, path).toBe(404);
      expect(res.body.code, path).toBe('webhook_not_found');
    }
    expect((await t.api('GET', '/webhooks', { key: stranger.key })).body).toEqual([]);
    const unknown = await t.api('POST', `/webhooks/${hook.body.id}/deliveries/msg_nope/retry`, { key: owner.key });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('webhook_delivery_not_found');
    expect((await t.api('DELETE', `/webhooks/${hook.body.id}`, { key: owner.key })).status).toBe(204);
    expect((await t.api('GET', '/webhooks', { key: owner.key })).body).toEqual([]);
  });

  it('test sends webhook.test to that subscription; retry sends a delivery again with the same id; deliveries page with Link', async () => {
    const u = await quickUser(t);
    const hook = await subscribe(u.key, '/pinged', ['registration.created']);
    const first = await t.api('POST', `/webhooks/${hook.body.id}/test`, { key: u.key });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ type: 'webhook.test', status: 'queued', payload: { type: 'webhook.test', data: { webhook_id: hook.body.id } } });
    expect((await t.api('POST', `/webhooks/${hook.body.id}/test`, { key: u.key })).status).toBe(202);
    await rx.until(() => at('/pinged').length >= 2);
    await settle();
    expect(at('/pinged').map((r) => r.json.type)).toEqual(['webhook.test', 'webhook.test']);

    const page1 = await t.api('GET', `/webhooks/${hook.body.id}/deliveries?limit=1`, { key: u.key });
    expect(page1.status).toBe(200);
    expect(page1.body).toHaveLength(1);
    const next = /<([^>]+)>; rel="next"/.exec(page1.headers.get('link') ?? '')?.[1];
    expect(next).toBeDefined();
    const page2 = await t.request('GET', new URL(next!).pathname + new URL(next!).search, { key: u.key });
    expect(page2.body.map((d: { id: string }) => d.id)).toEqual([first.body.id]);

    const retried = await t.api('POST', `/webhooks/${hook.body.id}/deliveries/${first.body.id}/retry`, { key: u.key });
    expect(retried.status).toBe(202);
    await rx.until(() => at('/pinged').length >= 3);
    expect(at('/pinged')[2]!.headers['webhook-id']).toBe(first.body.id);
  });

  it('MCP tools create, list, test, retry and delete webhooks with the REST answers and codes', async () => {
    const u = await quickUser(t);
    const client = await connectMcp(t, u.key, 'webhooks-test');
    try {
      const created = await callTool(client, 'create_webhook', { url: rx.url('/mcp'), events: ['registration.created'] });
      expect(created.isError).toBeFalsy();
      const hook = created.structuredContent as { id: string; secret: string };
      expect(hook.secret).toMatch(/^whsec_/);
      const listed = await callTool(client, 'list_webhooks', {});
      expect((listed.structuredContent as { items: Array<{ id: string }> }).items.map((w) => w.id)).toEqual([hook.id]);
      const sent = await callTool(client, 'test_webhook', { webhook_id: hook.id });
      const delivery = sent.structuredContent as { id: string; type: string };
      expect(delivery.type).toBe('webhook.test');
      await rx.until(() => at('/mcp').length >= 1);
      expect(verifySignature(hook.secret, at('/mcp')[0]!)).toBe(true);
      await settle();
      const deliveries = await callTool(client, 'list_webhook_deliveries', { webhook_id: hook.id });
      expect((deliveries.structuredContent as { items: Array<{ id: string; status: string }> }).items).toEqual([
        expect.objectContaining({ id: delivery.id, status: 'delivered' }),
      ]);
      expect((await callTool(client, 'retry_webhook_delivery', { webhook_id: hook.id, delivery_id: delivery.id })).isError).toBeFalsy();
      await rx.until(() => at('/mcp').length >= 2);
      const refused = await callTool(client, 'create_webhook', { url: 'https://10.1.2.3/x', events: ['registration.created'] });
      expect(refused.isError).toBe(true);
      expect(JSON.parse((refused.content[0] as { text: string }).text)).toMatchObject({ code: 'webhook_url_refused', status: 422 });
      const missing = await callTool(client, 'test_webhook', { webhook_id: 'whk_nope' });
      expect(JSON.parse((missing.content[0] as { text: string }).text)).toMatchObject({ code: 'webhook_not_found', status: 404 });

      // Another account's subscription is not found, and stays.
      const other = await quickUser(t);
      const otherHook = await subscribe(other.key, '/other', ['registration.created']);
      const foreign = await callTool(client, 'delete_webhook', { webhook_id: otherHook.body.id });
      expect(foreign.isError).toBe(true);
      expect(JSON.parse((foreign.content[0] as { text: string }).text)).toMatchObject({ code: 'webhook_not_found', status: 404 });
      expect((await t.api('GET', '/webhooks', { key: other.key })).body.map((w: { id: string }) => w.id)).toEqual([otherHook.body.id]);

      const deleted = await callTool(client, 'delete_webhook', { webhook_id: hook.id });
      expect(deleted.isError).toBeFalsy();
      expect(deleted.structuredContent).toEqual({ webhook_id: hook.id, deleted: true });
      expect((await callTool(client, 'list_webhooks', {})).structuredContent).toMatchObject({ items: [] });
      const again = await callTool(client, 'delete_webhook', { webhook_id: hook.id });
      expect(JSON.parse((again.content[0] as { text: string }).text)).toMatchObject({ code: 'webhook_not_found', status: 404 });
    } finally {
      await client.close();
    }
  });

  it('disables an endpoint after WEBHOOKS_DISABLE_AFTER consecutive failed attempts and e-mails its owner; retry enables it again', async () => {
    const u = await quickUser(t);
    const hook = await subscribe(u.key, '/down', ['registration.created']);
    down.add('/down');
    const start = t.clock.now().getTime();
    try {
      await t.api('POST', `/webhooks/${hook.body.id}/test`, { key: u.key });
      for (let n = 1; n <= 3; n++) {
        await rx.until(() => at('/down').length >= n);
        await settle();
        t.clock.advance(13 * 3_600_000); // past any single backoff step
      }
      await settle();
      expect(at('/down')).toHaveLength(3);
      const [listed] = (await t.api('GET', '/webhooks', { key: u.key })).body as Array<Record<string, unknown>>;
      expect(listed).toMatchObject({ enabled: false, consecutive_failures: 3, disabled_reason: expect.stringContaining('HTTP 500') });
      const { readdir, readFile } = await import('node:fs/promises');
      const files = await readdir(t.config.mail.outboxDir);
      const mails = await Promise.all(files.map((f) => readFile(`${t.config.mail.outboxDir}/${f}`, 'utf8')));
      expect(mails.some((m) => m.includes(u.email) && m.includes('Webhook disabled'))).toBe(true);

      down.delete('/down');
      const [d] = (await t.api('GET', `/webhooks/${hook.body.id}/deliveries`, { key: u.key })).body as Array<{ id: string }>;
      expect((await t.api('POST', `/webhooks/${hook.body.id}/deliveries/${d!.id}/retry`, { key: u.key })).status).toBe(202);
      await rx.until(() => at('/down').length >= 4);
      await settle();
      const [again] = (await t.api('GET', '/webhooks', { key: u.key })).body as Array<Record<string, unknown>>;
      expect(again).toMatchObject({ enabled: true, consecutive_failures: 0 });
    } finally {
      down.delete('/down');
      t.clock.set(start);
    }
  });
});

describe.each(DIALECTS)('webhooks: the private-address guard at delivery time (%s)', (dialect) => {
  it('a server that does not allow loopback refuses, at delivery, a target another (allowing) server registered, without connecting', async () => {
    const rx = await startReceiver();
    const database = await createTestDatabase(dialect);
    const a = await startTestApp(dialect, { database, env: { WEBHOOKS_ALLOW_LOOPBACK: 'true', WEBHOOKS_WORKERS: 'false' } });
    const b = await startTestApp(dialect, { database, env: { WEBHOOKS_POLL_MS: '20' } });
    try {
      const u = await quickUser(a);
      const hook = await a.api('POST', '/webhooks', { key: u.key, body: { url: rx.url('/private'), events: ['registration.created'] } });
      expect(hook.status).toBe(201);
      // The server without loopback refuses it at creation too.
      const direct = await b.api('POST', '/webhooks', { key: u.key, body: { url: rx.url('/private'), events: ['registration.created'] } });
      expect(direct.status).toBe(422);
      expect(direct.body.code).toBe('webhook_url_refused');
      expect((await a.api('POST', `/webhooks/${hook.body.id}/test`, { key: u.key })).status).toBe(202);
      await b.ctx.webhooks.pump();
      await b.ctx.webhooks.whenIdle();
      const [d] = (await b.api('GET', `/webhooks/${hook.body.id}/deliveries`, { key: u.key })).body as Array<Record<string, unknown>>;
      expect(d).toMatchObject({ status: 'queued', attempts: 1, last_status_code: null, last_error: expect.stringMatching(/^refused: /) });
      expect(rx.received).toEqual([]);
    } finally {
      await b.close();
      await a.close();
      await database.drop();
      await rx.close();
    }
  });
});
