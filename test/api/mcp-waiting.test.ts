import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/app.js';
import type { Config } from '../../src/core/config.js';
import { LONG_POLL_MAX_SECONDS } from '../../src/core/wait-policy.js';
import { DIALECTS } from '../helpers/databases.js';
import { callTool, connectMcp } from '../helpers/mcp-client.js';
import { createEvent, registrationBody, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { until } from '../helpers/until.js';

describe.each(DIALECTS)('MCP waiting (%s)', (dialect) => {
  let t: TestApp;
  let organizer: TestUser;
  let team: TestUser;
  let client: Client;
  let eventId: string;
  const logged: Array<{ level: number; msg: string }> = [];

  beforeAll(async () => {
    // The server's own logger options (their hooks decide what a client's abort is), at warn.
    const options = loggerOptions({ logLevel: 'warn', logFormat: 'json' } as Config, { isTTY: false }) as object;
    t = await startTestApp(dialect, {
      logger: { ...options, stream: { write: (line: string) => void logged.push(JSON.parse(line) as { level: number; msg: string }) } },
    });
    organizer = await t.user('organizer');
    team = await t.user();
    eventId = await createEvent(t, organizer.key);
    expect((await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() })).status).toBe(201);
    client = await connectMcp(t, team.key, 'mcp-waiting-test');
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it('offers wait up to the policy maximum, which ends before the SDK client default timeout of 60 s; a longer wait is capped, not refused', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((x) => x.name === 'get_my_registration')!;
    expect(LONG_POLL_MAX_SECONDS).toBeLessThanOrEqual(45);
    expect(tool.inputSchema.properties!.wait).toMatchObject({ type: 'integer', minimum: 0 });
    expect(tool.inputSchema.properties!.wait).not.toHaveProperty('maximum');
    expect(tool.description).toContain(`at most ${LONG_POLL_MAX_SECONDS}`);
    // wait: 60 parks like any wait (another team, so this file's own registration stays pending).
    const other = await t.user();
    const reg = await t.api('POST', `/events/${eventId}/register`, { key: other.key, body: registrationBody() });
    const otherClient = await connectMcp(t, other.key, 'mcp-waiting-cap');
    try {
      const before = t.ctx.registrations.waitsStarted();
      const call = callTool(otherClient, 'get_my_registration', { event_id: eventId, wait: 60 });
      await until('the wait: 60 call to park', () => t.ctx.registrations.waitsStarted() === before + 1);
      expect((await t.api('POST', `/events/${eventId}/registrations/${reg.body.id}/approve`, { key: organizer.key })).status).toBe(200);
      const answer = await call;
      expect(answer.isError).toBeFalsy();
      expect(JSON.stringify(answer.content)).toContain('approved');
    } finally {
      await otherClient.close();
    }
  });

  it('a client that cancels a waiting get_my_registration frees the wait and is not logged as an error', async () => {
    const before = t.ctx.registrations.waitsStarted();
    // Only what the leaving client causes: start-up warnings (e.g. the open sign-up one) are not its.
    const from = logged.length;
    const abort = new AbortController();
    const call = callTool(client, 'get_my_registration', { event_id: eventId, wait: LONG_POLL_MAX_SECONDS }, { signal: abort.signal });
    await until('the wait to park on the server', () => t.ctx.registrations.waitsStarted() === before + 1);
    abort.abort('the user gave up');
    await expect(call).rejects.toThrow();
    // The SDK client sends notifications/cancelled but keeps the HTTP request open; closing the
    // transport (as a client that gives up or times out does) ends it, and the server's wait with it.
    await client.close();
    await until('no request to be waiting', () => t.ctx.registrations.waiting() === 0);
    client = await connectMcp(t, team.key, 'mcp-waiting-test');
    const after = await callTool(client, 'get_my_registration', { event_id: eventId });
    expect(after.isError).toBeFalsy();
    expect(after.structuredContent).toMatchObject({ status: 'pending' });
    expect(logged.slice(from).filter((l) => l.level >= 40)).toEqual([]);
  });
});
