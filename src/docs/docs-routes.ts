import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../core/http/app-types.js';
import type { Config } from '../core/config.js';
import { isErrorCode, problemTypes } from '../core/error-catalog.js';
import { AppError } from '../core/errors.js';
import { problems } from '../core/http/schemas.js';
import { ifNoneMatch } from '../core/http/etag.js';
import { DOCS_CSP } from './html-page.js';
import { serveDocument, type ServedDocument } from './openapi.js';
import { renderProblemIndex, renderProblemPage } from './problem-pages.js';
import { renderReferencePage } from './reference-page.js';

/** The document changes only with a deploy; a short max-age plus the ETag keeps clients current. */
const CACHE_CONTROL = 'public, max-age=300';

const ProblemTypeSchema = Type.Object({
  code: Type.String(),
  type: Type.String(),
  status: Type.Integer(),
  title: Type.String(),
  when: Type.String(),
  action: Type.String(),
});
const Html = Type.String({ description: 'HTML page' });
const NotModified = Type.Null({ description: 'Not modified (If-None-Match matched the ETag)' });

/** HTML only when the client asks for it (browsers do); JSON for everyone else. */
function wantsHtml(request: FastifyRequest): boolean {
  return /\btext\/html\b/i.test(request.headers.accept ?? '');
}

function sendCached(request: FastifyRequest, reply: FastifyReply, served: ServedDocument, type: string) {
  reply.header('ETag', served.etag).header('Cache-Control', CACHE_CONTROL);
  if (type.startsWith('text/html')) reply.header('Content-Security-Policy', DOCS_CSP);
  if (ifNoneMatch(request.headers['if-none-match'], served.etag)) return reply.code(304).send();
  return reply.type(type).send(served.json);
}

/** The docs routes need only the configuration. */
export interface DocsRoutesDeps {
  config: Config;
}

/**
 * `{base_url}/openapi.json`, the reference page `{site_url}/docs` and the problem types
 * `{site_url}/problems[/<code>]`. The document and the page are built once, when the app is ready
 * (every route is registered by then), and served from memory.
 */
export function docsRoutes(ctx: DocsRoutesDeps) {
  const { config } = ctx;
  const site = config.publicUrl;
  const docsConfig = { skipRateLimit: true, reviewKeyAllowed: true };

  return async function plugin(app: App) {
    let openapi: ServedDocument | null = null;
    let reference: ServedDocument | null = null;
    const problemPages = new Map<string, { html: ServedDocument; json: ServedDocument }>();
    const index = { html: serveDocument(null), json: serveDocument(null) };

    app.addHook('onReady', async function buildDocuments() {
      const doc = (this as unknown as { swagger(): Record<string, unknown> }).swagger();
      openapi = serveDocument(doc);
      const html = renderReferencePage(doc, site);
      reference = { json: html, etag: serveDocument(html).etag };
      for (const p of problemTypes(site)) {
        const page = renderProblemPage(p, site);
        problemPages.set(p.code, { html: { json: page, etag: serveDocument(page).etag }, json: serveDocument(p) });
      }
      const indexHtml = renderProblemIndex(problemTypes(site), site);
      index.html = { json: indexHtml, etag: serveDocument(indexHtml).etag };
      index.json = serveDocument(problemTypes(site));
    });

    app.get(
      '/api/v1/openapi.json',
      {
        config: docsConfig,
        schema: {
          tags: ['reference'],
          summary: 'This OpenAPI 3.1 document (ETag; send If-None-Match)',
          response: {
            200: { description: 'The OpenAPI 3.1 document', content: { 'application/json': { schema: Type.Object({}, { additionalProperties: true }) } } },
            304: NotModified,
          },
        },
      },
      async (request, reply) => sendCached(request, reply, openapi!, 'application/json; charset=utf-8'),
    );

    app.get(
      '/docs',
      {
        config: docsConfig,
        schema: {
          tags: ['reference'],
          summary: 'The API reference as one HTML page, generated from the OpenAPI document',
          response: { 200: { description: 'HTML page', content: { 'text/html': { schema: Html } } }, 304: NotModified },
        },
      },
      async (request, reply) => sendCached(request, reply, reference!, 'text/html; charset=utf-8'),
    );

    app.get(
      '/problems',
      {
        config: docsConfig,
        schema: {
          tags: ['reference'],
          summary: 'Every error code with its status and title (HTML with Accept: text/html, else JSON)',
          response: {
            200: {
              description: 'The problem types',
              content: { 'application/json': { schema: Type.Array(ProblemTypeSchema) }, 'text/html': { schema: Html } },
            },
            304: NotModified,
          },
        },
      },
      async (request, reply) => {
        reply.header('Vary', 'Accept');
        return wantsHtml(request)
          ? sendCached(request, reply, index.html, 'text/html; charset=utf-8')
          : sendCached(request, reply, index.json, 'application/json; charset=utf-8');
      },
    );

    app.get(
      '/problems/:code',
      {
        config: docsConfig,
        schema: {
          tags: ['reference'],
          summary: "One error code: its status, when it happens and what to do (a problem's `type` URL)",
          params: Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) }),
          response: {
            200: {
              description: 'The problem type',
              content: { 'application/json': { schema: ProblemTypeSchema }, 'text/html': { schema: Html } },
            },
            304: NotModified,
            ...problems('not_found'),
          },
        },
      },
      async (request, reply) => {
        const { code } = request.params;
        if (!isErrorCode(code)) throw new AppError('not_found', `No error code "${code}"; see ${site}/problems.`);
        const page = problemPages.get(code)!;
        reply.header('Vary', 'Accept');
        return wantsHtml(request)
          ? sendCached(request, reply, page.html, 'text/html; charset=utf-8')
          : sendCached(request, reply, page.json, 'application/json; charset=utf-8');
      },
    );
  };
}
