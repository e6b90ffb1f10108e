import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { TestApp } from './harness.js';

/**
 * The MCP tools the server must offer (an organizer sees them all): written out here (not taken from
 * src/mcp) so that a tool added, renamed or dropped is a deliberate change to the tests too.
 */
export const EXPECTED_MCP_TOOLS = [
  'list_events',
  'get_event',
  'get_registration_form',
  'register_team',
  'get_my_registration',
  'submit_project',
  'upload_project_screenshot',
  'remove_project_screenshot',
  'get_result',
  'list_gallery',
  'get_gallery_project',
  'vote_for_project',
  'withdraw_vote',
  'get_my_votes',
  'get_peoples_choice',
  'get_result_bundle',
  'get_result_winners',
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
  'find_team',
  'set_team_finder_entry',
  'request_to_join_team',
  'answer_join_request',
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
  'accept_review_invitation',
  'get_review_queue',
  'get_my_review',
  'save_review',
  'declare_conflict',
  'list_ai_models',
  'post_announcement',
  'list_announcements',
] as const;

/** The tools a review-scoped key sees (and only these). */
export const REVIEWER_MCP_TOOLS = ['accept_review_invitation', 'get_review_queue', 'get_my_review', 'save_review', 'declare_conflict'] as const;

/**
 * Calls a tool. Every test calls tools through this helper, written `callTool(client, '<tool name>', …)`:
 * test/api/mcp-tools.test.ts reads the test sources for these calls to find tools no test calls.
 */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}, options?: RequestOptions): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, options)) as CallToolResult;
}

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
