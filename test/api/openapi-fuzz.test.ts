import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';
import { conformanceChecker } from '../helpers/openapi-conformance.js';
import { quickApprovedTeam, quickUser } from '../helpers/quick-users.js';

/**
 * Schema-driven fuzzing: from the served OpenAPI document, thousands of generated requests (valid
 * ones, and invalid ones made by breaking a valid one) go to a live server. Every answer must be
 * documented for its operation and status and match the documented schema; nothing may be a 5xx.
 * The seed is fixed, so a failure reproduces; FUZZ_SEED and FUZZ_RUNS (requests per operation)
 * override it to explore.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20301);
const REQUESTS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 90);

type Json = Record<string, any>;
type Rng = () => number;

/** mulberry32: a small seeded PRNG, so the run is reproducible. */
function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

const ALPHABET = ['a', 'Z', '0', '_', '-', ' ', 'é', '名', '"', "'", '<', '/', '.', '%', '😀', '\\'];

function randomString(r: Rng, min: number, max: number): string {
  const len = int(r, min, Math.min(max, min + 24));
  let s = '';
  for (let i = 0; i < len; i++) s += pick(r, ALPHABET);
  // Astral characters count two; trim back into the bound.
  return [...s].slice(0, max).join('').slice(0, max);
}

/** A plausible value by the property's name, so valid requests get past the domain checks. */
function byName(name: string, r: Rng, schema: Json): unknown {
  if (/deadline|_at$/.test(name)) return new Date(T0.getTime() + int(r, -2, 10) * 86_400_000).toISOString();
  if (/url|website/.test(name)) return pick(r, ['https://github.com/example/repo', 'https://example.org/demo', 'http://localhost/x']);
  if (/email/.test(name)) return `fuzz${int(r, 0, 1e6)}@example.com`;
  if (name === 'track_id') return pick(r, ['tools', 'fun', 'nope']);
  if (name === 'models' && schema.type === 'array') return ['openai/gpt-4o-mini'];
  return undefined;
}

/** A value that satisfies `schema` (as far as this generator understands JSON Schema). */
function valid(schema: Json | undefined, r: Rng, name = '', depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return pick(r, schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) return valid(pick(r, branches), r, name, depth + 1);
  const named = byName(name, r, schema);
  if (named !== undefined && typeof named === (schema.type === 'array' ? 'object' : schema.type)) return named;
  const type = Array.isArray(schema.type) ? pick(r, schema.type) : schema.type;
  switch (type) {
    case 'string': {
      const min = schema.minLength ?? 0;
      const max = schema.maxLength ?? 60;
      if (schema.pattern) {
        const [s] = fc.sample(
          fc.stringMatching(new RegExp(schema.pattern), { size: 'xsmall' }).filter((x) => x.length >= min && x.length <= max),
          {
            seed: int(r, 0, 2 ** 31),
            numRuns: 1,
          },
        );
        return s;
      }
      return randomString(r, min, max);
    }
    case 'integer':
    case 'number': {
      const lo = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1000);
      const hi = schema.maximum ?? lo + 1000;
      return int(r, Math.ceil(lo), Math.floor(Math.min(hi, lo + 200)));
    }
    case 'boolean':
      return r() < 0.5;
    case 'null':
      return null;
    case 'array': {
      const n = int(r, schema.minItems ?? 0, Math.min(schema.maxItems ?? 4, (schema.minItems ?? 0) + 3));
      return Array.from({ length: n }, () => valid(schema.items, r, name, depth + 1));
    }
    case 'object': {
      const out: Json = {};
      const required = new Set<string>(schema.required ?? []);
      for (const [key, prop] of Object.entries<Json>(schema.properties ?? {})) {
        if (required.has(key) || r() < 0.6) out[key] = valid(prop, r, key, depth + 1);
      }
      if (typeof schema.additionalProperties === 'object') {
        for (let i = int(r, 0, 3); i > 0; i--) {
          // Keys that name Object.prototype members trip code that reads answers with `obj[key]`.
          const key = r() < 0.3 ? pick(r, ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'repo']) : randomString(r, 1, 10);
          Object.defineProperty(out, key, {
            value: valid(schema.additionalProperties, r, '', depth + 1),
            enumerable: true,
            configurable: true,
            writable: true,
          });
        }
      }
      if (schema.minProperties && Object.keys(out).length < schema.minProperties) {
        const [key, prop] = pick(r, Object.entries<Json>(schema.properties ?? {}));
        out[key] = valid(prop, r, key, depth + 1);
      }
      return out;
    }
    default:
      return null;
  }
}

const WRONG_VALUES = [null, true, -1, 0, 1e308, -0.5, '', 'x'.repeat(300), '\u0000', [], {}, [[[[]]]], { a: { b: { c: 1 } } }, '2030-13-45T99:99:99Z'];

/** `value` broken in one place: a wrong type, a missing required field, an unknown field, a bound overstepped. */
function broken(schema: Json | undefined, value: unknown, r: Rng): unknown {
  if (!schema || typeof value !== 'object' || value === null || Array.isArray(value) || r() < 0.2) return pick(r, WRONG_VALUES);
  const out: Json = { ...(value as Json) };
  const props = Object.entries<Json>(schema.properties ?? {});
  const choice = r();
  if (choice < 0.25 && schema.required?.length) delete out[pick(r, schema.required as string[])];
  else if (choice < 0.4) out[`unknown_${int(r, 0, 99)}`] = 1;
  else if (props.length) {
    const [key, prop] = pick(r, props);
    if (prop.maxLength !== undefined && r() < 0.4) out[key] = 'y'.repeat(prop.maxLength + 1);
    else if (prop.maximum !== undefined && r() < 0.4) out[key] = prop.maximum + 1;
    else if (prop.type === 'object' && typeof out[key] === 'object' && r() < 0.5) out[key] = broken(prop, out[key], r);
    else out[key] = pick(r, WRONG_VALUES);
  } else out.x = pick(r, WRONG_VALUES);
  return out;
}

/** `?a=1&b=x`; with `repeat`, one parameter is sent twice (`?limit=1&limit=2` arrives as an array). */
function queryString(values: Json, repeat: string | null): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) continue;
    params.append(k, typeof v === 'string' ? v : JSON.stringify(v));
    if (k === repeat) params.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

describe('OpenAPI schema-driven fuzz (sqlite)', () => {
  let t: TestApp;
  let doc: Json;
  let org: TestUser;
  let team: TestUser;
  const ids: Record<string, string[]> = {};

  beforeAll(async () => {
    // No long-polls: a pending registration's ?wait= answers at once.
    t = await startTestApp('sqlite', { env: { MAX_WAIT_SECONDS: '0' } });
    org = await quickUser(t, 'organizer');
    // A finished event (judged and published) so the result and leaderboard routes have data…
    const ended = await createEvent(t, org.key, { name: 'Finished' });
    const endedTeam = await quickApprovedTeam(t, ended, org.key);
    const endedProject = await t.api('POST', `/events/${ended}/submit`, {
      key: endedTeam.team.key,
      body: { project_name: 'Old', github_url: 'https://github.com/example/old' },
    });
    expect(endedProject.status).toBe(201);
    t.clock.set(T0.getTime() + 2 * 86_400_000 + 3_600_000);
    expect((await t.api('POST', `/events/${ended}/results/publish`, { key: org.key, body: { force: true } })).status).toBe(200);
    // …and a running one, created after the clock moved, where the team is approved and has submitted.
    const eventId = await createEvent(t, org.key);
    const approved = await quickApprovedTeam(t, eventId, org.key);
    team = approved.team;
    const submitted = await t.api('POST', `/events/${eventId}/submit`, {
      key: team.key,
      body: { project_name: 'Fuzzed', github_url: 'https://github.com/example/fuzzed' },
    });
    expect(submitted.status).toBe(201);
    const other = await createEvent(t, org.key, { name: 'Second' });
    ids.id = [eventId, other, ended];
    ids.rid = [approved.registrationId, endedTeam.registrationId];
    ids.pid = [submitted.body.id, endedProject.body.id];
    ids.userId = [org.id, team.id];
    doc = (await t.api('GET', '/openapi.json')).body;
  });
  afterAll(async () => t?.close());

  it('finds no 5xx and no answer outside its documented schema', async () => {
    const r = rng(SEED);
    const check = conformanceChecker(doc);
    const failures: string[] = [];
    let total = 0;
    let successes = 0;
    const statuses = new Map<number, number>();

    const operations = Object.entries<Json>(doc.paths).flatMap(([path, item]) => Object.entries<Json>(item).map(([method, op]) => ({ path, method, op })));
    expect(operations.length).toBeGreaterThan(20);
    for (const { path, method, op } of operations) {
      const params = (op.parameters ?? []) as Json[];
      const bodySchema = op.requestBody?.content?.['application/json']?.schema as Json | undefined;
      for (let i = 0; i < REQUESTS_PER_OPERATION; i++) {
        const breakIt = r() < 0.4;
        const what = breakIt ? pick(r, ['path', 'query', 'body', 'body', 'raw', 'media']) : 'none';
        let url = path.replace(/\{(\w+)\}/g, (_m, name: string) => {
          let v: string;
          if (what === 'path' && r() < 0.5) v = pick(r, ['x'.repeat(int(r, 65, 260)), '.x.', '%', '\u0000', ' ', '名', 'evt_' + randomString(r, 1, 10)]);
          else if (name === 'code') v = pick(r, ['event_not_found', 'validation_failed', 'nope', 'constructor']);
          else if (ids[name] && r() < 0.85) v = pick(r, ids[name]);
          else v = valid(params.find((p) => p.name === name)?.schema, r) as string;
          // `.` and `..` are dot segments: the client's URL parser removes them before sending.
          // Lone surrogates (a cut emoji) cannot be percent-encoded: bodies get them, URLs do not.
          const text = String(v || 'x').replace(/[\uD800-\uDFFF]/g, 'x');
          return encodeURIComponent(/^\.{1,2}$/.test(text) ? 'x.' : text);
        });
        const query: Json = {};
        for (const p of params.filter((p) => p.in === 'query')) {
          if (p.required || r() < 0.5) query[p.name] = valid(p.schema, r, p.name);
        }
        if (what === 'query') {
          const p = params.find((x) => x.in === 'query');
          query[p && r() < 0.7 ? p.name : `unknown_${int(r, 0, 9)}`] = pick(r, ['abc', '-1', '0', '99999999', '', '[]', 'true', '1e400', '名', '\u0000']);
        }
        const queryNames = Object.keys(query);
        url += queryString(query, what === 'query' && queryNames.length && r() < 0.3 ? pick(r, queryNames) : null);
        const headers: Record<string, string> = {};
        const keyChoice = r();
        if (keyChoice < 0.4) headers.authorization = `Bearer ${org.key}`;
        else if (keyChoice < 0.75) headers.authorization = `Bearer ${team.key}`;
        else if (keyChoice < 0.8) headers.authorization = pick(r, ['Bearer hk_notakey', 'Basic abc', 'Bearer']);
        let body: string | undefined;
        if (bodySchema) {
          const value = valid(bodySchema, r);
          body = JSON.stringify(what === 'body' ? broken(bodySchema, value, r) : value);
          headers['content-type'] = 'application/json';
          if (what === 'raw')
            body = pick(r, [
              '{"a":',
              'nul',
              '[1,2',
              '"\\ud800"',
              '{"__proto__":{"x":1}}',
              '1e999999',
              '['.repeat(5000) + ']'.repeat(5000),
              '{"a":"\\u0000"}',
              `{"team_name":"${'z'.repeat(200_000)}"}`,
            ]);
          if (what === 'media') headers['content-type'] = pick(r, ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']);
        } else if (method !== 'get' && what === 'raw') {
          body = '{"a":';
          headers['content-type'] = 'application/json';
        }
        if (r() < 0.1 && ['post', 'put', 'patch'].includes(method)) headers['idempotency-key'] = `fuzz-${int(r, 0, 5)}`;

        const res = await fetch(t.url + url, { method: method.toUpperCase(), headers, ...(body !== undefined ? { body } : {}) });
        const text = await res.text();
        total++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status < 300) successes++;
        const problem = check(method, path, { status: res.status, contentType: res.headers.get('content-type'), text });
        if (problem) failures.push(`${problem}: ${method.toUpperCase()} ${url} [${what}] -> ${res.status} ${text.slice(0, 200)}`);
      }
    }
    const summary = `${total} requests, ${successes} successful; statuses ${JSON.stringify(Object.fromEntries(statuses))}`;
    expect(failures.slice(0, 20), summary).toEqual([]);
    expect(total).toBeGreaterThan(REQUESTS_PER_OPERATION * 20);
    // The valid half must reach the handlers, not just bounce off validation.
    expect(successes, summary).toBeGreaterThan(total * 0.15);
  }, 120_000);
});
