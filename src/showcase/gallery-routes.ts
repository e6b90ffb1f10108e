import { Type } from 'typebox';
import type { App } from '../core/http/app-types.js';
import type { Config } from '../core/config.js';
import { setNextLink } from '../core/http/pagination.js';
import { problems } from '../core/http/schemas.js';
import { EventIdParams } from '../events/events-schemas.js';
import { GalleryItem, GalleryProject, GalleryProjectParams, GalleryQuery } from './gallery-schemas.js';
import type { GalleryService } from './gallery-service.js';

/** The gallery routes take these from the wiring. */
export interface GalleryRoutesDeps {
  gallery: GalleryService;
  config: Config;
}

export function galleryRoutes(ctx: GalleryRoutesDeps) {
  const { gallery, config } = ctx;
  return async function plugin(app: App) {
    app.get(
      '/events/:id/gallery',
      {
        config: {
          mcp: {
            name: 'list_gallery',
            title: 'List the gallery',
            role: 'participant',
            description:
              "The event's public projects in submission order, by track_id and by q (part of the name). Opens when the organizer chose; before that gallery_not_open with opens_at.",
          },
        },
        schema: {
          tags: ['showcase'],
          summary: 'The event\'s public projects, in submission order, by track and name (cursor pagination, Link rel="next")',
          description:
            "Open when the organizer's `gallery_visibility` says (after the submission deadline by default, after the results, or never); the event's organizers see it at any time. Only approved teams' projects are shown.",
          params: EventIdParams,
          querystring: GalleryQuery,
          response: { 200: Type.Array(GalleryItem), ...problems('event_not_found', 'gallery_not_open', 'validation_failed') },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const page = await gallery.list(request.principal, request.params.id, { limit: q.limit, cursor: q.cursor, trackId: q.track_id, q: q.q });
        setNextLink(reply, config.publicUrl, `/events/${encodeURIComponent(request.params.id)}/gallery`, q, page.nextCursor);
        return page.items;
      },
    );

    app.get(
      '/events/:id/gallery/:project_id',
      {
        config: {
          mcp: {
            name: 'get_gallery_project',
            title: 'Get a gallery project',
            role: 'participant',
            args: { project_id: 'project id (prj_…), from list_gallery' },
            description: 'One public project: description, links, the team by name, and after the results its rank, score and prize.',
          },
        },
        schema: {
          tags: ['showcase'],
          summary: "One public project: its description rendered, the team's members by name, and after the results its rank, score and prize",
          params: GalleryProjectParams,
          response: { 200: GalleryProject, ...problems('event_not_found', 'gallery_not_open', 'project_not_found') },
        },
      },
      async (request) => gallery.project(request.principal, request.params.id, request.params.project_id),
    );
  };
}
