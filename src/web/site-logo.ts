import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError, type Config } from '../core/config.js';
import { sniffImage, type ImageType } from '../core/image-format.js';
import type { App } from '../core/http/app-types.js';

/** Where the site logo is served when it comes from SITE_LOGO_FILE. */
export const SITE_LOGO_PATH = '/site-logo';

/** A SITE_LOGO_FILE larger than this is refused at start (a logo, not a photo). */
const MAX_LOGO_FILE_BYTES = 1024 * 1024;

export interface SiteLogo {
  /** Absolute URL of the logo (pages, link previews, e-mails). */
  url: string;
  /** The file's bytes when it comes from SITE_LOGO_FILE (served at /site-logo). */
  file: { bytes: Buffer; type: ImageType; etag: string } | null;
}

/**
 * The operator's site logo: SITE_LOGO_URL as given (a path is made absolute with PUBLIC_URL), or
 * SITE_LOGO_FILE read once at start and checked like an event's image (PNG, JPEG or WebP by its
 * bytes, at most 1 MB); a bad file stops the start with a ConfigError.
 */
export function loadSiteLogo(config: Pick<Config, 'siteLogo' | 'publicUrl'>): SiteLogo | null {
  const { url, file } = config.siteLogo;
  if (url) return { url: url.startsWith('/') ? `${config.publicUrl}${url}` : url, file: null };
  if (!file) return null;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new ConfigError([`SITE_LOGO_FILE=${JSON.stringify(file)} cannot be read (${(err as Error).message})`]);
  }
  if (bytes.length > MAX_LOGO_FILE_BYTES) throw new ConfigError([`SITE_LOGO_FILE=${JSON.stringify(file)} is larger than ${MAX_LOGO_FILE_BYTES} bytes`]);
  const info = sniffImage(bytes);
  if (!info) throw new ConfigError([`SITE_LOGO_FILE=${JSON.stringify(file)} is not a PNG, JPEG or WebP image`]);
  const sha = createHash('sha256').update(bytes).digest('hex');
  return { url: `${config.publicUrl}${SITE_LOGO_PATH}?v=${sha.slice(0, 16)}`, file: { bytes, type: info.type, etag: `"${sha}"` } };
}

/** GET /site-logo: the SITE_LOGO_FILE's bytes with their checked type. */
export function siteLogoRoute(app: App, logo: SiteLogo): void {
  const file = logo.file;
  if (!file) return;
  app.get(SITE_LOGO_PATH, { config: { skipRateLimit: true }, schema: { hide: true } as never }, async (request, reply) => {
    reply.header('etag', file.etag).header('cache-control', 'public, max-age=86400').header('content-security-policy', "default-src 'none'; sandbox");
    if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
    return reply.type(file.type).send(file.bytes);
  });
}

/** The origin an external logo comes from, for the pages' img-src; null when it is on this site. */
export function logoOrigin(logo: SiteLogo | null, publicUrl: string): string | null {
  if (!logo) return null;
  const origin = new URL(logo.url).origin;
  return origin === new URL(publicUrl).origin ? null : origin;
}
