import { describe, expect, it } from 'vitest';
import { MCP_TOOL_NAMES, MCP_TOOLS, nextCursorOf, toolPath } from '../../src/mcp/mcp-tools.js';

describe('MCP tool catalogue', () => {
  it('defines each shared tool name exactly once', () => {
    expect(MCP_TOOLS.map((t) => t.name)).toEqual([...MCP_TOOL_NAMES]);
  });

  it('requires every path argument and names a hole for each', () => {
    for (const tool of MCP_TOOLS) {
      const holes = [...tool.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(holes, tool.name).toEqual(tool.pathArgs);
      for (const arg of tool.pathArgs) expect(tool.inputSchema.required, tool.name).toContain(arg);
    }
  });

  it('gives every list tool an items + next_cursor output and every other an object output', () => {
    for (const tool of MCP_TOOLS) {
      expect(tool.outputSchema.type, tool.name).toBe('object');
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
    }
    const lists = MCP_TOOLS.filter((tool) => tool.list);
    expect(lists.map((tool) => tool.name).sort()).toEqual([
      'get_audit_log',
      'get_leaderboard',
      'get_result',
      'list_assignments',
      'list_events',
      'list_gallery',
      'list_registrations',
      'list_reviews',
      'list_webhook_deliveries',
      'list_webhooks',
    ]);
    // get_leaderboard also says how many projects are still being recomputed (Leaderboard-Pending).
    for (const tool of lists)
      expect(tool.outputSchema.required, tool.name).toEqual(tool.name === 'get_leaderboard' ? ['items', 'next_cursor', 'pending'] : ['items', 'next_cursor']);
  });

  it('marks read tools read-only and the irreversible ones destructive', () => {
    const byName = Object.fromEntries(MCP_TOOLS.map((t) => [t.name, t]));
    for (const tool of MCP_TOOLS) expect(tool.annotations.readOnlyHint, tool.name).toBe(tool.method === 'GET');
    expect(byName.publish_results!.annotations.destructiveHint).toBe(true);
    expect(byName.reject_registration!.annotations.destructiveHint).toBe(true);
    expect(byName.create_event!.annotations.destructiveHint).toBe(false);
  });
});

describe('toolPath', () => {
  it('fills the holes percent-encoded, so an argument cannot reach another route', () => {
    const approve = MCP_TOOLS.find((t) => t.name === 'approve_registration')!;
    expect(toolPath(approve, { event_id: 'evt_1', registration_id: 'reg_2' })).toBe('/events/evt_1/registrations/reg_2/approve');
    expect(toolPath(approve, { event_id: '../x?y=1', registration_id: 'a/b' })).toBe('/events/..%2Fx%3Fy%3D1/registrations/a%2Fb/approve');
  });
});

describe('nextCursorOf', () => {
  it('reads the cursor of the rel="next" link', () => {
    expect(nextCursorOf('<http://h.test/api/v1/events?limit=1&cursor=evt_abc>; rel="next"')).toBe('evt_abc');
    expect(nextCursorOf('<http://h.test/a?cursor=p>; rel="prev", <http://h.test/a?cursor=n%3D>; rel=next')).toBe('n=');
  });

  it('is null without a next link', () => {
    expect(nextCursorOf(undefined)).toBeNull();
    expect(nextCursorOf('<http://h.test/a?cursor=p>; rel="prev"')).toBeNull();
    expect(nextCursorOf('<not a url>; rel="next"')).toBeNull();
  });
});
