import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { openRaw, parseRawResponse, rawExchange, type RawConnection } from '../helpers/raw-http.js';

/** A request whose headers promise 90 000 bytes of body, of which only a few arrive. */
function slowBodyRequest(key: string): string {
  return [
    'POST /api/v1/events HTTP/1.1',
    'Host: hackathon.test',
    `Authorization: Bearer ${key}`,
    'Content-Type: application/json',
    'Content-Length: 90000',
    '',
    '{"name":',
  ].join('\r\n');
}

function expectRequestTimeout(text: string): void {
  const res = parseRawResponse(text);
  expect(res).not.toBeNull();
  expect(res!.status).toBe(408);
  expect(res!.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res!.headers['connection']).toBe('close');
  expect(res!.body.code).toBe('request_timeout');
}

describe.each(DIALECTS)('clients that hold sockets open (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;

  beforeAll(async () => {
    t = await startTestApp(dialect, {
      env: {
        REQUEST_TIMEOUT_MS: '1500',
        HEADERS_TIMEOUT_MS: '1000',
        TIMEOUT_CHECK_INTERVAL_MS: '50',
        // Hundreds of connections from one address here: the cap has its own test below.
        MAX_CONNECTIONS_PER_IP: '0',
        REVIEW_WORKERS: 'false',
      },
    });
    org = await t.user('organizer');
  });
  afterAll(() => t?.close());

  it('closes hundreds of slow bodies, slow headers and silent connections with 408 while serving others', async () => {
    const slow: RawConnection[] = [];
    for (let i = 0; i < 150; i++) {
      const c = await openRaw(t.url);
      c.socket.write(slowBodyRequest(org.key));
      slow.push(c);
    }
    for (let i = 0; i < 50; i++) {
      const c = await openRaw(t.url);
      c.socket.write('GET /api/v1/events HTTP/1.1\r\nHost: hackathon.test\r\nX-Slow: ');
      slow.push(c);
    }
    const silent: RawConnection[] = [];
    for (let i = 0; i < 50; i++) silent.push(await openRaw(t.url));

    // Another client meanwhile is served normally.
    const other = await t.api('GET', '/events');
    expect(other.status).toBe(200);

    const answers = await Promise.all([...slow, ...silent].map((c) => c.closed));
    expect(answers).toHaveLength(250);
    for (const text of answers) expectRequestTimeout(text);

    // …and still is once they are gone.
    expect((await t.api('GET', '/events')).status).toBe(200);
  });

  it('closes the connection at once when a request is refused before its body has arrived', async () => {
    const conn = await openRaw(t.url);
    conn.socket.write(slowBodyRequest('not-a-valid-key'));
    // Closed by the server right after its one answer, long before the request time limit.
    const text = await conn.closed;
    const res = parseRawResponse(text);
    expect(res).not.toBeNull();
    expect(res!.status).toBe(401);
    expect(res!.headers['connection']).toBe('close');
    expect(res!.body.code).toBe('unauthorized');
    expect(text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });

  it('limits receiving a request, not answering it: a long-poll outlives the request time limit', async () => {
    const eventId = await createEvent(t, org.key);
    const team = await t.user();
    const reg = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() });
    expect(reg.body.status).toBe('pending');
    const waiting = t.api('GET', `/events/${eventId}/my-registration?wait=30`, { key: team.key });

    // A slow client opened after the long-poll began is closed by the request time limit…
    const slowConn = await openRaw(t.url);
    slowConn.socket.write(slowBodyRequest(org.key));
    expectRequestTimeout(await slowConn.closed);

    // …while the long-poll, whose request arrived whole, is still waiting and gets its answer.
    const approve = await t.api('POST', `/events/${eventId}/registrations/${reg.body.id}/approve`, { key: org.key });
    expect(approve.status).toBe(200);
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('approved');
  });
});

describe.each(DIALECTS)('open connections per client address (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { MAX_CONNECTIONS_PER_IP: '5', REVIEW_WORKERS: 'false' } });
  });
  afterAll(() => t?.close());

  const GET_HEALTH = 'GET /healthz HTTP/1.1\r\nHost: hackathon.test\r\n\r\n';

  it('answers 429 rate_limited past the cap, serves other addresses, and lets the address in again once one closes', async () => {
    // Five keep-alive connections, each proven accepted by an answer.
    const held: RawConnection[] = [];
    for (let i = 0; i < 5; i++) {
      const c = await openRaw(t.url);
      expect((await rawExchange(c, GET_HEALTH)).status).toBe(200);
      held.push(c);
    }

    const sixth = await openRaw(t.url);
    const refused = parseRawResponse(await sixth.closed);
    expect(refused).not.toBeNull();
    expect(refused!.status).toBe(429);
    expect(refused!.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused!.headers['retry-after']).toBe('1');
    expect(refused!.body.code).toBe('rate_limited');

    // Another address (all of 127.0.0.0/8 is this machine) is not affected.
    const elsewhere = await openRaw(t.url, { localAddress: '127.0.0.2' });
    expect((await rawExchange(elsewhere, GET_HEALTH)).status).toBe(200);
    elsewhere.socket.destroy();

    // One of the five goes away; once the server has seen it close, the address gets a slot back.
    held[0]!.socket.end();
    await held[0]!.closed;
    let again: RawConnection;
    for (;;) {
      again = await openRaw(t.url);
      const answer = await rawExchange(again, GET_HEALTH);
      if (answer.status === 200) break;
      // The server may not have processed the close yet: only the cap's 429 may answer meanwhile.
      expect(answer.status).toBe(429);
      await again.closed;
    }
    again.socket.destroy();
    for (const c of held) c.socket.destroy();
  });
});

describe.each(DIALECTS)('slow headers meet HEADERS_TIMEOUT_MS, not the whole-request limit (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;

  beforeAll(async () => {
    t = await startTestApp(dialect, {
      env: {
        // Ten minutes for a whole request, a fraction of a second for its headers: a 408 for slow
        // headers can only come from the headers limit before this test's own timeout.
        REQUEST_TIMEOUT_MS: '600000',
        HEADERS_TIMEOUT_MS: '300',
        TIMEOUT_CHECK_INTERVAL_MS: '50',
        REVIEW_WORKERS: 'false',
      },
    });
    org = await t.user('organizer');
  });
  afterAll(() => t?.close());

  it('answers 408 to headers that never end, while a slow body whose headers arrived earlier is still being received', async () => {
    // Headers complete, body trickling: only the whole-request limit (ten minutes) applies to it.
    const slowBody = await openRaw(t.url);
    slowBody.socket.write(slowBodyRequest(org.key));
    // The first request on it has reached the server (a second connection's answer comes after).
    expect((await t.api('GET', '/events')).status).toBe(200);

    const slowHeaders = await openRaw(t.url);
    slowHeaders.socket.write('GET /api/v1/events HTTP/1.1\r\nHost: hackathon.test\r\nX-Slow: ');
    const text = await slowHeaders.closed;
    expectRequestTimeout(text);
    expect(parseRawResponse(text)!.body.detail).toContain('headers within 300 ms');

    // Opened before the slow headers and past their limit too, the slow body is still open: the
    // headers limit ends the wait for headers only.
    expect(slowBody.socket.destroyed).toBe(false);
    expect(slowBody.received()).toBe('');
    slowBody.socket.write('"still coming"');
    expect((await t.api('GET', '/events')).status).toBe(200);
    expect(slowBody.received()).toBe('');
    slowBody.socket.destroy();
    await slowBody.closed;
  });
});

describe.each(DIALECTS)('trusted proxies and the per-address connection cap (%s)', (dialect) => {
  let t: TestApp;
  const GET_HEALTH = 'GET /healthz HTTP/1.1\r\nHost: hackathon.test\r\n\r\n';

  beforeAll(async () => {
    // 127.0.0.1 is a trusted proxy; 127.0.0.2 (also this machine) is an ordinary client.
    t = await startTestApp(dialect, { env: { MAX_CONNECTIONS_PER_IP: '2', TRUST_PROXY: '127.0.0.1', REVIEW_WORKERS: 'false' } });
  });
  afterAll(() => t?.close());

  it('does not cap connections from a trusted proxy (it carries many clients), and still caps everyone else', async () => {
    const held: RawConnection[] = [];
    // Three times the cap from the proxy, each open at once and proven served by an answer.
    for (let i = 0; i < 6; i++) {
      const c = await openRaw(t.url, { localAddress: '127.0.0.1' });
      expect((await rawExchange(c, GET_HEALTH)).status).toBe(200);
      held.push(c);
    }
    for (const c of held) expect(c.socket.destroyed).toBe(false);

    // An untrusted address gets its two, and a 429 for the third.
    for (let i = 0; i < 2; i++) {
      const c = await openRaw(t.url, { localAddress: '127.0.0.2' });
      expect((await rawExchange(c, GET_HEALTH)).status).toBe(200);
      held.push(c);
    }
    const third = await openRaw(t.url, { localAddress: '127.0.0.2' });
    const refused = parseRawResponse(await third.closed);
    expect(refused).not.toBeNull();
    expect(refused!.status).toBe(429);
    expect(refused!.body.code).toBe('rate_limited');

    // …while the proxy may open yet another.
    const more = await openRaw(t.url, { localAddress: '127.0.0.1' });
    expect((await rawExchange(more, GET_HEALTH)).status).toBe(200);
    held.push(more);
    for (const c of held) c.socket.destroy();
  });
});
