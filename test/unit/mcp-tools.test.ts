import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { createMcpToolRegistry, nextCursorOf, toolPath, toolsOfRoute, visibleRoles, type RouteFacts } from '../../src/mcp/mcp-tools.js';

const EventParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const mcp = { name: 'do_it', title: 'Do it', description: 'Does it.', role: 'organizer' } as const;

function route(overrides: Partial<RouteFacts>): RouteFacts {
  return { method: 'POST', url: '/api/v1/events/:id/things', config: { auth: true, mcp }, schema: { params: EventParams }, ...overrides };
}

describe('toolsOfRoute: a tool built from its route', () => {
  it('takes the method, the path with renamed holes, the body as arguments and the idempotency key from the route', () => {
    const [tool] = toolsOfRoute(
      route({
        config: { auth: true, idempotent: true, mcp },
        schema: {
          params: Type.Object({ id: Type.String(), pid: Type.String(), userId: Type.String() }),
          body: Type.Object({ note: Type.String({ maxLength: 10 }), count: Type.Integer({ default: 1 }) }),
          response: { 201: Type.Object({ ok: Type.Boolean() }) },
        },
        url: '/api/v1/events/:id/projects/:pid/reviewers/:userId',
      }),
    );
    expect(tool).toMatchObject({
      name: 'do_it',
      method: 'POST',
      path: '/events/{event_id}/projects/{project_id}/reviewers/{user_id}',
      pathArgs: ['event_id', 'project_id', 'user_id'],
      list: false,
      noContent: false,
      idempotencyKey: true,
      annotations: { title: 'Do it', readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    });
    // A defaulted member is offered but not required; the JSON is plain (no TypeBox symbols).
    expect(tool!.inputSchema.required).toEqual(['event_id', 'project_id', 'user_id', 'note']);
    expect(Object.keys(tool!.inputSchema.properties)).toEqual(['event_id', 'project_id', 'user_id', 'note', 'count', 'idempotency_key']);
    expect(tool!.inputSchema.properties.event_id).toMatchObject({ type: 'string', description: 'event id (evt_…), from list_events' });
    expect(Object.getOwnPropertySymbols(tool!.inputSchema.properties.note)).toEqual([]);
  });

  it('reads a list from an array answer, 204 as no content, GET as read-only, and a regex path parameter by its name', () => {
    const [list] = toolsOfRoute(
      route({ method: ['GET', 'HEAD'], schema: { params: EventParams, response: { 200: Type.Array(Type.String()), 404: Type.Object({}) } } }),
    );
    expect(list).toMatchObject({ list: true, annotations: { readOnlyHint: true, idempotentHint: true } });
    const [gone] = toolsOfRoute(
      route({
        method: 'DELETE',
        url: '/api/v1/events/:id/things/:thing_id(^(?!auto$).+)',
        schema: { params: Type.Object({ id: Type.String(), thing_id: Type.String() }), response: { 204: Type.Null() } },
      }),
    );
    expect(gone).toMatchObject({ noContent: true, path: '/events/{event_id}/things/{thing_id}', annotations: { idempotentHint: true } });
  });

  it('a fixed body takes only the path arguments; omitted members and an object-or-null body are handled', () => {
    const tools = toolsOfRoute(
      route({
        method: 'PATCH',
        config: { auth: true, mcp: [mcp, { ...mcp, name: 'stop_it', fixedBody: { status: 'stopped' } }] },
        schema: { params: EventParams, body: Type.Object({ status: Type.String(), name: Type.String() }) },
      }),
    );
    expect(tools.map((t) => Object.keys(t.inputSchema.properties))).toEqual([['event_id', 'status', 'name'], ['event_id']]);
    const [nullable] = toolsOfRoute(
      route({
        config: { auth: true, mcp: { ...mcp, omit: ['secret'] } },
        schema: { params: EventParams, body: Type.Union([Type.Object({ reason: Type.String(), secret: Type.Boolean() }), Type.Null()]) },
      }),
    );
    expect(Object.keys(nullable!.inputSchema.properties)).toEqual(['event_id', 'reason']);
  });

  it('refuses a declaration it cannot honour, at registration', () => {
    expect(() => toolsOfRoute(route({ config: { auth: true, mcp: { ...mcp, role: 'reviewer' } } }))).toThrow(/reviewKeyAllowed/);
    expect(() => toolsOfRoute(route({ config: { auth: true, reviewKeyAllowed: true, mcp } }))).toThrow(/reviewKeyAllowed/);
    expect(() => toolsOfRoute(route({ config: { auth: true, mcp: { ...mcp, omit: ['nothing'] } } }))).toThrow(/omits nothing/);
    expect(() => toolsOfRoute(route({ config: { auth: true, mcp: { ...mcp, args: { nothing: 'x' } } } }))).toThrow(/describes nothing/);
    expect(() => toolsOfRoute(route({ url: '/elsewhere/:id' }))).toThrow(/under \/api\/v1/);
    const registry = createMcpToolRegistry();
    registry.onRoute(route({}));
    expect(() => registry.onRoute(route({ url: '/api/v1/events/:id/other' }))).toThrow(/declared twice/);
    expect(toolsOfRoute(route({ config: { auth: true } }))).toEqual([]);
  });
});

describe('visibleRoles', () => {
  it('review keys see the reviewer tools; accounts the participant and reviewer ones; organizers all', () => {
    const roles = (role: 'user' | 'organizer' | 'admin', scope: 'full' | 'review', organizes = false) => [...visibleRoles({ role, scope }, organizes)].sort();
    expect(roles('user', 'review')).toEqual(['reviewer']);
    expect(roles('organizer', 'review')).toEqual(['reviewer']);
    expect(roles('user', 'full')).toEqual(['participant', 'reviewer']);
    expect(roles('user', 'full', true)).toEqual(['organizer', 'participant', 'reviewer']);
    expect(roles('organizer', 'full')).toEqual(['organizer', 'participant', 'reviewer']);
    expect(roles('admin', 'full')).toEqual(['organizer', 'participant', 'reviewer']);
  });
});

describe('toolPath', () => {
  it('fills the holes percent-encoded, so an argument cannot reach another route', () => {
    const approve = { path: '/events/{event_id}/registrations/{registration_id}/approve' };
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
