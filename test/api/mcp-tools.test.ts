import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { connectMcp, EXPECTED_MCP_TOOLS, REVIEWER_MCP_TOOLS } from '../helpers/mcp-client.js';
import { createEvent, startTestApp, type TestApp } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';
import { toolPath } from '../../src/mcp/mcp-tools.js';

/** The bars of issue 29: the whole tools/list (the JSON of its `tools` array) a caller pays for before its first call. */
const PARTICIPANT_LIST_MAX_BYTES = 25_000;
const ORGANIZER_LIST_MAX_BYTES = 45_000;

const ORGANIZER_ONLY = [
  'create_event',
  'post_announcement',
  'list_registrations',
  'approve_registration',
  'reject_registration',
  'get_leaderboard',
  'publish_results',
  'set_feedback_release',
  'update_event',
  'start_judging',
  'cancel_event',
  'list_reviews',
  'rerun_reviews',
  'get_project_reviews',
  'set_project_flag',
  'remind_reviewer',
  'auto_assign_reviewers',
  'list_assignments',
  'set_assignment',
  'upload_event_media',
  'remove_event_media',
  'get_audit_log',
  'invite_reviewer',
  'list_reviewers',
  'remove_reviewer',
  'revoke_reviewer_invitation',
  'remind_reviewers',
  'set_assignment_mode',
  'get_assignment_summary',
  'add_reviewer_conflict',
  'remove_reviewer_conflict',
  'list_ai_models',
];

const bytes = (tools: Tool[]) => Buffer.byteLength(JSON.stringify(tools));

/** Every .ts file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('the tools every test calls (static scan of test/)', () => {
  const root = new URL('../', import.meta.url).pathname;
  const files = sources(root).map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }));

  it('calls tools only through the callTool helper, so the scan below sees every call', () => {
    const direct = files.filter((f) => f.path !== join('helpers', 'mcp-client.ts') && /\.callTool\(/.test(f.text)).map((f) => f.path);
    expect(direct).toEqual([]);
  });

  it('calls every tool in some test', () => {
    const called = new Set(files.flatMap((f) => [...f.text.matchAll(/\bcallTool\(\s*[\w.]+,\s*'([a-z_]+)'/g)].map((m) => m[1]!)));
    expect(EXPECTED_MCP_TOOLS.filter((name) => !called.has(name))).toEqual([]);
  });
});

describe.each(DIALECTS)('MCP tools/list and the routes behind it (%s)', (dialect) => {
  let t: TestApp;
  const clients: Client[] = [];
  const listFor = async (key: string) => {
    const client = await connectMcp(t, key, 'mcp-tools-test');
    clients.push(client);
    return (await client.listTools()).tools;
  };

  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { REVIEW_WORKERS: 'false' } });
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await t?.close();
  });

  it("shows each caller its role's tools, under the size bars", async () => {
    const organizer = await quickUser(t, 'organizer');
    const admin = await quickUser(t, 'admin');
    const participant = await quickUser(t);
    const reviewer = await quickUser(t);
    const reviewKey = (await t.ctx.accounts.issueReviewKey(reviewer.id, { name: 'review', replace: false })).issued!.key;

    const all = await listFor(organizer.key);
    expect(all.map((x) => x.name).sort()).toEqual([...EXPECTED_MCP_TOOLS].sort());
    expect((await listFor(admin.key)).map((x) => x.name)).toEqual(all.map((x) => x.name));

    const participants = await listFor(participant.key);
    expect(participants.map((x) => x.name).sort()).toEqual(EXPECTED_MCP_TOOLS.filter((n) => !ORGANIZER_ONLY.includes(n)).sort());
    expect(participants.map((x) => x.name)).toEqual(expect.arrayContaining([...REVIEWER_MCP_TOOLS]));

    const reviewers = await listFor(reviewKey);
    expect(reviewers.map((x) => x.name).sort()).toEqual([...REVIEWER_MCP_TOOLS].sort());

    // A plain user named as a co-organizer of an event organizes it: it sees the organizer's tools.
    const coOrganizer = await quickUser(t);
    expect((await listFor(coOrganizer.key)).map((x) => x.name)).not.toContain('approve_registration');
    await createEvent(t, organizer.key, { co_organizers: [coOrganizer.email] });
    expect((await listFor(coOrganizer.key)).map((x) => x.name).sort()).toEqual([...EXPECTED_MCP_TOOLS].sort());

    const sizes = { participant: bytes(participants), reviewer: bytes(reviewers), organizer: bytes(all) };
    // The measured sizes, for docs/agents.md.
    console.info(`tools/list sizes in bytes: ${JSON.stringify(sizes)}; tools: ${participants.length} / ${reviewers.length} / ${all.length}`);
    expect(sizes.participant).toBeLessThan(PARTICIPANT_LIST_MAX_BYTES);
    expect(sizes.organizer).toBeLessThan(ORGANIZER_LIST_MAX_BYTES);
  });

  it('lists compact tools: no output schema, short descriptions, plain JSON Schema inputs', async () => {
    const tools = await listFor((await quickUser(t, 'organizer')).key);
    for (const tool of tools) {
      expect(tool.outputSchema, tool.name).toBeUndefined();
      expect(tool.description!.length, tool.name).toBeLessThanOrEqual(320);
      expect(tool.inputSchema.type, tool.name).toBe('object');
      // Left out of the list: the call's check refuses unknown arguments (tested below).
      expect(tool.inputSchema.additionalProperties, tool.name).toBeUndefined();
      expect(JSON.stringify(tool.inputSchema), tool.name).not.toMatch(/"minLength":1[,}]|"required":\[\]/);
      // As keywords (a string or a list); a property named `title` (post_announcement) is an argument.
      expect(JSON.stringify(tool.inputSchema), tool.name).not.toMatch(/"(\$id|title|examples)":[^{]/);
      expect(tool.annotations?.openWorldHint, tool.name).toBe(false);
    }
  });

  it('maps every tool to a live route with its method and path', async () => {
    const specs = t.ctx.mcpTools.all();
    expect(specs.map((x) => x.name).sort()).toEqual([...EXPECTED_MCP_TOOLS].sort());
    for (const spec of specs) {
      expect(t.app.hasRoute({ method: spec.method, url: spec.routeUrl }), `${spec.name}: ${spec.method} ${spec.routeUrl}`).toBe(true);
      // The tool's own path template, filled with made-up values, reaches a route: never the
      // not_found of an unknown path nor the 405 of a wrong method (without a key: 401 or the route's own 404).
      const url = `/api/v1${toolPath(spec, Object.fromEntries(spec.pathArgs.map((arg) => [arg, arg === 'kind' ? 'logo' : `${arg}_1`])))}`;
      expect(url, spec.name).not.toMatch(/[{}]/);
      const res = await t.app.inject({ method: spec.method, url });
      expect([res.statusCode, res.json().code], `${spec.name}: ${spec.method} ${url}`).not.toEqual([404, 'not_found']);
      expect(res.statusCode, `${spec.name}: ${spec.method} ${url}`).not.toBe(405);
    }
  });
});
