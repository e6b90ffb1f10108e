import type { EventRecord } from '../events/events-model.js';
import { normalizeReviews, type ReviewerReview } from './normalization.js';
import { HUMAN_GROUP, rankProjects, SCORE_DECIMALS, type RankingProject } from './ranking.js';

/**
 * The live ranking's per-project numbers (table `standings`), kept current incrementally.
 *
 * Database triggers (migration 0106) mark a project's row stale and bump its version in the same
 * transaction as every write that changes what the row is computed from: a review inserted,
 * finished, failed, re-queued or removed, a human review written, the registration approved or
 * rejected, the project (re)submitted to another track, the event's dimensions or models edited.
 * No write path can forget it, including bulk loads. Before reading, the leaderboard recomputes the
 * stale rows of its event, and only those, with the same arithmetic as `rankProjects` (a project's
 * numbers depend on its own reviews only), in chunks that yield to the event loop; past a bound the
 * rest is done in the background (standings-refresh.ts). A row is written back only if its
 * version did not move while it was being computed; otherwise it stays stale.
 *
 * Under `zscore` normalisation a project's numbers depend on every review of the event (each
 * reviewer is standardised over all the projects they scored), so one new score can move every
 * project: such an event's standings are recomputed all together whenever any of them is stale
 * (standings-refresh.ts, refreshWholeEvent). `raw_score_key` keeps the raw score beside the key.
 */

const SCALE = 10 ** SCORE_DECIMALS;

interface ReviewFact {
  project_id: string;
  reviewer_kind: string;
  /** The model identifier or the human reviewer's user id. */
  reviewer: string;
  group_key: string;
  status: string;
  scores: string | null;
}

export interface Coverage {
  expected: number;
  succeeded: number;
  failed: number;
  pending: number;
  human: number;
}

/** A project's computed standing (what one `standings` row holds besides its bookkeeping). */
export interface Standing {
  project_id: string;
  judged: number;
  track_id: string | null;
  first_submitted_at: string;
  /** The ranking key: the score as the event's normalisation makes it, 10^-4 units, -1 unscored. */
  score_key: number;
  /** The raw score's key (equal to score_key under `none`). */
  raw_score_key: number;
  by_model: string;
  by_dimension: string;
  model_groups: string;
  coverage: Coverage;
}

/**
 * Pure: the standings of some projects from their reviews (every status: succeeded ones are scored,
 * all of them count for coverage). The numbers are rankProjects' own, so they agree exactly with a
 * full recomputation.
 */
export function computeStandings(
  event: Pick<EventRecord, 'dimensions' | 'models'> & { normalization?: EventRecord['normalization'] },
  projects: ReadonlyArray<{ id: string; track_id: string | null; first_submitted_at: string; judged: boolean }>,
  reviews: readonly ReviewFact[],
): Standing[] {
  const ranked: RankingProject[] = projects.map((p) => ({
    project_id: p.id,
    project_name: '',
    team_name: '',
    track_id: p.track_id,
    first_submitted_at: p.first_submitted_at,
  }));
  const succeeded: ReviewerReview[] = [];
  const coverage = new Map<string, Coverage>();
  for (const p of projects) coverage.set(p.id, { expected: event.models.length, succeeded: 0, failed: 0, pending: 0, human: 0 });
  for (const r of reviews) {
    const c = coverage.get(r.project_id);
    if (!c) continue;
    if (r.reviewer_kind === 'human') {
      if (r.status === 'succeeded') c.human++;
    } else if (r.status === 'succeeded') c.succeeded++;
    else if (r.status === 'failed') c.failed++;
    else c.pending++;
    if (r.status !== 'succeeded' || r.scores === null) continue;
    let scores: unknown;
    try {
      scores = JSON.parse(r.scores);
    } catch {
      continue; // a broken row never becomes a score
    }
    if (scores === null || typeof scores !== 'object' || Array.isArray(scores)) continue;
    const human = r.reviewer_kind === 'human';
    succeeded.push({
      project_id: r.project_id,
      group_key: human ? HUMAN_GROUP : r.group_key,
      // Each model counts as one reviewer, each human reviewer as one.
      reviewer_key: human ? `human:${r.reviewer}` : `model:${r.group_key}`,
      scores: scores as Record<string, unknown>,
    });
  }
  const rank = (list: readonly ReviewerReview[]) => rankProjects({ dimensions: event.dimensions, projects: ranked, reviews: list, groupOrder: event.models });
  const raw = rank(succeeded);
  const rawKeys = new Map(raw.map((e) => [e.project_id, Object.keys(e.scores_by_dimension).length > 0 ? Math.round(e.score * SCALE) : -1]));
  let entries = raw;
  if (event.normalization === 'zscore') {
    // The panel is the judged projects' reviews: a rejected team's scores neither count in a
    // reviewer's statistics nor are normalised (its row is never listed).
    const judged = new Set(projects.filter((p) => p.judged).map((p) => p.id));
    const inPanel = succeeded.filter((r) => judged.has(r.project_id));
    entries = rank([...normalizeReviews('zscore', event.dimensions, inPanel), ...succeeded.filter((r) => !judged.has(r.project_id))]);
  }
  const byId = new Map(projects.map((p) => [p.id, p]));
  return entries.map((e) => {
    const p = byId.get(e.project_id)!;
    const scored = Object.keys(e.scores_by_dimension).length > 0;
    return {
      project_id: e.project_id,
      judged: p.judged ? 1 : 0,
      track_id: p.track_id,
      first_submitted_at: p.first_submitted_at,
      // rankProjects publishes key / SCALE; rounding recovers the integer key exactly.
      score_key: scored ? Math.round(e.score * SCALE) : -1,
      raw_score_key: rawKeys.get(e.project_id)!,
      by_model: JSON.stringify(e.scores_by_model),
      by_dimension: JSON.stringify(e.scores_by_dimension),
      model_groups: JSON.stringify(Object.keys(e.scores_by_model)),
      coverage: coverage.get(e.project_id)!,
    };
  });
}

/** Where a page starts: after this entry in ranking order (score_key desc, first_submitted_at, project_id). */
export interface StandingKey {
  score_key: number;
  first_submitted_at: string;
  project_id: string;
}

export interface StandingRow extends StandingKey {
  raw_score_key: number;
  track_id: string | null;
  by_model: string;
  by_dimension: string;
  project_name: string;
  team_name: string;
  reviews_expected: number;
  reviews_succeeded: number;
  reviews_failed: number;
  reviews_pending: number;
  reviews_human: number;
}

/** One project's score line as the leaderboard shows it (score null while nobody scored it). */
export interface ScoreLine {
  score: number | null;
  scores_by_model: Record<string, number>;
  scores_by_dimension: Record<string, number>;
}

/**
 * Pure: one project's score line from its own reviews, with the leaderboard's arithmetic (a
 * project's numbers depend on its own reviews only). For the organizer's review page, which has
 * the reviews in hand already.
 */
export function projectScoreLine(
  event: Pick<EventRecord, 'dimensions' | 'models'>,
  project: { id: string; track_id: string | null; first_submitted_at: string },
  reviews: readonly ReviewFact[],
): ScoreLine {
  const [s] = computeStandings(event, [{ ...project, judged: true }], reviews);
  if (!s || s.score_key < 0) return { score: null, scores_by_model: {}, scores_by_dimension: {} };
  return {
    score: s.score_key / SCALE,
    scores_by_model: JSON.parse(s.by_model) as Record<string, number>,
    scores_by_dimension: JSON.parse(s.by_dimension) as Record<string, number>,
  };
}
