import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { openRaw, rawExchange, type RawResponse } from '../helpers/raw-http.js';

/**
 * What the router and Node's HTTP parser reject before any route runs answers problem+json with a
 * stable code like every other error, and every answer carries X-Content-Type-Options: nosniff.
 */
describe.each(DIALECTS)('router and parser errors (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { REVIEW_WORKERS: 'false' } });
  });
  afterAll(() => t?.close());

  async function raw(text: string): Promise<RawResponse> {
    const conn = await openRaw(t.url);
    try {
      return await rawExchange(conn, text);
    } finally {
      conn.socket.destroy();
    }
  }

  function expectProblem(res: { status: number; body: any }, headers: (name: string) => string | null | undefined, status: number, code: string): void {
    expect(res.status).toBe(status);
    expect(headers('content-type')).toMatch(/^application\/problem\+json/);
    expect(headers('x-content-type-options')).toBe('nosniff');
    expect(res.body).toMatchObject({ status, code, type: `http://hackathon.test/problems/${code}` });
  }

  it.each([
    ['GET', '/api/v1/events/%%%'],
    ['POST', '/api/v1/events/%zz/register'],
  ])('%s %s: bad percent-encoding is 400 bad_request', async (method, path) => {
    const res = await t.request(method, path);
    expectProblem(res, (h) => res.headers.get(h), 400, 'bad_request');
  });

  it('an over-long path parameter is 414 uri_too_long', async () => {
    const res = await t.api('GET', `/events/${'a'.repeat(300)}`);
    expectProblem(res, (h) => res.headers.get(h), 414, 'uri_too_long');
  });

  it('a URL past the header size limit is 414 uri_too_long', async () => {
    const res = await raw(`GET /api/v1/events/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: hackathon.test\r\n\r\n`);
    expectProblem(res, (h) => res.headers[h], 414, 'uri_too_long');
  });

  it('headers past the size limit are 431 headers_too_large', async () => {
    const res = await raw(`GET /api/v1/events HTTP/1.1\r\nHost: hackathon.test\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectProblem(res, (h) => res.headers[h], 431, 'headers_too_large');
  });

  it('a method the parser does not know is 405 method_not_allowed', async () => {
    const res = await raw('FOO /api/v1/events HTTP/1.1\r\nHost: hackathon.test\r\n\r\n');
    expectProblem(res, (h) => res.headers[h], 405, 'method_not_allowed');
  });

  it.each([
    ['a header name with a space', 'GET /api/v1/events HTTP/1.1\r\nHost: hackathon.test\r\nBad Header: x\r\n\r\n'],
    [
      'Content-Length with Transfer-Encoding',
      'POST /api/v1/events HTTP/1.1\r\nHost: hackathon.test\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n',
    ],
    ['a non-numeric Content-Length', 'POST /api/v1/events HTTP/1.1\r\nHost: hackathon.test\r\nContent-Length: abc\r\n\r\n'],
    ['an HTTP/1.1 request without Host', 'GET /api/v1/events HTTP/1.1\r\n\r\n'],
  ])('%s is 400 bad_request', async (_name, text) => {
    const res = await raw(text);
    expectProblem(res, (h) => res.headers[h], 400, 'bad_request');
  });

  it('a method the parser knows but no route of a known path takes is 405 method_not_allowed with Allow, as problem+json', async () => {
    const res = await t.request('PROPFIND', '/api/v1/events');
    expectProblem(res, (h) => res.headers.get(h), 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('a path no route has is still 404 not_found', async () => {
    const res = await t.request('DELETE', '/api/v1/nothing-here');
    expectProblem(res, (h) => res.headers.get(h), 404, 'not_found');
  });
});

describe.each(DIALECTS)('X-Content-Type-Options (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { REVIEW_WORKERS: 'false' } });
  });
  afterAll(() => t?.close());

  it('is nosniff on a JSON success', async () => {
    const res = await t.api('GET', '/events');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('is nosniff on a problem+json error', async () => {
    const res = await t.api('GET', '/events/evt_doesnotexist');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('is nosniff on an authentication error raised before the route', async () => {
    const res = await t.api('POST', '/events', { key: 'not-a-key', body: {} });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
