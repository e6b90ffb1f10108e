import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { POLL_MAX_SECONDS } from '../../src/core/wait-policy.js';
import { DIALECTS } from '../helpers/databases.js';
import { callTool, connectMcp, toolOk, toolProblem } from '../helpers/mcp-client.js';
import { approvedTeam, eventBody, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

describe.each(DIALECTS)('MCP organizer tools and refusals (%s)', (dialect) => {
  let t: TestApp;
  let organizer: TestUser;
  let stranger: TestUser;
  let org: Client;
  let other: Client;

  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { REVIEW_WORKERS: 'false' } });
    organizer = await t.user('organizer');
    stranger = await t.user('organizer');
    org = await connectMcp(t, organizer.key, 'mcp-organizer-test');
    other = await connectMcp(t, stranger.key, 'mcp-organizer-test');
  });
  afterAll(async () => {
    await org?.close();
    await other?.close();
    await t?.close();
  });

  async function newEvent(overrides: Record<string, unknown> = {}): Promise<string> {
    t.clock.set(T0);
    return toolOk(await callTool(org, 'create_event', eventBody(t.clock.now(), { models: [], ...overrides }))).id as string;
  }

  it('list_events names only statuses the server accepts, and each of them is accepted', async () => {
    const { tools } = await org.listTools();
    const description = tools.find((x) => x.name === 'list_events')!.description!;
    expect(description).not.toMatch(/\bclosed\b/);
    const listed = /comma-separated: ([a-z, ]+);/.exec(description)![1]!.split(', ');
    expect(listed).toEqual(['draft', 'open', 'active', 'judging', 'ended', 'cancelled']);
    expect(description).toContain('draft needs mine: true');
    for (const status of [...listed, 'recruiting']) toolOk(await callTool(org, 'list_events', { status, mine: true }));
    const refused = await t.api('GET', '/events?status=closed');
    expect(refused.status).toBe(422);
  });

  it('update_event changes an event and opens a draft, with the REST authorization', async () => {
    const eventId = await newEvent({ status: 'draft' });
    const renamed = toolOk(await callTool(org, 'update_event', { event_id: eventId, name: 'Renamed Hack' }));
    expect(renamed).toMatchObject({ id: eventId, name: 'Renamed Hack', status: 'draft' });
    expect(toolOk(await callTool(org, 'update_event', { event_id: eventId, status: 'open' }))).toMatchObject({ status: 'open' });
    expect((await t.api('GET', `/events/${eventId}`)).body).toMatchObject({ name: 'Renamed Hack', status: 'open' });
    expect(toolProblem(await callTool(other, 'update_event', { event_id: eventId, name: 'Mine now' }))).toMatchObject({
      code: 'forbidden',
      status: 403,
    });
    expect(toolProblem(await callTool(org, 'update_event', { event_id: eventId, status: 'closed' }))).toMatchObject({
      code: 'validation_failed',
    });
  });

  it('start_judging, list_reviews and rerun_reviews drive judging as the REST routes do', async () => {
    const eventId = await newEvent();
    const { team } = await approvedTeam(t, eventId, organizer.key);
    const submitted = await t.api('POST', `/events/${eventId}/submit`, {
      key: team.key,
      body: { project_name: 'Judged', github_url: 'https://github.com/example/judged' },
    });
    expect(submitted.status).toBe(201);

    // Not judging yet: re-running is the REST refusal.
    expect(toolProblem(await callTool(org, 'rerun_reviews', { event_id: eventId }))).toMatchObject({ code: 'not_judging', status: 409 });
    expect(toolProblem(await callTool(other, 'start_judging', { event_id: eventId }))).toMatchObject({ code: 'forbidden' });

    const judging = toolOk(await callTool(org, 'start_judging', { event_id: eventId }));
    expect(judging).toMatchObject({ id: eventId, status: 'judging' });
    expect((await t.api('GET', `/events/${eventId}`)).body.status).toBe('judging');
    // Submissions are closed now.
    const late = await t.api('POST', `/events/${eventId}/submit`, {
      key: team.key,
      body: { project_name: 'Late', github_url: 'https://github.com/example/late' },
    });
    expect(late.body.code).toBe('submission_closed');

    const now = t.clock.now().toISOString();
    await t.ctx.db
      .insertInto('reviews')
      .values({
        id: newId('rev'),
        event_id: eventId,
        project_id: submitted.body.id,
        reviewer_kind: 'model',
        reviewer: 'openai/gpt-4o-mini',
        group_key: 'openai/gpt-4o-mini',
        status: 'failed',
        last_error: 'provider said no',
        attempts: 3,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const reviews = toolOk(await callTool(org, 'list_reviews', { event_id: eventId, status: 'failed' }));
    expect(reviews.items).toHaveLength(1);
    expect(reviews.items[0]).toMatchObject({ project_id: submitted.body.id, status: 'failed', failure_reason: 'provider said no' });
    expect(reviews.next_cursor).toBeNull();
    expect(toolProblem(await callTool(other, 'list_reviews', { event_id: eventId }))).toMatchObject({ code: 'forbidden' });

    expect(toolProblem(await callTool(other, 'rerun_reviews', { event_id: eventId }))).toMatchObject({ code: 'forbidden' });
    const rerun = toolOk(await callTool(org, 'rerun_reviews', { event_id: eventId, idempotency_key: 'rerun-1' }));
    expect(rerun).toEqual({ event_id: eventId, requeued: 1 });
    // The same key answers the first answer again instead of a second re-run.
    expect(toolOk(await callTool(org, 'rerun_reviews', { event_id: eventId, idempotency_key: 'rerun-1' }))).toEqual(rerun);
  });

  it('cancel_event cancels for good; get_result then says the results never come', async () => {
    const eventId = await newEvent();
    expect(toolProblem(await callTool(other, 'cancel_event', { event_id: eventId }))).toMatchObject({ code: 'forbidden' });
    expect(toolOk(await callTool(org, 'cancel_event', { event_id: eventId }))).toMatchObject({ id: eventId, status: 'cancelled' });
    expect((await t.api('GET', `/events/${eventId}`)).body.status).toBe('cancelled');
    const refused = toolProblem(await callTool(org, 'start_judging', { event_id: eventId }));
    expect(refused).toMatchObject({ code: 'invalid_transition', status: 409 });
    expect(refused.action).toMatch(/get_event/);
    const result = toolProblem(await callTool(org, 'get_result', { event_id: eventId }));
    expect(result).toMatchObject({ code: 'results_not_published', event_status: 'cancelled' });
    expect(result.retry_after_seconds).toBeUndefined();
  });

  it("a refused call carries the problem's code, detail and next action, and the Retry-After as a number", async () => {
    const eventId = await newEvent();
    const result = toolProblem(await callTool(org, 'get_result', { event_id: eventId }));
    expect(result).toMatchObject({
      code: 'results_not_published',
      status: 409,
      event_status: 'open',
      retry_after_seconds: POLL_MAX_SECONDS,
      detail: expect.stringContaining('not been published'),
      action: expect.stringContaining('get_result'),
    });
    t.clock.set(T0.getTime() + 2 * DAY + HOUR);
    expect(toolProblem(await callTool(org, 'get_result', { event_id: eventId }))).toMatchObject({ event_status: 'judging' });

    // A refusal made by the tool's own schema has an action too (from the problem catalog).
    const invalid = toolProblem(await callTool(org, 'get_event', {}));
    expect(invalid).toMatchObject({ code: 'validation_failed', detail: expect.any(String), action: expect.any(String) });
    expect(invalid.action.length).toBeGreaterThan(10);

    const team = await t.user();
    const teamClient = await connectMcp(t, team.key, 'mcp-organizer-test');
    try {
      const notRegistered = toolProblem(await callTool(teamClient, 'get_my_registration', { event_id: eventId }));
      expect(notRegistered).toMatchObject({ code: 'not_registered', action: expect.stringContaining('register_team') });
      const unknown = toolProblem(await callTool(teamClient, 'get_event', { event_id: 'evt_nope' }));
      expect(unknown).toMatchObject({ code: 'event_not_found', action: expect.stringContaining('list_events') });
    } finally {
      await teamClient.close();
    }
  });
});
