import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  isInitializeRequest,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyRequest } from 'fastify';
import type { App } from '../core/http/app-types.js';
import type { Config } from '../core/config.js';
import { ERROR_CATALOG } from '../core/error-catalog.js';
import { AppError, ERROR_STATUS, toProblem, validationError, type ErrorCode as ProblemCode } from '../core/errors.js';
import { REQUEST_ID_HEADER } from '../core/http/request-id.js';
import { problems } from '../core/http/schemas.js';
import { ajvToFieldErrors, validatorCompiler } from '../core/http/validation.js';
import { McpAccepted, McpRequestBody, McpResponseBody } from './mcp-schemas.js';
import { IDEMPOTENCY_HEADER } from '../idempotency/idempotency-key.js';
import type { EventsService } from '../events/events-service.js';
import { MCP_NEXT_ACTIONS } from './mcp-next-actions.js';
import { IDEMPOTENCY_ARG, listedTools, nextCursorOf, toolPath, visibleRoles, type ListedTool, type McpToolRegistry, type ToolSpec } from './mcp-tools.js';

type ArgsValidator = ((data: unknown) => boolean) & { errors?: Parameters<typeof ajvToFieldErrors>[0] | null };

/** Request headers a tool call forwards to the REST route: the caller's identity, nothing else. */
const FORWARDED_HEADERS = ['authorization'] as const;

/**
 * The transport's own refusals, made here so they answer problem+json like every other client
 * mistake (the SDK would answer them with a bare JSON-RPC error).
 */
function checkTransportRules(request: FastifyRequest): void {
  const accept = request.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    throw new AppError('bad_request', 'An MCP client must send "Accept: application/json, text/event-stream".', {
      extra: {
        action: 'Send the header "Accept: application/json, text/event-stream" (and Content-Type: application/json) with every POST to the MCP endpoint.',
      },
    });
  }
  const messages = Array.isArray(request.body) ? (request.body as unknown[]) : [request.body];
  const errors = messages.flatMap((m, i) =>
    JSONRPCMessageSchema.safeParse(m).success
      ? []
      : [{ field: Array.isArray(request.body) ? String(i) : 'body', message: 'is not a JSON-RPC 2.0 request, notification or response' }],
  );
  if (errors.length) throw validationError(errors);
  const initializing = messages.some((m) => isInitializeRequest(m));
  if (initializing && messages.length > 1) {
    throw validationError([{ field: 'body', message: 'an initialize request must be sent alone' }]);
  }
  const version = request.headers['mcp-protocol-version'];
  if (!initializing && typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    throw new AppError('bad_request', `Unsupported MCP-Protocol-Version ${version}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`);
  }
}

/**
 * The MCP endpoint needs the configuration, the tools (collected from the routes as they are
 * registered) and whether a caller organizes an event (to list the organizer's tools): its tools
 * call the HTTP routes.
 */
export interface McpRoutesDeps {
  config: Config;
  mcpTools: McpToolRegistry;
  events: Pick<EventsService, 'list'>;
}

/**
 * The MCP server at `{base_url}/mcp`: streamable HTTP, stateless (a fresh SDK server per POST, no
 * sessions, JSON responses), behind the same bearer key and rate limits as every route.
 *
 * A tool call is the REST call itself, made in-process with `app.inject` and the caller's
 * Authorization header: validation, authorization, rate limits, idempotency and error codes are the
 * REST route's, with no second implementation to drift. The tool arguments are checked against the
 * tool's own input schema first (the same TypeBox schemas, flattened), so a wrong type is refused
 * exactly as the schema the client was shown says.
 */
export function mcpRoutes(ctx: McpRoutesDeps) {
  const { config, mcpTools } = ctx;
  // Compiled on first use: the routes (and so the tools) are registered after this plugin.
  const validators = new Map<string, ArgsValidator>();
  function validatorOf(spec: ToolSpec): ArgsValidator {
    let validate = validators.get(spec.name);
    if (!validate) {
      validate = validatorCompiler({ schema: spec.inputSchema, httpPart: 'body', method: 'POST', url: '/mcp' }) as unknown as ArgsValidator;
      validators.set(spec.name, validate);
    }
    return validate;
  }

  /** The few possible lists (by the set of roles shown), made once. */
  const lists = new Map<string, ListedTool[]>();
  /** The caller's tools: by key scope and role (see visibleRoles); a plain user who organizes an event sees the organizer's too. */
  async function toolsFor(request: FastifyRequest) {
    const principal = request.principal!;
    const plainUser = principal.scope !== 'review' && principal.role === 'user';
    const organizes = plainUser && (await ctx.events.list({ mine: true, limit: 1 }, principal)).events.length > 0;
    const roles = visibleRoles(principal, organizes);
    const key = [...roles].sort().join(',');
    let list = lists.get(key);
    if (!list) lists.set(key, (list = listedTools(mcpTools.all().filter((t) => roles.has(t.role)))));
    return list;
  }

  function toolError(err: AppError, requestId: string): CallToolResult {
    return refusal({ ...toProblem(err, config.publicUrl), request_id: requestId });
  }

  /**
   * A refused call: the REST problem document plus what an MCP-only client cannot get elsewhere
   * (it cannot open the \`type\` URL nor see headers): the next \`action\` as a sentence and the
   * \`Retry-After\` header as \`retry_after_seconds\`. Text content only: structuredContent is the
   * success's JSON.
   */
  function refusal(problem: Record<string, unknown>, retryAfter?: string | string[] | number): CallToolResult {
    const code = problem.code as ProblemCode | undefined;
    const known = code !== undefined && code in ERROR_STATUS;
    const action = known ? (MCP_NEXT_ACTIONS[code] ?? ERROR_CATALOG[code].action) : 'Read the detail; retrying unchanged is unlikely to help.';
    const seconds = Number(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
    const body = { ...problem, action, ...(Number.isFinite(seconds) && retryAfter !== undefined ? { retry_after_seconds: seconds } : {}) };
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
  }

  async function callTool(app: App, request: FastifyRequest, spec: ToolSpec, rawArgs: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    // A copy: the validator fills defaults in.
    const args: Record<string, unknown> = { ...rawArgs };
    const validate = validatorOf(spec);
    if (!validate(args)) return toolError(validationError(ajvToFieldErrors(validate.errors ?? [], 'body')), request.id);

    const rest = Object.fromEntries(Object.entries(args).filter(([k]) => !spec.pathArgs.includes(k) && k !== IDEMPOTENCY_ARG));
    let url = `/api/v1${toolPath(spec, args)}`;
    // The REST call runs under the MCP request's id: its log lines and its problem's request_id are the caller's.
    const headers: Record<string, string> = { [REQUEST_ID_HEADER]: request.id };
    for (const name of FORWARDED_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    if (typeof args[IDEMPOTENCY_ARG] === 'string') headers[IDEMPOTENCY_HEADER] = args[IDEMPOTENCY_ARG];
    let payload: string | Buffer | undefined;
    if (spec.rawBody) {
      // An image: the decoded bytes are the body, with their declared type; the rest is the query.
      const { data_base64, content_type, ...query } = rest as { data_base64: string; content_type: string } & Record<string, unknown>;
      payload = Buffer.from(data_base64, 'base64');
      headers['content-type'] = content_type;
      const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
      if ([...search.keys()].length) url += `?${search}`;
    } else if (spec.method === 'GET' || spec.method === 'DELETE') {
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries(rest)) query.set(k, String(v));
      if ([...query.keys()].length) url += `?${query}`;
    } else {
      // The remaining arguments are the JSON body (an empty object where the route takes none).
      payload = JSON.stringify({ ...rest, ...spec.fixedBody });
      headers['content-type'] = 'application/json';
    }

    // The signal ends a long-poll (get_my_registration with wait) when the MCP client goes away.
    const res = await app.inject({ method: spec.method, url, headers, signal, ...(payload !== undefined ? { payload } : {}) });
    const isJson = /json/i.test(String(res.headers['content-type'] ?? ''));
    const body: unknown = isJson && res.body ? JSON.parse(res.body) : res.body;
    if (res.statusCode >= 400) {
      // The REST problem document: the same code, detail and field errors, plus the next action.
      const problem = isJson && body && typeof body === 'object' ? (body as Record<string, unknown>) : { status: res.statusCode, detail: res.body };
      return refusal(problem, res.headers['retry-after']);
    }
    const link = res.headers.link as string | undefined;
    const structured: Record<string, unknown> =
      spec.noContent && spec.method === 'DELETE'
        ? { ...Object.fromEntries(spec.pathArgs.map((name) => [name, args[name]])), deleted: true }
        : res.statusCode === 204
          ? { done: true }
          : spec.list || Array.isArray(body)
            ? { items: body, next_cursor: nextCursorOf(link) }
            : (body as Record<string, unknown>);
    // An object answer with a page inside (a review queue, the reviewers): the next page's cursor too.
    if (!spec.list && 'cursor' in spec.inputSchema.properties) structured.next_cursor = nextCursorOf(link);
    if (spec.countHeader) structured[spec.countHeader.property] = Number(res.headers[spec.countHeader.header] ?? 0);
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  }

  function mcpServer(app: App, request: FastifyRequest, gone: AbortSignal): Server {
    const server = new Server(
      { name: 'hackathon-platform', title: 'Hackathon platform', version: '1.0.0' },
      {
        capabilities: { tools: {} },
        instructions: `Tools for the hackathon platform at ${config.publicUrl}: find an event (list_events), read its registration form, register_team, wait for the decision with get_my_registration (wait), submit_project, then get_result. Organizers: create_event, update_event, list_registrations, approve/reject_registration, invite_reviewer, start_judging, list_reviews, get_leaderboard, publish_results. Reviewers: accept_review_invitation, get_review_queue, save_review. tools/list shows the tools of your role. The full guide is ${config.publicUrl}/api/v1/skill.md. A refused call returns isError with the REST problem document: its \`code\`, \`detail\` and an \`action\` sentence saying what to do next.`,
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await toolsFor(request) }));
    // A tool missing from the caller's list still runs: the call is the REST call, and the REST
    // route decides whether this caller may make it (403 forbidden, say, with its reason).
    server.setRequestHandler(CallToolRequestSchema, async (call, extra) => {
      const spec = mcpTools.get(call.params.name);
      if (!spec) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${call.params.name}; tools/list names them.`);
      return callTool(app, request, spec, call.params.arguments ?? {}, AbortSignal.any([gone, extra.signal]));
    });
    return server;
  }

  return async function plugin(app: App) {
    app.post(
      '/mcp',
      {
        // Review-scoped keys too: they see the reviewer's tools, and each call is checked by its route.
        config: { auth: true, reviewKeyAllowed: true },
        schema: {
          tags: ['mcp'],
          summary: 'MCP server (streamable HTTP, stateless): JSON-RPC requests such as initialize, tools/list, tools/call',
          // Required: without a parsed body the SDK would try to read the request stream Fastify already consumed.
          body: McpRequestBody,
          response: { 200: McpResponseBody, 202: McpAccepted, ...problems(400, 401, 413, 415, 422, 429) },
        },
      },
      async (request, reply) => {
        checkTransportRules(request);
        // The SDK writes the answer itself: carry over what the hooks have set so far (rate-limit headers).
        reply.hijack();
        for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
        reply.raw.setHeader('x-content-type-options', 'nosniff');
        const gone = new AbortController();
        const server = mcpServer(app, request, gone.signal);
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        reply.raw.once('close', () => {
          gone.abort();
          void transport.close();
          void server.close();
        });
        try {
          await server.connect(transport);
          await transport.handleRequest(request.raw, reply.raw, request.body);
        } catch (err) {
          request.log.error({ err }, 'MCP request failed');
          if (!reply.raw.headersSent) {
            const problem = {
              ...toProblem(new AppError('internal_error', 'The MCP request failed on our side; it has been logged.'), config.publicUrl),
              request_id: request.id,
            };
            reply.raw.writeHead(500, { 'content-type': 'application/problem+json' }).end(JSON.stringify(problem));
          }
        }
      },
    );

    // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
    for (const method of ['GET', 'DELETE'] as const) {
      app.route({
        method,
        url: '/mcp',
        schema: { tags: ['mcp'], summary: 'Not supported: the MCP server is stateless (POST only)', response: problems(405, 429) },
        handler: async (_request, reply) => {
          reply.header('Allow', 'POST');
          throw new AppError('method_not_allowed', `The MCP endpoint is stateless: send JSON-RPC messages with POST ${config.publicUrl}/api/v1/mcp.`);
        },
      });
    }
  };
}
