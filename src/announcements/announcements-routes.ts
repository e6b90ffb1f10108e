import { Type } from 'typebox';
import { principalOf, type App } from '../core/http/app-types.js';
import { problems } from '../core/http/schemas.js';
import { EventIdParams } from '../events/events-schemas.js';
import { AnnouncementListSchema, AnnouncementParams, AnnouncementSchema, PostAnnouncementBody, announcementForApi } from './announcements-schemas.js';
import type { AnnouncementsService } from './announcements-service.js';

export interface AnnouncementsRoutesDeps {
  announcements: AnnouncementsService;
}

const tags = ['announcements'];

/** An organizer's announcements: post (now or later), list, cancel a scheduled one. */
export function announcementsRoutes(ctx: AnnouncementsRoutesDeps) {
  const { announcements } = ctx;
  return async function plugin(app: App) {
    app.post(
      '/events/:id/announcements',
      {
        config: {
          auth: true,
          idempotent: true,
          mcp: {
            name: 'post_announcement',
            title: 'Post an announcement',
            role: 'organizer',
            description: 'Mail a Markdown update to a segment of the event, now or at publish_at.',
          },
        },
        schema: {
          tags,
          summary: 'Post an announcement to a segment, sent now (recipients counted) or at publish_at; each person gets one mail in their language',
          params: EventIdParams,
          body: PostAnnouncementBody,
          response: { 201: AnnouncementSchema, ...problems('forbidden', 'event_not_found', 'validation_failed', 'results_not_published') },
        },
      },
      async (request, reply) => {
        const row = await announcements.post(principalOf(request), request.params.id, request.body);
        reply.status(201);
        return announcementForApi(row, true);
      },
    );

    app.get(
      '/events/:id/announcements',
      {
        config: {
          auth: true,
          mcp: {
            name: 'list_announcements',
            title: 'List announcements',
            role: 'participant',
            description: "The organizers' announcements that went to you in an event, newest first (organizers: all, scheduled ones too).",
          },
        },
        schema: {
          tags,
          summary: 'Organizers: every announcement (scheduled, sent, cancelled); anyone else: the published ones that went to them, newest first',
          params: EventIdParams,
          response: { 200: AnnouncementListSchema, ...problems('event_not_found') },
        },
      },
      async (request) => {
        const { organizer, rows } = await announcements.list(principalOf(request), request.params.id);
        return { announcements: rows.map((r) => announcementForApi(r, organizer)) };
      },
    );

    app.delete(
      '/events/:id/announcements/:announcementId',
      {
        config: { auth: true },
        schema: {
          tags,
          summary: 'Cancel a scheduled announcement before it goes out (a sent one cannot be unsent: 409)',
          params: AnnouncementParams,
          response: {
            204: Type.Null({ description: 'Cancelled (or already cancelled)' }),
            ...problems('forbidden', 'event_not_found', 'announcement_not_found', 'announcement_already_published'),
          },
        },
      },
      async (request, reply) => {
        await announcements.cancel(principalOf(request), request.params.id, request.params.announcementId);
        return reply.code(204).send(null);
      },
    );
  };
}
