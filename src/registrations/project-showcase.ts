/**
 * What a project shows besides its description (since 0235): tagline, "built with" tags,
 * screenshots and a demo video. Pure helpers shared by the submit path, the gallery, the project
 * pages and the results: the stored shapes (JSON text columns on `projects`) and how they appear on
 * the wire.
 */

export const SHOWCASE_LIMITS = { tagline: 140, tags: 10, tagLength: 32, screenshots: 5 } as const;

/** One screenshot as the project row names it: `v` is a prefix of its sha256 (the URL's version). */
export interface ScreenshotRef {
  id: string;
  v: string;
  width: number;
  height: number;
}

/**
 * A tag as stored and compared: trimmed, lower case (Unicode-aware), inner whitespace and
 * underscores become one '-', and a leading '#' is dropped ("#Next JS" → "next-js"). Empty after
 * that: null.
 */
export function normaliseTag(raw: string): string | null {
  const tag = raw
    .normalize('NFKC')
    .trim()
    .replace(/^#+/, '')
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return tag ? tag : null;
}

/** Reads the stored tags column (a JSON array of strings); anything else reads as none. */
export function parseTags(stored: string | null | undefined): string[] {
  return parseArray(stored).filter((t): t is string => typeof t === 'string');
}

/** Reads the stored screenshots column (a JSON array of ScreenshotRef). */
export function parseScreenshots(stored: string | null | undefined): ScreenshotRef[] {
  return parseArray(stored).filter(
    (s): s is ScreenshotRef => typeof s === 'object' && s !== null && typeof (s as ScreenshotRef).id === 'string' && typeof (s as ScreenshotRef).v === 'string',
  );
}

function parseArray(stored: string | null | undefined): unknown[] {
  if (!stored) return [];
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/** A screenshot's public address: versioned, so it may be cached for good. */
export function screenshotUrl(publicUrl: string, eventId: string, projectId: string, shot: ScreenshotRef): string {
  return `${publicUrl}/api/v1/events/${encodeURIComponent(eventId)}/projects/${encodeURIComponent(projectId)}/screenshots/${encodeURIComponent(shot.id)}?v=${shot.v}`;
}

/** The screenshots on the wire, in display order. */
export function screenshotsForApi(publicUrl: string, eventId: string, projectId: string, stored: string | null | undefined) {
  return parseScreenshots(stored).map((s) => ({ id: s.id, url: screenshotUrl(publicUrl, eventId, projectId, s), width: s.width, height: s.height }));
}

/** The hosts a demo video may be embedded from (the pages' CSP frame-src names exactly these). */
export const VIDEO_EMBED_ORIGINS = [
  'https://www.youtube-nocookie.com',
  'https://player.vimeo.com',
  'https://www.loom.com',
  'https://player.bilibili.com',
] as const;

export type VideoProvider = 'youtube' | 'vimeo' | 'loom' | 'bilibili';

/** A demo video as the pages show it: a click-to-load player. */
export interface VideoEmbed {
  provider: VideoProvider;
  url: string;
  embed_url: string;
}

/**
 * The player address of a demo video on a common host (YouTube watch / youtu.be / shorts / embed,
 * on youtube-nocookie.com; Vimeo; Loom; Bilibili BV and av ids); null for any other link, which is
 * shown as a plain link. Pure: the page loads nothing from the host until the visitor clicks.
 */
export function videoEmbed(raw: string | null | undefined): VideoEmbed | null {
  if (!raw) return null;
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
  const host = u.hostname.toLowerCase().replace(/^(www|m)\./, '');
  const parts = u.pathname.split('/').filter(Boolean);
  const make = (provider: VideoProvider, embed: string): VideoEmbed => ({ provider, url: raw.trim(), embed_url: embed });
  const youtubeId = /^[A-Za-z0-9_-]{11}$/;
  if (host === 'youtube.com' || host === 'youtube-nocookie.com' || host === 'music.youtube.com') {
    const id = parts[0] === 'watch' ? u.searchParams.get('v') : ['shorts', 'embed', 'live', 'v'].includes(parts[0] ?? '') ? parts[1] : null;
    return id && youtubeId.test(id) ? make('youtube', `https://www.youtube-nocookie.com/embed/${id}`) : null;
  }
  if (host === 'youtu.be') {
    const id = parts[0];
    return id && youtubeId.test(id) ? make('youtube', `https://www.youtube-nocookie.com/embed/${id}`) : null;
  }
  if (host === 'vimeo.com' || host === 'player.vimeo.com') {
    const at = host === 'player.vimeo.com' ? (parts[0] === 'video' ? 1 : -1) : parts.findIndex((p) => /^\d+$/.test(p));
    const id = at >= 0 ? parts[at] : undefined;
    if (!id || !/^\d{1,20}$/.test(id)) return null;
    const hash = host === 'vimeo.com' ? parts[at + 1] : u.searchParams.get('h');
    return make('vimeo', `https://player.vimeo.com/video/${id}${hash && /^[0-9a-f]{6,40}$/i.test(hash) ? `?h=${hash}` : ''}`);
  }
  if (host === 'loom.com') {
    const id = (parts[0] === 'share' || parts[0] === 'embed') && parts[1] ? parts[1] : null;
    return id && /^[A-Za-z0-9]{8,64}$/.test(id) ? make('loom', `https://www.loom.com/embed/${id}`) : null;
  }
  if (host === 'bilibili.com' || host === 'player.bilibili.com') {
    const id =
      parts[0] === 'video'
        ? parts[1]
        : host === 'player.bilibili.com'
          ? (u.searchParams.get('bvid') ?? (u.searchParams.get('aid') ? `av${u.searchParams.get('aid')}` : null))
          : null;
    if (id && /^BV[A-Za-z0-9]{10}$/.test(id)) return make('bilibili', `https://player.bilibili.com/player.html?bvid=${id}&autoplay=0`);
    if (id && /^av\d{1,20}$/i.test(id)) return make('bilibili', `https://player.bilibili.com/player.html?aid=${id.slice(2)}&autoplay=0`);
    return null;
  }
  return null;
}

/**
 * The tagline a client sent, checked: one line of at most SHOWCASE_LIMITS.tagline characters,
 * trimmed ("" clears it). An error message, or the value.
 */
export function checkTagline(raw: string): { value: string } | { error: string } {
  const v = raw.normalize('NFC').trim();
  if (/[\r\n\u2028\u2029]/.test(v)) return { error: 'must be one line' };
  if ([...v].length > SHOWCASE_LIMITS.tagline) return { error: `must be at most ${SHOWCASE_LIMITS.tagline} characters` };
  return { value: v };
}

/**
 * The tags a client sent, normalised (normaliseTag) and merged when equal after that, in the order
 * first given: at most SHOWCASE_LIMITS.tags of at most SHOWCASE_LIMITS.tagLength characters each.
 */
export function checkTags(raw: readonly string[]): { value: string[] } | { error: string } {
  const out: string[] = [];
  for (const r of raw) {
    const tag = normaliseTag(r);
    if (!tag) return { error: `${JSON.stringify(r)} is empty once normalised` };
    if ([...tag].length > SHOWCASE_LIMITS.tagLength) return { error: `"${tag}" is longer than ${SHOWCASE_LIMITS.tagLength} characters` };
    if (!out.includes(tag)) out.push(tag);
  }
  if (out.length > SHOWCASE_LIMITS.tags) return { error: `at most ${SHOWCASE_LIMITS.tags} tags` };
  return { value: out };
}
