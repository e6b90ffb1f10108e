import type { Executor } from '../core/db/index.js';

/**
 * One page of the audit log, newest first: the rows after `after` (created_at, id) in that order.
 * An event's page walks audit_log_event_idx, the admin's audit_log_created_idx (or the event's
 * when filtered by event); the action filter is applied along the walk.
 */
export function auditPage(db: Executor, q: { eventId?: string; action?: string; limit: number; after?: readonly [string, string] }) {
  let query = db
    .selectFrom('audit_log')
    .select(['id', 'event_id', 'actor_user_id', 'actor_label', 'action', 'target_type', 'target_id', 'data', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.limit);
  if (q.eventId !== undefined) query = query.where('event_id', '=', q.eventId);
  if (q.action !== undefined) query = query.where('action', '=', q.action);
  if (q.after) {
    const [at, id] = q.after;
    query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(at, id)));
  }
  return query.execute();
}
