import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../core/http/app-types.js';
import { VIDEO_EMBED_ORIGINS } from '../registrations/project-showcase.js';
import { headFor, withHead, type PageHeadSource } from './page-head.js';
import { logoOrigin, siteLogoRoute, type SiteLogo } from './site-logo.js';

/**
 * The pages' Content-Security-Policy: scripts and styles only from this origin (Vite emits no inline
 * script), no plugins, no framing, forms and fetches to this origin only. Images from this origin
 * (event covers and logos are served by the API), plus an operator's SITE_LOGO_URL host if it is elsewhere.
 * Frames only from the demo-video players a project page embeds, and only once the visitor clicks.
 */
const PAGE_CSP_PARTS = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  `frame-src ${VIDEO_EMBED_ORIGINS.join(' ')}`,
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
];

/** The CSP with one more image origin (an operator's SITE_LOGO_URL on another host), if any. */
export function pageCsp(extraImageOrigin: string | null): string {
  return PAGE_CSP_PARTS.map((d) => (d.startsWith('img-src') && extraImageOrigin ? `${d} ${extraImageOrigin}` : d)).join('; ');
}

export const PAGE_CSP = pageCsp(null);

/**
 * The page routes of the web app: every one answers the same index.html and the app's router draws
 * the page. Listed (not a catch-all) so that an unknown path stays a problem+json 404 for API clients.
 */
export const PAGE_ROUTES = [
  '/',
  '/signin',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/signup/confirm',
  '/account',
  '/api-keys',
  '/webhooks',
  '/admin',
  '/admin/*',
  '/events',
  '/events/*',
  '/hackathons/*',
  '/reviews',
  '/reviews/*',
  '/invitations/:token',
  '/me/*',
] as const;

/** Where the built front end lives: dist/web beside the compiled server (or the source tree's dist). */
export function webRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  // dist/web/web-routes.js -> dist/web is the server code; the assets are built into dist/public.
  for (const candidate of [resolve(here, '../public'), resolve(here, '../../dist/public')]) {
    if (existsSync(join(candidate, 'index.html'))) return candidate;
  }
  return resolve(here, '../../dist/public');
}

function pageHeaders(reply: FastifyReply, csp: string = PAGE_CSP): FastifyReply {
  return reply
    .header('content-security-policy', csp)
    .header('referrer-policy', 'same-origin')
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-cache')
    .type('text/html; charset=utf-8');
}

/**
 * For unknown paths: a browser navigating to one (GET or HEAD, accepting HTML, outside /api/) gets
 * the app with status 404, which draws its "page not found" in the reader's language; everything
 * else (API clients, assets, scripts) keeps the problem+json 404.
 */
export function pageNotFoundFallback(head?: PageHeadSource): (request: FastifyRequest, reply: FastifyReply) => boolean {
  const indexPath = join(webRoot(), 'index.html');
  let index: string | null | undefined;
  return (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const path = request.url.split('?')[0]!;
    if (path.startsWith('/api/') || path.startsWith('/assets/') || path.startsWith('/scripts/')) return false;
    if (!(request.headers.accept ?? '').includes('text/html')) return false;
    if (index === undefined) {
      const raw = existsSync(indexPath) ? readFileSync(indexPath, 'utf8') : null;
      index = raw && head ? withHead(raw, { title: head.siteName, description: head.tagline, url: `${head.publicUrl}/` }, head) : raw;
    }
    if (index === null) return false;
    void pageHeaders(reply.code(404)).send(index);
    return true;
  };
}

/**
 * Serves the built web app from the same process and port as the API: hashed assets under /assets
 * (cached for a year), and index.html for every page route. Without a build (a checkout where
 * `npm run build:web` has not run) the pages answer 503 with a hint instead of a bare 404.
 */
export function webRoutes(head?: PageHeadSource, logo: SiteLogo | null = null) {
  const csp = pageCsp(head ? logoOrigin(logo, head.publicUrl) : null);
  return async (app: App) => {
    if (logo) siteLogoRoute(app, logo);
    const root = webRoot();
    const indexPath = join(root, 'index.html');
    const built = existsSync(indexPath);
    let index: string | null = null;
    const page = async (req: { url: string }, reply: FastifyReply) => {
      if (!built) {
        return reply.code(503).type('text/plain; charset=utf-8').send('The web app is not built: run `npm run build` (npm install does it).');
      }
      index ??= readFileSync(indexPath, 'utf8');
      pageHeaders(reply, csp);
      // The title and link-preview tags are in the HTML itself: a link shared in a chat previews the
      // event before (and without) any script running.
      // The invitation link carries its token in the path: no Referer may repeat it, no cache may keep it.
      if (req.url.startsWith('/invitations/')) reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
      return reply.send(head ? withHead(index, await headFor(req.url.split('?')[0]!, head), head) : index);
    };
    for (const url of PAGE_ROUTES) {
      app.get(url, { config: { skipRateLimit: true }, schema: { hide: true } }, page);
    }
    if (built) {
      await app.register(fastifyStatic, {
        root: join(root, 'assets'),
        prefix: '/assets/',
        wildcard: true,
        index: false,
        immutable: true,
        maxAge: '365d',
        setHeaders: (reply) => void reply.header('content-security-policy', PAGE_CSP),
      });
      for (const file of ['favicon.svg', 'robots.txt']) {
        if (!existsSync(join(root, file))) continue;
        const body = readFileSync(join(root, file));
        app.get(`/${file}`, { config: { skipRateLimit: true }, schema: { hide: true } as never }, async (_req, reply) =>
          reply
            .type(file.endsWith('.svg') ? 'image/svg+xml' : 'text/plain; charset=utf-8')
            .header('cache-control', 'public, max-age=86400')
            .send(body),
        );
      }
    }
  };
}
