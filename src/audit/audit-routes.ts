import { Type } from 'typebox';
import { principalOf, type App } from '../core/http/app-types.js';
import type { Config } from '../core/config.js';
import { setNextLink } from '../core/http/pagination.js';
import { problems } from '../core/http/schemas.js';
import { EventIdParams } from '../events/events-schemas.js';
import type { AuditService } from './audit-service.js';
import { AdminAuditQuery, AuditEntrySchema, EventAuditQuery, auditEntryForApi } from './audit-schemas.js';

/** The audit log routes take these from the wiring. */
export interface AuditRoutesDeps {
  audit: AuditService;
  config: Config;
}

export function auditRoutes(ctx: AuditRoutesDeps) {
  const { audit, config } = ctx;
  return async function plugin(app: App) {
    app.get(
      '/events/:id/audit',
      {
        config: {
          auth: true,
          mcp: {
            name: 'get_audit_log',
            title: 'Read the audit log',
            role: 'organizer',
            description: "Your event's audit log, newest first: who did what, each changed field before and after; filter by action.",
          },
        },
        schema: {
          tags: ['organizer'],
          summary:
            'The event\'s audit log, newest first: every organizer and admin action on it (who, what, on what, the fields an edit changed); one page (cursor pagination, Link rel="next")',
          params: EventIdParams,
          querystring: EventAuditQuery,
          response: { 200: Type.Array(AuditEntrySchema), ...problems('forbidden', 'event_not_found') },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const page = await audit.forEvent(principalOf(request), request.params.id, {
          limit: q.limit,
          ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
          ...(q.action !== undefined ? { action: q.action } : {}),
        });
        setNextLink(reply, config.publicUrl, `/events/${encodeURIComponent(request.params.id)}/audit`, q, page.nextCursor);
        return page.rows.map(auditEntryForApi);
      },
    );

    app.get(
      '/admin/audit',
      {
        config: { auth: true },
        schema: {
          tags: ['admin'],
          summary:
            'The whole audit log, newest first (admins): organizer and admin actions on every event, role changes, accounts disabled or enabled, keys revoked; one page (cursor pagination, Link rel="next")',
          querystring: AdminAuditQuery,
          response: { 200: Type.Array(AuditEntrySchema), ...problems('forbidden') },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const page = await audit.all(principalOf(request), {
          limit: q.limit,
          ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
          ...(q.action !== undefined ? { action: q.action } : {}),
          ...(q.event_id !== undefined ? { eventId: q.event_id } : {}),
        });
        setNextLink(reply, config.publicUrl, '/admin/audit', q, page.nextCursor);
        return page.rows.map(auditEntryForApi);
      },
    );
  };
}
