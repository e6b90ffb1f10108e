/**
 * The contract's scoring and ranking arithmetic ("Reviews, scores and the result"), with no I/O.
 *
 * Reviewers come in groups: every AI model is one group (its identifier is the key), all human
 * reviewers together are the group `human`. For one project:
 *
 * - a group's score for dimension d = the mean of that group's reviewers' scores for d;
 * - `scores_by_dimension[d]` = the mean, over the groups that scored d, of the group's score for d;
 * - `scores_by_model[g]` = Σ w_d × group g's score for d / Σ w_d, both sums over the dimensions g
 *   scored (a group that skipped a dimension is averaged over the ones it did score);
 * - `score` = Σ w_d × scores_by_dimension[d] / Σ w_d, both sums over the dimensions that have a
 *   score. A dimension nobody scored is left out of that project's score; it is never counted as 0,
 *   because a missing review must not read as a bad one.
 *
 * Only succeeded reviews are passed in. A score that is not a finite number from 0 to 10, or names a
 * dimension the event does not have, is ignored: it never becomes, or changes, a score. Names match
 * the event's dimensions exactly or, failing that, ignoring case and surrounding spaces (once per
 * review and dimension).
 *
 * Ranking (competition ranking, "1, 2, 2, 4"):
 * - higher score first; projects with equal scores share a rank and the next rank skips;
 * - equal scores are listed by earlier first submission, then by project id (a total, stable order);
 * - scores are compared at the published precision (SCORE_DECIMALS decimals). The ranking can then
 *   be checked against the published numbers, and float noise (7.1 + 7.3 ≠ 7.2 + 7.2 in binary)
 *   can never split a real tie. Every number is computed unrounded and rounded only at the output;
 * - a project without a single score is listed after every scored project, with `score` 0 and empty
 *   `scores_by_model` / `scores_by_dimension`; all such projects share one rank. (A project that was
 *   scored 0 is still ahead of them: a real zero is not the same as no review.)
 */

/** Published numbers carry this many decimals; ranks compare at this precision too. */
export const SCORE_DECIMALS = 4;
/** The group of every human reviewer. */
export const HUMAN_GROUP = 'human';
export const MIN_SCORE = 0;
export const MAX_SCORE = 10;

export interface RankingDimension {
  name: string;
  /** Positive; weights are normalised by their sum, so they need not add up to 1. */
  weight: number;
}

export interface RankingProject {
  project_id: string;
  project_name: string;
  team_name: string;
  track_id: string | null;
  /** ISO-8601 UTC (fixed width, so text order is time order): the tie-breaker. */
  first_submitted_at: string;
}

export interface RankingReview {
  project_id: string;
  /** The model identifier, or `human` for every human reviewer. */
  group_key: string;
  /** Dimension name -> score 0..10 (as parsed from the stored JSON). */
  scores: Readonly<Record<string, unknown>>;
}

export interface RankingInput {
  dimensions: readonly RankingDimension[];
  projects: readonly RankingProject[];
  reviews: readonly RankingReview[];
  /**
   * Preferred key order of `scores_by_model` (e.g. the event's models). Groups not listed follow in
   * alphabetical order, `human` last.
   */
  groupOrder?: readonly string[];
}

/** One line of the leaderboard and of the published result (contract entry shape). */
export interface ResultEntry {
  rank: number;
  project_id: string;
  project_name: string;
  team_name: string;
  track_id: string | null;
  score: number;
  scores_by_model: Record<string, number>;
  scores_by_dimension: Record<string, number>;
}

const SCALE = 10 ** SCORE_DECIMALS;

/**
 * A score as an integer count of 10^-SCORE_DECIMALS. Snapping to 1e-9 first removes float noise, so
 * two computations of one true value always land on the same side of a rounding boundary.
 */
function quantize(x: number): number {
  return Math.round(Math.round(x * 1e9) / (1e9 / SCALE));
}

/** A number as published: SCORE_DECIMALS decimals at most. */
export function roundScore(x: number): number {
  return quantize(x) / SCALE;
}

function isScore(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= MIN_SCORE && v <= MAX_SCORE;
}

function groupComparator(order: readonly string[] | undefined) {
  const pos = new Map<string, number>();
  order?.forEach((g, i) => {
    if (!pos.has(g)) pos.set(g, i);
  });
  return (a: string, b: string): number => {
    const pa = pos.get(a);
    const pb = pos.get(b);
    if (pa !== undefined || pb !== undefined) {
      if (pa === undefined) return 1;
      if (pb === undefined) return -1;
      return pa - pb;
    }
    if (a === HUMAN_GROUP) return b === HUMAN_GROUP ? 0 : 1;
    if (b === HUMAN_GROUP) return -1;
    return a < b ? -1 : a > b ? 1 : 0;
  };
}

/** Group keys in output order: `preferred` first (e.g. the event's models), then the rest A–Z, `human` last. */
export function orderGroups(keys: Iterable<string>, preferred?: readonly string[]): string[] {
  return [...new Set(keys)].sort(groupComparator(preferred));
}

/**
 * Ranks every project. Runs in O(reviews × dimensions + projects × log projects) over flat typed
 * arrays: 10,000 projects × 5 groups × 6 dimensions take a few tens of milliseconds.
 */
export function rankProjects(input: RankingInput): ResultEntry[] {
  // Dimensions: weights must be positive (the event config guarantees it); a bad one is skipped
  // rather than turning every score into NaN.
  const dims = input.dimensions.filter((d) => Number.isFinite(d.weight) && d.weight > 0);
  const D = dims.length;
  const dimIndex = new Map<string, number>();
  const dimIndexLoose = new Map<string, number>();
  dims.forEach((d, i) => {
    dimIndex.set(d.name, i);
    dimIndexLoose.set(d.name.trim().toLowerCase(), i);
  });
  const weights = Float64Array.from(dims, (d) => d.weight);

  const projectIndex = new Map<string, number>();
  input.projects.forEach((p, i) => projectIndex.set(p.project_id, i));
  const P = input.projects.length;

  // Groups, in their output order.
  const groupKeys = new Set<string>();
  for (const r of input.reviews) groupKeys.add(r.group_key);
  const groups = orderGroups(groupKeys, input.groupOrder);
  const G = groups.length;
  const groupIndex = new Map<string, number>();
  groups.forEach((g, i) => groupIndex.set(g, i));

  // sums/counts[(project × G + group) × D + dimension]
  const stride = G * D;
  const sums = new Float64Array(P * stride);
  const counts = new Uint32Array(P * stride);
  // One review counts once per dimension even if it spells a name twice ("Impact" and "impact").
  const usedIn = new Uint32Array(D);
  let reviewNo = 0;
  for (const r of input.reviews) {
    const p = projectIndex.get(r.project_id);
    if (p === undefined) continue;
    const base = p * stride + groupIndex.get(r.group_key)! * D;
    const scores = r.scores;
    reviewNo++;
    for (const name in scores) {
      const v = scores[name];
      if (!isScore(v)) continue;
      const d = dimIndex.get(name) ?? dimIndexLoose.get(name.trim().toLowerCase());
      if (d === undefined || usedIn[d] === reviewNo) continue;
      usedIn[d] = reviewNo;
      sums[base + d]! += v;
      counts[base + d]! += 1;
    }
  }

  // Per project: the quantized score (the ranking key, -1 when unscored) and the published maps,
  // rounded as they are built so no intermediate objects are made.
  const keys = new Float64Array(P);
  const byModel = new Array<Record<string, number>>(P);
  const byDimension = new Array<Record<string, number>>(P);
  const dimSum = new Float64Array(D);
  const dimGroups = new Uint32Array(D);
  for (let p = 0; p < P; p++) {
    dimSum.fill(0);
    dimGroups.fill(0);
    // Null prototypes: a dimension or group named "__proto__" (events stored before such names were
    // refused) stays an ordinary key instead of being dropped.
    const models = Object.create(null) as Record<string, number>;
    for (let g = 0; g < G; g++) {
      const base = p * stride + g * D;
      let weighted = 0;
      let weightSum = 0;
      for (let d = 0; d < D; d++) {
        const n = counts[base + d]!;
        if (n === 0) continue;
        const groupMean = sums[base + d]! / n;
        dimSum[d]! += groupMean;
        dimGroups[d]! += 1;
        weighted += weights[d]! * groupMean;
        weightSum += weights[d]!;
      }
      if (weightSum > 0) models[groups[g]!] = roundScore(weighted / weightSum);
    }
    const dimensions = Object.create(null) as Record<string, number>;
    let weighted = 0;
    let weightSum = 0;
    for (let d = 0; d < D; d++) {
      if (dimGroups[d] === 0) continue;
      const mean = dimSum[d]! / dimGroups[d]!;
      dimensions[dims[d]!.name] = roundScore(mean);
      weighted += weights[d]! * mean;
      weightSum += weights[d]!;
    }
    keys[p] = weightSum > 0 ? quantize(weighted / weightSum) : -1;
    byModel[p] = models;
    byDimension[p] = dimensions;
  }

  const projects = input.projects;
  const order = Array.from({ length: P }, (_, i) => i);
  order.sort(
    (a, b) =>
      keys[b]! - keys[a]! ||
      compareText(projects[a]!.first_submitted_at, projects[b]!.first_submitted_at) ||
      compareText(projects[a]!.project_id, projects[b]!.project_id),
  );

  const out = new Array<ResultEntry>(P);
  let rank = 0;
  for (let i = 0; i < P; i++) {
    const p = order[i]!;
    const key = keys[p]!;
    if (i === 0 || key !== keys[order[i - 1]!]) rank = i + 1;
    const project = projects[p]!;
    out[i] = {
      rank,
      project_id: project.project_id,
      project_name: project.project_name,
      team_name: project.team_name,
      track_id: project.track_id,
      score: key < 0 ? 0 : key / SCALE,
      scores_by_model: byModel[p]!,
      scores_by_dimension: byDimension[p]!,
    };
  }
  return out;
}

/**
 * The entries `keep` selects, ranked among themselves. `entries` must be a ranking (as
 * rankProjects returns it, or a frozen copy): order is kept, and two entries tie exactly when they
 * tied in the full ranking, so a track's ranking never disagrees with the overall one. This is how
 * per-track rankings are derived from a published snapshot without recomputing anything.
 */
export function rerank(entries: readonly ResultEntry[], keep: (e: ResultEntry) => boolean): ResultEntry[] {
  const out: ResultEntry[] = [];
  let prevOverall = -1;
  let rank = 0;
  for (const e of entries) {
    if (!keep(e)) continue;
    if (out.length === 0 || e.rank !== prevOverall) rank = out.length + 1;
    prevOverall = e.rank;
    out.push({ ...e, rank });
  }
  return out;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
