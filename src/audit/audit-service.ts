import type { Db } from '../core/db/index.js';
import { AppError } from '../core/errors.js';
import { decodeCursor, encodeCursor, takePage } from '../core/http/pagination.js';
import type { Principal } from '../core/principal.js';
import type { EventsService } from '../events/events-service.js';
import { auditPage } from './audit-repo.js';

/**
 * Reading the audit log (the writing side is core/audit.ts, called inside each action's
 * transaction): an event's entries for its owners and co-organizers (and admins), every entry for
 * admins. Newest first, keyset pages on (created_at, id).
 */
export function createAuditService(deps: { db: Db; events: EventsService }) {
  const { db, events } = deps;

  async function page(scope: string, q: { eventId?: string; action?: string; limit: number; cursor?: string }) {
    const after = q.cursor !== undefined ? decodeCursor(q.cursor, 'audit', scope, ['time', 'id']) : undefined;
    const rows = await auditPage(db, {
      limit: q.limit + 1,
      ...(q.eventId !== undefined ? { eventId: q.eventId } : {}),
      ...(q.action !== undefined ? { action: q.action } : {}),
      ...(after ? { after: [after[0]!, after[1]!] as const } : {}),
    });
    const { items, nextKey } = takePage(rows, q.limit, (r) => [r.created_at, r.id]);
    return { rows: items, nextCursor: nextKey ? encodeCursor('audit', scope, nextKey) : null };
  }

  /** An event's log: its owners, co-organizers and admins (others 403, or 404 for a draft, as every organizer route). */
  async function forEvent(who: Principal, eventId: string, q: { action?: string; limit: number; cursor?: string }) {
    const event = await events.getOwned(eventId, who);
    return page(event.id, { ...q, eventId: event.id });
  }

  /** The whole log, or one event's (`eventId`, which need not exist any more): admins only. */
  async function all(who: Principal, q: { eventId?: string; action?: string; limit: number; cursor?: string }) {
    if (who.role !== 'admin') throw new AppError('forbidden', 'Only administrators may do this.');
    return page(q.eventId ?? '', q);
  }

  return { forEvent, all };
}

export type AuditService = ReturnType<typeof createAuditService>;
