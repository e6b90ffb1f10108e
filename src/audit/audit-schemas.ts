import { Type } from 'typebox';
import { AUDIT_ACTIONS } from '../core/audit.js';
import type { AuditLogRow } from '../core/db/schema.js';
import { organizerPageQuery } from '../core/http/pagination.js';
import { Nullable } from '../core/http/schemas.js';

const ActionFilter = Type.Optional(
  Type.Union(
    AUDIT_ACTIONS.map((a) => Type.Literal(a)),
    { description: 'only entries of this action' },
  ),
);

export const EventAuditQuery = Type.Object({ action: ActionFilter, ...organizerPageQuery }, { additionalProperties: false });

export const AdminAuditQuery = Type.Object(
  {
    action: ActionFilter,
    event_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "only this event's entries" })),
    ...organizerPageQuery,
  },
  { additionalProperties: false },
);

export const AuditChangeSchema = Type.Object({ field: Type.String(), before: Type.Unknown(), after: Type.Unknown() });

export const AuditEntrySchema = Type.Object({
  id: Type.String(),
  event_id: Nullable(Type.String({ description: 'null for site-wide actions (roles, accounts, keys)' })),
  actor_user_id: Nullable(Type.String({ description: "the acting user's id; null for the operator's CLI" })),
  actor_label: Type.String({ description: "the actor's e-mail at the time, or `cli`" }),
  action: Type.String({ description: 'dotted name, e.g. registration.approved, event.updated, results.published' }),
  target_type: Type.String({ description: 'event, registration, project, project_flag, reviewer_invitation, user, api_key, event_media' }),
  target_id: Type.String(),
  data: Type.Record(Type.String(), Type.Unknown(), {
    description: 'what the action recorded: `changes: [{field, before, after}]` for edits, the reason of a decision, …',
  }),
  created_at: Type.String(),
});

export function auditEntryForApi(r: AuditLogRow) {
  return {
    id: r.id,
    event_id: r.event_id,
    actor_user_id: r.actor_user_id,
    actor_label: r.actor_label,
    action: r.action,
    target_type: r.target_type,
    target_id: r.target_id,
    data: JSON.parse(r.data) as Record<string, unknown>,
    created_at: r.created_at,
  };
}
