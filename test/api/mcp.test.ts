import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { DIALECTS } from '../helpers/databases.js';
import { callTool, EXPECTED_MCP_TOOLS, connectMcp, toolOk, toolProblem } from '../helpers/mcp-client.js';
import { openRaw } from '../helpers/raw-http.js';
import { createEvent, eventBody, registrationBody, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';
import { until } from '../helpers/until.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

describe.each(DIALECTS)('MCP server (%s)', (dialect) => {
  let t: TestApp;
  let organizer: TestUser;
  let team: TestUser;
  let orgClient: Client;
  let teamClient: Client;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await startTestApp(dialect);
    organizer = await t.user('organizer');
    team = await t.user();
    orgClient = await connectMcp(t, organizer.key, 'mcp-test');
    teamClient = await connectMcp(t, team.key, 'mcp-test');
    clients.push(orgClient, teamClient);
  });

  afterAll(async () => {
    for (const c of clients) await c.close();
    await t?.close();
  });

  it('lists the tools with JSON Schemas built from the REST schemas', async () => {
    const { tools } = await orgClient.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...EXPECTED_MCP_TOOLS].sort());
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));

    const register = byName.register_team!;
    expect(register.inputSchema.type).toBe('object');
    expect(register.inputSchema.required).toEqual(['event_id', 'team_name']);
    // The list leaves out what the call's check says by its answer (see below): unknown arguments,
    // an empty `required`, a string's minLength 1.
    expect(register.inputSchema.additionalProperties).toBeUndefined();
    expect(Object.keys(register.inputSchema.properties!).sort()).toEqual(
      ['event_id', 'team_name', 'contact_email', 'github_url', 'track_id', 'fields', 'idempotency_key'].sort(),
    );
    expect(register.inputSchema.properties!.team_name).toEqual({ type: 'string', maxLength: 80 });

    // A defaulted query parameter is offered but not required.
    expect(byName.list_events!.inputSchema.required).toBeUndefined();
    // What the list leaves out is still checked by the call: an unknown argument and an empty string are refused by name.
    const unknownArg = await callTool(orgClient, 'list_events', { bogus: 1 });
    expect(unknownArg.isError).toBe(true);
    expect(JSON.parse((unknownArg.content[0] as { text: string }).text)).toMatchObject({ code: 'validation_failed' });
    expect((unknownArg.content[0] as { text: string }).text).toContain('bogus');
    const empty = await callTool(orgClient, 'register_team', { event_id: 'evt_none', team_name: '' });
    expect(empty.isError).toBe(true);
    expect(JSON.parse((empty.content[0] as { text: string }).text)).toMatchObject({ code: 'validation_failed' });
    expect((empty.content[0] as { text: string }).text).toContain('team_name');
    expect(byName.list_events!.inputSchema.properties!.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 50 });
    // A longer wait is capped at 45, not refused: no maximum.
    expect(byName.get_my_registration!.inputSchema.properties!.wait).toMatchObject({ type: 'integer', minimum: 0 });
    expect(byName.get_my_registration!.inputSchema.properties!.wait).not.toHaveProperty('maximum');
    expect(byName.reject_registration!.inputSchema.required).toEqual(['event_id', 'registration_id']);
    expect(byName.reject_registration!.inputSchema.properties!.reason).toMatchObject({ type: 'string', maxLength: 1000 });
    expect(byName.create_event!.inputSchema.properties!.registration_deadline).toMatchObject({ type: 'string' });
    expect(byName.get_leaderboard!.inputSchema.properties!.format).toBeUndefined();
    // No output schemas: the text content is the route's JSON (a list as { items, next_cursor }).
    expect(byName.list_events!.outputSchema).toBeUndefined();

    // Hints are given where they differ from MCP's defaults (not read-only, destructive, not idempotent, open world).
    expect(byName.list_events!.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(byName.register_team!.annotations).toEqual({ destructiveHint: false, openWorldHint: false });
    expect(byName.publish_results!.annotations).toEqual({ openWorldHint: false });
    expect(byName.join_team!.annotations).toEqual({ destructiveHint: false, idempotentHint: true, openWorldHint: false });
  });

  it('runs the whole flow, organizer side included', async () => {
    // Organizer: create an event with tracks and a required custom field.
    // No AI models: the one review below is inserted as a row (the review pipeline is tested on its own).
    const created = toolOk(await callTool(orgClient, 'create_event', eventBody(t.clock.now(), { models: [] })));
    const eventId = created.id as string;
    expect(created).toMatchObject({ name: 'Agents Hack', status: 'open' });

    // Team: find it, read it and its form.
    const listed = toolOk(await callTool(teamClient, 'list_events', { limit: 10 }));
    expect(listed.items.map((e: { id: string }) => e.id)).toContain(eventId);
    expect(listed.next_cursor).toBeNull();
    const event = toolOk(await callTool(teamClient, 'get_event', { event_id: eventId }));
    expect(event.tracks.map((tr: { id: string }) => tr.id)).toEqual(['tools', 'fun']);
    const form = toolOk(await callTool(teamClient, 'get_registration_form', { event_id: eventId }));
    expect(form.fields.filter((f: { required: boolean }) => f.required).map((f: { key: string }) => f.key)).toEqual(['repo']);

    // Register with the track and the form answers: pending.
    const registered = toolOk(
      await callTool(teamClient, 'register_team', {
        event_id: eventId,
        team_name: 'MCP Crew',
        track_id: 'tools',
        fields: { repo: 'https://github.com/example/mcp' },
      }),
    );
    expect(registered).toMatchObject({ event_id: eventId, status: 'pending', team_name: 'MCP Crew', track_id: 'tools' });
    const mine = toolOk(await callTool(teamClient, 'get_my_registration', { event_id: eventId }));
    expect(mine).toMatchObject({ id: registered.id, status: 'pending', project: null });

    // Organizer: the registration is in the list.
    const regs = toolOk(await callTool(orgClient, 'list_registrations', { event_id: eventId, status: 'pending' }));
    expect(regs.items.map((r: { id: string }) => r.id)).toEqual([registered.id]);
    expect(regs.items[0].fields).toEqual({ repo: 'https://github.com/example/mcp' });

    // The team waits for the decision; the organizer approves while it waits.
    const waiting = callTool(teamClient, 'get_my_registration', { event_id: eventId, wait: 30 });
    const approved = toolOk(await callTool(orgClient, 'approve_registration', { event_id: eventId, registration_id: registered.id }));
    expect(approved).toMatchObject({ id: registered.id, status: 'approved' });
    expect(toolOk(await waiting)).toMatchObject({ id: registered.id, status: 'approved' });

    // Submit, then update.
    const submitted = toolOk(
      await callTool(teamClient, 'submit_project', {
        event_id: eventId,
        project_name: 'Robo',
        github_url: 'https://github.com/example/robo',
        description: 'v1',
      }),
    );
    expect(submitted).toMatchObject({ project_name: 'Robo', updated: false, track_id: 'tools' });
    const updated = toolOk(
      await callTool(teamClient, 'submit_project', {
        event_id: eventId,
        project_name: 'Robo',
        github_url: 'https://github.com/example/robo',
        description: 'v2',
      }),
    );
    expect(updated).toMatchObject({ id: submitted.id, description: 'v2', updated: true });

    // Not published yet: the result is refused with the REST code.
    expect(toolProblem(await callTool(teamClient, 'get_result', { event_id: eventId }))).toMatchObject({
      code: 'results_not_published',
      status: 409,
    });

    // The gallery opens after the submission deadline: before it, the REST conflict with when it opens.
    expect(toolProblem(await callTool(teamClient, 'list_gallery', { event_id: eventId }))).toMatchObject({
      code: 'gallery_not_open',
      status: 409,
    });

    // Past the submission deadline the event is judging.
    t.clock.set(T0.getTime() + 2 * DAY + HOUR);
    const gallery = toolOk(await callTool(teamClient, 'list_gallery', { event_id: eventId, q: 'rob' }));
    expect(gallery.items.map((p: { project_name: string }) => p.project_name)).toEqual(['Robo']);
    expect(gallery.next_cursor).toBeNull();
    // The tag filter (normalised) and the search over name, tagline and tags are the tool's arguments too.
    expect(toolOk(await callTool(teamClient, 'list_gallery', { event_id: eventId, tag: '#Rust', q: 'rob' })).items).toEqual([]);
    const shown = toolOk(await callTool(teamClient, 'get_gallery_project', { event_id: eventId, project_id: submitted.id }));
    expect(shown).toMatchObject({ project_id: submitted.id, team_name: 'MCP Crew', description_html: '<p>v2</p>', result: null });
    const now = t.clock.now().toISOString();
    await t.ctx.db
      .insertInto('reviews')
      .values({
        id: newId('rev'),
        event_id: eventId,
        project_id: submitted.id,
        reviewer_kind: 'model',
        reviewer: 'openai/gpt-4o-mini',
        group_key: 'openai/gpt-4o-mini',
        status: 'succeeded',
        scores: JSON.stringify({ impact: 8, craft: 7 }),
        attempts: 1,
        created_at: now,
        updated_at: now,
        completed_at: now,
      })
      .execute();
    const board = toolOk(await callTool(orgClient, 'get_leaderboard', { event_id: eventId }));
    expect(board.items).toHaveLength(1);
    // impact 8 (weight 2), craft 7 (weight 1): (16 + 7) / 3.
    expect(board.items[0]).toMatchObject({ rank: 1, project_id: submitted.id, team_name: 'MCP Crew', track_id: 'tools', score: 7.6667 });
    // The leaderboard's review coverage comes through (the event has no models: none expected).
    expect(board.items[0].reviews).toEqual({ expected: 0, succeeded: 1, failed: 0, pending: 0, human: 0 });
    expect(board.next_cursor).toBeNull();
    expect(board.pending).toBe(0);

    const published = toolOk(await callTool(orgClient, 'publish_results', { event_id: eventId }));
    expect(published).toMatchObject({ event_id: eventId, status: 'ended', result_url: `http://hackathon.test/api/v1/events/${eventId}/result` });

    const result = toolOk(await callTool(teamClient, 'get_result', { event_id: eventId }));
    expect(result.items).toEqual(published.entries);
    expect(result.items[0]).toMatchObject({ rank: 1, project_name: 'Robo', team_name: 'MCP Crew' });

    // A second publication is the REST conflict.
    expect(toolProblem(await callTool(orgClient, 'publish_results', { event_id: eventId }))).toMatchObject({
      code: 'results_already_published',
      status: 409,
    });

    // The team's own result; the reviews once the organizer releases them, the model unnamed.
    const before = toolOk(await callTool(teamClient, 'get_my_registration', { event_id: eventId }));
    expect(before.result).toMatchObject({ rank: 1, score: 7.6667, feedback: null });
    const released = toolOk(await callTool(orgClient, 'set_feedback_release', { event_id: eventId, released: true }));
    expect(released).toMatchObject({ event_id: eventId, feedback_released: true });
    const after = toolOk(await callTool(teamClient, 'get_my_registration', { event_id: eventId }));
    expect(after.result.feedback).toEqual([{ source: 'model', scores: { impact: 8, craft: 7 }, comment: null }]);
    expect(JSON.stringify(after)).not.toContain('gpt-4o-mini');
    expect(toolProblem(await callTool(teamClient, 'set_feedback_release', { event_id: eventId, released: false }))).toMatchObject({
      code: 'forbidden',
      status: 403,
    });
  });

  describe('errors', () => {
    let eventId: string;
    beforeAll(async () => {
      t.clock.set(T0);
      eventId = toolOk(await callTool(orgClient, 'create_event', eventBody(t.clock.now(), { name: 'Errors Hack' }))).id;
    });

    it('refuses a request without a key at the HTTP level (401 problem+json)', async () => {
      const res = await t.api('POST', '/mcp', {
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        headers: { accept: 'application/json, text/event-stream' },
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ code: 'unauthorized', status: 401 });

      await expect(connectMcp(t, 'hk_not_a_real_key')).rejects.toThrow(/401/);
    });

    it('answers GET and DELETE with 405 problem+json (stateless server)', async () => {
      for (const method of ['GET', 'DELETE']) {
        const res = await t.api(method, '/mcp', { key: team.key });
        expect(res.status).toBe(405);
        expect(res.headers.get('allow')).toBe('POST');
        expect(res.body).toMatchObject({ code: 'method_not_allowed', status: 405 });
      }
    });

    it('answers the transport rules with problem+json', async () => {
      const post = (body: unknown, headers: Record<string, string> = { accept: 'application/json, text/event-stream' }) =>
        t.api('POST', '/mcp', { key: team.key, body, headers });
      const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

      const noAccept = await post(list, { accept: 'application/json' });
      expect(noAccept.status).toBe(400);
      expect(noAccept.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(noAccept.body).toMatchObject({ code: 'bad_request' });
      // Its next step names the header (not the general advice of bad_request).
      expect(noAccept.body.action).toContain('Accept: application/json, text/event-stream');

      const notRpc = await post({ jsonrpc: '2.0', id: 1 });
      expect(notRpc.status).toBe(422);
      expect(notRpc.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'body' }] });
      // The route schema refuses a wrong version; the SDK's own message schema what the outline lets through.
      const oldRpc = await post([list, { jsonrpc: '1.0', id: 2, method: 'tools/list' }]);
      expect(oldRpc.status).toBe(422);
      expect(oldRpc.body.errors.map((e: { field: string }) => e.field)).toContain('1.jsonrpc');
      const badBatch = await post([list, { jsonrpc: '2.0', id: 2 }]);
      expect(badBatch.status).toBe(422);
      expect(badBatch.body.errors).toEqual([{ field: '1', message: 'is not a JSON-RPC 2.0 request, notification or response' }]);

      const init = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      };
      const twoInits = await post([init, { ...init, id: 2 }]);
      expect(twoInits.status).toBe(422);
      expect(twoInits.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'body', message: 'an initialize request must be sent alone' }] });

      const oldVersion = await post(list, { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '1999-01-01' });
      expect(oldVersion.status).toBe(400);
      expect(oldVersion.body).toMatchObject({ code: 'bad_request' });

      // Valid traffic: a notification is accepted without a body, a batch answers as an array.
      const note = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(note.status).toBe(202);
      expect(note.text).toBe('');
      const batch = await post([list, { ...list, id: 2 }]);
      expect(batch.status).toBe(200);
      expect(batch.body.map((r: { id: number }) => r.id).sort()).toEqual([1, 2]);
    });

    it('carries the rate-limit headers of the MCP request', async () => {
      const res = await t.api('POST', '/mcp', {
        key: organizer.key,
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        headers: { accept: 'application/json, text/event-stream' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('100000');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.body.result.tools).toHaveLength(EXPECTED_MCP_TOOLS.length);
    });

    it('returns validation_failed as a tool error for arguments outside the schema', async () => {
      const missing = toolProblem(await callTool(teamClient, 'register_team', { event_id: eventId }));
      expect(missing).toMatchObject({ code: 'validation_failed', status: 422, type: 'http://hackathon.test/problems/validation_failed' });
      expect(missing.errors).toEqual([{ field: 'team_name', message: 'is required' }]);

      const wrongType = toolProblem(await callTool(teamClient, 'list_events', { limit: 0, color: 'red' }));
      expect(wrongType.code).toBe('validation_failed');
      expect(wrongType.errors).toEqual(
        expect.arrayContaining([
          { field: 'limit', message: 'must be between 1 and 100' },
          { field: 'color', message: expect.stringMatching(/^is not a known property; known: .*\blimit\b/) },
        ]),
      );

      // JSON types are strict, unlike a query string.
      const stringLimit = toolProblem(await callTool(teamClient, 'list_events', { limit: '5' }));
      expect(stringLimit).toMatchObject({ code: 'validation_failed', errors: [{ field: 'limit', message: 'must be integer' }] });

      const noEvent = toolProblem(await callTool(teamClient, 'get_event', {}));
      expect(noEvent).toMatchObject({ code: 'validation_failed', errors: [{ field: 'event_id', message: 'is required' }] });
    });

    it('passes the REST route refusals through with their codes', async () => {
      // Rules the schema cannot express come from the route itself.
      const noAnswer = toolProblem(await callTool(teamClient, 'register_team', { event_id: eventId, team_name: 'No Answers', track_id: 'tools' }));
      expect(noAnswer.code).toBe('validation_failed');
      expect(noAnswer.errors.map((e: { field: string }) => e.field)).toContain('fields.repo');

      expect(toolProblem(await callTool(teamClient, 'get_event', { event_id: 'evt_nope' }))).toMatchObject({
        code: 'event_not_found',
        status: 404,
      });
      expect(toolProblem(await callTool(teamClient, 'get_my_registration', { event_id: eventId }))).toMatchObject({
        code: 'not_registered',
      });
    });

    it('gives a plain user the REST 403 forbidden on organizer tools', async () => {
      const reg = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() });
      expect(reg.status).toBe(201);
      const res = toolProblem(await callTool(teamClient, 'approve_registration', { event_id: eventId, registration_id: reg.body.id }));
      expect(res).toMatchObject({ code: 'forbidden', status: 403 });
      expect(toolProblem(await callTool(teamClient, 'create_event', eventBody(t.clock.now())))).toMatchObject({
        code: 'forbidden',
      });
      // Still pending: nothing was decided.
      const mine = await t.api('GET', `/events/${eventId}/my-registration`, { key: team.key });
      expect(mine.body.status).toBe('pending');
    });

    it('rejects a registration with a reason the team reads', async () => {
      const other = await t.user();
      const reg = await t.api('POST', `/events/${eventId}/register`, { key: other.key, body: registrationBody() });
      expect(reg.status).toBe(201);
      const rejected = toolOk(
        await callTool(orgClient, 'reject_registration', { event_id: eventId, registration_id: reg.body.id, reason: 'The repository is private.' }),
      );
      expect(rejected).toMatchObject({ id: reg.body.id, status: 'rejected', reason: 'The repository is private.' });
      const otherClient = await connectMcp(t, other.key, 'mcp-test');
      clients.push(otherClient);
      const mine = toolOk(await callTool(otherClient, 'get_my_registration', { event_id: eventId }));
      expect(mine).toMatchObject({ status: 'rejected', reason: 'The repository is private.' });
    });

    it('hands out the next cursor of a list page', async () => {
      const first = toolOk(await callTool(teamClient, 'list_events', { limit: 1 }));
      expect(first.items).toHaveLength(1);
      expect(typeof first.next_cursor).toBe('string');
      const second = toolOk(await callTool(teamClient, 'list_events', { limit: 1, cursor: first.next_cursor }));
      expect(second.items).toHaveLength(1);
      expect(second.items[0].id).not.toBe(first.items[0].id);
    });

    it('answers an unknown tool with a JSON-RPC error', async () => {
      await expect(callTool(teamClient, 'delete_everything', {})).rejects.toThrow(/Unknown tool/);
    });
  });
});

describe.each(DIALECTS)('MCP server: HTTP edges and rate limits (%s)', (dialect) => {
  let t: TestApp;
  let organizer: TestUser;
  let eventId: string;
  const rpc = (id: number, method: string, params?: unknown) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
  const accept = { accept: 'application/json, text/event-stream' };

  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { RATE_LIMIT_PER_KEY: '3' } });
    organizer = await t.user('organizer');
    eventId = await createEvent(t, organizer.key);
    t.clock.advance(3_600_000); // a fresh rate-limit window: creating the event used one request
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a POST without a JSON-RPC body as a client mistake (422)', async () => {
    const empty = await t.api('POST', '/mcp', { key: organizer.key, headers: accept });
    expect(empty.status).toBe(422);
    expect(empty.body).toMatchObject({ code: 'validation_failed' });
  });

  it('counts a tool call twice against the key: the MCP request and the REST call it makes', async () => {
    // A fresh window: this tools/call is request 1 of the key's 3, its REST call request 2.
    t.clock.advance(3_600_000);
    const first = await t.api('POST', '/mcp', {
      key: organizer.key,
      headers: accept,
      body: rpc(1, 'tools/call', { name: 'get_event', arguments: { event_id: eventId } }),
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-remaining')).toBe('2');
    expect(first.body.result.isError).toBeFalsy();
    expect(first.body.result.structuredContent.id).toBe(eventId);

    // Request 3 is let in; its REST call (4) is over the limit: a tool error with the REST code.
    const second = await t.api('POST', '/mcp', {
      key: organizer.key,
      headers: accept,
      body: rpc(2, 'tools/call', { name: 'get_event', arguments: { event_id: eventId } }),
    });
    expect(second.status).toBe(200);
    expect(second.body.result.isError).toBe(true);
    expect(JSON.parse(second.body.result.content[0].text)).toMatchObject({ code: 'rate_limited', status: 429 });

    // Request 5 is refused at the HTTP level.
    const third = await t.api('POST', '/mcp', { key: organizer.key, headers: accept, body: rpc(3, 'tools/list') });
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ code: 'rate_limited' });
    expect(third.headers.get('retry-after')).not.toBeNull();
  });
});

describe.each(DIALECTS)('MCP server: a long-poll ends with its client (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { WAIT_RECHECK_MS: '0' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('aborts the REST wait when the MCP client disconnects', async () => {
    const organizer = await t.user('organizer');
    const team = await t.user();
    const eventId = await createEvent(t, organizer.key);
    const reg = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() });
    expect(reg.status).toBe(201);

    // A raw socket, destroyed mid-wait: fetch's pool may open a spare connection that would hold the close.
    const conn = await openRaw(t.url);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_my_registration', arguments: { event_id: eventId, wait: 45 } },
    });
    conn.socket.write(
      `POST /api/v1/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${team.key}\r\nContent-Type: application/json\r\n` +
        `Accept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await until("the tool call's REST long-poll to park", () => t.ctx.registrations.waiting() === 1);
    conn.socket.destroy();
    // Nothing decides the registration and the wait asked for 45 s: only the disconnect can end it in time.
    await until('the long-poll to end', () => t.ctx.registrations.waiting() === 0);
    expect(t.ctx.registrations.waiting()).toBe(0);
  });
});

describe.each(DIALECTS)('MCP server: idempotency keys and forced publication (%s)', (dialect) => {
  let t: TestApp;
  let organizer: TestUser;
  let team: TestUser;
  let orgClient: Client;
  let teamClient: Client;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    organizer = await t.user('organizer');
    team = await t.user();
    orgClient = await connectMcp(t, organizer.key, 'mcp-test');
    teamClient = await connectMcp(t, team.key, 'mcp-test');
  });
  afterAll(async () => {
    await orgClient?.close();
    await teamClient?.close();
    await t?.close();
  });

  it('offers idempotency_key on every tool whose route keeps Idempotency-Key answers, and on no other', async () => {
    const { tools } = await orgClient.listTools();
    const withKey = tools.filter((tool) => 'idempotency_key' in (tool.inputSchema.properties ?? {})).map((tool) => tool.name);
    expect(withKey.sort()).toEqual(
      [
        'register_team',
        'submit_project',
        'create_event',
        'approve_registration',
        'reject_registration',
        'publish_results',
        'rerun_reviews',
        'remind_reviewer',
        'auto_assign_reviewers',
        'create_webhook',
        'test_webhook',
        'retry_webhook_delivery',
        'vote_for_project',
        'invite_reviewer',
        'remind_reviewers',
        'post_announcement',
      ].sort(),
    );
  });

  it('replays a call retried with the same idempotency_key, and refuses the key for another call', async () => {
    const eventId = await createEvent(t, organizer.key, { models: [] });
    const args = {
      event_id: eventId,
      team_name: 'Retry Crew',
      track_id: 'tools',
      fields: { repo: 'https://github.com/example/r' },
      idempotency_key: 'mcp-retry-1',
    };
    const first = toolOk(await callTool(teamClient, 'register_team', args));
    const again = toolOk(await callTool(teamClient, 'register_team', args));
    expect(again).toEqual(first);
    const regs = await t.api('GET', `/events/${eventId}/registrations`, { key: organizer.key });
    expect(regs.body.map((r: { id: string }) => r.id)).toEqual([first.id]);
    expect(toolProblem(await callTool(teamClient, 'register_team', { ...args, team_name: 'Other Crew' }))).toMatchObject({
      code: 'idempotency_key_reused',
      status: 409,
    });
  });

  it('publishes with unscored projects only when force is set', async () => {
    const start = t.clock.now();
    const eventId = await createEvent(t, organizer.key, { models: [] });
    const reg = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() });
    expect(reg.status).toBe(201);
    expect((await t.api('POST', `/events/${eventId}/registrations/${reg.body.id}/approve`, { key: organizer.key })).status).toBe(200);
    const sub = await t.api('POST', `/events/${eventId}/submit`, {
      key: team.key,
      body: { project_name: 'Unscored', github_url: 'https://github.com/example/u' },
    });
    expect(sub.status).toBe(201);
    t.clock.set(start.getTime() + 2 * DAY + HOUR); // judging
    expect(toolProblem(await callTool(orgClient, 'publish_results', { event_id: eventId }))).toMatchObject({
      code: 'unscored_projects',
      unscored_count: 1,
    });
    const published = toolOk(await callTool(orgClient, 'publish_results', { event_id: eventId, force: true }));
    expect(published).toMatchObject({ event_id: eventId, status: 'ended' });
    expect(published.entries.map((e: { project_id: string; score: number }) => [e.project_id, e.score])).toEqual([[sub.body.id, 0]]);
  });
});
