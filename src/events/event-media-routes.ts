import { Type } from 'typebox';
import { principalOf, type App } from '../core/http/app-types.js';
import { rawBodyParser } from '../core/http/raw-body.js';
import { problems } from '../core/http/schemas.js';
import type { EventMediaKind } from '../core/db/schema.js';
import { IMAGE_TYPES } from '../core/image-format.js';
import { mediaUrl } from './events-model.js';
import { GetQuery, MediaInfoSchema, MediaParams, UploadQuery } from './event-media-schemas.js';
import { mediaFileName, mediaTooLarge, mediaVersion, type EventMediaService } from './event-media-service.js';

/** The media routes take these from the wiring. */
export interface EventMediaRoutesDeps {
  eventMedia: EventMediaService;
  config: { publicUrl: string };
}

const binary = { type: 'string', format: 'binary' } as const;

/** PUT, DELETE and GET of an event's cover image and logo. */
export function eventMediaRoutes(ctx: EventMediaRoutesDeps) {
  const { eventMedia, config } = ctx;
  return async function plugin(app: App) {
    // This plugin's own parsers (Fastify scopes them to it): the raw bytes of any Content-Type.
    app.removeAllContentTypeParsers();
    // Each kind's own limit; an over-limit body is read to its end before the 413 (core/http/raw-body.ts).
    app.addContentTypeParser(
      '*',
      rawBodyParser((request) => {
        const kind = (request.params as { kind?: string }).kind === 'logo' ? 'logo' : 'cover';
        const max = eventMedia.maxBytes(kind);
        return { max, tooLarge: () => mediaTooLarge(kind, max) };
      }),
    );

    app.put(
      '/events/:id/media/:kind',
      {
        config: {
          auth: true,
          mcp: {
            name: 'upload_event_media',
            title: 'Upload an event image',
            role: 'organizer',
            destructive: true,
            rawBody: { contentTypes: IMAGE_TYPES },
            description:
              "Set your event's cover (wide banner) or logo from a PNG, JPEG or WebP in base64. Over MCP up to about 70 KB; larger: PUT /api/v1/events/{id}/media/{kind} as raw bytes.",
          },
        },
        // The parser enforces each kind's own limit; this only lifts the JSON limit for this route.
        bodyLimit: Math.max(eventMedia.limits.coverMaxBytes, eventMedia.limits.logoMaxBytes),
        schema: {
          tags: ['organizer'],
          summary: "Upload the event's cover image or logo (raw body: a PNG, JPEG or WebP with its Content-Type)",
          description: [
            'Send the image itself as the body, e.g. `curl -X PUT --data-binary @cover.png -H "Content-Type: image/png"`.',
            `Content-Type must be ${IMAGE_TYPES.join(', ')} and match the bytes, which are checked (not the name); a cover may be ${eventMedia.limits.coverMaxBytes} bytes, a logo ${eventMedia.limits.logoMaxBytes}, and at most ${eventMedia.limits.maxDimension} pixels a side and ${eventMedia.limits.maxPixels} pixels in all.`,
            'A new upload replaces the old one; the event’s `cover_url` / `logo_url` change with it. Owners and co-organizers only.',
          ].join(' '),
          params: MediaParams,
          querystring: UploadQuery,
          response: {
            200: MediaInfoSchema,
            ...problems('forbidden', 'event_not_found', 'media_too_large', 'media_type_unsupported', 'media_type_mismatch'),
          },
        },
      },
      async (request) => {
        const { id, kind } = request.params;
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const info = await eventMedia.put(principalOf(request), id, kind, body, request.headers['content-type'], request.query.filename);
        return { ...info, url: mediaUrl(config.publicUrl, id, kind, mediaVersion(info.sha256))! };
      },
    );

    app.delete(
      '/events/:id/media/:kind',
      {
        config: {
          auth: true,
          mcp: {
            name: 'remove_event_media',
            title: 'Remove an event image',
            role: 'organizer',
            destructive: true,
            description: "Remove your event's cover image or logo (done also when there was none).",
          },
        },
        schema: {
          tags: ['organizer'],
          summary: "Remove the event's cover image or logo (204 also when there was none)",
          params: MediaParams,
          response: { 204: Type.Null(), ...problems('forbidden', 'event_not_found') },
        },
      },
      async (request, reply) => {
        await eventMedia.remove(principalOf(request), request.params.id, request.params.kind);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/events/:id/media/:kind',
      {
        schema: {
          tags: ['events'],
          summary: "The event's cover image or logo, as uploaded (public when the event is; a draft's to its organizers only)",
          params: MediaParams,
          querystring: GetQuery,
          response: {
            200: {
              description: 'The image, with the type its bytes were checked to be, a strong ETag (its sha256) and `X-Content-Type-Options: nosniff`',
              content: Object.fromEntries(IMAGE_TYPES.map((t) => [t, { schema: binary }])),
            } as never,
            304: { description: 'Not modified (If-None-Match)', type: 'null' } as never,
            ...problems('event_not_found', 'media_not_found'),
          },
        },
      },
      async (request, reply) => {
        const kind: EventMediaKind = request.params.kind;
        const media = await eventMedia.get(request.principal, request.params.id, kind);
        const etag = `"${media.sha256}"`;
        // A versioned address (cover_url) never changes its bytes; the bare one may, at any upload.
        const versioned = request.query.v === mediaVersion(media.sha256);
        reply
          .header('etag', etag)
          .header('cache-control', media.draft ? 'private, no-cache' : versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
          .header('content-disposition', `inline; filename="${mediaFileName(kind, media.content_type)}"`)
          // Should a browser open it as a document, it may run nothing.
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cross-origin-resource-policy', 'cross-origin');
        const inm = request.headers['if-none-match'];
        if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return reply.code(304).send();
        return reply.type(media.content_type).send(media.bytes);
      },
    );
  };
}
