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
              "The event's public projects (tagline, tags, cover; after the results their place), by track_id, tag, q (name, tagline, tags); shuffled per visitor during a vote. Before it opens: gallery_not_open.",
          },
        },
        schema: {
          tags: ['showcase'],
          summary: 'The event\'s public projects as cards, by track, tag and search (cursor pagination, Link rel="next")',
          description:
            "Open when the organizer's `gallery_visibility` says (after the submission deadline by default, after the results, or never); the event's organizers see it at any time. Only approved teams' projects are shown. Order: while the people's-choice vote is open, a stable shuffle per visitor (seeded by the signed-in account, else by `seed`; without one a random seed, carried by the next page's link); after publication winners (podium and track winners) first by place, then the rest in submission order; otherwise submission order. The `Gallery-Order` header says which.",
          params: EventIdParams,
          querystring: GalleryQuery,
          response: { 200: Type.Array(GalleryItem), ...problems('event_not_found', 'gallery_not_open', 'validation_failed') },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const page = await gallery.list(request.principal, request.params.id, {
          limit: q.limit,
          cursor: q.cursor,
          trackId: q.track_id,
          tag: q.tag,
          q: q.q,
          seed: q.seed,
        });
        reply.header('Gallery-Order', page.order);
        setNextLink(reply, config.publicUrl, `/events/${encodeURIComponent(request.params.id)}/gallery`, { ...q, seed: page.seed ?? q.seed }, page.nextCursor);
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
