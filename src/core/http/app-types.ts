import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Principal } from '../principal.js';

/**
 * What every route module sees of the HTTP layer: the typed Fastify instance it registers on, the
 * per-route flags the hooks read, and the caller on each request. Route modules import these from
 * here (core), never from the wiring (app.ts, app-context.ts).
 */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs a valid API key. */
    auth?: boolean;
    /** Errors carry `success: false` (the agent creation endpoint's envelope). */
    envelope?: boolean;
    /** Not counted against rate limits (health checks). */
    skipRateLimit?: boolean;
    /** A review-scoped key (made by accepting an invitation) may call this route; it is refused everywhere else. */
    reviewKeyAllowed?: boolean;
    /** Honours an `Idempotency-Key` header (src/idempotency): retries replay the first answer. Needs `auth`. */
    idempotent?: boolean;
    /** A key of an account still waiting for its owner's confirmation may call this route (status, its own rotation and revocation). */
    unconfirmedAllowed?: boolean;
    /** Sign-in/up and password-reset: checked for login CSRF by origin only (no session token exists yet). */
    loginCsrf?: boolean;
    /**
     * The route's MCP tool (or tools: several may share a route, e.g. update_event and start_judging).
     * src/mcp builds the tool from the route itself (method, path, params, query or body schema,
     * `idempotent`, `reviewKeyAllowed`) plus these few MCP-only facts.
     */
    mcp?: McpToolConfig | readonly McpToolConfig[];
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** Who sees a tool in tools/list (src/mcp filters by the caller's role and key scope). */
export type McpToolRole = 'participant' | 'reviewer' | 'organizer';

/** What a route's MCP tool adds to the route's own definition (see `mcp` in FastifyContextConfig). */
export interface McpToolConfig {
  /** Shared with the agent guides: never rename a tool. */
  name: string;
  title: string;
  /** One or two sentences: what it does and what to call next; not what the input schema already says. */
  description: string;
  /** participant: any account (public reads, teams, votes, webhooks); reviewer: needs `reviewKeyAllowed`; organizer. */
  role: McpToolRole;
  /** It may destroy or overwrite something (default false). */
  destructive?: boolean;
  /** Calling it twice equals calling it once (default: true for GET, PUT, PATCH, DELETE; false for POST). */
  idempotent?: boolean;
  /** Path parameters renamed as tool arguments (default: `id` after its collection, `/events/:id` → event_id; others snake_case). */
  params?: Readonly<Record<string, string>>;
  /** Argument descriptions by tool argument name, where the route's schema says too little for an agent. */
  args?: Readonly<Record<string, string>>;
  /** Query or body members the tool does not offer (a CSV format, web-only switches). */
  omit?: readonly string[];
  /** A numeric response header the result carries as a property (absent: 0). */
  countHeader?: { header: string; property: string };
  /** The whole body the tool sends (a status change): it takes its path arguments only. */
  fixedBody?: Readonly<Record<string, unknown>>;
  /** The route takes raw bytes: the tool takes `data_base64` and `content_type` (one of these); its other arguments go in the query. */
  rawBody?: { contentTypes: readonly string[] };
}

/** The caller, for routes declared with `config: { auth: true }` (the auth hook guarantees it). */
export function principalOf(request: { principal: Principal | null }): Principal {
  if (!request.principal) throw new Error('route is missing config.auth');
  return request.principal;
}
