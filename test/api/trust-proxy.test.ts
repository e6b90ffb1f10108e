import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';

/**
 * Which address the per-IP rate limit counts, under each TRUST_PROXY setting. Anonymous requests
 * count per client IP, so `RateLimit-Remaining` shows whose bucket a request went to.
 */
const LIMIT = 5;

/** An anonymous GET from a chosen local address (all of 127.0.0.0/8 is this machine). */
function get(t: TestApp, opts: { from?: string; forwardedFor?: string }): Promise<{ status: number; remaining: number; code?: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL('/api/v1/events', t.url);
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        localAddress: opts.from ?? '127.0.0.1',
        agent: false,
        headers: opts.forwardedFor ? { 'x-forwarded-for': opts.forwardedFor } : {},
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            remaining: Number(res.headers['ratelimit-remaining']),
            code: res.statusCode === 200 ? undefined : JSON.parse(text).code,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe.each(DIALECTS)('TRUST_PROXY (%s)', (dialect) => {
  const apps: TestApp[] = [];
  const start = async (trustProxy: string | undefined) => {
    const env: Record<string, string> = { RATE_LIMIT_PER_IP: String(LIMIT), REVIEW_WORKERS: 'false' };
    if (trustProxy !== undefined) env.TRUST_PROXY = trustProxy;
    const t = await startTestApp(dialect, { env });
    apps.push(t);
    return t;
  };
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  describe('off (the default)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await start(undefined);
    });

    it('ignores X-Forwarded-For: every value counts against the socket address', async () => {
      const seen = [];
      for (let i = 1; i <= LIMIT; i++) seen.push((await get(t, { forwardedFor: `203.0.113.${i}` })).remaining);
      expect(seen).toEqual([4, 3, 2, 1, 0]);
      const over = await get(t, { forwardedFor: '203.0.113.99' });
      expect(over.status).toBe(429);
      expect(over.code).toBe('rate_limited');
    });
  });

  describe('a hop count (TRUST_PROXY=1)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await start('1');
    });

    it('takes the right-most X-Forwarded-For entry: a client-supplied left-most value cannot pick the IP', async () => {
      // The proxy appends the address it saw (198.51.100.7); the client made up everything before it.
      const seen = [];
      for (let i = 1; i <= LIMIT; i++) seen.push((await get(t, { forwardedFor: `203.0.113.${i}, 198.51.100.7` })).remaining);
      expect(seen).toEqual([4, 3, 2, 1, 0]);
      const over = await get(t, { forwardedFor: '203.0.113.99, 198.51.100.7' });
      expect(over.status).toBe(429);
      expect(over.code).toBe('rate_limited');
    });

    it('gives each client the proxy reports its own bucket', async () => {
      const other = await get(t, { forwardedFor: '198.51.100.8' });
      expect(other.status).toBe(200);
      expect(other.remaining).toBe(LIMIT - 1);
    });
  });

  describe('a list of proxies (TRUST_PROXY=127.0.0.1,10.0.0.0/8)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await start('127.0.0.1,10.0.0.0/8');
    });

    it('believes X-Forwarded-For from a trusted proxy, up to the first untrusted entry', async () => {
      // 198.51.100.20 is the client the trusted proxy saw; the left-most entry is the client's own claim.
      const first = await get(t, { from: '127.0.0.1', forwardedFor: '203.0.113.1, 198.51.100.20' });
      const second = await get(t, { from: '127.0.0.1', forwardedFor: '203.0.113.2, 198.51.100.20' });
      expect([first.remaining, second.remaining]).toEqual([LIMIT - 1, LIMIT - 2]);
      // Through a chain of trusted proxies (10.1.2.3 is one), the client is the first untrusted hop.
      const chained = await get(t, { from: '127.0.0.1', forwardedFor: '203.0.113.3, 198.51.100.20, 10.1.2.3' });
      expect(chained.remaining).toBe(LIMIT - 3);
    });

    it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
      const seen = [];
      for (let i = 1; i <= LIMIT; i++) seen.push((await get(t, { from: '127.0.0.2', forwardedFor: `198.51.100.${30 + i}` })).remaining);
      expect(seen).toEqual([4, 3, 2, 1, 0]);
      const over = await get(t, { from: '127.0.0.2', forwardedFor: '198.51.100.99' });
      expect(over.status).toBe(429);
      expect(over.code).toBe('rate_limited');
    });
  });
});
