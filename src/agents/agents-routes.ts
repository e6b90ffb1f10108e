import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Type } from 'typebox';
import type { Config } from '../core/config.js';
import type { App } from '../core/http/app-types.js';
import { problems } from '../core/http/schemas.js';
import { ifNoneMatch } from '../core/http/etag.js';
import { NotModified } from '../results/results-schemas.js';
import { AGENT_CARD_PATHS, renderAgentCard, renderLlmsTxt } from './discovery.js';
import { SCRIPT_NAMES, renderScripts } from './shell-scripts.js';
import { renderSkillMd, renderSkillOrganizerMd, renderSkillReferenceMd, renderSkillReviewerMd, type ToolLine } from './skill-md.js';

/** A document generated once (on its first request, when every route is registered), served with a strong ETag. */
interface StaticDocument {
  readonly body: string;
  contentType: string;
  readonly etag: string;
  /** What the body is, for the route's response schema (text, or the JSON object of the agent card). */
  schema: ReturnType<typeof Type.String> | ReturnType<typeof Type.Object>;
}

function document(render: () => string, contentType: string, schema: StaticDocument['schema'] = Type.String()): StaticDocument {
  let rendered: { body: string; etag: string } | undefined;
  const once = () => {
    if (!rendered) {
      const body = render();
      rendered = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
    }
    return rendered;
  };
  return {
    contentType,
    schema,
    get body() {
      return once().body;
    },
    get etag() {
      return once().etag;
    },
  };
}

/** The package version: the same file sits two levels above both src/agents and dist/agents. */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

/** The material changes only with the configuration (a restart), so clients may keep it a while and then revalidate. */
const CACHE_CONTROL = 'public, max-age=300';

/**
 * Public and cheap: no key needed, not counted against rate limits, and readable with a review key
 * too (a key that is present is still checked, as everywhere).
 */
const ROUTE_CONFIG = { skipRateLimit: true, reviewKeyAllowed: true } as const;

function serve(app: App, url: string, doc: StaticDocument, summary: string) {
  app.get(
    url,
    {
      config: ROUTE_CONFIG,
      schema: {
        tags: ['agents'],
        summary,
        response: {
          // Documented under its real media type, so the OpenAPI document does not call it JSON.
          200: { description: summary, content: { [doc.contentType.split(';')[0]!]: { schema: doc.schema } } },
          304: NotModified,
          ...problems(401),
        },
      },
    },
    async (request, reply) => {
      reply.header('ETag', doc.etag).header('Cache-Control', CACHE_CONTROL);
      if (ifNoneMatch(request.headers['if-none-match'], doc.etag)) return reply.code(304).send();
      return reply.type(doc.contentType).send(doc.body);
    },
  );
}

/**
 * The agent material, generated from the live configuration, the code's own schemas and the MCP
 * tools (`tools`: read once the routes are registered, so the guides render on first request).
 */
export function agentMaterial(ctx: { config: Config }, tools: () => readonly ToolLine[]) {
  const version = packageVersion();
  const { config } = ctx;
  const scripts = renderScripts(config);
  return {
    skillMd: document(() => renderSkillMd({ config, version }), 'text/markdown; charset=utf-8'),
    skillOrganizerMd: document(() => renderSkillOrganizerMd({ config, version }, tools()), 'text/markdown; charset=utf-8'),
    skillReferenceMd: document(() => renderSkillReferenceMd({ config, version }, tools()), 'text/markdown; charset=utf-8'),
    skillReviewerMd: document(() => renderSkillReviewerMd({ config, version }, tools()), 'text/markdown; charset=utf-8'),
    llmsTxt: document(() => renderLlmsTxt(config, tools()), 'text/plain; charset=utf-8'),
    agentCard: document(
      () => JSON.stringify(renderAgentCard(config, version), null, 2),
      'application/json; charset=utf-8',
      Type.Object({ name: Type.String(), description: Type.String(), url: Type.String(), version: Type.String() }, { additionalProperties: true }),
    ),
    scripts: SCRIPT_NAMES.map((name) => ({ name, doc: document(() => scripts[name], 'text/x-shellscript; charset=utf-8') })),
  };
}

export type AgentMaterial = ReturnType<typeof agentMaterial>;

/** `{base_url}/skill.md` and the files it links; registered under the /api/v1 prefix. */
export function skillRoutes(material: AgentMaterial) {
  return async function plugin(app: App) {
    serve(app, '/skill.md', material.skillMd, "The participant's agent guide (Agent Skills file): the whole flow, fields, limits, error codes");
    serve(app, '/skill-organizer.md', material.skillOrganizerMd, "The organizer's agent guide: events, decisions, judging, publishing, organizer error codes");
    serve(app, '/skill-reference.md', material.skillReferenceMd, 'Agent reference: the MCP server and its tools, webhooks, the shell scripts');
    serve(
      app,
      '/skill-reviewer.md',
      material.skillReviewerMd,
      "The reviewer's agent guide: accept an invitation with a key, the queue, flags, save a review, declare a conflict",
    );
  };
}

/** `{site_url}/llms.txt`, the agent card (both well-known paths) and `{site_url}/scripts/<name>.sh`. */
export function discoveryRoutes(material: AgentMaterial) {
  return async function plugin(app: App) {
    serve(app, '/llms.txt', material.llmsTxt, 'llms.txt: where an LLM finds skill.md, the OpenAPI document, the MCP server and the scripts');
    const [current, older] = AGENT_CARD_PATHS;
    serve(app, current, material.agentCard, 'A2A agent card (A2A 0.3 path) describing the API and the MCP server');
    serve(app, older, material.agentCard, 'The same A2A agent card at its older path');
    for (const { name, doc } of material.scripts) {
      serve(app, `/scripts/${name}.sh`, doc, `Shell script ${name}.sh (POSIX sh + curl)`);
    }
  };
}
