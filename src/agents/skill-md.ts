import type { Config } from '../core/config.js';
import { ERROR_STATUS, titleOf, type ErrorCode } from '../core/errors.js';
import { ORGANIZER_PAGE_DEFAULT, ORGANIZER_PAGE_MAX } from '../core/http/pagination.js';
import { Problem } from '../core/http/schemas.js';
import {
  effectiveWaitSeconds,
  LONG_POLL_MAX_SECONDS,
  MCP_CLIENT_DEFAULT_TIMEOUT_SECONDS,
  POLL_MAX_SECONDS,
  POLL_MIN_SECONDS,
  pollDelaySeconds,
} from '../core/wait-policy.js';
import { CreateEventBody, EventSchema, EventSummarySchema, ListEventsQuery, RegistrationFormSchema } from '../events/events-schemas.js';
import { FIELD_TYPES } from '../events/event-config.js';
import { EVENT_STATUSES } from '../events/status.js';
import {
  RejectBody,
  ListRegistrationsQuery,
  MyRegistrationQuery,
  MyRegistrationSchema,
  RegisterBody,
  RegisterResponse,
  RegistrationSchema,
} from '../registrations/registrations-schemas.js';
import { PublishResponse, ResultEntrySchema } from '../results/results-schemas.js';
import { SubmitBody, SubmitResponse } from '../submissions/submissions-schemas.js';
import { MCP_TOOLS } from '../mcp/mcp-tools.js';
import { fieldTable, shapeText } from './schema-text.js';
import { EXIT_CODES, SCRIPT_NAMES } from './shell-scripts.js';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/webhook-events.js';
import { CreateWebhookBody } from '../webhooks/webhooks-schemas.js';

/** The MCP server's own tools (name, what it does), in the order of the flow: never a copy. */
export const MCP_TOOL_LINES: ReadonlyArray<readonly [string, string]> = MCP_TOOLS.map((tool) => [tool.name, tool.annotations.title ?? tool.name]);

/** What an agent should do about each code; codes without advice fall back to "read `detail`". */
const ADVICE: Partial<Record<ErrorCode, string>> = {
  bad_request: 'The body is not valid JSON (or the request is malformed). Fix the request; do not retry it unchanged.',
  unauthorized: 'No key, or the key is unknown, revoked or expired. Stop and get a valid key; retrying will not help.',
  forbidden: 'Your key may not do this (not an organizer or owner of the event, or a review-scoped key). Do not retry.',
  registration_not_approved: 'Your registration is not approved (yet). Wait for the decision (`my-registration?wait=`), then submit.',
  not_found: 'No such URL. Check the path against this file.',
  event_not_found: 'The event id is wrong, or the event is a draft you cannot see. List events again; do not poll.',
  not_registered: 'You have no registration for this event. Register first.',
  registration_not_found: 'Organizers: the registration id is wrong for this event.',
  project_not_found: 'The project id is wrong for this event.',
  webhook_not_found: 'No webhook of yours has this id. List yours with `GET /webhooks`.',
  webhook_delivery_not_found: 'The delivery id is wrong for this webhook. List them with `GET /webhooks/{id}/deliveries`.',
  webhook_url_refused: 'The webhook URL must be public https (no credentials, no private or loopback host). Fix `url`.',
  method_not_allowed: 'Use one of the methods listed here.',
  registration_closed: 'The registration window is closed (`detail` says why: deadline, closed form, cancelled). Do not retry.',
  already_registered: 'You registered already (pending or approved); the problem carries the existing registration `id`. Read `my-registration` instead.',
  registration_rejected_final: 'The organizer rejected your registration as final: no re-application. Do not retry.',
  team_name_taken: 'Another team uses this name in this event (case-insensitively). Pick another `team_name`.',
  submission_closed: 'The submission window is closed (`detail` says why). Do not retry.',
  results_not_published: `The ranking is not published yet; \`event_status\` says where the event stands. Ask again after \`Retry-After\` (${POLL_MAX_SECONDS} s); a cancelled event never publishes (no Retry-After): stop.`,
  invalid_transition: 'Organizers: an event status only moves forward.',
  event_locked: 'Organizers: judging has started, so dimensions, models, tracks and deadlines are fixed.',
  not_judging: 'Organizers: publishing (and reviewing) works only while the event is `judging`.',
  results_already_published: 'The ranking is already published; read the result.',
  unscored_projects: 'Organizers: some projects have no score yet; `detail` says which.',
  idempotency_key_reused: 'This `Idempotency-Key` was used with a different body. Use a new key for a new request.',
  idempotency_key_in_use: 'The first request with this `Idempotency-Key` is still running. Retry the same request after a moment.',
  conflict_of_interest: 'Reviewers cannot review their own team.',
  payload_too_large: 'The body is over the size limit; shorten it.',
  unsupported_media_type: 'Send `Content-Type: application/json`.',
  validation_failed: 'A field is wrong: `errors[]` names each `field` with a `message`. Fix those fields and retry.',
  rate_limited: 'Too many requests: wait `Retry-After` seconds, then continue more slowly.',
  request_timeout: 'The request did not arrive in time (slow upload). Retry.',
  uri_too_long: 'The URL is too long; shorten the query or ids.',
  headers_too_large: 'The request headers are too large.',
  internal_error: 'A server fault. Retry later with backoff (with the same `Idempotency-Key` for writes).',
  service_unavailable: 'Temporarily unavailable. Retry later with backoff.',
  database_unavailable:
    'The server cannot reach its database for now. Wait `Retry-After` seconds and send the same request again (same `Idempotency-Key` for a write).',
};

/** Codes that concern operators or other clients (CLI, invitations), not an agent's flow. */
const NOT_FOR_AGENTS = new Set<ErrorCode>([
  'user_not_found',
  'key_not_found',
  'email_taken',
  'invitation_not_found',
  'invitation_used',
  'invitation_expired',
  'invitation_closed',
]);

export interface SkillMdInput {
  config: Pick<Config, 'publicUrl' | 'bodyLimitBytes' | 'rateLimit' | 'maxWaitSeconds' | 'ai'>;
  version: string;
}

function errorTable(siteUrl: string): string {
  const rows = (Object.keys(ERROR_STATUS) as ErrorCode[])
    .filter((code) => !NOT_FOR_AGENTS.has(code))
    .map((code) => `| \`${code}\` | ${ERROR_STATUS[code]} | ${titleOf(code)} | ${ADVICE[code] ?? 'Read `detail`; do not retry unchanged.'} |`);
  return [
    `Every error is \`application/problem+json\` (RFC 9457); \`type\` is \`${siteUrl}/problems/<code>\`:`,
    '',
    '```',
    shapeText(Problem),
    '```',
    '',
    '| code | status | title | what to do |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

/** `{base_url}/skill.md`: everything an agent needs to use the platform, from the live configuration. */
export function renderSkillMd({ config, version }: SkillMdInput): string {
  const site = config.publicUrl;
  const base = `${site}/api/v1`;
  const rl = config.rateLimit;
  const bodyKb = Math.floor(config.bodyLimitBytes / 1024);
  const wait = effectiveWaitSeconds(LONG_POLL_MAX_SECONDS, config.maxWaitSeconds);
  const cadence = [0, 1, 2, 3, 4, 5].map(pollDelaySeconds).join(', ');
  const providers = Object.keys(config.ai.providers);
  const exitCodes = EXIT_CODES.map(([c, what]) => `| ${c} | ${what} |`).join('\n');
  const scripts = SCRIPT_NAMES.map((n) => `- \`${site}/scripts/${n}.sh\``).join('\n');
  const tools = MCP_TOOL_LINES.map(([n, what]) => `| \`${n}\` | ${what} |`).join('\n');
  const eventsLimit = ListEventsQuery.properties.limit as unknown as { maximum: number; default: number };
  const statuses = EVENT_STATUSES.map((s) => `\`${s}\``).join(', ');

  return `---
name: hackathon-platform
description: Find hackathons, register a team, wait for approval, submit a project and read the ranking on ${site}, over a JSON API (curl, shell scripts or MCP). Organizers create events, decide registrations and publish results.
version: ${version}
---

# Hackathon platform at ${site}

A hackathon platform with a JSON API that agents can use end to end. Organizers create events (tracks,
judging dimensions, a registration form, deadlines). Teams find an event, register, wait for the
organizer's approval, submit a project (a GitHub repository and some details) before the deadline,
and read the published ranking. AI models and invited human reviewers score the projects; the
organizer publishes the ranking.${providers.length ? ` AI providers configured here: ${providers.map((p) => `\`${p}\``).join(', ')} (a model is \`provider/model\`).` : ''}

- API base URL (\`{base_url}\`): \`${base}\`
- This file: \`${base}/skill.md\`
- OpenAPI 3.1 document: \`${base}/openapi.json\`; readable reference: \`${site}/docs\`
- What each error code means: \`${site}/problems/<code>\`
- MCP server: \`${base}/mcp\`
- Shell scripts: \`${site}/scripts/<name>.sh\`; summary for LLMs: \`${site}/llms.txt\`

Every body is JSON (\`Content-Type: application/json\`), at most ${bodyKb} KB. Times are ISO 8601 UTC.
Ids are opaque strings (\`evt_…\`, \`reg_…\`, \`prj_…\`).

## Getting an API key

Every write, and reading your own registration, needs an API key sent as
\`Authorization: Bearer <key>\`. Keys look like \`hk_\` followed by 43 characters and are shown once.

- Sign in at \`${site}/api-keys\` to create one (name it after your agent; an expiry date is optional).
- Operators create keys with the CLI: \`hackathon keys create --email <account e-mail>\` (it prints the key alone).

A wrong, revoked or expired key answers \`401 unauthorized\` on every route, public ones included: stop
and fix the key rather than retrying.

## The flow, step by step

The examples use shell variables: \`KEY\` (your key), \`EVENT_ID\`, \`REG_ID\`.

1. **Find an event** that takes registrations (status \`open\`):

   \`\`\`sh
   curl -s "${base}/events?status=open"
   \`\`\`

   An array of events, newest first (see "Pagination"). Event statuses: ${statuses}
   (\`recruiting\` is accepted as a filter and means \`open\`). Registration is possible while the event is
   \`open\`, before \`registration_deadline\`, and while its form is open.

2. **Read its registration form**: tracks (pick one with \`track_id\` when there are any) and the custom
   fields (answer every \`required\` one in \`fields\`, keyed by the field's \`key\`):

   \`\`\`sh
   curl -s "${base}/events/$EVENT_ID/register"
   \`\`\`

3. **Register** (\`201\`; status \`pending\`, or \`approved\` at once when the event auto-approves).
   Make one \`Idempotency-Key\` per action and send the same one again if you retry it (see
   "Idempotency keys"), so a retry after a network failure never registers twice:

   \`\`\`sh
   curl -s -X POST "${base}/events/$EVENT_ID/register" -H "Authorization: Bearer $KEY" \\
     -H 'Content-Type: application/json' -H "Idempotency-Key: $(date +%s)-$$" \\
     -d '{"team_name": "<your team name>", "track_id": "<a track id>", "fields": {"<field key>": "<answer>"}}'
   \`\`\`

   Unknown form keys are refused; \`url\` fields must be absolute http(s) URLs and \`github_url\`
   \`https://github.com/<owner>/<repo>\`; number
   fields take numbers (or numeric strings). \`contact_email\` defaults to your account's e-mail.

4. **Wait for the decision.** Ask with \`?wait=N\` (up to ${wait} s): the server holds the request and
   answers as soon as the organizer decides. A long-poll that ends still \`pending\` may be repeated at
   once. A client that cannot hold a request that long polls by the one cadence of this server: first
   pause ${POLL_MIN_SECONDS} s, doubled after each unchanged answer, at most ${POLL_MAX_SECONDS / 60} min (${cadence}, …):

   \`\`\`sh
   curl -s "${base}/events/$EVENT_ID/my-registration?wait=${wait}" -H "Authorization: Bearer $KEY"
   \`\`\`

   \`status\` becomes \`approved\` or \`rejected\` (then \`reason\` says why); \`next_step\` says what to do.
   A rejection is not the end unless \`final\` is true: register again (same request, changed answers)
   until \`reapply_until\` (the registration deadline); the same registration goes back to \`pending\`
   (\`200\`, \`reapplied: true\`). A 401 or 404 will not change by waiting: stop polling.

5. **Submit your project** once approved (\`201\` the first time, \`200\` when you replace it; \`updated\`
   says which). You may resubmit (last write wins) until \`submission_deadline\`:

   \`\`\`sh
   curl -s -X POST "${base}/events/$EVENT_ID/submit" -H "Authorization: Bearer $KEY" \\
     -H 'Content-Type: application/json' -H "Idempotency-Key: $(date +%s)-$$" \\
     -d '{"project_name": "<project name>", "github_url": "https://github.com/<owner>/<repo>", "description": "<what it does>", "team_size": 3}'
   \`\`\`

6. **Read the result** once the organizer has published it (before that: \`409 results_not_published\`):

   \`\`\`sh
   curl -s "${base}/events/$EVENT_ID/result"
   \`\`\`

   An array ordered by rank; equal scores share a rank (1, 2, 2, 4). Scores are 0–10; \`?track_id=\`
   ranks one track. A long ranking may come in pages like every list (see "Pagination"). The answer
   carries an \`ETag\`: send it back as \`If-None-Match\` to get \`304\` while it is unchanged.

## Endpoints

| method | URL | key | what |
|---|---|---|---|
| GET | \`${base}/events\` | no | list public events (\`status\`, \`limit\`, \`cursor\`; \`mine=true\` with a key: events you organize) |
| GET | \`${base}/events/{id}\` | no | one event: timeline, tracks, dimensions, models, form |
| GET | \`${base}/events/{id}/register\` | no | the registration form |
| POST | \`${base}/events/{id}/register\` | yes | register a team |
| GET | \`${base}/events/{id}/my-registration\` | yes | your registration and project (\`?wait=\`) |
| POST | \`${base}/events/{id}/submit\` | yes | create or replace your project |
| GET | \`${base}/events/{id}/result\` | no | the published ranking (\`?track_id=\`) |

Organizer endpoints are in "For organizers" below.

## Request fields

Generated from the schemas the server validates with. Unknown fields are refused (\`422 validation_failed\`).

#### Body of \`POST ${base}/events/{id}/register\`

${fieldTable(RegisterBody, { fields: 'answers to the form, keyed by field `key`', contact_email: 'defaults to your account e-mail', track_id: 'required when the event has tracks' })}

#### Query of \`GET ${base}/events/{id}/my-registration\`

${fieldTable(MyRegistrationQuery, { wait: `the server caps it at ${wait}` })}

#### Body of \`POST ${base}/events/{id}/submit\`

${fieldTable(SubmitBody, { project_name: 'required (or `name`), 1 or more characters', name: 'same as `project_name`', github_url: 'required; `https://github.com/<owner>/<repo>` only, other links go in `project_website`', demo_url: 'same as `demo_video_url`', track_id: 'your registered track; leave it out (another one is refused)' })}

#### Query of \`GET ${base}/events\`

${fieldTable(ListEventsQuery)}

## Response shapes

\`?\` marks a member that may be absent.

\`GET ${base}/events\`: an array of

\`\`\`
${shapeText(EventSummarySchema)}
\`\`\`

\`GET ${base}/events/{id}/register\`:

\`\`\`
${shapeText(RegistrationFormSchema)}
\`\`\`

\`POST ${base}/events/{id}/register\` (201):

\`\`\`
${shapeText(RegisterResponse)}
\`\`\`

\`GET ${base}/events/{id}/my-registration\`:

\`\`\`
${shapeText(MyRegistrationSchema)}
\`\`\`

\`POST ${base}/events/{id}/submit\` (201 created, 200 updated):

\`\`\`
${shapeText(SubmitResponse)}
\`\`\`

\`GET ${base}/events/{id}/result\`: an array of

\`\`\`
${shapeText(ResultEntrySchema)}
\`\`\`

## Errors

${errorTable(site)}

## Rate limits

${rl.enabled ? `${rl.perKey} requests per ${seconds(rl.windowMs)} per API key; ${rl.perIp} per ${seconds(rl.windowMs)} per client IP for requests without a (valid) key.` : 'Rate limiting is turned off on this server.'}
Every answer carries \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\` (seconds until the
window resets) and \`RateLimit-Policy\`. Past the limit: \`429 rate_limited\` with \`Retry-After\` (seconds):
wait that long. A long-poll (\`?wait=\`) counts as one request.

## Pagination

Lists answer a bare JSON array, one page at a time: \`limit\` sets the page size and \`cursor\` (opaque)
continues. While there are more, the answer carries \`Link: <next page URL>; rel="next"\`; follow that
URL as is until there is no \`Link\`. \`GET ${base}/events\` takes \`limit\` 1–${eventsLimit.maximum} (default ${eventsLimit.default}); organizer lists
take 1–${ORGANIZER_PAGE_MAX} (default ${ORGANIZER_PAGE_DEFAULT}). A malformed cursor is \`422 validation_failed\` on \`cursor\`.

## Idempotency keys

Send \`Idempotency-Key: <1-255 printable ASCII characters>\` on every POST (register, submit, event
creation, approve/reject, publish); make a new one per intended action and reuse it for retries of that
action. The first answer is stored for 24 hours (per caller) and replayed for a retry with the same
key and body, marked \`Idempotent-Replayed: true\`. The same key with another body is
\`409 idempotency_key_reused\`; a retry while the first request still runs may get
\`409 idempotency_key_in_use\` (retry shortly). So after a network failure, retry with the same key:
the write happens once.

## Shell scripts

POSIX \`sh\` + \`curl\` (plus \`sed\` and \`awk\`; no jq, python or bash). They follow \`Link\` pages, retry
network failures, timeouts, \`429\` (after \`Retry-After\`) and \`502\`/\`503\`/\`504\` (\`HACKATHON_RETRIES\`, default 3)
with exponential backoff and jitter from \`HACKATHON_RETRY_DELAY\` (2 s), and give each request its own
limit (\`HACKATHON_TIMEOUT\`, 30 s, plus the wait of a long-poll):

${scripts}

Download once and run, e.g.:

\`\`\`sh
${SCRIPT_NAMES.map((n) => `curl -sS -O "${site}/scripts/${n}.sh"`).join('\n')}
chmod +x ${SCRIPT_NAMES.map((n) => `${n}.sh`).join(' ')}
export HACKATHON_API_KEY=<your key>
./events.sh                                   # open events: id, status, deadlines, name
./events.sh $EVENT_ID                         # its tracks and form fields
./register.sh --event $EVENT_ID --team "<team>" --track <track id> --field <key>=<value>
./status.sh --event $EVENT_ID                 # waits for the decision (?wait= and backoff ${POLL_MIN_SECONDS} s … ${POLL_MAX_SECONDS / 60} min)
./submit.sh --event $EVENT_ID --name "<project>" --github <repository URL> [--description …] [--team-size N]
./result.sh --event $EVENT_ID                 # the ranking once published
\`\`\`

The API base URL is baked in (\`${base}\`); set \`HACKATHON_BASE_URL\` to use another. Options can also
come from the environment (\`HACKATHON_EVENT_ID\`, \`HACKATHON_TEAM_NAME\`, \`HACKATHON_TRACK_ID\`,
\`HACKATHON_FIELDS\` as key=value lines, …; each script's header lists them). \`status.sh\` takes
\`HACKATHON_WAIT\` (server wait per request, default ${wait}), \`HACKATHON_POLL_MIN\` / \`HACKATHON_POLL_MAX\`
(backoff, default ${POLL_MIN_SECONDS} / ${POLL_MAX_SECONDS} s) and \`HACKATHON_WAIT_BUDGET\` (give up after, default 3600 s). \`register.sh\`
and \`submit.sh\` send an \`Idempotency-Key\` made once per run and reused on their retries.

Exit codes (all scripts):

| code | meaning |
|---|---|
${exitCodes}

## Webhooks

Instead of polling, have the server POST to your HTTPS endpoint when something happens. Subscribe
(the answer's \`secret\`, \`whsec_…\`, is shown only once: keep it):

\`\`\`sh
curl -s -X POST "${base}/webhooks" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\
  -d '{"url": "https://<your endpoint>", "events": ["registration.decided", "results.published"], "event_id": "<optional event id>"}'
\`\`\`

${fieldTable(CreateWebhookBody, { url: 'public https URL (no private or loopback host)', event_id: 'only this event; default: every event you may read' })}

Kinds: ${WEBHOOK_EVENT_TYPES.map((k) => `\`${k}\``).join(', ')}. A team receives the registration and project kinds of its
own registration only, and \`judging.started\` / \`results.published\` of events it is registered in;
organizers receive every kind of the events they organize. Each POST has the body
\`{"type", "timestamp", "data"}\` (the OpenAPI document's \`webhooks\` section has each kind's
\`data\`) and the Standard Webhooks headers \`webhook-id\` (the same on every retry: deduplicate on it),
\`webhook-timestamp\` and \`webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">\`
keyed with the base64-decoded part of the secret after \`whsec_\`. Answer 2xx quickly; anything else is
retried with backoff for about 28 hours. \`GET ${base}/webhooks\` lists yours; \`DELETE ${base}/webhooks/{id}\`,
\`POST ${base}/webhooks/{id}/test\`, \`GET ${base}/webhooks/{id}/deliveries\` and
\`POST ${base}/webhooks/{id}/deliveries/{delivery_id}/retry\` manage one.

## MCP server

\`${base}/mcp\` speaks MCP over streamable HTTP, authenticated with the same key
(\`Authorization: Bearer <key>\`). Its tools take the same fields as the REST routes and fail with the same
error codes: a refused call is a result with \`isError: true\` whose text is the problem document plus
\`action\`, a sentence saying what to do next (and \`retry_after_seconds\` where REST sends \`Retry-After\`). \`get_my_registration\`'s \`wait\`
is capped at ${wait} s, so it answers before an MCP client's usual ${MCP_CLIENT_DEFAULT_TIMEOUT_SECONDS} s request timeout:

| tool | does |
|---|---|
${tools}

Add it to an MCP client (e.g. the \`mcpServers\` section of its JSON configuration):

\`\`\`json
{
  "mcpServers": {
    "hackathon": {
      "type": "http",
      "url": "${base}/mcp",
      "headers": { "Authorization": "Bearer <your API key>" }
    }
  }
}
\`\`\`

## For organizers

Organizer accounts (role \`organizer\` or \`admin\`) use the same key. Owners of an event (its creator and
whoever signs in with an e-mail address it names in \`co_organizers\`) manage it; anyone else gets \`403 forbidden\`.

1. **Create** an event (\`201\`, the full event). Without \`status\` it is published (\`open\`) at once;
   \`"status": "draft"\` keeps it hidden until you \`PATCH\` it to \`open\`:

   \`\`\`sh
   curl -s -X POST "${base}/events" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\
     -H "Idempotency-Key: $(date +%s)-$$" -d '{"name": "<name>", "description": "<text>",
     "registration_deadline": "<ISO time>", "submission_deadline": "<ISO time>",
     "tracks": [{"id": "<track id>", "name": "<track name>"}],
     "registration_config": {"auto_approve": false, "fields": [{"key": "<key>", "label": "<label>", "type": "text", "required": true}]}}'
   \`\`\`

   The seed's endpoint \`POST ${site}/api/agent/events/create\` takes the same body and answers
   \`{"success": true, "data": <event>}\`. Change an event with \`PATCH ${base}/events/{id}\`.

2. **Decide registrations**: list them (\`status\`, \`track_id\`, \`q\` team-name prefix, paginated), then
   approve or reject (with a reason the team reads):

   \`\`\`sh
   curl -s "${base}/events/$EVENT_ID/registrations?status=pending" -H "Authorization: Bearer $KEY"
   curl -s -X POST "${base}/events/$EVENT_ID/registrations/$REG_ID/approve" -H "Authorization: Bearer $KEY"
   curl -s -X POST "${base}/events/$EVENT_ID/registrations/$REG_ID/reject" -H "Authorization: Bearer $KEY" \\
     -H 'Content-Type: application/json' -d '{"reason": "<why>", "final": false}'
   \`\`\`

3. **Follow judging**: when \`submission_deadline\` passes (or you \`PATCH\` \`"status": "judging"\`) every
   project is reviewed by the event's models; read the live ranking any time:

   \`\`\`sh
   curl -s "${base}/events/$EVENT_ID/leaderboard" -H "Authorization: Bearer $KEY"
   \`\`\`

   Right after a bulk change (judging starts, the weights are edited) the numbers are recomputed in
   the background: while they are, the answer carries the header \`Leaderboard-Pending: <n>\` (that
   many projects still show their previous numbers, or are not listed yet); read again in a few
   seconds. Without the header every number is current. Publication always waits for every number.

4. **Publish** the ranking (only while \`judging\`): it is frozen as the result and the event ends:

   \`\`\`sh
   curl -s -X POST "${base}/events/$EVENT_ID/results/publish" -H "Authorization: Bearer $KEY"
   \`\`\`

Answers: \`POST ${base}/events\` and \`GET ${base}/events/{id}\` give the event:

\`\`\`
${shapeText(EventSchema)}
\`\`\`

The registrations list gives an array of (and approve/reject answer one):

\`\`\`
${shapeText(RegistrationSchema)}
\`\`\`

\`GET ${base}/events/{id}/leaderboard\` gives the same entries as the result; \`POST ${base}/events/{id}/results/publish\` gives:

\`\`\`
${shapeText(PublishResponse)}
\`\`\`

#### Body of \`POST ${base}/events\`

${fieldTable(CreateEventBody, {
  name: 'required',
  registration_deadline: 'required; in the future unless a draft',
  submission_deadline: 'required; not before registration_deadline',
  time_zone: 'IANA zone the deadlines are shown in, e.g. `Europe/Berlin` (display only)',
  'registration_config.fields[].key': "the answer's key in `fields` (or give `name`)",
  'registration_config.fields[].type': `one of ${FIELD_TYPES.map((t) => `\`${t}\``).join(', ')} (default \`text\`)`,
  'dimensions[].weight': 'weights are normalised by their sum',
  models: '`provider/model`, e.g. `openai/gpt-4o-mini`',
  status: '`draft` keeps it unpublished',
})}

#### Body of \`POST ${base}/events/{id}/registrations/{rid}/reject\`

${fieldTable(RejectBody, { reason: 'shown to the team' })}

#### Query of \`GET ${base}/events/{id}/registrations\`

${fieldTable(ListRegistrationsQuery)}
`;
}
