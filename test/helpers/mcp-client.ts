import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { TestApp } from './harness.js';

/**
 * The MCP tools the server must offer, in the order of the flow: written out here (not taken from
 * src/mcp) so that a tool added, renamed or dropped is a deliberate change to the tests too.
 */
export const EXPECTED_MCP_TOOLS = [
  'list_events',
  'get_event',
  'get_registration_form',
  'register_team',
  'get_my_registration',
  'submit_project',
  'get_result',
  'list_gallery',
  'get_gallery_project',
  'vote_for_project',
  'withdraw_vote',
  'get_my_votes',
  'get_peoples_choice',
  'get_result_bundle',
  'create_event',
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
  'create_webhook',
  'list_webhooks',
  'delete_webhook',
  'test_webhook',
  'list_webhook_deliveries',
  'retry_webhook_delivery',
  'get_team',
  'create_team_invitation',
  'revoke_team_invitation',
  'join_team',
  'leave_team',
  'remove_team_member',
  'hand_over_team',
  'rename_team',
  'withdraw_registration',
  'upload_event_media',
  'remove_event_media',
  'get_audit_log',
] as const;

/** An official MCP SDK client on the test server's /api/v1/mcp, authenticated with `key`. */
export async function connectMcp(t: TestApp, key: string, name = 'mcp-test'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/api/v1/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

/** The JSON a successful call returned (its structuredContent, which the text content repeats). */
export function toolOk(answer: unknown): any {
  const result = answer as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const text = (result.content[0] as { type: 'text'; text: string }).text;
  expect(JSON.parse(text)).toEqual(result.structuredContent);
  return result.structuredContent;
}

/** The problem document of a refused call (its one text content). */
export function toolProblem(answer: unknown): any {
  const result = answer as CallToolResult;
  expect(result.isError).toBe(true);
  expect(result.content).toHaveLength(1);
  expect(result.content[0]!.type).toBe('text');
  return JSON.parse((result.content[0] as { text: string }).text);
}
