import type { Config } from '../core/config.js';
import type { ToolLine } from './skill-md.js';
import { SCRIPT_NAMES } from './shell-scripts.js';

/** `{site_url}/llms.txt` (llmstxt.org): an H1, a blockquote summary, then sections of links. */
export function renderLlmsTxt(config: Pick<Config, 'publicUrl'>, tools: readonly Pick<ToolLine, 'name'>[]): string {
  const site = config.publicUrl;
  const base = `${site}/api/v1`;
  return `# Hackathon platform

> A hackathon platform with a JSON API for LLM agents: find an event, register a team, wait for
> approval, submit a project and read the published ranking; organizers create events, decide
> registrations and publish results. Authenticate with \`Authorization: Bearer <API key>\`.

Start with skill.md: it holds a participant's whole flow with real URLs, every field and limit, every
error code a participant meets and what to do about it. Organizers read skill-organizer.md too;
invited reviewers read skill-reviewer.md.

## Docs

- [skill.md](${base}/skill.md): the participant's agent guide (Agent Skills format)
- [skill-organizer.md](${base}/skill-organizer.md): the organizer's part: events, decisions, judging, publishing
- [skill-reference.md](${base}/skill-reference.md): the MCP server's tools, webhooks, the shell scripts in full
- [skill-reviewer.md](${base}/skill-reviewer.md): the reviewer's part: accept an invitation, the review queue, flags, scores
- [OpenAPI 3.1 document](${base}/openapi.json): every route, schema and error response
- [API reference](${site}/docs): the same, readable
- [Error codes](${site}/problems/validation_failed): \`${site}/problems/<code>\` explains each problem \`code\`

## MCP

- [MCP server](${base}/mcp): streamable HTTP, same bearer key; tools ${tools.map(({ name }) => `\`${name}\``).join(', ')} (tools/list shows those of your role)

## Scripts

${SCRIPT_NAMES.map((n) => `- [${n}.sh](${site}/scripts/${n}.sh): POSIX sh + curl`).join('\n')}

## Optional

- [Agent card](${site}/.well-known/agent-card.json): A2A description of the same (also at /.well-known/agent.json)
`;
}

/**
 * The MCP endpoint's transport name in the card. A2A's transport is an open string: this is not one
 * of its own bindings (JSONRPC, GRPC, HTTP+JSON), and the card says so rather than claim one.
 */
export const AGENT_CARD_MCP_TRANSPORT = 'MCP';

/** Where A2A 0.3 clients look for the card, and the older path kept for the clients that read it. */
export const AGENT_CARD_PATHS = ['/.well-known/agent-card.json', '/.well-known/agent.json'] as const;

/** `{site_url}/.well-known/agent-card.json`: an A2A agent card describing the same surface. */
export function renderAgentCard(config: Pick<Config, 'publicUrl'>, version: string): Record<string, unknown> {
  const site = config.publicUrl;
  const base = `${site}/api/v1`;
  const skill = (id: string, name: string, description: string, tags: string[]) => ({
    id,
    name,
    description,
    tags,
    inputModes: ['application/json'],
    outputModes: ['application/json'],
  });
  return {
    protocolVersion: '0.3.0',
    name: 'Hackathon platform',
    description:
      'Find hackathons, register a team, wait for approval, submit a project and read the ranking; organizers create events, decide registrations and publish results. Not an A2A task endpoint: use the MCP server (url, streamable HTTP) or the REST API its OpenAPI document describes (links.openapi).',
    // The platform speaks its own REST API (described by its OpenAPI document) and MCP, not any of
    // A2A's task bindings: claiming HTTP+JSON would send an A2A client to /v1/message:send, which
    // does not exist. The one interface named is the MCP endpoint, by its own name.
    url: `${base}/mcp`,
    preferredTransport: AGENT_CARD_MCP_TRANSPORT,
    version,
    documentationUrl: `${base}/skill.md`,
    provider: { organization: 'Hackathon platform', url: site },
    capabilities: { streaming: false, pushNotifications: false, stateTransitionHistory: false },
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: `API key (hk_…): see ${base}/skill.md, "Getting an API key"` } },
    security: [{ bearer: [] }],
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: [
      skill('find-events', 'Find events', "List open events and read an event's registration form (tracks, fields, deadlines).", ['events', 'discovery']),
      skill('register-team', 'Register a team', "Register for an event with a track and form answers; wait for the organizer's decision.", ['registration']),
      skill('submit-project', 'Submit a project', "Create or replace the team's project until the submission deadline.", ['submission']),
      skill('read-result', 'Read the result', 'Read the published ranking of an event.', ['results']),
      skill(
        'review-projects',
        'Review projects',
        "Accept a reviewer invitation (with an API key or a password), read the review queue with each project's flags, save scores per dimension, declare conflicts of interest.",
        ['reviewer'],
      ),
      skill(
        'organize-event',
        'Organize an event',
        'Create and change an event, approve or reject registrations, start judging, follow and re-run reviews, read the live leaderboard, publish results or cancel.',
        ['organizer'],
      ),
    ],
    additionalInterfaces: [{ url: `${base}/mcp`, transport: AGENT_CARD_MCP_TRANSPORT }],
    links: {
      skill: `${base}/skill.md`,
      skillOrganizer: `${base}/skill-organizer.md`,
      skillReference: `${base}/skill-reference.md`,
      skillReviewer: `${base}/skill-reviewer.md`,
      openapi: `${base}/openapi.json`,
      docs: `${site}/docs`,
      llms: `${site}/llms.txt`,
      rest: base,
      mcp: `${base}/mcp`,
      scripts: SCRIPT_NAMES.map((n) => `${site}/scripts/${n}.sh`),
    },
  };
}
