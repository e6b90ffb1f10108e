import { normaliseTag, parseTags } from '../registrations/project-showcase.js';

/**
 * The team finder's pure rules: skills are normalised and stored like a project's "built with"
 * tags (registrations/project-showcase.ts): trimmed, lower case, whitespace and underscores as '-',
 * a leading '#' dropped, duplicates dropped.
 */

export const FINDER_LIMITS = { line: 200, skills: 10, skillLength: 32, message: 500, teamLine: 200 } as const;

export const normaliseSkill = normaliseTag;

/** Normalised, de-duplicated skills in the given order; an empty one is dropped. Lengths are checked by the caller's schema. */
export function normaliseSkills(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (const r of raw) {
    const s = normaliseSkill(r);
    if (s && !out.includes(s)) out.push(s);
  }
  return out;
}

/** Reads a stored skills column (a JSON array of strings); anything else reads as none. */
export const parseSkills = parseTags;

/** One line of text: control characters and line breaks become spaces, trimmed. */
export function oneLine(raw: string | undefined): string {
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  return (raw ?? '').replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}
