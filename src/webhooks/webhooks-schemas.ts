import { Type, type TSchema } from 'typebox';
import type { WebhookDeliveryRow, WebhookRow } from '../core/db/schema.js';
import { organizerPageQuery } from '../core/http/pagination.js';
import { Nullable } from '../core/http/schemas.js';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_TYPE, type WebhookEventType } from './webhook-events.js';

export const WebhookEventTypeSchema = Type.Union(
  [
    Type.Literal('registration.created'),
    Type.Literal('registration.decided'),
    Type.Literal('project.submitted'),
    Type.Literal('project.updated'),
    Type.Literal('team.member.joined'),
    Type.Literal('team.member.left'),
    Type.Literal('review.failed'),
    Type.Literal('judging.started'),
    Type.Literal('results.published'),
    Type.Literal('announcement.published'),
  ],
  { description: 'a kind of webhook event' },
);

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2000, description: 'https URL to POST to (plain http only to loopback, when the operator allows it)' }),
    events: Type.Array(WebhookEventTypeSchema, { minItems: 1, maxItems: WEBHOOK_EVENT_TYPES.length, uniqueItems: true }),
    event_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'only this event (default: every event you may read)' })),
  },
  { additionalProperties: false },
);

export const WebhookIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const DeliveryIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), delivery_id: Type.String({ minLength: 1, maxLength: 128 }) });

export const WebhookSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(WebhookEventTypeSchema),
  event_id: Nullable(Type.String()),
  enabled: Type.Boolean(),
  disabled_at: Nullable(Type.String()),
  disabled_reason: Nullable(Type.String()),
  consecutive_failures: Type.Integer(),
  created_at: Type.String(),
});

export const CreatedWebhookSchema = Type.Object({
  ...WebhookSchema.properties,
  secret: Type.String({ description: 'whsec_<base64>: the signing secret, shown only in this answer' }),
});

export const DeliveryStatusSchema = Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('delivered'), Type.Literal('failed')]);

export const DeliverySchema = Type.Object({
  id: Type.String({ description: 'also the webhook-id header, the same on every attempt' }),
  webhook_id: Type.String(),
  type: Type.String(),
  status: DeliveryStatusSchema,
  attempts: Type.Integer(),
  next_attempt_at: Nullable(Type.String()),
  last_status_code: Nullable(Type.Integer()),
  last_duration_ms: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
  delivered_at: Nullable(Type.String()),
  payload: Type.Unknown({ description: 'the body sent: { type, timestamp, data }' }),
});

export const ListDeliveriesQuery = Type.Object({ ...organizerPageQuery });

export function webhookForApi(w: WebhookRow) {
  return {
    id: w.id,
    url: w.url,
    events: w.events.split(',').filter(Boolean) as WebhookEventType[],
    event_id: w.event_id,
    enabled: w.disabled_at === null,
    disabled_at: w.disabled_at,
    disabled_reason: w.disabled_reason,
    consecutive_failures: w.consecutive_failures,
    created_at: w.created_at,
  };
}

export function deliveryForApi(d: WebhookDeliveryRow) {
  return {
    id: d.id,
    webhook_id: d.webhook_id,
    type: d.event_type,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.status === 'queued' ? d.next_attempt_at : null,
    last_status_code: d.last_status_code,
    last_duration_ms: d.last_duration_ms,
    last_error: d.last_error,
    created_at: d.created_at,
    updated_at: d.updated_at,
    delivered_at: d.delivered_at,
    payload: JSON.parse(d.payload) as unknown,
  };
}

// The bodies sent, one per kind: the OpenAPI document's `webhooks` section and skill.md show them.
const envelope = (type: string, data: TSchema, description: string) =>
  Type.Object({ type: Type.Literal(type), timestamp: Type.String({ description: 'ISO-8601 instant of the change' }), data }, { description, title: type });
const registrationData = Type.Object({
  event_id: Type.String(),
  registration: Type.Object({
    id: Type.String(),
    team_name: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected'), Type.Literal('withdrawn')]),
    reason: Nullable(Type.String()),
    track_id: Nullable(Type.String()),
    final: Type.Boolean({ description: 'rejected as final: the team may not re-apply' }),
    attempt: Type.Integer({ description: '1 for a first application, more for a re-application after a rejection' }),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
});
const projectData = Type.Object({
  event_id: Type.String(),
  registration_id: Type.String(),
  project: Type.Object({
    id: Type.String(),
    project_name: Type.String(),
    github_url: Type.String(),
    track_id: Nullable(Type.String()),
    first_submitted_at: Type.String(),
    updated_at: Type.String(),
  }),
});

const teamMemberData = Type.Object({
  event_id: Type.String(),
  registration_id: Type.String(),
  team_name: Type.String(),
  member: Type.Object({ user_id: Type.String(), name: Type.String() }),
  removed: Type.Boolean({ description: 'team.member.left only: true when the leader removed the member, false when they left' }),
  member_count: Type.Integer({ description: 'members after the change, the leader counted' }),
});

export const WEBHOOK_BODIES: Record<WebhookEventType | typeof WEBHOOK_TEST_TYPE, TSchema> = {
  'registration.created': envelope(
    'registration.created',
    registrationData,
    'A team registered, or re-applied after a rejection (`attempt` above 1) (to its organizers and the registrant).',
  ),
  'registration.decided': envelope(
    'registration.decided',
    registrationData,
    'An organizer approved or rejected a registration (to its organizers and the registrant).',
  ),
  'project.submitted': envelope('project.submitted', projectData, "A team's first submission (to its organizers and the team)."),
  'project.updated': envelope('project.updated', projectData, 'A team re-submitted its project (to its organizers and the team).'),
  'team.member.joined': envelope(
    'team.member.joined',
    teamMemberData,
    "Someone joined a team with its join code (to the event's organizers and every member of the team).",
  ),
  'team.member.left': envelope(
    'team.member.left',
    teamMemberData,
    "A member left a team or its leader removed them (to the event's organizers, the team's members and the member who left).",
  ),
  'review.failed': envelope(
    'review.failed',
    Type.Object({ event_id: Type.String(), project_id: Type.String(), review_id: Type.String(), reviewer: Type.String(), error: Type.String() }),
    'An AI review gave up (to the organizers only).',
  ),
  'judging.started': envelope(
    'judging.started',
    Type.Object({ event_id: Type.String(), judging_started_at: Type.String() }),
    'The event entered judging (to its organizers and registered teams).',
  ),
  'results.published': envelope(
    'results.published',
    Type.Object({ event_id: Type.String(), published_at: Type.String() }),
    'The ranking was published (to its organizers and registered teams); read it at GET /api/v1/events/{id}/results.',
  ),
  'announcement.published': envelope(
    'announcement.published',
    Type.Object({
      event_id: Type.String(),
      announcement: Type.Object({
        id: Type.String(),
        title: Type.String(),
        body: Type.String({ description: 'Markdown' }),
        segment: Type.String(),
        published_at: Type.String(),
        recipients: Type.Integer(),
      }),
    }),
    "An organizer's announcement went out to its segment (to the organizers only; its readers get it by mail).",
  ),
  'webhook.test': envelope('webhook.test', Type.Object({ webhook_id: Type.String() }), 'Sent by POST /webhooks/{id}/test, to that subscription only.'),
};
