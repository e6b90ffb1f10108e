import { Type } from 'typebox';
import { principalOf, type App } from '../core/http/app-types.js';
import { rawBodyParser } from '../core/http/raw-body.js';
import { problems } from '../core/http/schemas.js';
import { IMAGE_TYPES } from '../core/image-format.js';
import { renderMarkdownCached } from '../core/markdown.js';
import { PROJECT_LIMITS } from '../submissions/submission-input.js';
import { mediaTooLarge, mediaVersion } from '../events/event-media-service.js';
import { EventIdParams } from '../events/events-schemas.js';
import { ScreenshotSchema } from '../registrations/project-schema.js';
import { SHOWCASE_LIMITS } from '../registrations/project-showcase.js';
import type { ProjectScreenshotsService } from './project-screenshots-service.js';

/** The screenshot routes take these from the wiring. */
export interface ProjectScreenshotsRoutesDeps {
  projectScreenshots: ProjectScreenshotsService;
  config: { media: { maxDimension: number; maxPixels: number } };
}

const ShotParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), shot_id: Type.String({ minLength: 1, maxLength: 64 }) });
const PublicShotParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  project_id: Type.String({ minLength: 1, maxLength: 64 }),
  shot_id: Type.String({ minLength: 1, maxLength: 64 }),
});
const UploadQuery = Type.Object(
  { filename: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "the file's name, to check its extension against the content" })) },
  { additionalProperties: false },
);
const ScreenshotList = Type.Object({ screenshots: Type.Array(ScreenshotSchema, { description: 'the project’s screenshots now, in display order' }) });
const UploadAnswer = Type.Object({ screenshot: ScreenshotSchema, screenshots: ScreenshotList.properties.screenshots });
const OrderBody = Type.Object(
  { ids: Type.Array(Type.String({ maxLength: 64 }), { maxItems: SHOWCASE_LIMITS.screenshots, description: 'every screenshot id once, in the new order' }) },
  { additionalProperties: false },
);
const binary = { type: 'string', format: 'binary' } as const;
const RIGHTS = 'Members of an approved team, until the submission deadline (the rules of submit), once the project is submitted.';

/** A project's screenshots: upload, remove and order (its team), and the images (whoever may see the project); the event's project tags; the Markdown preview. */
export function projectScreenshotsRoutes(ctx: ProjectScreenshotsRoutesDeps) {
  const { projectScreenshots, config } = ctx;
  const max = projectScreenshots.maxBytes;
  return async function plugin(app: App) {
    // The upload takes raw bytes: its own scope, so its parser applies to it alone.
    await app.register(async (raw: App) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser(
        '*',
        rawBodyParser(() => ({ max, tooLarge: () => mediaTooLarge('screenshot', max) })),
      );
      raw.post(
        '/events/:id/project/screenshots',
        {
          config: {
            auth: true,
            mcp: {
              name: 'upload_project_screenshot',
              title: 'Add a project screenshot',
              role: 'participant',
              rawBody: { contentTypes: IMAGE_TYPES },
              description: `Add a screenshot (PNG, JPEG or WebP, base64) to your submitted project; at most ${SHOWCASE_LIMITS.screenshots}. Over MCP about 70 KB of image fits; larger ones: the REST route, raw bytes.`,
            },
          },
          bodyLimit: max,
          schema: {
            tags: ['submission'],
            summary: `Add a screenshot to the team's project (raw body: a PNG, JPEG or WebP with its Content-Type); at most ${SHOWCASE_LIMITS.screenshots}`,
            description: [
              'Send the image itself as the body, e.g. `curl -X POST --data-binary @shot.png -H "Content-Type: image/png"`.',
              `Checked like event images: by content, at most ${max} bytes, ${config.media.maxDimension} pixels a side and ${config.media.maxPixels} pixels in all.`,
              `A body over the size limit is read to its end and answered 413 media_too_large. ${RIGHTS}`,
            ].join(' '),
            params: EventIdParams,
            querystring: UploadQuery,
            response: {
              201: UploadAnswer,
              ...problems(
                'not_registered',
                'registration_not_approved',
                'submission_closed',
                'event_not_found',
                'project_not_found',
                'screenshot_limit_reached',
                'media_too_large',
                'media_type_unsupported',
                'media_type_mismatch',
              ),
            },
          },
        },
        async (request, reply) => {
          const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const answer = await projectScreenshots.upload(
            principalOf(request),
            request.params.id,
            body,
            request.headers['content-type'],
            request.query.filename,
          );
          return reply.code(201).send(answer);
        },
      );
    });

    app.delete(
      '/events/:id/project/screenshots/:shot_id',
      {
        config: {
          auth: true,
          mcp: {
            name: 'remove_project_screenshot',
            title: 'Remove a project screenshot',
            role: 'participant',
            destructive: true,
            description: 'Remove a screenshot from your project.',
          },
        },
        schema: {
          tags: ['submission'],
          summary: "Remove one of the team's project screenshots",
          description: RIGHTS,
          params: ShotParams,
          response: {
            200: ScreenshotList,
            ...problems('not_registered', 'registration_not_approved', 'submission_closed', 'event_not_found', 'project_not_found', 'media_not_found'),
          },
        },
      },
      async (request) => projectScreenshots.remove(principalOf(request), request.params.id, request.params.shot_id),
    );

    app.put(
      '/events/:id/project/screenshot-order',
      {
        config: { auth: true },
        schema: {
          tags: ['submission'],
          summary: "Order the team's project screenshots (the first is the project's picture on gallery cards)",
          description: RIGHTS,
          params: EventIdParams,
          body: OrderBody,
          response: {
            200: ScreenshotList,
            ...problems('not_registered', 'registration_not_approved', 'submission_closed', 'event_not_found', 'project_not_found'),
          },
        },
      },
      async (request) => projectScreenshots.reorder(principalOf(request), request.params.id, request.body.ids),
    );

    app.get(
      '/events/:id/projects/:project_id/screenshots/:shot_id',
      {
        schema: {
          tags: ['events'],
          summary: "A project screenshot, as uploaded (public once the gallery shows the project; before that to its team and the event's organizers)",
          params: PublicShotParams,
          querystring: Type.Object({ v: Type.Optional(Type.String({ maxLength: 64, description: 'the version in the screenshot url (caching only)' })) }),
          response: {
            200: {
              description: 'The image, with the type its bytes were checked to be, a strong ETag (its sha256) and `X-Content-Type-Options: nosniff`',
              content: Object.fromEntries(IMAGE_TYPES.map((t) => [t, { schema: binary }])),
            } as never,
            304: { description: 'Not modified (If-None-Match)', type: 'null' } as never,
            ...problems('event_not_found', 'project_not_found', 'media_not_found'),
          },
        },
      },
      async (request, reply) => {
        const { id, project_id, shot_id } = request.params;
        const shot = await projectScreenshots.get(request.principal, id, project_id, shot_id);
        const etag = `"${shot.sha256}"`;
        const versioned = request.query.v === mediaVersion(shot.sha256);
        const scope = shot.isPublic ? 'public' : 'private';
        reply
          .header('etag', etag)
          .header('cache-control', versioned ? `${scope}, max-age=31536000, immutable` : `${scope}, no-cache`)
          .header(
            'content-disposition',
            `inline; filename="screenshot.${shot.content_type.split('/')[1] === 'jpeg' ? 'jpg' : shot.content_type.split('/')[1]}"`,
          )
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cross-origin-resource-policy', 'cross-origin');
        const inm = request.headers['if-none-match'];
        if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return reply.code(304).send();
        return reply.type(shot.content_type).send(shot.bytes);
      },
    );

    app.post(
      '/markdown/preview',
      {
        config: { auth: true },
        schema: {
          tags: ['submission'],
          summary: 'Render Markdown as every page shows a description (sanitised HTML): the editors’ preview',
          body: Type.Object({ markdown: Type.String({ maxLength: PROJECT_LIMITS.description }) }, { additionalProperties: false }),
          response: { 200: Type.Object({ html: Type.String() }) },
        },
      },
      async (request) => ({ html: renderMarkdownCached(request.body.markdown) }),
    );

    app.get(
      '/events/:id/project-tags',
      {
        schema: {
          tags: ['events'],
          summary:
            "The tags the event's projects use, most used first: suggestions for a project's tags (for its teams and organizers, and anyone once the gallery is open)",
          params: EventIdParams,
          response: {
            200: Type.Array(Type.Object({ tag: Type.String(), count: Type.Integer({ description: 'how many projects use it' }) })),
            ...problems('event_not_found', 'gallery_not_open'),
          },
        },
      },
      async (request) => projectScreenshots.tags(request.principal, request.params.id),
    );
  };
}
