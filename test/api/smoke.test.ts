import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, type TestApp } from '../helpers/harness.js';

describe.each(DIALECTS)('agent flow smoke (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('creates an event that appears in the public list', async () => {
    const org = await t.user('organizer');
    const id = await createEvent(t, org.key);
    const list = await t.api('GET', '/events');
    expect(list.status).toBe(200);
    expect(list.body.map((e: { id: string }) => e.id)).toContain(id);
  });
});
