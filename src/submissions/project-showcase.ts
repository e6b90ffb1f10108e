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
