import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Every route the server has, from Fastify's own route tree (`printRoutes`, one line per node, each
 * node's text continuing its parent's path), with its methods: pages, files and agent documents
 * included, not only those in the OpenAPI document.
 */
function routesOf(tree: string): Array<{ url: string; methods: string[] }> {
  const routes: Array<{ url: string; methods: string[] }> = [];
  const parents: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    const url = (parents[depth - 1] ?? '') + m[2]!;
    parents[depth] = url;
    parents.length = depth + 1;
    if (m[3]) routes.push({ url, methods: m[3].split(', ') });
  }
  return routes;
}

/**
 * A known path asked with a method it does not take answers 405 method_not_allowed with an `Allow`
 * header naming the methods it does take, for every route in the OpenAPI document; an unknown
 * path stays 404.
 */
describe.each(DIALECTS)('405 for a wrong method on a known path (%s)', (dialect) => {
  let t: TestApp;
  let paths: Record<string, Record<string, unknown>>;

  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { REVIEW_WORKERS: 'false' } });
    paths = (await t.api('GET', '/openapi.json')).body.paths;
  });
  afterAll(() => t?.close());

  it('every documented path answers 405 with Allow to each method it does not document', async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const [template, ops] of Object.entries(paths)) {
      const documented = METHODS.filter((m) => m.toLowerCase() in ops);
      // The document's paths carry their full prefix (/api/v1/…, /api/agent/…).
      const path = template.replace(/\{[^}]+\}/g, 'x_1');
      for (const method of METHODS.filter((m) => !documented.includes(m))) {
        const res = await t.request(method, path, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
        checked++;
        const allow = (res.headers.get('allow') ?? '').split(', ').filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
        if (res.status !== 405 || res.body?.code !== 'method_not_allowed' || allow.join(',') !== [...documented].sort().join(',')) {
          wrong.push(`${method} ${path}: ${res.status} ${res.body?.code} Allow: ${res.headers.get('allow')}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
  });

  it('every route of the router answers 405 with Allow to each method it does not take', async () => {
    const routes = routesOf(t.app.printRoutes({ commonPrefix: false }));
    expect(routes.map((r) => r.url)).toEqual(
      expect.arrayContaining(['/api/v1/events/:id/submit', '/api/v1/skill.md', '/problems/:code', '/scripts/submit.sh', '/signin']),
    );
    const wrong: string[] = [];
    let checked = 0;
    // Catch-alls (the web app's pages under /, /events/*, …) take GET for any path below them; a wrong
    // method on a path no route names is 404 (the test below), so they are not asked here.
    for (const { url, methods } of routes.filter((r) => !r.url.endsWith('*'))) {
      const path = url.replace(/:[A-Za-z_]+/g, 'x_1');
      for (const method of METHODS.filter((m) => !methods.includes(m))) {
        const res = await t.request(method, path, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
        checked++;
        const allow = (res.headers.get('allow') ?? '').split(', ');
        const takes = methods.filter((m) => m !== 'HEAD');
        if (res.status !== 405 || res.body?.code !== 'method_not_allowed' || allow.includes(method) || !takes.every((m) => allow.includes(m))) {
          wrong.push(`${method} ${path}: ${res.status} ${res.body?.code} Allow: ${res.headers.get('allow')}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(200);
    expect(wrong).toEqual([]);
  });

  it('PATCH /events/:id/submit: 405, Allow: POST, problem+json saying which methods', async () => {
    const res = await t.api('PATCH', '/events/evt_x/submit', { body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'method_not_allowed', status: 405 });
    expect(res.body.detail).toBe('/api/v1/events/evt_x/submit takes POST, not PATCH.');
  });

  it('a GET route also takes HEAD; an unknown path is still 404 not_found', async () => {
    const res = await t.api('DELETE', '/events');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
    const unknown = await t.api('PATCH', '/no-such-thing');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
  });
});
