import type { FastifyContextConfig } from 'fastify';
import type { McpToolConfig, McpToolRole } from '../core/http/app-types.js';
import type { Principal } from '../core/principal.js';

/** The prefix every tool's REST route sits under. */
export const API_PREFIX = '/api/v1';

/** A JSON Schema object as MCP wants it for `inputSchema`. */
export interface ObjectJsonSchema {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  additionalProperties?: boolean;
  [keyword: string]: unknown;
}

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export type ToolMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * One tool, built from its REST route (src/mcp/mcp-tools.ts `toolsOfRoute`): how its arguments map
 * onto the route. Path arguments fill the `{name}` holes of `path`; every other argument goes to the
 * query string (GET, DELETE, raw-body routes) or the JSON body (POST, PUT, PATCH).
 */
export interface ToolSpec {
  name: string;
  description: string;
  role: McpToolRole;
  annotations: ToolAnnotations;
  method: ToolMethod;
  /** Under /api/v1, with `{event_id}`-style holes named after the path arguments. */
  path: string;
  /** The route's own path (Fastify syntax, under /api/v1), to find it again (`app.hasRoute`). */
  routeUrl: string;
  /** The path arguments (tool argument names), in path order. */
  pathArgs: string[];
  inputSchema: ObjectJsonSchema;
  /** The route answers a bare JSON array (one page): the result is `{ items, next_cursor }`. */
  list: boolean;
  countHeader?: { header: string; property: string };
  /** The route keeps Idempotency-Key answers (`config.idempotent`): the tool takes `idempotency_key`. */
  idempotencyKey: boolean;
  fixedBody?: Readonly<Record<string, unknown>>;
  /** The route answers 204: the result is `{ <path arguments>, deleted: true }` for a DELETE, `{ done: true }` otherwise. */
  noContent: boolean;
  rawBody?: { contentTypes: readonly string[] };
  /** A review-scoped key may call the route (`config.reviewKeyAllowed`). */
  reviewKeyAllowed: boolean;
}

/** What `toolsOfRoute` reads of a Fastify route (the `onRoute` hook's options). */
export interface RouteFacts {
  method: string | readonly string[];
  url: string;
  config?: FastifyContextConfig;
  schema?: { params?: unknown; querystring?: unknown; body?: unknown; response?: unknown };
}

/**
 * Every write tool whose route keeps Idempotency-Key answers takes the key as an argument: a client
 * that retries a call after a lost answer sends the same key and gets the first answer again.
 */
export const IDEMPOTENCY_ARG = 'idempotency_key';
const IDEMPOTENCY_ARG_SCHEMA = { type: 'string', description: 'Idempotency-Key: a retry with the same key replays the first answer' };

/** Path parameters the routes abbreviate, and their tool argument names. */
const PARAM_NAMES: Readonly<Record<string, string>> = { pid: 'project_id', rid: 'registration_id' };

/** Descriptions of the common path arguments (where to find the id); a route's `mcp.args` overrides. */
const ARG_HINTS: Readonly<Record<string, string>> = {
  project_id: 'prj_…',
  registration_id: 'reg_…, from list_registrations',
  webhook_id: 'whk_…, from list_webhooks',
  delivery_id: 'msg_…, from list_webhook_deliveries',
  cursor: 'next_cursor of the previous page',
};

/** Schema keywords an agent does not need to call a tool (they only cost tokens). */
const NOISE_KEYWORDS = new Set(['$id', '$schema', 'title', 'examples', 'example', 'errorMessage']);

const TOOL_METHODS: readonly ToolMethod[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

function toolError(route: RouteFacts, message: string): Error {
  return new Error(`MCP tool of ${[route.method].flat().join(',')} ${route.url}: ${message}`);
}

type Json = Record<string, unknown>;

/**
 * The same schema in fewer bytes: a union of string constants becomes an `enum`, and `X or null`
 * (for an X of one `type`) becomes `type: [X's type, "null"]`. A reviver, so it works bottom-up.
 */
function shorter(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const s = value as Json;
  const branches = s.anyOf as Json[] | undefined;
  if (!Array.isArray(branches) || s.type !== undefined) return s;
  const { anyOf: _branches, ...rest } = s;
  if (branches.every((b) => b.type === 'string' && 'const' in b && Object.keys(b).length === 2)) {
    return { type: 'string', enum: branches.map((b) => b.const), ...rest };
  }
  const nonNull = branches.filter((b) => b.type !== 'null');
  if (branches.length === 2 && nonNull.length === 1 && typeof nonNull[0]!.type === 'string') {
    const [only] = nonNull as [Json];
    const enumWithNull = Array.isArray(only.enum) ? { enum: [...(only.enum as unknown[]), null] } : {};
    return { ...only, ...rest, type: [only.type, 'null'], ...enumWithNull };
  }
  return s;
}

/**
 * Plain, short JSON Schema (the JSON round trip drops TypeBox's symbols), without the noise keywords.
 * A keyword is dropped only where it is a keyword: a property named like one (an announcement's
 * `title`) stays.
 */
function plain(schema: unknown): Json {
  const walk = (value: unknown, names: boolean): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v, false));
    if (typeof value !== 'object' || value === null) return value;
    const out: Json = {};
    for (const [key, v] of Object.entries(value as Json)) {
      if (!names && NOISE_KEYWORDS.has(key)) continue;
      out[key] = walk(v, !names && (key === 'properties' || key === 'patternProperties'));
    }
    return names ? out : shorter(out);
  };
  return walk(JSON.parse(JSON.stringify(schema)), false) as Json;
}

interface ObjectSource {
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  anyOf?: unknown[];
}

/** The object a query or body schema describes (the object branch of `object | null` bodies). */
function objectOf(route: RouteFacts, schema: unknown): ObjectSource {
  if (schema === undefined) return { properties: {}, required: [] };
  let s = plain(schema);
  // `object | null` (an optional body), shortened above: the tool takes the object.
  if (Array.isArray(s.type) && s.type.includes('object')) s = { ...s, type: 'object' };
  if (!s.properties && Array.isArray(s.anyOf)) {
    const objects = (s.anyOf as Array<Record<string, unknown>>).filter((b) => b.type === 'object');
    if (objects.length !== 1) throw toolError(route, 'its body must be an object, or one object or null');
    s = objects[0]!;
  }
  if (s.type !== 'object' || typeof s.properties !== 'object') throw toolError(route, 'its query and body schemas must be objects');
  return {
    properties: s.properties as ObjectSource['properties'],
    required: (s.required as string[] | undefined) ?? [],
    ...(Array.isArray(s.anyOf) ? { anyOf: s.anyOf as unknown[] } : {}),
  };
}

/** `/events/:id` → event_id; `userId` → user_id; `pid` → project_id. */
function argNameOf(param: string, previousSegment: string | undefined, renames: Readonly<Record<string, string>> | undefined): string {
  if (renames?.[param]) return renames[param];
  if (PARAM_NAMES[param]) return PARAM_NAMES[param];
  if (param === 'id' && previousSegment) return `${previousSegment.replace(/-/g, '_').replace(/s$/, '')}_id`;
  return param.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function responsesOf(route: RouteFacts): Record<string, unknown> {
  return (route.schema?.response ?? {}) as Record<string, unknown>;
}

/** Whether a 200 answer is a JSON array: its schema, or the JSON one of its `content` (a route answering CSV too). */
function isArraySchema(response: unknown): boolean {
  const r = response as { type?: unknown; content?: Record<string, { schema?: { type?: unknown } }> } | undefined;
  return r?.type === 'array' || r?.content?.['application/json']?.schema?.type === 'array';
}

/**
 * The MCP tools a route declares (`config.mcp`), built from the route's own definition: method,
 * path, path parameters, query or body schema, `idempotent` and `reviewKeyAllowed` come from the
 * route; the name, words, role and quirks from `config.mcp`. Throws on a route it cannot describe,
 * so a wrong declaration stops the server at start, not an agent at call time.
 */
export function toolsOfRoute(route: RouteFacts): ToolSpec[] {
  const declared = route.config?.mcp;
  if (!declared) return [];
  const methods = [route.method].flat().filter((m) => m !== 'HEAD');
  // The HEAD twin Fastify adds to each GET route: the GET is the tool.
  if (methods.length === 0) return [];
  const method = methods[0] as ToolMethod | undefined;
  if (methods.length !== 1 || !method || !TOOL_METHODS.includes(method)) throw toolError(route, 'a tool needs exactly one of GET, POST, PUT, PATCH, DELETE');
  if (!route.url.startsWith(`${API_PREFIX}/`)) throw toolError(route, `tools are routes under ${API_PREFIX}`);
  return ([] as McpToolConfig[]).concat(declared as McpToolConfig | McpToolConfig[]).map((mcp) => buildTool(route, method, mcp));
}

function buildTool(route: RouteFacts, method: ToolMethod, mcp: McpToolConfig): ToolSpec {
  const reviewKeyAllowed = route.config?.reviewKeyAllowed === true;
  if ((mcp.role === 'reviewer') !== reviewKeyAllowed) {
    throw toolError(route, `${mcp.name}: role 'reviewer' goes with config.reviewKeyAllowed (and only with it)`);
  }
  const segments = route.url.slice(API_PREFIX.length).split('/');
  const params = plain(route.schema?.params ?? { properties: {} }).properties as Record<string, Record<string, unknown>> | undefined;
  const pathArgs: string[] = [];
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  const path = segments
    .map((segment, i) => {
      const m = /^:(\w+)/.exec(segment);
      if (!m) return segment;
      const param = m[1]!;
      const arg = argNameOf(param, segments[i - 1], mcp.params);
      const schema = params?.[param];
      if (!schema) throw toolError(route, `path parameter ${param} has no schema`);
      pathArgs.push(arg);
      // Its type (and values) only: the route checks the rest, and ids are all alike.
      properties[arg] = {
        type: schema.type,
        ...(schema.enum ? { enum: schema.enum } : {}),
        ...(schema.description ? { description: schema.description } : {}),
      };
      required.push(arg);
      return `{${arg}}`;
    })
    .join('/');

  const statuses = Object.keys(responsesOf(route));
  const noContent = statuses.includes('204') && statuses.every((s) => s === '204' || Number(s) >= 300);
  let source: ObjectSource = { properties: {}, required: [] };
  if (mcp.rawBody) {
    source = objectOf(route, route.schema?.querystring);
    source.properties = {
      content_type: { enum: [...mcp.rawBody.contentTypes], description: 'what the bytes are' },
      data_base64: { type: 'string', minLength: 4, pattern: '^[A-Za-z0-9+/]+={0,2}$', description: 'the file, base64 (no data: prefix)' },
      ...source.properties,
    };
    source.required = ['content_type', 'data_base64', ...source.required];
  } else if (mcp.fixedBody) {
    // The body is fixed: only the path arguments.
  } else if (method === 'GET' || method === 'DELETE') {
    source = objectOf(route, route.schema?.querystring);
  } else {
    if (route.schema?.querystring !== undefined) throw toolError(route, 'a JSON-body tool cannot also take a query');
    source = objectOf(route, route.schema?.body);
  }
  const omit = new Set(mcp.omit ?? []);
  for (const [name, schema] of Object.entries(source.properties)) {
    if (omit.has(name)) continue;
    if (properties[name]) throw toolError(route, `argument ${name} is both a path parameter and a query or body member`);
    properties[name] = schema;
    if (source.required.includes(name) && !('default' in schema)) required.push(name);
  }
  for (const name of omit) if (!(name in source.properties)) throw toolError(route, `${mcp.name} omits ${name}, which the route does not take`);
  const idempotencyKey = route.config?.idempotent === true;
  if (idempotencyKey) properties[IDEMPOTENCY_ARG] = IDEMPOTENCY_ARG_SCHEMA;
  for (const [arg, schema] of Object.entries(properties)) {
    const hint = mcp.args?.[arg] ?? ARG_HINTS[arg];
    // A cursor is opaque: what to pass is all an agent needs (the route checks the rest).
    if (arg === 'cursor') properties[arg] = { type: 'string', description: hint };
    else if (hint) properties[arg] = { ...schema, description: hint };
  }
  for (const arg of Object.keys(mcp.args ?? {})) if (!properties[arg]) throw toolError(route, `${mcp.name} describes ${arg}, which it does not take`);

  const inputSchema: ObjectJsonSchema = {
    type: 'object',
    properties,
    required,
    ...(source.anyOf ? { anyOf: source.anyOf } : {}),
    additionalProperties: false,
  };
  const readOnly = method === 'GET';
  return {
    name: mcp.name,
    description: mcp.description,
    role: mcp.role,
    annotations: {
      title: mcp.title,
      readOnlyHint: readOnly,
      destructiveHint: !readOnly && mcp.destructive === true,
      idempotentHint: mcp.idempotent ?? method !== 'POST',
      openWorldHint: false,
    },
    method,
    path,
    routeUrl: route.url,
    pathArgs,
    inputSchema,
    list: isArraySchema(responsesOf(route)['200']),
    ...(mcp.countHeader ? { countHeader: mcp.countHeader } : {}),
    idempotencyKey,
    ...(mcp.fixedBody ? { fixedBody: mcp.fixedBody } : {}),
    noContent,
    ...(mcp.rawBody ? { rawBody: mcp.rawBody } : {}),
    reviewKeyAllowed,
  };
}

/**
 * The tools of every route registered so far: `onRoute` is the app's hook (added before any route),
 * `all()` the tools in registration order once the routes are in.
 */
export interface McpToolRegistry {
  onRoute(route: RouteFacts): void;
  all(): readonly ToolSpec[];
  get(name: string): ToolSpec | undefined;
}

export function createMcpToolRegistry(): McpToolRegistry {
  const tools = new Map<string, ToolSpec>();
  return {
    onRoute(route) {
      for (const tool of toolsOfRoute(route)) {
        if (tools.has(tool.name)) throw toolError(route, `tool ${tool.name} is declared twice`);
        tools.set(tool.name, tool);
      }
    },
    all: () => [...tools.values()],
    get: (name) => tools.get(name),
  };
}

/** What tools/list shows of a tool (no output schema: the text content is the route's own JSON). */
export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: ObjectJsonSchema;
  annotations: Partial<Omit<ToolAnnotations, 'title'>>;
}

/** A property description this long is said once per list: later tools with the same property text omit it. */
const REPEATED_DESCRIPTION_MIN = 40;
/** An argument schema this long (JSON) is shown once per list: later tools point to the first (update_event's fields to create_event's). */
const REPEATED_SHAPE_MIN = 200;

/**
 * The tools as tools/list shows them, compact: no output schemas (they were two thirds of the list),
 * the title once, only the hints that differ from MCP's defaults (readOnly false, destructive true,
 * idempotent false, openWorld true), a long property description only where it first appears, a
 * large argument schema only in the first tool taking it (later ones say where), and no keyword the
 * call's check makes plain by its answer (`additionalProperties: false`, an empty `required`,
 * `minLength: 1`). The tool call itself is still checked against the tool's whole schema.
 */
export function listedTools(tools: readonly ToolSpec[]): ListedTool[] {
  const said = new Set<string>();
  const shapes = new Map<string, string>();
  const shownOnce = (tool: ToolSpec): ObjectJsonSchema => {
    const properties: ObjectJsonSchema['properties'] = {};
    for (const [name, schema] of Object.entries(tool.inputSchema.properties)) {
      const json = `${name}:${JSON.stringify(schema)}`;
      const first = json.length >= REPEATED_SHAPE_MIN ? shapes.get(json) : undefined;
      if (json.length >= REPEATED_SHAPE_MIN && !first) shapes.set(json, tool.name);
      properties[name] = first ? { type: schema.type, description: `as in ${first}` } : schema;
    }
    return { ...tool.inputSchema, properties };
  };
  const once = (value: unknown, names = false): unknown => {
    if (Array.isArray(value)) return value.map((v) => once(v));
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (!names && k === 'description' && typeof v === 'string' && v.length >= REPEATED_DESCRIPTION_MIN) {
        if (said.has(v)) continue;
        said.add(v);
      }
      // What the call's check says anyway, left out of the list: unknown arguments are refused
      // (`additionalProperties: false`), an empty `required`, and a string's "not empty" (`minLength: 1`).
      if (
        !names &&
        ((k === 'additionalProperties' && v === false) || (k === 'required' && Array.isArray(v) && v.length === 0) || (k === 'minLength' && v === 1))
      ) {
        continue;
      }
      out[k] = once(v, !names && (k === 'properties' || k === 'patternProperties'));
    }
    return out;
  };
  return tools.map((t) => {
    const a = t.annotations;
    const hints: ListedTool['annotations'] = a.readOnlyHint
      ? { readOnlyHint: true }
      : { ...(a.destructiveHint ? {} : { destructiveHint: false }), ...(a.idempotentHint ? { idempotentHint: true } : {}) };
    return {
      name: t.name,
      title: a.title,
      description: t.description,
      inputSchema: once(shownOnce(t)) as ObjectJsonSchema,
      annotations: { ...hints, openWorldHint: false },
    };
  });
}

/** Roles in the order the guides list them. */
export const TOOL_ROLES: readonly McpToolRole[] = ['participant', 'reviewer', 'organizer'];

/**
 * The roles whose tools a caller sees in tools/list: a review-scoped key the reviewer's; an account
 * the participant's and the reviewer's (anyone may be invited to review), and the organizer's when it
 * has the organizer or admin role or organizes an event (a co-organizer named by e-mail may be a plain user).
 * Only the list is filtered: a call is the REST call, and REST decides whether the caller may make it.
 */
export function visibleRoles(principal: Pick<Principal, 'role' | 'scope'>, organizesAnEvent: boolean): ReadonlySet<McpToolRole> {
  if (principal.scope === 'review') return new Set(['reviewer']);
  if (principal.role === 'organizer' || principal.role === 'admin' || organizesAnEvent) return new Set(TOOL_ROLES);
  return new Set(['participant', 'reviewer']);
}

/** The REST path of a call, its path arguments percent-encoded. */
export function toolPath(spec: Pick<ToolSpec, 'path'>, args: Record<string, unknown>): string {
  return spec.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(args[name])));
}

/** The cursor of the next page from a `Link: <…?cursor=…>; rel="next"` header, or null. */
export function nextCursorOf(link: string | undefined): string | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    const m = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (!m || !/\brel="?next"?/.test(m[2]!)) continue;
    try {
      return new URL(m[1]!).searchParams.get('cursor');
    } catch {
      return null;
    }
  }
  return null;
}
