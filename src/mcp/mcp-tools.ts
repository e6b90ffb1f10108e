import { Type, type TSchema } from 'typebox';
import type { ErrorCode } from '../core/errors.js';
import { LONG_POLL_MAX_SECONDS, MCP_CLIENT_DEFAULT_TIMEOUT_SECONDS } from '../core/wait-policy.js';
import {
  EventIdParams,
  CreateEventBody,
  EventSchema,
  EventSummarySchema,
  ListEventsQuery,
  PatchEventBody,
  RegistrationFormSchema,
} from '../events/events-schemas.js';
import { EVENT_STATUS_INPUTS } from '../events/status.js';
import { MediaInfoSchema, MediaParams, UploadQuery } from '../events/event-media-schemas.js';
import { IMAGE_TYPES } from '../core/image-format.js';
import {
  DecisionBody,
  RejectBody,
  ListRegistrationsQuery,
  MyRegistrationQuery,
  MyRegistrationSchema,
  RegisterBody,
  RegisterResponse,
  OrganizerRegistrationSchema,
  RegistrationParams,
  RegistrationSchema,
} from '../registrations/registrations-schemas.js';
import {
  FeedbackReleaseBody,
  FeedbackReleaseResponse,
  LeaderboardEntrySchema,
  LeaderboardQuery,
  PublishBody,
  PublishResponse,
  ResultBundleSchema,
  ResultEntrySchema,
  ResultQuery,
} from '../results/results-schemas.js';
import {
  EventProjectFlagParams,
  FlagUpdateBody,
  ListReviewsQuery,
  ProjectFlagSchema,
  ProjectReviewsResponse,
  RerunBody,
  RerunResponse,
  ReviewSchema,
} from '../reviews/reviews-schemas.js';
import { ReminderSchema } from '../reviewers/reviewers-schemas.js';
import { SubmitBody, SubmitResponse } from '../submissions/submissions-schemas.js';
import { organizerPageQuery } from '../core/http/pagination.js';
import { AssignmentSummary, AutoAssignBody, ProjectAssignment, SetAssignmentBody, SetAssignmentResponse } from '../reviewers/assignments-schemas.js';
import {
  CreateWebhookBody,
  CreatedWebhookSchema,
  DeliveryIdParams,
  DeliverySchema,
  ListDeliveriesQuery,
  WebhookIdParams,
  WebhookSchema,
} from '../webhooks/webhooks-schemas.js';
import {
  CreateInvitationBody,
  HandOverBody,
  InvitationCreatedSchema,
  InvitationParams,
  JoinBody,
  MemberParams,
  RenameTeamBody,
  TeamSchema,
} from '../teams/teams-schemas.js';

import { AuditEntrySchema, EventAuditQuery } from '../audit/audit-schemas.js';
import { GalleryItem, GalleryProject, GalleryProjectParams, GalleryQuery } from '../showcase/gallery-schemas.js';
import { MyVotesSchema, PeoplesChoiceSchema, VoteSchema } from '../showcase/voting-schemas.js';

/** The tool names are shared with skill.md and the other agent material: never rename one. */
export const MCP_TOOL_NAMES = [
  'list_events',
  'get_event',
  'get_registration_form',
  'register_team',
  'get_my_registration',
  'submit_project',
  'get_result',
  'list_gallery',
  'get_gallery_project',
  'vote_for_project',
  'withdraw_vote',
  'get_my_votes',
  'get_peoples_choice',
  'get_result_bundle',
  'create_event',
  'list_registrations',
  'approve_registration',
  'reject_registration',
  'get_leaderboard',
  'publish_results',
  'set_feedback_release',
  'update_event',
  'start_judging',
  'cancel_event',
  'list_reviews',
  'rerun_reviews',
  'get_project_reviews',
  'set_project_flag',
  'remind_reviewer',
  'auto_assign_reviewers',
  'list_assignments',
  'set_assignment',
  'create_webhook',
  'list_webhooks',
  'delete_webhook',
  'test_webhook',
  'list_webhook_deliveries',
  'retry_webhook_delivery',
  'get_team',
  'create_team_invitation',
  'revoke_team_invitation',
  'join_team',
  'leave_team',
  'remove_team_member',
  'hand_over_team',
  'rename_team',
  'withdraw_registration',
  'upload_event_media',
  'remove_event_media',
  'get_audit_log',
] as const;
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];

/** A JSON Schema object as MCP wants it for `inputSchema` and `outputSchema`. */
export interface ObjectJsonSchema {
  type: 'object';
  properties: Record<string, object>;
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

/**
 * One tool: how its arguments map onto one REST route. Path arguments fill the `{name}` holes of
 * `path`; every other argument goes to the query string (GET) or the JSON body (POST).
 */
export interface ToolSpec {
  name: McpToolName;
  description: string;
  annotations: ToolAnnotations;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Under /api/v1, with `{event_id}`-style holes named after the path arguments. */
  path: string;
  pathArgs: string[];
  inputSchema: ObjectJsonSchema;
  outputSchema: ObjectJsonSchema;
  /** The route answers a bare JSON array (one page): the result is `{ items, next_cursor }`. */
  list: boolean;
  /** A count header of the REST answer the result carries as a property (absent header: 0). */
  countHeader?: { header: string; property: string };
  /** false: the REST route keeps no Idempotency-Key answers (the team routes: a retry is refused or harmless), so no key argument. */
  idempotencyKey?: false;
  /** Body members the tool always sends (a status change), merged under the arguments. */
  fixedBody?: Record<string, unknown>;
  /** The route answers 204 with no body: the result is `{ <path argument>: value, deleted: true }`. */
  noContent?: boolean;
  /**
   * The route takes raw bytes, not JSON (an event's image): the tool's `data_base64` argument is
   * decoded and sent as the body with its `content_type`; the other arguments go in the query.
   */
  rawBody?: true;
}

interface ObjectLike {
  properties: Record<string, TSchema>;
  required?: readonly string[];
  /** Alternative required sets (a field or its alias), kept as they are. */
  anyOf?: readonly unknown[];
}

const eventIdArg = { ...EventIdParams.properties.id, description: 'the event id (evt_…), from list_events' };
const webhookIdArg = { ...WebhookIdParams.properties.id, description: 'the webhook id (whk_…), from list_webhooks' };
const deliveryIdArg = { ...DeliveryIdParams.properties.delivery_id, description: 'the delivery id (msg_…), from list_webhook_deliveries' };
const projectIdArg = { ...GalleryProjectParams.properties.project_id, description: 'the project id (prj_…), from list_gallery' };
const joinCodeArg = { ...InvitationParams.properties.code, description: 'the join code, or the invitation id (tinv_…) from get_team' };
const memberIdArg = { ...MemberParams.properties.user_id, description: "a member's user_id, from get_team" };
const createInvitationObject = CreateInvitationBody.anyOf[0];
/** The answer of a tool whose REST route answers 204 (nothing to show). */
const doneOutput = objectOutput(Type.Object({ done: Type.Literal(true, { description: 'the change was made' }) }));
const registrationIdArg = { ...RegistrationParams.properties.rid, description: 'the registration id (reg_…), from list_registrations' };

/**
 * The tool's input schema: its path arguments (required) and the REST route's own query or body
 * schema, flattened into one object. A property with a default is not required (the route fills it).
 * The JSON round trip leaves plain JSON Schema (no TypeBox metadata).
 */
function inputSchema(pathArgs: Record<string, TSchema>, ...sources: ObjectLike[]): ObjectJsonSchema {
  const properties: Record<string, TSchema> = { ...pathArgs };
  const required = Object.keys(pathArgs);
  const alternatives: unknown[] = [];
  for (const source of sources) {
    Object.assign(properties, source.properties);
    for (const name of source.required ?? []) {
      const property = source.properties[name];
      if (property && !('default' in property)) required.push(name);
    }
    if (source.anyOf) alternatives.push({ anyOf: source.anyOf });
  }
  const extra = alternatives.length === 1 ? (alternatives[0] as object) : alternatives.length > 1 ? { allOf: alternatives } : {};
  return JSON.parse(JSON.stringify({ type: 'object', properties, required, ...extra, additionalProperties: false })) as ObjectJsonSchema;
}

function objectOutput(schema: TSchema): ObjectJsonSchema {
  return JSON.parse(JSON.stringify(schema)) as ObjectJsonSchema;
}

function listOutput(item: TSchema, extra: Record<string, TSchema> = {}): ObjectJsonSchema {
  return objectOutput(
    Type.Object({
      items: Type.Array(item, { description: 'one page, in the REST route order' }),
      next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'pass as `cursor` for the next page; null on the last page' }),
      ...extra,
    }),
  );
}

const read = (title: string): ToolAnnotations => ({ title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
const write = (title: string, destructive: boolean, idempotent: boolean): ToolAnnotations => ({
  title,
  readOnlyHint: false,
  destructiveHint: destructive,
  idempotentHint: idempotent,
  openWorldHint: false,
});

// The leaderboard's CSV format is not JSON: the tool always asks for JSON.
const { format: _csvFormat, ...leaderboardArgs } = LeaderboardQuery.properties;
// Compact list items (`fields`, where the route offers it) would not match the tool's output schema.
const { fields: _compact, ...listEventsArgs } = ListEventsQuery.properties as Record<string, TSchema>;
/** The statuses the `status` filter accepts, from the one list the route checks against. */
const statusFilterWords = EVENT_STATUS_INPUTS.filter((s) => s !== 'recruiting').join(', ');
const decisionObject = DecisionBody.anyOf[0];
const rejectObject = RejectBody.anyOf[0];

/**
 * Every POST tool takes the REST route's `Idempotency-Key` as an argument: a client that retries a
 * call after a lost answer sends the same key and gets the first answer again instead of a second write.
 */
export const IDEMPOTENCY_ARG = 'idempotency_key';
const idempotencyArg = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x21-\\x7e]+$',
  description: 'optional: sent as the Idempotency-Key header; retry a call with the same key to get its first answer again, not a second write',
});

function withIdempotencyArgs(tools: ToolSpec[]): ToolSpec[] {
  return tools.map((t) =>
    t.method !== 'POST' || t.idempotencyKey === false
      ? t
      : {
          ...t,
          inputSchema: {
            ...t.inputSchema,
            properties: { ...t.inputSchema.properties, [IDEMPOTENCY_ARG]: JSON.parse(JSON.stringify(idempotencyArg)) as object },
          },
        },
  );
}

export const MCP_TOOLS: readonly ToolSpec[] = withIdempotencyArgs([
  {
    name: 'list_events',
    description: `List public events, newest first (one page; pass next_cursor back as cursor for more). \`status\` filters (comma-separated: ${statusFilterWords}; recruiting means open; draft needs mine: true); \`mine: true\` lists the events you organize, drafts included.`,
    annotations: read('List events'),
    method: 'GET',
    path: '/events',
    pathArgs: [],
    inputSchema: inputSchema({}, { properties: listEventsArgs, required: ListEventsQuery.required }),
    outputSchema: listOutput(EventSummarySchema),
    list: true,
  },
  {
    name: 'get_event',
    description: 'One event: timeline, tracks, scoring dimensions, AI models and registration settings.',
    annotations: read('Get an event'),
    method: 'GET',
    path: '/events/{event_id}',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }),
    outputSchema: objectOutput(EventSchema),
    list: false,
  },
  {
    name: 'get_registration_form',
    description:
      'The registration form of an event: whether it is open, its tracks (register with one of their ids as track_id) and its custom fields (answer each required one under `fields` by its key). Read it before register_team.',
    annotations: read('Get the registration form'),
    method: 'GET',
    path: '/events/{event_id}/register',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }),
    outputSchema: objectOutput(RegistrationFormSchema),
    list: false,
  },
  {
    name: 'register_team',
    description:
      'Register your team for an event. The registration is pending until an organizer approves it (unless the event auto-approves); follow it with get_my_registration. One registration per account and event (a second is already_registered).',
    annotations: write('Register a team', false, false),
    method: 'POST',
    path: '/events/{event_id}/register',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }, RegisterBody),
    outputSchema: objectOutput(RegisterResponse),
    list: false,
  },
  {
    name: 'get_my_registration',
    description: `Your registration for an event (status pending, approved or rejected with a reason) and your project. \`wait\` (seconds, at most ${LONG_POLL_MAX_SECONDS}) holds a pending registration until it is decided or the time is up; it always answers before the ${MCP_CLIENT_DEFAULT_TIMEOUT_SECONDS} s default request timeout of the official MCP SDK clients. Still pending: call again at once.`,
    annotations: read('Get my registration'),
    method: 'GET',
    path: '/events/{event_id}/my-registration',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }, MyRegistrationQuery),
    outputSchema: objectOutput(MyRegistrationSchema),
    list: false,
  },
  {
    name: 'submit_project',
    description:
      'Submit your project (approved registrations, until the submission deadline). Send the whole project each time (project_name and github_url are required); calling it again replaces the project (`updated: true`).',
    annotations: write('Submit or update the project', true, true),
    method: 'POST',
    path: '/events/{event_id}/submit',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }, SubmitBody),
    outputSchema: objectOutput(SubmitResponse),
    list: false,
  },
  {
    name: 'get_result',
    description:
      'The published ranking of an event, best first. Before publication the call fails with results_not_published, carrying event_status and retry_after_seconds (when to call again).',
    annotations: read('Get the result'),
    method: 'GET',
    path: '/events/{event_id}/result',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }, ResultQuery),
    outputSchema: listOutput(ResultEntrySchema),
    list: true,
  },
  {
    name: 'list_gallery',
    description:
      "The event's public projects, in submission order (one page; next_cursor for more), by track_id and by q (a part of the name). Open when the organizer chose (after the submission deadline by default, or after the results); before that it fails with gallery_not_open and opens_at.",
    annotations: read('List the gallery'),
    method: 'GET',
    path: '/events/{event_id}/gallery',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }, GalleryQuery),
    outputSchema: listOutput(GalleryItem),
    list: true,
  },
  {
    name: 'get_gallery_project',
    description:
      'One public project of the gallery: its description (Markdown and rendered HTML), links, the team by name, and after the results its rank, score and prize.',
    annotations: read('Get a gallery project'),
    method: 'GET',
    path: '/events/{event_id}/gallery/{project_id}',
    pathArgs: ['event_id', 'project_id'],
    inputSchema: inputSchema({ event_id: eventIdArg, project_id: projectIdArg }),
    outputSchema: objectOutput(GalleryProject),
    list: false,
  },
  {
    name: 'vote_for_project',
    description:
      "People's choice: vote for a project while the event's voting window is open (never your own team's). You hold votes_per_person votes (per track when per_track); voting twice for the same project is harmless.",
    annotations: write('Vote for a project', false, true),
    method: 'POST',
    path: '/events/{event_id}/gallery/{project_id}/vote',
    pathArgs: ['event_id', 'project_id'],
    inputSchema: inputSchema({ event_id: eventIdArg, project_id: projectIdArg }),
    outputSchema: objectOutput(VoteSchema),
    list: false,
  },
  {
    name: 'withdraw_vote',
    description: 'Withdraw your vote for a project while voting is open (to vote for another one).',
    annotations: write('Withdraw a vote', true, true),
    method: 'DELETE',
    path: '/events/{event_id}/gallery/{project_id}/vote',
    pathArgs: ['event_id', 'project_id'],
    inputSchema: inputSchema({ event_id: eventIdArg, project_id: projectIdArg }),
    outputSchema: objectOutput(Type.Object({ event_id: Type.String(), project_id: Type.String(), deleted: Type.Literal(true) })),
    list: false,
    noContent: true,
  },
  {
    name: 'get_my_votes',
    description: 'Your votes in an event, whether voting is open, its window and how many votes you have.',
    annotations: read('Get my votes'),
    method: 'GET',
    path: '/events/{event_id}/votes/me',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }),
    outputSchema: objectOutput(MyVotesSchema),
    list: false,
  },
  {
    name: 'get_peoples_choice',
    description: "The people's choice published with the results: projects by votes, most first (before publication: results_not_published).",
    annotations: read("Get the people's choice"),
    method: 'GET',
    path: '/events/{event_id}/result/peoples-choice',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }),
    outputSchema: objectOutput(PeoplesChoiceSchema),
    list: false,
  },
  {
    name: 'get_result_bundle',
    description:
      'The verifiable results bundle of a published event: rubric, normalisation, models, prompt template hash, every score (human reviewers as reviewer-1, …), flags, the ranking and sha256 (SHA-256 of its RFC 8785 canonical JSON without sha256). Save it and run `npx hackathon results verify <file>` to recompute the ranking from the scores. Before publication: results_not_published; published before bundles existed: bundle_not_available.',
    annotations: read('Get the results bundle'),
    method: 'GET',
    path: '/events/{event_id}/result/bundle',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }),
    outputSchema: objectOutput(ResultBundleSchema),
    list: false,
  },
  {
    name: 'create_event',
    description:
      'Organizers: create an event. name, registration_deadline and submission_deadline are required; status "draft" keeps it unlisted, otherwise it opens at once.',
    annotations: write('Create an event', false, false),
    method: 'POST',
    path: '/events',
    pathArgs: [],
    inputSchema: inputSchema({}, CreateEventBody),
    outputSchema: objectOutput(EventSchema),
    list: false,
  },
  {
    name: 'list_registrations',
    description: 'Organizers: the registrations of your event with contact details and answers (one page; filter by status, track_id or team-name prefix q).',
    annotations: read('List registrations'),
    method: 'GET',
    path: '/events/{event_id}/registrations',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }, ListRegistrationsQuery),
    outputSchema: listOutput(OrganizerRegistrationSchema),
    list: true,
  },
  {
    name: 'approve_registration',
    description: 'Organizers: approve a registration of your event (the team may then submit).',
    annotations: write('Approve a registration', false, true),
    method: 'POST',
    path: '/events/{event_id}/registrations/{registration_id}/approve',
    pathArgs: ['event_id', 'registration_id'],
    inputSchema: inputSchema({ event_id: eventIdArg, registration_id: registrationIdArg }, decisionObject),
    outputSchema: objectOutput(RegistrationSchema),
    list: false,
  },
  {
    name: 'reject_registration',
    description:
      'Organizers: reject a registration of your event; `reason` is shown to the team. The team may re-apply with changed answers until the registration deadline, unless `final` is true.',
    annotations: write('Reject a registration', true, true),
    method: 'POST',
    path: '/events/{event_id}/registrations/{registration_id}/reject',
    pathArgs: ['event_id', 'registration_id'],
    inputSchema: inputSchema({ event_id: eventIdArg, registration_id: registrationIdArg }, rejectObject),
    outputSchema: objectOutput(RegistrationSchema),
    list: false,
  },
  {
    name: 'get_leaderboard',
    description:
      "Organizers: the live ranking of your event from the reviews so far (the published result's entries, plus score_raw and score_normalized side by side and review coverage).",
    annotations: read('Get the leaderboard'),
    method: 'GET',
    path: '/events/{event_id}/leaderboard',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }, { properties: leaderboardArgs }),
    outputSchema: listOutput(LeaderboardEntrySchema, {
      pending: Type.Integer({
        minimum: 0,
        description:
          'projects whose numbers are still being recomputed after a bulk change (weights edited, judging started); they show their previous numbers meanwhile. 0: every number is current; otherwise call again in a few seconds.',
      }),
    }),
    list: true,
    countHeader: { header: 'leaderboard-pending', property: 'pending' },
  },
  {
    name: 'publish_results',
    description:
      'Organizers: publish the ranking of your event while it is judging. This freezes the result and ends the event; it cannot be undone. `release_feedback: true` lets each team read its reviews (reviewers unnamed); switch it later with set_feedback_release.',
    annotations: write('Publish the results', true, false),
    method: 'POST',
    path: '/events/{event_id}/results/publish',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }, PublishBody),
    outputSchema: objectOutput(PublishResponse),
    list: false,
  },
  {
    name: 'set_feedback_release',
    description:
      'Organizers, after publish_results: release the reviews to the teams (`released: true`: each team reads its own scores, comments and AI summaries, reviewers unnamed) or hide them again.',
    annotations: write('Release feedback to teams', false, true),
    method: 'PUT',
    path: '/events/{event_id}/results/feedback',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }, FeedbackReleaseBody),
    outputSchema: objectOutput(FeedbackReleaseResponse),
    list: false,
  },
  {
    name: 'update_event',
    description:
      'Organizers: change your event (name, description, tracks, dimensions, models, deadlines, registration settings, co-organizers); send only what changes. `status` moves it forward: "open" publishes a draft, "active" closes registration, "judging" and "cancelled" as start_judging and cancel_event.',
    annotations: write('Change an event', false, true),
    method: 'PATCH',
    path: '/events/{event_id}',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }, { properties: PatchEventBody.properties }),
    outputSchema: objectOutput(EventSchema),
    list: false,
  },
  {
    name: 'start_judging',
    description:
      'Organizers: close submissions now and move your event to judging (it also happens by itself at the submission deadline). Reviews run; follow them with list_reviews and get_leaderboard, then publish_results.',
    annotations: write('Start judging', true, true),
    method: 'PATCH',
    path: '/events/{event_id}',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }),
    outputSchema: objectOutput(EventSchema),
    list: false,
    fixedBody: { status: 'judging' },
  },
  {
    name: 'cancel_event',
    description: 'Organizers: cancel your event. Final: it takes no more registrations or submissions and never publishes results.',
    annotations: write('Cancel an event', true, true),
    method: 'PATCH',
    path: '/events/{event_id}',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }),
    outputSchema: objectOutput(EventSchema),
    list: false,
    fixedBody: { status: 'cancelled' },
  },
  {
    name: 'list_reviews',
    description:
      'Organizers: the reviews of your event (one per project and model or human reviewer): status, scores, summary and, for failed ones, failure_reason (one page; filter by status or project_id).',
    annotations: read('List reviews'),
    method: 'GET',
    path: '/events/{event_id}/reviews',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }, ListReviewsQuery),
    outputSchema: listOutput(ReviewSchema),
    list: true,
  },
  {
    name: 'rerun_reviews',
    description:
      'Organizers: queue reviews of your judging event again: every failed one by default, or one model\'s (`model`; with `status: "failed"` only its failed ones). Answers how many were queued.',
    annotations: write('Re-run reviews', false, false),
    method: 'POST',
    path: '/events/{event_id}/reviews/rerun',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }, RerunBody),
    outputSchema: objectOutput(RerunResponse),
    list: false,
  },
  {
    name: 'get_project_reviews',
    description:
      "Organizers: one project's review page: the project, every AI review (model, status, per-dimension scores, summary, failure_reason and attempts), every human review (reviewer's name and e-mail, scores, comment) and its current score line.",
    annotations: read("Read a project's reviews"),
    method: 'GET',
    path: '/events/{event_id}/projects/{project_id}/reviews',
    pathArgs: ['event_id', 'project_id'],
    inputSchema: inputSchema({
      event_id: eventIdArg,
      project_id: { ...GalleryProjectParams.properties.project_id, description: 'the project id (prj_…), from get_leaderboard or list_reviews' },
    }),
    outputSchema: objectOutput(ProjectReviewsResponse),
    list: false,
  },
  {
    name: 'set_project_flag',
    description:
      "Organizers: mark a project's flag (screening: a passage addressed to the evaluator; build_window: what the GitHub repository shows) checked, with an optional note, or open again. The flags and their ids are in get_project_reviews; open ones are counted as open_flags in the projects list.",
    annotations: write('Mark a flag checked or open', true, true),
    method: 'PUT',
    path: '/events/{event_id}/projects/{project_id}/flags/{flag_id}',
    pathArgs: ['event_id', 'project_id', 'flag_id'],
    inputSchema: inputSchema(
      {
        event_id: eventIdArg,
        project_id: { ...projectIdArg, description: 'the project id (prj_…)' },
        flag_id: { ...EventProjectFlagParams.properties.flag_id, description: 'the flag id (flg_…), from get_project_reviews' },
      },
      FlagUpdateBody,
    ),
    outputSchema: objectOutput(ProjectFlagSchema),
    list: false,
  },
  {
    name: 'remind_reviewer',
    description:
      'Organizers: e-mail a human reviewer of your judging event how many projects they still have to review, with a link to their queue. At most once in 24 hours per reviewer (reminder_too_soon names next_allowed_at). The reviewer ids are the reviewer_id of get_project_reviews.',
    annotations: write('Remind a reviewer', false, false),
    method: 'POST',
    path: '/events/{event_id}/reviewers/{user_id}/remind',
    pathArgs: ['event_id', 'user_id'],
    inputSchema: inputSchema({ event_id: eventIdArg, user_id: Type.String({ minLength: 1, maxLength: 64, description: "the reviewer's user id (usr_…)" }) }),
    outputSchema: objectOutput(ReminderSchema),
    list: false,
  },
  {
    name: 'auto_assign_reviewers',
    description:
      'Organizers: switch your event to assigned reviewing and give every project `per_project` human reviewers, evenly (loads differ by at most one where conflicts allow), never a reviewer from the team or with a declared conflict (`same_email_domain_conflicts: true` also keeps reviewers away from teams sharing their e-mail domain). Assignments without a review are redone. New projects and reviewers are assigned as they come. Until results are published.',
    annotations: write('Assign reviewers automatically', true, true),
    method: 'POST',
    path: '/events/{event_id}/assignments/auto',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }, AutoAssignBody),
    outputSchema: objectOutput(AssignmentSummary),
    list: false,
  },
  {
    name: 'list_assignments',
    description:
      'Organizers: per judged project of your event, its assigned reviewers (`reviewer_ids`), who has reviewed it and whether it was set by hand (one page).',
    annotations: read('List reviewer assignments'),
    method: 'GET',
    path: '/events/{event_id}/assignments',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }, { properties: organizerPageQuery }),
    outputSchema: listOutput(ProjectAssignment),
    list: true,
  },
  {
    name: 'set_assignment',
    description:
      "Organizers: set a project's reviewers by hand (user ids of your event's reviewers, none with a conflict of interest); they stay as set. `reviewer_ids: []` hands the project back to automatic assignment. Needs assigned reviewing (auto_assign_reviewers first).",
    annotations: write("Set a project's reviewers", true, true),
    method: 'PUT',
    path: '/events/{event_id}/assignments/{project_id}',
    pathArgs: ['event_id', 'project_id'],
    inputSchema: inputSchema(
      { event_id: eventIdArg, project_id: { ...projectIdArg, description: 'the project id (prj_…), from list_assignments' } },
      SetAssignmentBody,
    ),
    outputSchema: objectOutput(SetAssignmentResponse),
    list: false,
  },
  {
    name: 'create_webhook',
    description:
      'Subscribe an https endpoint to events (organizers: every kind for events they organize; teams: their own registration and project, and judging/results of events they are in). The answer carries the signing secret, shown only once.',
    annotations: write('Create a webhook', false, false),
    method: 'POST',
    path: '/webhooks',
    pathArgs: [],
    inputSchema: inputSchema({}, CreateWebhookBody),
    outputSchema: objectOutput(CreatedWebhookSchema),
    list: false,
  },
  {
    name: 'list_webhooks',
    description: 'Your webhook subscriptions (without secrets): url, kinds, event_id, whether enabled.',
    annotations: read('List webhooks'),
    method: 'GET',
    path: '/webhooks',
    pathArgs: [],
    inputSchema: inputSchema({}),
    outputSchema: listOutput(WebhookSchema),
    list: true,
  },
  {
    name: 'delete_webhook',
    description:
      'Delete one of your webhook subscriptions and its deliveries (no more messages are sent to it). Final: create_webhook again for a new one, with a new secret.',
    annotations: write('Delete a webhook', true, true),
    method: 'DELETE',
    path: '/webhooks/{webhook_id}',
    pathArgs: ['webhook_id'],
    inputSchema: inputSchema({ webhook_id: webhookIdArg }),
    outputSchema: objectOutput(
      Type.Object({
        webhook_id: Type.String({ description: 'the deleted subscription' }),
        deleted: Type.Literal(true),
      }),
    ),
    list: false,
    noContent: true,
  },
  {
    name: 'test_webhook',
    description: 'Queue a webhook.test message to one of your subscriptions; follow it with list_webhook_deliveries.',
    annotations: write('Test a webhook', false, false),
    method: 'POST',
    path: '/webhooks/{webhook_id}/test',
    pathArgs: ['webhook_id'],
    inputSchema: inputSchema({ webhook_id: webhookIdArg }),
    outputSchema: objectOutput(DeliverySchema),
    list: false,
  },
  {
    name: 'list_webhook_deliveries',
    description: "A subscription's deliveries, newest first: status, attempts, last status code, duration and error (one page).",
    annotations: read('List webhook deliveries'),
    method: 'GET',
    path: '/webhooks/{webhook_id}/deliveries',
    pathArgs: ['webhook_id'],
    inputSchema: inputSchema({ webhook_id: webhookIdArg }, ListDeliveriesQuery),
    outputSchema: listOutput(DeliverySchema),
    list: true,
  },
  {
    name: 'retry_webhook_delivery',
    description: 'Send a delivery again now (same webhook-id); enables its subscription again if failures had disabled it.',
    annotations: write('Retry a webhook delivery', false, false),
    method: 'POST',
    path: '/webhooks/{webhook_id}/deliveries/{delivery_id}/retry',
    pathArgs: ['webhook_id', 'delivery_id'],
    inputSchema: inputSchema({ webhook_id: webhookIdArg, delivery_id: deliveryIdArg }),
    outputSchema: objectOutput(DeliverySchema),
    list: false,
  },
  {
    name: 'get_team',
    description:
      'Your team in an event: status, leader, members (name, e-mail, role), your_role, team-size limits, open join codes (leader only) and the project. Every member may submit_project.',
    annotations: read('Get my team'),
    method: 'GET',
    path: '/events/{event_id}/team',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }),
    outputSchema: objectOutput(TeamSchema),
    list: false,
  },
  {
    name: 'create_team_invitation',
    description:
      'Team leaders: make a join code for your team (expires_in_hours, default 72); `email` also mails the join link there. Give the join_code (or join_url) to the person: they call join_team. The code is shown only in this answer.',
    annotations: write('Invite a team member', false, false),
    method: 'POST',
    path: '/events/{event_id}/team/invitations',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }, createInvitationObject),
    outputSchema: objectOutput(InvitationCreatedSchema),
    list: false,
    idempotencyKey: false,
  },
  {
    name: 'revoke_team_invitation',
    description: 'Team leaders: revoke a join code (give the code or its invitation id); nobody can join with it afterwards.',
    annotations: write('Revoke a join code', true, true),
    method: 'DELETE',
    path: '/events/{event_id}/team/invitations/{code}',
    pathArgs: ['event_id', 'code'],
    inputSchema: inputSchema({ event_id: eventIdArg, code: joinCodeArg }),
    outputSchema: doneOutput,
    list: false,
  },
  {
    name: 'join_team',
    description:
      'Join a team with the join code its leader gave you (until the submission deadline). You are then a member: get_my_registration and submit_project work for you. One team per person and event; a full team is team_full.',
    annotations: write('Join a team', false, true),
    method: 'POST',
    path: '/events/{event_id}/team/join',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }, JoinBody),
    outputSchema: objectOutput(TeamSchema),
    list: false,
    idempotencyKey: false,
  },
  {
    name: 'leave_team',
    description: 'Leave your team (members; a leader hands over first with hand_over_team, or withdraws when alone).',
    annotations: write('Leave the team', true, true),
    method: 'POST',
    path: '/events/{event_id}/team/leave',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }),
    outputSchema: doneOutput,
    list: false,
    idempotencyKey: false,
  },
  {
    name: 'remove_team_member',
    description: 'Team leaders: remove a member from your team; they lose access to the registration at once.',
    annotations: write('Remove a team member', true, true),
    method: 'DELETE',
    path: '/events/{event_id}/team/members/{user_id}',
    pathArgs: ['event_id', 'user_id'],
    inputSchema: inputSchema({ event_id: eventIdArg, user_id: memberIdArg }),
    outputSchema: doneOutput,
    list: false,
  },
  {
    name: 'hand_over_team',
    description: 'Team leaders: make another member the leader; you become a member.',
    annotations: write('Hand over the team', true, true),
    method: 'POST',
    path: '/events/{event_id}/team/leader',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }, HandOverBody),
    outputSchema: objectOutput(TeamSchema),
    list: false,
    idempotencyKey: false,
  },
  {
    name: 'rename_team',
    description: "Team leaders: change the team's name while the registration is pending.",
    annotations: write('Rename the team', false, true),
    method: 'PATCH',
    path: '/events/{event_id}/team',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }, RenameTeamBody),
    outputSchema: objectOutput(TeamSchema),
    list: false,
  },
  {
    name: 'withdraw_registration',
    description: "Team leaders: withdraw your team's registration (status withdrawn: out of judging, join codes revoked). register_team again re-applies.",
    annotations: write('Withdraw the registration', true, true),
    method: 'DELETE',
    path: '/events/{event_id}/team',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }),
    outputSchema: objectOutput(TeamSchema),
    list: false,
  },
  {
    name: 'upload_event_media',
    description:
      "Organizers: set your event's cover image (kind cover, a wide banner) or logo (kind logo) from a PNG, JPEG or WebP given in base64. The bytes are checked: `content_type` (and the extension of `filename`, if given) must name what they are. Through MCP the image must fit the request size limit (BODY_LIMIT_BYTES, 100 KB by default, so about 70 KB of image); larger ones go to PUT /api/v1/events/{id}/media/{kind} with the raw bytes (cover up to 2 MB, logo 512 KB). The event's cover_url / logo_url then point to it.",
    annotations: write('Upload an event image', true, true),
    method: 'PUT',
    path: '/events/{event_id}/media/{kind}',
    pathArgs: ['event_id', 'kind'],
    inputSchema: inputSchema(
      { event_id: eventIdArg, kind: MediaParams.properties.kind },
      {
        properties: {
          content_type: Type.Union(
            IMAGE_TYPES.map((t) => Type.Literal(t)),
            { description: 'what the image is' },
          ),
          data_base64: Type.String({
            minLength: 4,
            maxLength: 20_000_000,
            pattern: '^[A-Za-z0-9+/]+={0,2}$',
            description: 'the image file, base64-encoded (no data: prefix)',
          }),
          filename: UploadQuery.properties.filename,
        },
        required: ['content_type', 'data_base64'],
      },
    ),
    outputSchema: objectOutput(MediaInfoSchema),
    list: false,
    idempotencyKey: false,
    rawBody: true,
  },
  {
    name: 'remove_event_media',
    description: "Organizers: remove your event's cover image or logo (done also when there was none).",
    annotations: write('Remove an event image', true, true),
    method: 'DELETE',
    path: '/events/{event_id}/media/{kind}',
    pathArgs: ['event_id', 'kind'],
    inputSchema: inputSchema({ event_id: eventIdArg, kind: MediaParams.properties.kind }),
    outputSchema: objectOutput(Type.Object({ event_id: Type.String(), kind: Type.String(), deleted: Type.Literal(true) })),
    list: false,
    idempotencyKey: false,
    noContent: true,
  },
  {
    name: 'get_audit_log',
    description:
      "Organizers: your event's audit log, newest first: every organizer and admin action on it (registration decisions, event edits with each field's before and after, reviewer invitations and assignments, re-runs, flag decisions, publication) with who did it (one page; filter by action).",
    annotations: read('Read the audit log'),
    method: 'GET',
    path: '/events/{event_id}/audit',
    pathArgs: ['event_id'],
    inputSchema: inputSchema({ event_id: eventIdArg }, EventAuditQuery),
    outputSchema: listOutput(AuditEntrySchema),
    list: true,
  },
]);

/**
 * What an MCP client does next after a refused call, where the REST problem page's advice names
 * REST routes: the tool to call instead. Other codes take the problem page's `action` as is.
 */
export const MCP_NEXT_ACTIONS: Partial<Record<ErrorCode, string>> = {
  not_registered:
    'Register first with register_team (read get_registration_form for the tracks and fields), or join a team with join_team; submit once approved.',
  registration_not_approved: `Wait for the decision with get_my_registration (wait: ${LONG_POLL_MAX_SECONDS}), calling again while pending; submit once approved. A rejection carries the reason.`,
  event_not_found: 'Use an event id from list_events; do not call again with this one.',
  registration_not_found: 'Use a registration id from list_registrations.',
  already_registered: 'Read your registration with get_my_registration instead of registering again.',
  results_not_published:
    'Call get_result again after retry_after_seconds; event_status says where the event stands (results come after judging). A cancelled event never publishes: stop.',
  invalid_transition: 'Read the event with get_event and move it one allowed step at a time (the detail names what is allowed).',
  webhook_not_found: 'Use a webhook id from list_webhooks.',
  already_in_team: 'Read your team with get_team; to change teams, leave_team first (a leader hands over or withdraws first).',
  not_team_leader: 'Only the team leader may do this; get_team names them.',
  join_code_invalid: 'Ask the team leader for a new join code (create_team_invitation); do not retry this one.',
  leader_must_hand_over: 'Hand over with hand_over_team first, then leave_team; alone in the team, use withdraw_registration.',
  team_too_small: 'Invite more members with create_team_invitation; submit_project once they have joined.',
  team_member_not_found: 'Use a user_id from the members of get_team.',
  webhook_delivery_not_found: 'Use a delivery id from list_webhook_deliveries.',
};

/** The REST path of a call, its path arguments percent-encoded. */
export function toolPath(spec: ToolSpec, args: Record<string, unknown>): string {
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
