import type { Answer } from '../../lib/api';

/** Pure scoring arithmetic of the review pages (the server's ranking normalises weights by their sum too). */

/** A judging dimension as the event carries it. */
export type Dimension = Answer<'/events/{id}'>['dimensions'][number];

export const SCORE_MIN = 0;
export const SCORE_MAX = 10;

/** Each dimension's share of the total (weights need not add up to 1): fractions summing to 1. */
export function weightShares(dimensions: readonly Dimension[]): number[] {
  const total = dimensions.reduce((s, d) => s + (d.weight > 0 ? d.weight : 0), 0);
  return dimensions.map((d) => (total > 0 && d.weight > 0 ? d.weight / total : 0));
}

/** The weighted mean of the scores, or null while a dimension has no valid score. */
export function weightedTotal(dimensions: readonly Dimension[], scores: Readonly<Record<string, number | null | undefined>>): number | null {
  if (dimensions.length === 0) return null;
  let sum = 0;
  let weights = 0;
  for (const d of dimensions) {
    const v = scores[d.name];
    if (v === null || v === undefined || !isValidScore(v)) return null;
    if (!(d.weight > 0)) continue;
    sum += v * d.weight;
    weights += d.weight;
  }
  return weights > 0 ? sum / weights : null;
}

export function isValidScore(v: number): boolean {
  return Number.isFinite(v) && v >= SCORE_MIN && v <= SCORE_MAX;
}

/** A typed score: '' is "not scored yet" (null); anything else must be a number in range, else NaN. */
export function parseScore(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  const v = Number(trimmed);
  return isValidScore(v) ? v : Number.NaN;
}

/**
 * The project to open after `currentId`: the first not yet reviewed after it in list order, then from
 * the start (wrapping); null when every other project is reviewed.
 */
export function nextUnreviewed<P extends { project_id: string; reviewed: boolean }>(projects: readonly P[], currentId: string): P | null {
  const at = projects.findIndex((p) => p.project_id === currentId);
  const n = projects.length;
  for (let step = 1; step <= n; step++) {
    const p = projects[(at + step + n) % n]!;
    if (p.project_id !== currentId && !p.reviewed) return p;
  }
  return null;
}

/** Only http(s) links become clickable (a submitted "javascript:" URL stays text). */
export function safeHttpUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}
