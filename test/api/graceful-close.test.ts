import { describe, expect, it } from 'vitest';
import { LONG_POLL_MAX_SECONDS } from '../../src/core/wait-policy.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, type TestApp } from '../helpers/harness.js';
import { openRaw, parseRawResponse } from '../helpers/raw-http.js';

/** The server has accepted `n` connections (its 'connection' listeners have run). */
async function accepted(t: TestApp, n: number): Promise<void> {
  for (;;) {
    const count = await new Promise<number>((resolve, reject) => t.app.server.getConnections((err, c) => (err ? reject(err) : resolve(c))));
    if (count >= n) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe.each(DIALECTS)('a graceful close (%s)', (dialect) => {
  it('does not wait on connections that have sent nothing or half a request, and still answers a long-poll in flight', async () => {
    // Time limits far beyond the test's: only the close itself can end these connections in time.
    const t = await startTestApp(dialect, {
      env: { REQUEST_TIMEOUT_MS: '600000', HEADERS_TIMEOUT_MS: '600000', KEEP_ALIVE_TIMEOUT_MS: '600000', MAX_CONNECTIONS_PER_IP: '0' },
    });
    const organizer = await t.user('organizer');
    const eventId = await createEvent(t, organizer.key);
    const team = await t.user();
    expect((await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() })).status).toBe(201);

    const waitsBefore = t.ctx.registrations.waitsStarted();
    const polling = await openRaw(t.url);
    polling.socket.write(
      `GET /api/v1/events/${eventId}/my-registration?wait=${LONG_POLL_MAX_SECONDS} HTTP/1.1\r\nHost: hackathon.test\r\nAuthorization: Bearer ${team.key}\r\n\r\n`,
    );
    // A pooled connection opened and never used (as fetch leaves one when a call is aborted), and
    // one that sent half its headers.
    const silent = await openRaw(t.url);
    const half = await openRaw(t.url);
    half.socket.write('GET /api/v1/events HTTP/1.1\r\nHost: hackathon.test\r\nX-Slow: ');
    while (t.ctx.registrations.waitsStarted() === waitsBefore) await new Promise((r) => setTimeout(r, 5));
    await accepted(t, 3);

    await t.close();

    expect(await silent.closed).toBe('');
    expect(await half.closed).toBe('');
    // The long-poll is answered (its registration, still pending) and its connection closed.
    const answer = parseRawResponse(await polling.closed);
    expect(answer).not.toBeNull();
    expect(answer!.status).toBe(200);
    expect(answer!.headers['connection']).toBe('close');
    expect(answer!.body.status).toBe('pending');
  });
});
