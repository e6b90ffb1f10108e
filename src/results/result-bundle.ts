import { createHash, createHmac, randomBytes } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { canonicalJson, CanonicalJsonError } from '../core/canonical-json.js';
import type { Executor } from '../core/db/index.js';
import type { EventRecord } from '../events/events-model.js';
import type { Normalization } from './normalization.js';
import { MAX_SCORE, MIN_SCORE, orderGroups, SCORE_DECIMALS, type ResultEntry } from './ranking.js';
import { bundleInputs } from './results-repo.js';
import { computeStandings } from './standings.js';

/**
 * The verifiable results bundle (GET /events/:id/result/bundle): everything the published ranking
 * was computed from, built in the publication's transaction and stored, never changed.
 *
 * Anyone can recompute the ranking from the bundle's `scores` alone with `recomputeRanking` (the
 * same pure functions the server ranks with: computeStandings → rankProjects / normalizeReviews, so
 * the server and the verifier cannot drift) and check `sha256`: the SHA-256 (hex) of the bundle's
 * canonical JSON (RFC 8785, src/core/canonical-json.ts) without the `sha256` member, so a
 * re-serialised but unchanged bundle still verifies. `hackathon results verify <bundle.json>` does
 * both (verifyBundle).
 *
 * Human reviewers are pseudonymous: `reviewer-1`, `reviewer-2`, … numbered in the order of an
 * HMAC-SHA256 of their user ids under a random key drawn at publication and never stored. The
 * numbering is fixed once the bundle is stored (it never changes) and says nothing about who a
 * reviewer is, nor in what order they reviewed. No id, name or e-mail of a human reviewer is in the
 * bundle. Model reviewers appear by their model identifier.
 */

export const BUNDLE_FORMAT = 'hackathon-results-bundle/1';

export interface BundleScore {
  /** `model` (an AI model) or `human`. */
  reviewer_kind: 'model' | 'human';
  /** The model identifier, or the human reviewer's pseudonym (`reviewer-N`). */
  reviewer: string;
  project_id: string;
  /** Dimension name → score as the review gave it (raw: before any normalisation). */
  scores: Record<string, unknown>;
}

export interface BundleProject {
  id: string;
  name: string;
  team_name: string;
  track_id: string | null;
  /** The ranking's tie-breaker (equal scores: earlier first submission first, then project id). */
  first_submitted_at: string;
}

export interface BundleFlag {
  project_id: string;
  kind: string;
  source: string;
  status: string;
  evidence: string;
  detail: string | null;
}

export interface ResultBundle {
  format: string;
  event: { id: string; name: string; published_at: string };
  rubric: {
    dimensions: Array<{ key: string; name: string; weight: number }>;
    scale: { min: number; max: number };
    score_decimals: number;
  };
  tracks: Array<{ id: string; name: string }>;
  normalization: Normalization;
  /** The models that scored (model identifiers: the event's order first, then A–Z). */
  models: string[];
  /** SHA-256 (hex) of the review prompt template (see REVIEW_PROMPT_TEMPLATE_SHA256); null if unknown. */
  prompt_template_sha256: string | null;
  /** The ranked (judged) projects, by id. */
  projects: BundleProject[];
  /** Every succeeded review of a ranked project, by project, model reviews first. */
  scores: BundleScore[];
  flags: BundleFlag[];
  /** The ranking as published (GET /events/:id/result's entries, in order). */
  ranking: ResultEntry[];
  /** The people's choice as published, or null when the event had no vote. */
  peoples_choice: unknown[] | null;
  sha256: string;
}

/** SHA-256 (hex) of the canonical JSON of the bundle without its `sha256` member. */
export function bundleHash(bundle: Record<string, unknown>): string {
  const rest: Record<string, unknown> = { ...bundle };
  delete rest['sha256'];
  return createHash('sha256').update(canonicalJson(rest), 'utf8').digest('hex');
}

const SCALE = 10 ** SCORE_DECIMALS;
/** Items handled between two turns of the event loop while a bundle is built. */
const CHUNK = 2000;
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Pure: the ranking from the bundle's rubric, normalisation, projects and scores alone, with the
 * server's own arithmetic (computeStandings), ordered and ranked as the published result is
 * (score desc, first submission, project id; competition ranks, unscored projects last with 0).
 */
export function recomputeRanking(bundle: Pick<ResultBundle, 'rubric' | 'normalization' | 'models' | 'projects' | 'scores'>): ResultEntry[] {
  const standings = computeStandings(
    { dimensions: bundle.rubric.dimensions.map((d) => ({ name: d.name, weight: d.weight })), models: bundle.models, normalization: bundle.normalization },
    bundle.projects.map((p) => ({ id: p.id, track_id: p.track_id, first_submitted_at: p.first_submitted_at, judged: true })),
    bundle.scores.map((s) => ({
      project_id: s.project_id,
      reviewer_kind: s.reviewer_kind,
      reviewer: s.reviewer,
      group_key: s.reviewer_kind === 'human' ? 'human' : s.reviewer,
      status: 'succeeded',
      scores: JSON.stringify(s.scores),
    })),
  );
  standings.sort((a, b) => b.score_key - a.score_key || compareText(a.first_submitted_at, b.first_submitted_at) || compareText(a.project_id, b.project_id));
  const byId = new Map(bundle.projects.map((p) => [p.id, p]));
  let rank = 0;
  return standings.map((s, i) => {
    if (i === 0 || s.score_key !== standings[i - 1]!.score_key) rank = i + 1;
    const p = byId.get(s.project_id)!;
    return {
      rank,
      project_id: s.project_id,
      project_name: p.name,
      team_name: p.team_name,
      track_id: s.track_id,
      score: s.score_key < 0 ? 0 : s.score_key / SCALE,
      scores_by_model: JSON.parse(s.by_model) as Record<string, number>,
      scores_by_dimension: JSON.parse(s.by_dimension) as Record<string, number>,
    };
  });
}

export interface BundleVerdict {
  ok: boolean;
  /** Whether the stored sha256 is the hash of the bundle's canonical JSON without it. */
  sha256: { ok: boolean; stated: string | null; computed: string };
  /** Whether the ranking recomputed from the scores equals the bundle's; the first differing entry if not. */
  ranking: {
    ok: boolean;
    entries: number;
    firstDifference: { index: number; stated: unknown; recomputed: unknown } | null;
  };
}

export class BundleFormatError extends Error {}

function need(ok: boolean, what: string): void {
  if (!ok) throw new BundleFormatError(`not a results bundle: ${what}`);
}
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Checks the shape the verifier relies on; throws BundleFormatError naming what is wrong. */
function checkShape(raw: unknown): asserts raw is ResultBundle {
  need(isObject(raw), 'not a JSON object');
  const b = raw as Record<string, unknown>;
  need(b['format'] === BUNDLE_FORMAT, `format is not "${BUNDLE_FORMAT}"`);
  need(isObject(b['rubric']) && Array.isArray(b['rubric']['dimensions']), 'rubric.dimensions missing');
  for (const d of (b['rubric'] as { dimensions: unknown[] }).dimensions) {
    need(isObject(d) && typeof d['name'] === 'string' && typeof d['weight'] === 'number', 'a rubric dimension lacks name or weight');
  }
  need(b['normalization'] === 'none' || b['normalization'] === 'zscore', 'normalization is not none or zscore');
  need(Array.isArray(b['models']) && b['models'].every((m) => typeof m === 'string'), 'models is not a list of strings');
  need(Array.isArray(b['projects']), 'projects missing');
  for (const p of b['projects'] as unknown[]) {
    need(
      isObject(p) &&
        typeof p['id'] === 'string' &&
        typeof p['name'] === 'string' &&
        typeof p['team_name'] === 'string' &&
        (p['track_id'] === null || typeof p['track_id'] === 'string') &&
        typeof p['first_submitted_at'] === 'string',
      'a project lacks id, name, team_name, track_id or first_submitted_at',
    );
  }
  need(Array.isArray(b['scores']), 'scores missing');
  for (const s of b['scores'] as unknown[]) {
    need(
      isObject(s) &&
        (s['reviewer_kind'] === 'model' || s['reviewer_kind'] === 'human') &&
        typeof s['reviewer'] === 'string' &&
        typeof s['project_id'] === 'string' &&
        isObject(s['scores']),
      'a score lacks reviewer_kind, reviewer, project_id or scores',
    );
  }
  need(Array.isArray(b['ranking']), 'ranking missing');
}

/**
 * Pure: checks a bundle (as parsed from its JSON, in any formatting): its sha256, then the ranking
 * recomputed from its scores against its ranking, entry by entry (compared as canonical JSON, so
 * member order does not matter). Throws BundleFormatError when it is not a bundle at all.
 */
export function verifyBundle(raw: unknown): BundleVerdict {
  checkShape(raw);
  let computed: string;
  try {
    computed = bundleHash(raw as unknown as Record<string, unknown>);
  } catch (err) {
    if (err instanceof CanonicalJsonError) throw new BundleFormatError(`not canonicalisable JSON: ${err.message}`);
    throw err;
  }
  const stated = typeof raw.sha256 === 'string' ? raw.sha256 : null;
  const recomputed = recomputeRanking(raw);
  let firstDifference: BundleVerdict['ranking']['firstDifference'] = null;
  const n = Math.max(recomputed.length, raw.ranking.length);
  for (let i = 0; i < n; i++) {
    const a = raw.ranking[i];
    const b = recomputed[i];
    let same = a !== undefined && b !== undefined;
    if (same) {
      try {
        same = canonicalJson(a) === canonicalJson(b);
      } catch {
        same = false;
      }
    }
    if (!same) {
      firstDifference = { index: i, stated: a ?? null, recomputed: b ?? null };
      break;
    }
  }
  const sha = { ok: stated === computed, stated, computed };
  return {
    ok: sha.ok && firstDifference === null,
    sha256: sha,
    ranking: { ok: firstDifference === null, entries: recomputed.length, firstDifference },
  };
}

/**
 * Builds the bundle in the publication's transaction, after the result's entries are stored:
 * `ranking` is the published entries, in order. Returns the bundle (sha256 set) and its canonical
 * JSON text, to store.
 */
export async function buildBundle(
  tx: Executor,
  input: {
    event: EventRecord;
    publishedAt: string;
    /** The published entries' JSON text in pieces (each a run of entries, after a comma but the first). */
    rankingPieces: readonly string[];
    peoplesChoice: unknown[] | null;
    promptTemplateSha256: string | null;
  },
): Promise<{ bundle: ResultBundle; text: string }> {
  const { event } = input;
  const ranking: ResultEntry[] = [];
  for (const piece of input.rankingPieces) {
    const text = piece.startsWith(',') ? piece.slice(1) : piece;
    if (text !== '') ranking.push(...(JSON.parse(`[${text}]`) as ResultEntry[]));
    await nextTurn();
  }
  // The ranked projects are the published entries themselves (the judged ones); their tie-breaker
  // comes from the projects' rows.
  const ranked = new Set(ranking.map((e) => e.project_id));
  const [submitted, allReviews, allFlags] = await bundleInputs(tx, event.id);
  const firstSubmitted = new Map(submitted.map((p) => [p.id, p.first_submitted_at]));
  const projects = ranking.map((e) => ({
    id: e.project_id,
    name: e.project_name,
    team_name: e.team_name,
    track_id: e.track_id,
    first_submitted_at: firstSubmitted.get(e.project_id) ?? '',
  }));
  const reviews = allReviews.filter((r) => ranked.has(r.project_id));
  const flags = allFlags.filter((f) => ranked.has(f.project_id));

  // Pseudonyms: numbered in the order of a keyed hash whose key is forgotten at once.
  const key = randomBytes(32);
  const humans = [...new Set(reviews.filter((r) => r.reviewer_kind === 'human').map((r) => r.reviewer))];
  const tagged = humans.map((id) => ({ id, tag: createHmac('sha256', key).update(id).digest('hex') })).sort((a, b) => compareText(a.tag, b.tag));
  const pseudonym = new Map(tagged.map((h, i) => [h.id, `reviewer-${i + 1}`]));

  const keyed: Array<{ score: BundleScore; key: string }> = [];
  for (let i = 0; i < reviews.length; i++) {
    if (i > 0 && i % CHUNK === 0) await nextTurn();
    const r = reviews[i]!;
    if (r.scores === null) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(r.scores);
    } catch {
      continue; // never a score (computeStandings skips it too)
    }
    if (!isObject(parsed)) continue;
    const human = r.reviewer_kind === 'human';
    keyed.push({
      score: { reviewer_kind: human ? 'human' : 'model', reviewer: human ? pseudonym.get(r.reviewer)! : r.group_key, project_id: r.project_id, scores: parsed },
      key: canonicalJson(parsed),
    });
  }
  const kindOrder = (k: string) => (k === 'model' ? 0 : 1);
  keyed.sort(
    (a, b) =>
      compareText(a.score.project_id, b.score.project_id) ||
      kindOrder(a.score.reviewer_kind) - kindOrder(b.score.reviewer_kind) ||
      compareText(a.score.reviewer, b.score.reviewer) ||
      compareText(a.key, b.key),
  );
  const scores = keyed.map((k) => k.score);
  await nextTurn();
  const models = orderGroups(
    scores.filter((s) => s.reviewer_kind === 'model').map((s) => s.reviewer),
    event.models,
  );

  const body: Omit<ResultBundle, 'sha256'> = {
    format: BUNDLE_FORMAT,
    event: { id: event.id, name: event.name, published_at: input.publishedAt },
    rubric: {
      dimensions: event.dimensions.map((d) => ({ key: d.name, name: d.name, weight: d.weight })),
      scale: { min: MIN_SCORE, max: MAX_SCORE },
      score_decimals: SCORE_DECIMALS,
    },
    tracks: event.tracks.map((t) => ({ id: t.id, name: t.name })),
    normalization: event.normalization,
    models,
    prompt_template_sha256: input.promptTemplateSha256,
    projects: projects.sort((a, b) => compareText(a.id, b.id)),
    scores,
    flags: flags
      .map((f) => ({ project_id: f.project_id, kind: f.kind, source: f.source, status: f.status, evidence: f.evidence, detail: f.detail }))
      .sort(
        (a, b) =>
          compareText(a.project_id, b.project_id) || compareText(a.kind, b.kind) || compareText(a.source, b.source) || compareText(a.evidence, b.evidence),
      ),
    ranking,
    peoples_choice: input.peoplesChoice,
  };
  // Canonical text member by member, the long lists a chunk at a time with a turn of the event loop
  // between (50,000 entries and their scores would otherwise hold the loop for a good part of a
  // second): the same text canonicalJson(body) makes.
  const members = new Map<string, string>();
  for (const [name, value] of Object.entries(body)) {
    let text: string;
    if (Array.isArray(value) && value.length > CHUNK) {
      const items: string[] = [];
      for (let i = 0; i < value.length; i++) {
        if (i > 0 && i % CHUNK === 0) await nextTurn();
        items.push(canonicalJson(value[i]));
      }
      text = `[${items.join(',')}]`;
    } else text = canonicalJson(value);
    members.set(name, `${JSON.stringify(name)}:${text}`);
  }
  const join = () =>
    `{${[...members.keys()]
      .sort()
      .map((k) => members.get(k)!)
      .join(',')}}`;
  const sha256 = createHash('sha256').update(join(), 'utf8').digest('hex');
  members.set('sha256', `"sha256":${JSON.stringify(sha256)}`);
  return { bundle: { ...body, sha256 }, text: join() };
}
