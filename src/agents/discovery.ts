import type { Config } from '../core/config.js';
import { MCP_TOOL_LINES as MCP_TOOLS } from './skill-md.js';
import { SCRIPT_NAMES } from './shell-scripts.js';

/** `{site_url}/llms.txt` (llmstxt.org): an H1, a blockquote summary, then sections of links. */
export function renderLlmsTxt(config: Pick<Config, 'publicUrl'>): string {
  const site = config.publicUrl;
  const base = `${site}/api/v1`;
  return `# Hackathon platform

> A hackathon platform with a JSON API for LLM agents: find an event, register a team, wait for
> approval, submit a project and read the published ranking; organizers create events, decide
> registrations and publish results. Authenticate with \`Authorization: Bearer <API key>\`.

Start with skill.md: it holds the whole flow with real URLs, every field and limit, every error code
and what to do about it.

## Docs

- [skill.md](${base}/skill.md): the agent's guide (Agent Skills format)
- [OpenAPI 3.1 document](${base}/openapi.json): every route, schema and error response
- [API reference](${site}/docs): the same, readable
- [Error codes](${site}/problems/validation_failed): \`${site}/problems/<code>\` explains each problem \`code\`

## MCP

- [MCP server](${base}/mcp): streamable HTTP, same bearer key; tools ${MCP_TOOLS.map(([n]) => `\`${n}\``).join(', ')}

## Scripts

${SCRIPT_NAMES.map((n) => `- [${n}.sh](${site}/scripts/${n}.sh): POSIX sh + curl`).join('\n')}

## Optional

- [Agent card](${site}/.well-known/agent.json): A2A description of the same
`;
}

/** `{site_url}/.well-known/agent.json`: an A2A agent card describing the same surface. */
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
      'Find hackathons, register a team, wait for approval, submit a project and read the ranking; organizers create events, decide registrations and publish results.',
    // The platform speaks its own REST API and MCP, not A2A's task protocol: the card points at the
    // REST base (HTTP+JSON) and lists the MCP endpoint as a further interface.
    url: base,
    preferredTransport: 'HTTP+JSON',
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
      skill('organize-event', 'Organize an event', 'Create an event, approve or reject registrations, read the live leaderboard, publish results.', [
        'organizer',
      ]),
    ],
    additionalInterfaces: [
      { url: base, transport: 'HTTP+JSON' },
      { url: `${base}/mcp`, transport: 'MCP (streamable HTTP)' },
    ],
    links: {
      skill: `${base}/skill.md`,
      openapi: `${base}/openapi.json`,
      docs: `${site}/docs`,
      llms: `${site}/llms.txt`,
      mcp: `${base}/mcp`,
      scripts: SCRIPT_NAMES.map((n) => `${site}/scripts/${n}.sh`),
    },
  };
}
