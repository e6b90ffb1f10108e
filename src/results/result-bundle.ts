import { createHash, createHmac, randomBytes } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { canonicalJson } from '../core/canonical-json.js';
import type { Executor } from '../core/db/index.js';
import type { EventRecord } from '../events/events-model.js';
import { BUNDLE_FORMAT, type BundleScore, type BundleSigner, type ResultBundle } from './bundle-verify.js';
import { MAX_SCORE, MIN_SCORE, orderGroups, SCORE_DECIMALS, type ResultEntry } from './ranking.js';
import { bundleInputs } from './results-repo.js';
import { computeWinners, withTrackPlaces, type PublishedEntry } from './winners.js';

export * from './bundle-verify.js';

/**
 * The verifiable results bundle (GET /events/:id/result/bundle): everything the published ranking
 * was computed from, built in the publication's transaction and stored, never changed.
 *
 * Anyone can recompute the ranking from the bundle's `scores` alone with `recomputeRanking` (the
 * same pure functions the server ranks with: computeStandings → rankProjects / normalizeReviews, so
 * the server and the verifier cannot drift) and check `sha256`: the SHA-256 (hex) of the bundle's
 * canonical JSON (RFC 8785, src/core/canonical-json.ts) without the `sha256` and `signature`
 * members, so a re-serialised but unchanged bundle still verifies. The site vouches for it with
 * `signature`: Ed25519 (result-signing.ts) over the canonical JSON without `signature`, under the
 * key `signer` names, whose public half the site publishes at /.well-known/hackathon-results-keys.json.
 * `hackathon results verify <bundle.json> --site URL` (and the served verify-bundle.mjs) checks all
 * of it (bundle-verify.ts).
 *
 * Human reviewers are pseudonymous: `reviewer-1`, `reviewer-2`, … numbered in the order of an
 * HMAC-SHA256 of their user ids under a random key drawn at publication and never stored. The
 * numbering is fixed once the bundle is stored (it never changes) and says nothing about who a
 * reviewer is, nor in what order they reviewed. No id, name or e-mail of a human reviewer is in the
 * bundle. Model reviewers appear by their model identifier.
 */

/** Items handled between two turns of the event loop while a bundle is built. */
const CHUNK = 2000;
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

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
    /** The site's current key: names itself in the bundle and signs it. */
    signer: { info: BundleSigner; sign: (text: string) => string };
  },
): Promise<{ bundle: ResultBundle; text: string }> {
  const { event } = input;
  const ranking: ResultEntry[] = [];
  for (const piece of input.rankingPieces) {
    const text = piece.startsWith(',') ? piece.slice(1) : piece;
    // The ranking keeps the contract's entry: each entry's track place and prize are derived from
    // it, and recorded (and verified) as the `winners` member.
    if (text !== '') for (const { track_rank: _r, track_prize: _p, ...e } of JSON.parse(`[${text}]`) as PublishedEntry[]) ranking.push(e);
    await nextTurn();
  }
  const tracks = event.tracks.map((t) => ({ id: t.id, name: t.name, prize: t.prize }));
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

  const body: Omit<ResultBundle, 'sha256' | 'signature'> = {
    format: BUNDLE_FORMAT,
    event: { id: event.id, name: event.name, published_at: input.publishedAt },
    rubric: {
      dimensions: event.dimensions.map((d) => ({ key: d.name, name: d.name, weight: d.weight })),
      scale: { min: MIN_SCORE, max: MAX_SCORE },
      score_decimals: SCORE_DECIMALS,
    },
    tracks,
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
    winners: computeWinners(withTrackPlaces(ranking, tracks), tracks),
    signer: input.signer.info,
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
  // Signed: the canonical JSON with sha256 and without the signature (signedText in bundle-verify.ts).
  const signature = input.signer.sign(join());
  members.set('signature', `"signature":${JSON.stringify(signature)}`);
  return { bundle: { ...body, sha256, signature }, text: join() };
}
