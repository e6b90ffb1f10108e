import type { Executor } from '../core/db/index.js';
import type { ProjectRow, RegistrationRow } from '../core/db/schema.js';
import { newId } from '../core/ids.js';
import { insertDeliveries, type Audience } from './webhook-events-repo.js';

/**
 * The kinds of webhook events, and who may receive each (a subscriber only ever receives what it
 * may read over the API):
 * - the event's organizers receive every kind of the events they organize;
 * - a participant receives the registration, project and team kinds of its own team only (every
 *   member of the team, leader or not; a member who leaves or is removed also receives that
 *   `team.member.left`), and the event-wide kinds (judging started, results published: public
 *   facts) of events it is in a team of; never `review.failed` (reviews are the organizers' view)
 *   nor `announcement.published` (an announcement is addressed to a segment; its readers get it by mail).
 * A subscription with `event_id` narrows that to one event.
 */
export const WEBHOOK_EVENT_TYPES = [
  'registration.created',
  'registration.decided',
  'project.submitted',
  'project.updated',
  'team.member.joined',
  'team.member.left',
  'review.failed',
  'judging.started',
  'results.published',
  'announcement.published',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** Sent by POST /webhooks/:id/test only, to that one subscription. */
export const WEBHOOK_TEST_TYPE = 'webhook.test';

const AUDIENCE: Record<WebhookEventType, 'subject' | 'registered' | 'organizers'> = {
  'registration.created': 'subject',
  'registration.decided': 'subject',
  'project.submitted': 'subject',
  'project.updated': 'subject',
  'team.member.joined': 'subject',
  'team.member.left': 'subject',
  'review.failed': 'organizers',
  'judging.started': 'registered',
  'results.published': 'registered',
  // An announcement goes to a segment (reviewers, winners…): its webhook only to the organizers, who may read every one.
  'announcement.published': 'organizers',
};

export interface WebhookOccurrence {
  type: WebhookEventType;
  eventId: string;
  /** The person the occurrence is about (registration, project and team kinds): the leader, or the member who joined or left. */
  subjectUserId?: string;
  /** The team the occurrence is about: every member's subscriptions receive it. */
  registrationId?: string;
  data: Record<string, unknown>;
  /** ISO instant of the change. */
  at: string;
}

/** The Standard Webhooks body: `{ type, timestamp, data }`. */
export function webhookBody(type: string, at: string, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: at, data });
}

/**
 * Queues one delivery per subscription that may receive the occurrence: one INSERT … SELECT, run
 * by the caller inside the transaction of the write that caused it, so an acknowledged write
 * never loses its delivery and a rolled-back one sends none. Costs one statement (an index-less
 * scan of the subscriptions table, which is small) when nobody subscribes.
 */
export async function enqueueWebhookEvent(tx: Executor, o: WebhookOccurrence): Promise<void> {
  const kind = AUDIENCE[o.type];
  const audience: Audience = kind === 'subject' ? { participant: o.subjectUserId ?? '', registrationId: o.registrationId ?? '' } : kind;
  const payload = webhookBody(o.type, o.at, o.data);
  const base = newId('msg');
  const pattern = `%,${o.type},%`;
  await insertDeliveries(tx, { base, type: o.type, payload, at: o.at, eventId: o.eventId, pattern, audience });
}

/** The `data` of the registration kinds: what the registrant and the organizers may read of it. */
export function registrationData(r: RegistrationRow): Record<string, unknown> {
  return {
    event_id: r.event_id,
    registration: {
      id: r.id,
      team_name: r.team_name,
      status: r.status,
      reason: r.reason,
      track_id: r.track_id,
      final: Boolean(r.rejected_final),
      attempt: r.attempt,
      created_at: r.created_at,
      updated_at: r.updated_at,
    },
  };
}

/** The `data` of the project kinds. */
export function projectData(p: ProjectRow): Record<string, unknown> {
  return {
    event_id: p.event_id,
    registration_id: p.registration_id,
    project: {
      id: p.id,
      project_name: p.project_name,
      github_url: p.github_url,
      track_id: p.track_id,
      first_submitted_at: p.first_submitted_at,
      updated_at: p.updated_at,
    },
  };
}

/** The `data` of the team kinds. */
export function teamMemberData(o: {
  eventId: string;
  registrationId: string;
  teamName: string;
  member: { user_id: string; name: string };
  removed: boolean;
  memberCount: number;
}): Record<string, unknown> {
  return {
    event_id: o.eventId,
    registration_id: o.registrationId,
    team_name: o.teamName,
    member: o.member,
    removed: o.removed,
    member_count: o.memberCount,
  };
}
