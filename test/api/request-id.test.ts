import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/app.js';
import type { Config } from '../../src/core/config.js';
import { DIALECTS } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { openRaw } from '../helpers/raw-http.js';

/**
 * Request ids: every answer carries `X-Request-Id`, every problem document `request_id` (the same
 * id), and every log line of the request `reqId`. Ids are `req_` + time + randomness, so they differ
 * between processes (Fastify's own are `req-1`, `req-2`… in every process). An incoming
 * `X-Request-Id` is kept only from a trusted proxy (TRUST_PROXY) and only when well formed.
 */
const GENERATED = /^req_[0-9a-z]{22}$/;

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  err?: { message?: string; stack?: string };
  res?: { statusCode?: number };
}

/** A GET from a chosen local address (all of 127.0.0.0/8 is this machine), with optional headers. */
function getFrom(t: TestApp, path: string, opts: { from?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; requestId: string | undefined; body: any }>((resolve, reject) => {
    const url = new URL(path, t.url);
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, localAddress: opts.from ?? '127.0.0.1', agent: false, headers: opts.headers ?? {} },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, requestId: res.headers['x-request-id'] as string | undefined, body: text ? JSON.parse(text) : undefined }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe.each(DIALECTS)('request ids (%s)', (dialect) => {
  let t: TestApp;
  let other: TestApp;
  const logged: LogLine[] = [];

  beforeAll(async () => {
    const options = loggerOptions({ logLevel: 'info', logFormat: 'json' } as Config, { isTTY: false }) as object;
    t = await startTestApp(dialect, {
      env: { WEBHOOKS_WORKERS: 'false', REVIEW_WORKERS: 'false', TRUST_PROXY: '127.0.0.2' },
      logger: { ...options, stream: { write: (line: string) => void logged.push(JSON.parse(line) as LogLine) } },
    });
    other = await startTestApp(dialect, { env: { WEBHOOKS_WORKERS: 'false', REVIEW_WORKERS: 'false' } });
  });
  afterAll(async () => {
    await t?.close();
    await other?.close();
  });

  it('puts the id on a 200, a 404, a 422, a page and a router error, and in the problem body', async () => {
    const ok = await t.api('GET', '/events');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toMatch(GENERATED);

    const missing = await t.api('GET', '/no-such-route');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    expect(missing.headers.get('x-request-id')).toMatch(GENERATED);
    expect(missing.body.request_id).toBe(missing.headers.get('x-request-id'));

    const u = await t.user('organizer');
    const invalid = await t.api('POST', '/events', { key: u.key, body: { name: '' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.code).toBe('validation_failed');
    expect(invalid.headers.get('x-request-id')).toMatch(GENERATED);
    expect(invalid.body.request_id).toBe(invalid.headers.get('x-request-id'));

    const page = await t.request('GET', '/', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('x-request-id')).toMatch(GENERATED);

    // Fastify's router refuses it before any route or hook runs (frameworkErrors).
    const badUrl = await t.request('GET', '/api/v1/events/%E0%A4%A');
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.code).toBe('bad_request');
    expect(badUrl.headers.get('x-request-id')).toMatch(GENERATED);
    expect(badUrl.body.request_id).toBe(badUrl.headers.get('x-request-id'));

    const ids = [ok, missing, invalid, page, badUrl].map((r) => r.headers.get('x-request-id'));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("answers what Node's parser refuses with an id too", async () => {
    const conn = await openRaw(t.url);
    conn.socket.write('GET /api/v1/events HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n');
    const raw = await conn.closed;
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    const id = /\r\nX-Request-Id: (\S+)\r\n/.exec(raw)?.[1];
    expect(id).toMatch(GENERATED);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'bad_request', request_id: id });
  });

  it('differs between two servers (not the req-1, req-2… of every process)', async () => {
    const a = await t.api('GET', '/no-such-route');
    const b = await other.api('GET', '/no-such-route');
    expect(a.body.request_id).toMatch(GENERATED);
    expect(b.body.request_id).toMatch(GENERATED);
    expect(a.body.request_id).not.toBe(b.body.request_id);
  });

  it("keeps a trusted proxy's well-formed X-Request-Id, and replaces it otherwise", async () => {
    const given = 'Root=1-67891233-abcdef012345678912345678';
    const viaProxy = await getFrom(t, '/api/v1/no-such-route', { from: '127.0.0.2', headers: { 'x-request-id': given } });
    expect(viaProxy.status).toBe(404);
    expect(viaProxy.requestId).toBe(given);
    expect(viaProxy.body.request_id).toBe(given);

    // The same header from an address that is not a trusted proxy: a new id.
    const direct = await getFrom(t, '/api/v1/no-such-route', { from: '127.0.0.1', headers: { 'x-request-id': given } });
    expect(direct.requestId).toMatch(GENERATED);
    expect(direct.body.request_id).toBe(direct.requestId);

    // No proxy trusted at all (the default): a new id.
    const untrusting = await getFrom(other, '/api/v1/no-such-route', { from: '127.0.0.1', headers: { 'x-request-id': given } });
    expect(untrusting.requestId).toMatch(GENERATED);

    // Malformed, even from the trusted proxy: too long, a space, a quote, a leading dash.
    for (const bad of ['a'.repeat(129), 'two words', 'quo"te', '-leading', 'semi;colon']) {
      const res = await getFrom(t, '/api/v1/no-such-route', { from: '127.0.0.2', headers: { 'x-request-id': bad } });
      expect(res.requestId, bad).toMatch(GENERATED);
      expect(res.body.request_id, bad).toBe(res.requestId);
    }
    // The longest well-formed one is kept.
    const longest = `a${'b'.repeat(127)}`;
    expect((await getFrom(t, '/api/v1/no-such-route', { from: '127.0.0.2', headers: { 'x-request-id': longest } })).requestId).toBe(longest);
  });

  it("finds a 500's log lines by its request_id: the error with its cause, and the request's own lines", async () => {
    const u = await t.user();
    expect((await t.api('GET', '/webhooks', { key: u.key })).status).toBe(200);
    // A table gone from under the running server, as a botched manual migration would leave it.
    await t.ctx.db.schema.alterTable('webhooks').renameTo('webhooks_moved').execute();
    let failed;
    try {
      failed = await t.api('GET', '/webhooks', { key: u.key });
    } finally {
      await t.ctx.db.schema.alterTable('webhooks_moved').renameTo('webhooks').execute();
    }
    expect(failed.status).toBe(500);
    expect(failed.body.code).toBe('internal_error');
    const id = failed.body.request_id as string;
    expect(id).toMatch(GENERATED);
    expect(failed.headers.get('x-request-id')).toBe(id);

    const lines = logged.filter((l) => l.reqId === id);
    const error = lines.filter((l) => l.level >= 50);
    expect(error).toHaveLength(1);
    expect(error[0]!.msg).toBe('request failed');
    expect(error[0]!.err?.message).toMatch(/webhooks/);
    expect(error[0]!.err?.stack).toBeTruthy();
    expect(lines.map((l) => l.msg)).toEqual(['incoming request', 'request failed', 'request completed']);
    expect(lines.at(-1)!.res?.statusCode).toBe(500);
  });

  it("an MCP tool's refusal carries the MCP request's id, and so do the REST call's log lines", async () => {
    const u = await t.user();
    const seen = logged.length;
    const res = await t.api('POST', '/mcp', {
      key: u.key,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_event', arguments: { event_id: 'evt_nope' } } },
    });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(GENERATED);
    expect(res.body.result.isError).toBe(true);
    expect(JSON.parse(res.body.result.content[0].text)).toMatchObject({ code: 'event_not_found', request_id: id });
    // The REST call (in-process) logs under the same id as the MCP request: its 404, then the MCP request's 200.
    const lines = logged.slice(seen).filter((l) => l.reqId === id);
    expect(lines.filter((l) => l.msg === 'request completed').map((l) => l.res?.statusCode)).toEqual([404, 200]);
    expect(lines.filter((l) => l.msg === 'incoming request')).toHaveLength(2);

    // Refused before any REST call (the tool's arguments are checked first): the MCP request's id too.
    const invalid = await t.api('POST', '/mcp', {
      key: u.key,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_event', arguments: {} } },
    });
    expect(JSON.parse(invalid.body.result.content[0].text)).toMatchObject({ code: 'validation_failed', request_id: invalid.headers.get('x-request-id') });
  });
});
