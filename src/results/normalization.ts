import { MAX_SCORE, MIN_SCORE, type RankingDimension, type RankingReview } from './ranking.js';

/**
 * Score normalisation (the event option `normalization`), with no I/O.
 *
 * - `none`: the reviews are ranked as scored (the contract's arithmetic, ranking.ts).
 * - `zscore`: per dimension, every reviewer's scores are standardised over the projects that
 *   reviewer scored and mapped back to the 0–10 scale by the panel's spread:
 *     normalised = clamp(panel_mean + panel_sd × (x − reviewer_mean) / reviewer_sd, 0, 10)
 *   where panel_mean and panel_sd are the mean and population standard deviation of every raw
 *   score of that dimension (all reviewers, all projects), and reviewer_mean / reviewer_sd are the
 *   same over that reviewer's own scores of the dimension. A reviewer is one human reviewer or one
 *   AI model (a model counts as one reviewer, however many projects it scored). The normalised
 *   reviews then go through rankProjects unchanged (group means, weighted average).
 *
 * Decisions where the issue is silent:
 * - a reviewer with fewer than MIN_SCORES_TO_NORMALIZE scores of a dimension keeps them raw;
 * - a reviewer whose scores of a dimension are all equal (SD 0) has no spread to standardise: every
 *   one of them maps to the panel mean (the reviewer expressed no preference between projects);
 * - when the panel's own SD is 0 (every score equal), every normalised score is the panel mean.
 * Scores that ranking.ts would ignore (not a number from 0 to 10, unknown dimension) are ignored
 * here too and passed through untouched, so rankProjects still ignores them.
 */

export type Normalization = 'none' | 'zscore';
export const NORMALIZATIONS: readonly Normalization[] = ['none', 'zscore'];
/** A reviewer with fewer scores than this in a dimension keeps them raw. */
export const MIN_SCORES_TO_NORMALIZE = 3;

/** A review with the reviewer that wrote it: a human reviewer's id, or the model identifier. */
export interface ReviewerReview extends RankingReview {
  reviewer_key: string;
}

function isScore(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= MIN_SCORE && v <= MAX_SCORE;
}

/** Resolves a score's name to its dimension as rankProjects does: exact, else trimmed and case-blind. */
function dimensionResolver(dimensions: readonly RankingDimension[]) {
  const exact = new Map<string, number>();
  const loose = new Map<string, number>();
  dimensions.forEach((d, i) => {
    exact.set(d.name, i);
    if (!loose.has(d.name.trim().toLowerCase())) loose.set(d.name.trim().toLowerCase(), i);
  });
  return (name: string): number | undefined => exact.get(name) ?? loose.get(name.trim().toLowerCase());
}

interface Moments {
  n: number;
  sum: number;
  sumSq: number;
}
const moments = (): Moments => ({ n: 0, sum: 0, sumSq: 0 });
function add(m: Moments, x: number): void {
  m.n++;
  m.sum += x;
  m.sumSq += x * x;
}
function meanSd(m: Moments): { mean: number; sd: number } {
  const mean = m.sum / m.n;
  // Two-pass accuracy is not needed for 0–10 scores; clamp the float residue of a zero variance.
  const variance = Math.max(0, m.sumSq / m.n - mean * mean);
  const sd = Math.sqrt(variance);
  return { mean, sd: sd < 1e-9 ? 0 : sd };
}

/**
 * The reviews with every score normalised (`zscore`), or as given (`none`). A review that names a
 * dimension twice (case-blind) is counted once per dimension, its first spelling, as rankProjects
 * counts it; the later spelling is dropped from the normalised review.
 */
export function normalizeReviews<R extends ReviewerReview>(mode: Normalization, dimensions: readonly RankingDimension[], reviews: readonly R[]): R[] {
  if (mode === 'none') return [...reviews];
  const resolve = dimensionResolver(dimensions);
  const D = dimensions.length;
  const panel = Array.from({ length: D }, moments);
  const byReviewer = new Map<string, Moments[]>();
  const used = (r: R): Array<[string, number, number]> => {
    const out: Array<[string, number, number]> = [];
    const seen = new Set<number>();
    for (const name in r.scores) {
      const v = r.scores[name];
      if (!isScore(v)) continue;
      const d = resolve(name);
      if (d === undefined || seen.has(d)) continue;
      seen.add(d);
      out.push([name, d, v]);
    }
    return out;
  };
  for (const r of reviews) {
    let m = byReviewer.get(r.reviewer_key);
    if (!m) byReviewer.set(r.reviewer_key, (m = Array.from({ length: D }, moments)));
    for (const [, d, v] of used(r)) {
      add(panel[d]!, v);
      add(m[d]!, v);
    }
  }
  const panelStats = panel.map((m) => (m.n > 0 ? meanSd(m) : { mean: 0, sd: 0 }));
  const reviewerStats = new Map<string, Array<{ mean: number; sd: number } | null>>();
  for (const [key, ms] of byReviewer)
    reviewerStats.set(
      key,
      ms.map((m) => (m.n >= MIN_SCORES_TO_NORMALIZE ? meanSd(m) : null)),
    );

  return reviews.map((r) => {
    const stats = reviewerStats.get(r.reviewer_key)!;
    const scores = Object.create(null) as Record<string, unknown>;
    for (const [name, d, v] of used(r)) {
      const own = stats[d];
      if (!own) {
        scores[name] = v;
        continue;
      }
      const p = panelStats[d]!;
      const z = own.sd === 0 ? 0 : (v - own.mean) / own.sd;
      scores[name] = Math.min(MAX_SCORE, Math.max(MIN_SCORE, p.mean + p.sd * z));
    }
    return { ...r, scores };
  });
}

/** Offset and correlation over which a reviewer is flagged as far from the panel. */
export const OUTLIER_OFFSET = 2;
export const OUTLIER_CORRELATION = 0.2;
/** Common projects a correlation needs; with fewer it is not computed (null) and cannot flag. */
export const MIN_CORRELATION_PROJECTS = 3;

export interface ReviewerAgreement {
  reviewer_key: string;
  /** Projects the reviewer scored (any dimension). */
  projects: number;
  /** Of those, projects some other reviewer scored too: what offset and correlation are over. */
  common_projects: number;
  /** Mean of (reviewer's score − the other reviewers' mean) over the common projects; null with none. */
  mean_offset: number | null;
  /** Pearson correlation of the reviewer's scores with the others' means; null below MIN_CORRELATION_PROJECTS or with no variation. */
  correlation: number | null;
  /** Why the reviewer is flagged: `offset` (|mean_offset| > 2), `correlation` (< 0.2). Empty: not flagged. */
  flags: Array<'offset' | 'correlation'>;
}

/**
 * How far each reviewer's raw scores are from the rest of the panel. A reviewer's score of a
 * project is the weighted mean over the dimensions they scored (as scores_by_model weighs a group);
 * the panel's score of the project, for that reviewer, is the plain mean of every other reviewer's
 * score of it. Pure; reviewers come in first-seen order.
 */
export function reviewerAgreement(dimensions: readonly RankingDimension[], reviews: readonly ReviewerReview[]): ReviewerAgreement[] {
  const resolve = dimensionResolver(dimensions);
  // reviewer -> project -> score (a reviewer's several reviews of one project are averaged).
  const scored = new Map<string, Map<string, { sum: number; n: number }>>();
  for (const r of reviews) {
    let weighted = 0;
    let weightSum = 0;
    const seen = new Set<number>();
    for (const name in r.scores) {
      const v = r.scores[name];
      if (!isScore(v)) continue;
      const d = resolve(name);
      if (d === undefined || seen.has(d)) continue;
      const w = dimensions[d]!.weight;
      if (!(w > 0) || !Number.isFinite(w)) continue;
      seen.add(d);
      weighted += w * v;
      weightSum += w;
    }
    if (weightSum === 0) continue;
    let mine = scored.get(r.reviewer_key);
    if (!mine) scored.set(r.reviewer_key, (mine = new Map<string, { sum: number; n: number }>()));
    const cell = mine.get(r.project_id) ?? { sum: 0, n: 0 };
    cell.sum += weighted / weightSum;
    cell.n++;
    mine.set(r.project_id, cell);
  }
  // project -> sum and count of the reviewers' scores, so "the others" is the total less one's own.
  const totals = new Map<string, { sum: number; n: number }>();
  for (const projects of scored.values()) {
    for (const [p, c] of projects) {
      const t = totals.get(p) ?? { sum: 0, n: 0 };
      t.sum += c.sum / c.n;
      t.n++;
      totals.set(p, t);
    }
  }
  const out: ReviewerAgreement[] = [];
  for (const [key, projects] of scored) {
    const xs: number[] = [];
    const ys: number[] = [];
    for (const [p, c] of projects) {
      const own = c.sum / c.n;
      const t = totals.get(p)!;
      if (t.n < 2) continue;
      xs.push(own);
      ys.push((t.sum - own) / (t.n - 1));
    }
    const n = xs.length;
    const offset = n > 0 ? xs.reduce((a, x, i) => a + x - ys[i]!, 0) / n : null;
    const correlation = n >= MIN_CORRELATION_PROJECTS ? pearson(xs, ys) : null;
    const flags: ReviewerAgreement['flags'] = [];
    if (offset !== null && Math.abs(offset) > OUTLIER_OFFSET) flags.push('offset');
    if (correlation !== null && correlation < OUTLIER_CORRELATION) flags.push('correlation');
    out.push({ reviewer_key: key, projects: projects.size, common_projects: n, mean_offset: offset, correlation, flags });
  }
  return out;
}

/** Pearson's r; null when either side does not vary. */
export function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx < 1e-12 || syy < 1e-12) return null;
  return sxy / Math.sqrt(sxx * syy);
}
