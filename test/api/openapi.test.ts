import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '../../src/core/errors.js';
import { OPENAPI_METHODS } from '../../src/docs/openapi.js';
import { DIALECTS } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { PAGE_ROUTES } from '../../src/web/web-routes.js';

/** Every route the server registers, seen through Fastify's own onRoute hook (not through the document). */
const registered: Array<{ method: string; url: string; auth: boolean }> = [];
vi.mock('fastify', async (importOriginal) => {
  const mod = await importOriginal<typeof import('fastify')>();
  const wrapped = ((opts: unknown) => {
    const app = (mod.default as unknown as (o: unknown) => any)(opts);
    app.addHook('onRoute', (route: RouteOptions) => {
      for (const method of ([] as string[]).concat(route.method)) {
        registered.push({ method, url: route.url, auth: Boolean(route.config?.auth) });
      }
    });
    return app;
  }) as unknown as typeof mod.default;
  return { ...mod, default: wrapped };
});

/** Routes deliberately left out of the document: the health check and the invitation page (an HTML page for browsers). */
// The health probe, the web app's pages (they answer index.html) and the invitation page are not API.
const HIDDEN = new Set(['GET /healthz', 'GET /invitations/:token', ...PAGE_ROUTES.map((url) => `GET ${url}`)]);
/** The built web app's files (hashed assets, icon, robots.txt), served beside the pages. */
const isWebAsset = (url: string) => url.startsWith('/assets/') || url === '/favicon.svg' || url === '/robots.txt';

// A parameter's pattern (`:project_id(^…)`) is the router's business, not the document's.
const toOpenApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)(?:\([^/]*\))?/g, '{$1}');
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv) => Ajv;

describe.each(DIALECTS)('OpenAPI document (%s)', (dialect) => {
  let t: TestApp;
  let doc: any;

  beforeAll(async () => {
    registered.length = 0;
    t = await startTestApp(dialect);
    const res = await t.api('GET', '/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
  });
  afterAll(async () => t?.close());

  it('is a valid OpenAPI 3.1 document with the configured site as its server', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'http://hackathon.test' }]);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('documents every route the server registers, with security matching config.auth', () => {
    // HEAD twins of GET routes are implied; methods outside OpenAPI's eight cannot be listed.
    const routes = registered.filter(
      (r) => r.method !== 'HEAD' && OPENAPI_METHODS.has(r.method.toLowerCase()) && !HIDDEN.has(`${r.method} ${r.url}`) && !isWebAsset(r.url),
    );
    expect(routes.length).toBeGreaterThan(20);
    for (const r of routes) {
      const op = doc.paths[toOpenApiPath(r.url)]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.url}`).toBeDefined();
      expect(op.security, `${r.method} ${r.url}`).toEqual(r.auth ? [{ apiKey: [] }] : [{}, { apiKey: [] }]);
    }
    const documented = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item as object).map((m) => `${m.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual([...new Set(routes.map((r) => `${r.method} ${toOpenApiPath(r.url)}`))].sort());
    for (const hidden of HIDDEN) {
      const [method, url] = hidden.split(' ');
      expect(registered.some((r) => r.method === method && r.url === url)).toBe(true);
    }
  });

  it('documents every error status as problem+json whose codes have that status', () => {
    let count = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const statuses = Object.keys(op.responses).map(Number);
        // Any request may be rate limited or fail on the server.
        expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining([429, 500]));
        for (const status of statuses.filter((s) => s >= 400)) {
          const schema = op.responses[status].content['application/problem+json'].schema;
          const codes = schema.properties.code.enum as ErrorCode[];
          expect(codes.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
          for (const code of codes) expect(ERROR_STATUS[code], `${method} ${path} ${code}`).toBe(status);
          count++;
        }
      }
    }
    expect(count).toBeGreaterThan(100);
    // The problem shape itself is shared, not repeated per response.
    expect(doc.components.schemas.Problem.required).toEqual(['type', 'title', 'status', 'detail', 'code', 'request_id']);
    const anyProblem = doc.paths['/api/v1/events/{id}'].get.responses[404].content['application/problem+json'].schema;
    expect(anyProblem).toEqual({ $ref: '#/components/schemas/Problem', properties: { code: { enum: ['event_not_found'] } } });
    // Every answer, success or problem, documents the request id header.
    const ref = { $ref: '#/components/headers/X-Request-Id' };
    expect(doc.components.headers['X-Request-Id'].schema).toEqual({ type: 'string' });
    expect(doc.paths['/api/v1/events/{id}'].get.responses[404].headers['X-Request-Id']).toEqual(ref);
    expect(doc.paths['/api/v1/events/{id}'].get.responses[200].headers['X-Request-Id']).toEqual(ref);
    expect(doc.paths['/api/v1/events/{id}'].get.responses[503].headers['X-Request-Id']).toEqual(ref);
    // A route's own codes sit beside the common ones.
    const register = doc.paths['/api/v1/events/{id}/register'].post.responses;
    expect(register[409].content['application/problem+json'].schema.properties.code.enum).toEqual(
      expect.arrayContaining(['already_registered', 'registration_closed', 'team_name_taken']),
    );
    expect(register[404].content['application/problem+json'].schema.properties.code.enum).toEqual(['event_not_found']);
    expect(register[401].content['application/problem+json'].schema.properties.code.enum).toEqual(['unauthorized']);
    expect(register[429].headers['Retry-After']).toBeDefined();
  });

  it('documents Idempotency-Key on the agent POSTs, rate-limit headers and Link on paginated lists', () => {
    const idempotent = [
      ['/api/v1/events', 'post'],
      ['/api/agent/events/create', 'post'],
      ['/api/v1/events/{id}/register', 'post'],
      ['/api/v1/events/{id}/submit', 'post'],
      ['/api/v1/events/{id}/registrations/{rid}/approve', 'post'],
      ['/api/v1/events/{id}/registrations/{rid}/reject', 'post'],
      ['/api/v1/events/{id}/results/publish', 'post'],
    ] as const;
    for (const [path, method] of idempotent) {
      const op = doc.paths[path][method];
      expect(
        op.parameters.find((p: any) => p.in === 'header' && p.name === 'Idempotency-Key'),
        path,
      ).toMatchObject({ required: false });
      expect(op.responses[409].content['application/problem+json'].schema.properties.code.enum).toEqual(
        expect.arrayContaining(['idempotency_key_reused', 'idempotency_key_in_use']),
      );
    }
    expect(doc.paths['/api/v1/events/{id}'].patch.parameters.some((p: any) => p.name === 'Idempotency-Key')).toBe(false);
    const list = doc.paths['/api/v1/events'].get.responses[200];
    expect(Object.keys(list.headers)).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Link']));
    expect(doc.paths['/api/v1/events/{id}/registrations'].get.responses[200].headers.Link).toBeDefined();
    expect(doc.paths['/api/v1/events/{id}'].get.responses[200].headers.Link).toBeUndefined();
  });

  it('declares every tag an operation uses', () => {
    const declared = doc.tags.map((t: { name: string }) => t.name);
    for (const item of Object.values<any>(doc.paths)) {
      for (const op of Object.values<any>(item)) expect(declared).toEqual(expect.arrayContaining(op.tags));
    }
  });

  it('writes nullable fields as 3.1 unions with null', () => {
    const summary = doc.paths['/api/v1/events'].get.responses[200].content['application/json'].schema.items;
    expect(summary.properties.result_announced_at).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(JSON.stringify(doc)).not.toContain('"nullable"');
  });

  it('gives request examples for create, register and submit that satisfy their own schemas', () => {
    const ajv = addFormats(new Ajv({ strict: false }));
    for (const path of ['/api/v1/events', '/api/agent/events/create', '/api/v1/events/{id}/register', '/api/v1/events/{id}/submit']) {
      const media = doc.paths[path].post.requestBody.content['application/json'];
      const example = media.example ?? media.schema.examples?.[0];
      expect(example, path).toBeDefined();
      const validate = ajv.compile(media.schema);
      expect(validate(example), `${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('is served once-built with an ETag, cacheable, and answers 304 to If-None-Match', async () => {
    const first = await t.api('GET', '/openapi.json');
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await t.api('GET', '/openapi.json');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.text).toBe(first.text);
    const cached = await t.api('GET', '/openapi.json', { headers: { 'if-none-match': etag } });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe('');
  });

  it('is public and costs no rate limit, yet still checks a key that is sent', async () => {
    const limited = await startTestApp(dialect, { env: { RATE_LIMIT_PER_IP: '2' } });
    try {
      for (let i = 0; i < 4; i++) {
        const res = await limited.api('GET', '/openapi.json');
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit-limit')).toBeNull();
      }
      const bad = await limited.api('GET', '/openapi.json', { key: 'hk_not_a_real_key' });
      expect(bad.status).toBe(401);
      expect(bad.body.code).toBe('unauthorized');
    } finally {
      await limited.close();
    }
  });
});
