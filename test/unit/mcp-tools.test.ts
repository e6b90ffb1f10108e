import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { createMcpToolRegistry, listedTools, nextCursorOf, toolPath, toolsOfRoute, visibleRoles, type RouteFacts } from '../../src/mcp/mcp-tools.js';

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
    // A path argument keeps its type only (ids are all alike; the route checks them); a known one says where it comes from.
    expect(tool!.inputSchema.properties.event_id).toEqual({ type: 'string' });
    expect(tool!.inputSchema.properties.project_id).toEqual({ type: 'string', description: 'prj_…' });
    expect(Object.getOwnPropertySymbols(tool!.inputSchema.properties.note)).toEqual([]);
  });

  it('reads a list from an array answer, 204 as no content, GET as read-only, and a regex path parameter by its name', () => {
    const [list] = toolsOfRoute(
      route({ method: ['GET', 'HEAD'], schema: { params: EventParams, response: { 200: Type.Array(Type.String()), 404: Type.Object({}) } } }),
    );
    expect(list).toMatchObject({ list: true, annotations: { readOnlyHint: true, idempotentHint: true } });
    // A route that answers JSON or CSV declares its array under content.
    const [both] = toolsOfRoute(
      route({
        method: 'GET',
        schema: { params: EventParams, response: { 200: { description: 'rows', content: { 'application/json': { schema: Type.Array(Type.String()) } } } } },
      }),
    );
    expect(both!.list).toBe(true);
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

describe('listedTools: what tools/list shows', () => {
  it('drops output schemas and default hints, and says a long description or a large argument schema once', () => {
    const long = 'a description long enough to be worth saying only once in a list';
    const big = Type.Object({
      a: Type.String({ maxLength: 100 }),
      b: Type.String({ maxLength: 100 }),
      c: Type.Array(Type.String({ maxLength: 50 }), { maxItems: 9 }),
      d: Type.Integer({ minimum: 1, maximum: 100 }),
    });
    const make = (name: string) =>
      toolsOfRoute(
        route({
          url: `/api/v1/events/:id/${name}`,
          config: { auth: true, mcp: { ...mcp, name } },
          schema: { params: EventParams, body: Type.Object({ note: Type.String({ description: long }), settings: big }) },
        }),
      )[0]!;
    const [first, second] = listedTools([make('first'), make('second')]);
    expect(first!.inputSchema.properties.note).toEqual({ type: 'string', description: long });
    expect(second!.inputSchema.properties.note).toEqual({ type: 'string' });
    expect(first!.inputSchema.properties.settings).toMatchObject({ type: 'object', properties: { a: { maxLength: 100 } } });
    expect(second!.inputSchema.properties.settings).toEqual({ type: 'object', description: 'as in first' });
    expect(first!.annotations).toEqual({ destructiveHint: false, openWorldHint: false });
    expect(Object.keys(first!)).toEqual(['name', 'title', 'description', 'inputSchema', 'annotations']);
  });
});
