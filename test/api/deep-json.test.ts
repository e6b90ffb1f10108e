import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

const deepArray = (depth: number, inner: string) => '['.repeat(depth) + inner + ']'.repeat(depth);
const deepObject = (depth: number, inner: string) => '{"a":'.repeat(depth) + inner + '}'.repeat(depth);

/**
 * Deeply nested JSON bodies, with and without a lone surrogate escape (which makes the parser walk
 * the whole body for text that is not valid Unicode), answer 4xx with a stable code, never a 500
 * from a stack overflow. The body limit is raised to 1 MiB so the deepest bodies reach the walk
 * (at the default 100 kB they are refused before parsing: 413 payload_too_large).
 */
describe.each(DIALECTS)('deeply nested JSON bodies (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let eventId: string;
  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { BODY_LIMIT_BYTES: String(1024 * 1024) } });
    org = await quickUser(t, 'organizer');
    eventId = await createEvent(t, org.key);
  });
  afterAll(async () => t?.close());

  const post = async (raw: string) =>
    t.api('POST', `/events/${eventId}/register`, { key: (await quickUser(t)).key, raw, headers: { 'content-type': 'application/json' } });

  it.each([40_000, 100_000])('%i-deep arrays around a lone \\ud800 answer 422 naming the broken text', async (depth) => {
    const res = await post(deepArray(depth, '"\\ud800"'));
    expect(res.status, res.text).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].message).toBe('contains an unpaired UTF-16 surrogate (not valid Unicode text)');
    // The path is cut, so the answer stays small.
    expect(res.body.errors[0].field).toBe(`${'0.'.repeat(100)}…`);
  });

  it.each([40_000, 100_000])('%i-deep objects around a lone \\udc00 member name answer 422', async (depth) => {
    const res = await post(deepObject(depth, '{"\\udc00":1}'));
    expect(res.status, res.text).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors[0].message).toBe('has a member name with an unpaired UTF-16 surrogate');
  });

  it.each([40_000, 100_000])('%i-deep arrays and objects without broken text answer 422 (the schema refuses them)', async (depth) => {
    for (const raw of [deepArray(depth, '1'), deepObject(depth, '1'), `{"team_name":${deepArray(depth, '"\\ud83d\\ude00"')}}`]) {
      const res = await post(raw);
      expect(res.status, res.text).toBe(422);
      expect(res.body.code).toBe('validation_failed');
    }
  });

  it('many broken strings are reported 20 at most', async () => {
    const res = await post(JSON.stringify(Array.from({ length: 1000 }, (_, i) => i)).replace(/\d+/g, '"\\ud800"'));
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
  });
});
