import { createHash, createPublicKey, verify as verifySignature } from 'node:crypto';
import { canonicalJson, CanonicalJsonError } from '../core/canonical-json.js';
import type { Normalization } from './normalization.js';
import { SCORE_DECIMALS, type ResultEntry } from './ranking.js';
import { computeStandings } from './standings.js';
import { computeWinners, withTrackPlaces, type Winners } from './winners.js';

/**
 * The pure half of the results bundle (result-bundle.ts builds it): its shape, its hash, its
 * signature and the ranking recomputed from its scores. No database, no I/O beyond node:crypto:
 * this module and bundle-verify-cli.ts are what `hackathon results verify` runs, and what the
 * site's single-file verifier (GET /verify-bundle.mjs, bundled by scripts/build-verifier.mjs)
 * is made of, so the verifier and the server cannot drift.
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
  /** The event's tracks; `prize` since winners are recorded (absent from older bundles). */
  tracks: Array<{ id: string; name: string; prize?: string }>;
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
  /** Each track's winner(s) with its prize, and the overall top places (winners.ts); absent from bundles published before winners were recorded. */
  winners?: Winners;
  /** Who signed the bundle (absent from bundles published before signing): signed itself. */
  signer?: BundleSigner;
  sha256: string;
  /** Ed25519 signature (base64url) of the canonical JSON of the bundle without this member. */
  signature?: string;
}

/** The key that signed a bundle, as the bundle names it (inside the signed text). */
export interface BundleSigner {
  key_id: string;
  /** `Ed25519`. */
  algorithm: string;
  /** The raw 32-byte public key, base64url (a JWK's `x`). Proves nothing alone: compare it with the site's. */
  public_key: string;
  /** Where the site publishes its keys: {site}/.well-known/hackathon-results-keys.json. */
  keys_url: string;
}

/** A public key as the site publishes it (GET /.well-known/hackathon-results-keys.json), or as given with --key. */
export interface PublishedKey {
  /** Null for a bare key given without its id (it is then matched by its bytes). */
  key_id: string | null;
  algorithm: string;
  public_key: string;
  created_at?: string | null;
  retired_at?: string | null;
}

/** The path under the site's address where its public keys are published. */
export const KEYS_PATH = '/.well-known/hackathon-results-keys.json';
export const SIGNATURE_ALGORITHM = 'Ed25519';

/** SHA-256 (hex) of the canonical JSON of the bundle without its `sha256` and `signature` members. */
export function bundleHash(bundle: Record<string, unknown>): string {
  const rest: Record<string, unknown> = { ...bundle };
  delete rest['sha256'];
  delete rest['signature'];
  return createHash('sha256').update(canonicalJson(rest), 'utf8').digest('hex');
}

/** The text a bundle's signature is over: its canonical JSON without the `signature` member (`sha256` and `signer` included). */
export function signedText(bundle: Record<string, unknown>): string {
  const rest: Record<string, unknown> = { ...bundle };
  delete rest['signature'];
  return canonicalJson(rest);
}

const SCALE = 10 ** SCORE_DECIMALS;
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

/** How the signature stands, weakest to strongest. */
export type SignatureVerdict =
  /** No signature (published before signing): integrity only, nothing vouches for it. */
  | { status: 'unsigned' }
  /** The signature does not match the bundle under the key it names. */
  | { status: 'invalid'; keyId: string; detail: string }
  /** Valid for the key the bundle carries, and no key of the site's was given to compare: proves nothing. */
  | { status: 'self_signed'; keyId: string }
  /** Site keys were given, and the key the bundle names is not one of them (or its bytes differ). */
  | { status: 'unknown_key'; keyId: string; detail: string }
  /** Valid, under a key the site publishes (or the one given). */
  | { status: 'trusted'; keyId: string; key: PublishedKey };

export interface BundleVerdict {
  /** Every check holds: hash, ranking, and a signature under a key of the site's (or unsigned, when allowed). */
  ok: boolean;
  /** Why not, in one line (null when ok). */
  reason: string | null;
  /** Whether the stored sha256 is the hash of the bundle's canonical JSON without it (and the signature). */
  sha256: { ok: boolean; stated: string | null; computed: string };
  /**
   * Whether the winners recomputed from the (recomputed) ranking and the tracks equal the bundle's;
   * null for a bundle without a `winners` member (published before winners were recorded).
   */
  winners: { ok: boolean; stated: unknown; recomputed: Winners } | null;
  /** Whether the ranking recomputed from the scores equals the bundle's; the first differing entry if not. */
  ranking: {
    ok: boolean;
    entries: number;
    firstDifference: { index: number; stated: unknown; recomputed: unknown } | null;
  };
  signature: SignatureVerdict;
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
  need(
    isObject(b['event']) && typeof b['event']['id'] === 'string' && typeof b['event']['published_at'] === 'string',
    'event.id or event.published_at missing',
  );
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
  need(
    Array.isArray(b['tracks']) &&
      (b['tracks'] as unknown[]).every(
        (t) => isObject(t) && typeof t['id'] === 'string' && typeof t['name'] === 'string' && (t['prize'] === undefined || typeof t['prize'] === 'string'),
      ),
    'tracks is not a list of {id, name, prize}',
  );
  const signer = b['signer'];
  if (signer !== undefined) {
    need(
      isObject(signer) &&
        typeof signer['key_id'] === 'string' &&
        typeof signer['algorithm'] === 'string' &&
        typeof signer['public_key'] === 'string' &&
        typeof signer['keys_url'] === 'string',
      'signer lacks key_id, algorithm, public_key or keys_url',
    );
  }
  need(b['signature'] === undefined || typeof b['signature'] === 'string', 'signature is not a string');
}

/** Ed25519 public key object from its raw 32 bytes (base64url); null when they are not a key. */
export function ed25519Key(publicKey: string) {
  try {
    const x = Buffer.from(publicKey, 'base64url');
    if (x.length !== 32) return null;
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: x.toString('base64url') }, format: 'jwk' });
  } catch {
    return null;
  }
}

/** The bytes of a base64 or base64url text, compared in one canonical spelling. */
const sameKey = (a: string, b: string) => Buffer.from(a, 'base64url').equals(Buffer.from(b, 'base64url'));

/**
 * Pure: the bundle's signature, checked under the key it names, and that key compared with the
 * site's keys when given (`trusted`: from --key or the site's well-known URL). A signature that is
 * valid only under the key the bundle itself carries is `self_signed`: anyone can make one.
 */
export function checkSignature(bundle: ResultBundle, trusted: readonly PublishedKey[] | null): SignatureVerdict {
  if (bundle.signer === undefined && bundle.signature === undefined) return { status: 'unsigned' };
  if (bundle.signer === undefined) return { status: 'invalid', keyId: '(none)', detail: 'a signature without a signer: the bundle names no key' };
  const signer = bundle.signer;
  const keyId = signer.key_id;
  if (bundle.signature === undefined) return { status: 'invalid', keyId, detail: `the bundle names key ${keyId} but carries no signature` };
  if (signer.algorithm !== SIGNATURE_ALGORITHM)
    return { status: 'invalid', keyId, detail: `algorithm ${JSON.stringify(signer.algorithm)} is not ${SIGNATURE_ALGORITHM}` };
  let key: PublishedKey | undefined;
  if (trusted !== null) {
    const byId = trusted.find((k) => k.key_id === keyId);
    if (byId && !sameKey(byId.public_key, signer.public_key)) {
      return { status: 'unknown_key', keyId, detail: `the public key the bundle carries for ${keyId} is not the site's key ${keyId}` };
    }
    key = byId ?? trusted.find((k) => k.key_id === null && sameKey(k.public_key, signer.public_key));
    if (!key)
      return {
        status: 'unknown_key',
        keyId,
        detail: `the key the bundle names (${keyId}) is not one of the site's keys (${trusted.map((k) => k.key_id ?? 'the key given').join(', ') || 'none'})`,
      };
    if (key.algorithm !== SIGNATURE_ALGORITHM) return { status: 'unknown_key', keyId, detail: `the site's key ${keyId} is not an ${SIGNATURE_ALGORITHM} key` };
  }
  const publicKey = ed25519Key(key?.public_key ?? signer.public_key);
  if (publicKey === null) return { status: 'invalid', keyId, detail: 'the public key is not a 32-byte Ed25519 key' };
  const signature = Buffer.from(bundle.signature ?? '', 'base64url');
  let valid = false;
  try {
    valid = verifySignature(null, Buffer.from(signedText(bundle as unknown as Record<string, unknown>), 'utf8'), publicKey, signature);
  } catch {
    valid = false;
  }
  if (!valid)
    return { status: 'invalid', keyId, detail: `the signature does not match the bundle under key ${keyId}: the bundle was changed after it was signed` };
  return key ? { status: 'trusted', keyId, key } : { status: 'self_signed', keyId };
}

export interface VerifyOptions {
  /** The site's public keys (from --key or its well-known URL); null when none were given. */
  keys?: readonly PublishedKey[] | null;
  /** Accept a bundle published before signing (integrity only). */
  allowUnsigned?: boolean;
}

/**
 * Pure: checks a bundle (as parsed from its JSON, in any formatting): its sha256, the ranking
 * recomputed from its scores against its ranking, entry by entry (compared as canonical JSON, so
 * member order does not matter), and its signature (checkSignature). `reason` names the first
 * check that failed. Throws BundleFormatError when it is not a bundle at all.
 */
export function verifyBundle(raw: unknown, opts: VerifyOptions = {}): BundleVerdict {
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
  // The winners follow from the recomputed ranking and the tracks (winners.ts), when the bundle records them.
  let winners: BundleVerdict['winners'] = null;
  if (raw.winners !== undefined) {
    const again = computeWinners(withTrackPlaces(recomputed, raw.tracks), raw.tracks);
    let same: boolean;
    try {
      same = canonicalJson(raw.winners) === canonicalJson(again);
    } catch {
      same = false;
    }
    winners = { ok: same, stated: raw.winners, recomputed: again };
  }
  const sha = { ok: stated === computed, stated, computed };
  const signature = checkSignature(raw, opts.keys ?? null);
  let reason: string | null = null;
  if (!sha.ok) reason = `the bundle's sha256 is not the hash of its content: it was changed after it was made`;
  else if (firstDifference !== null) reason = `the ranking does not follow from the scores (entry ${firstDifference.index + 1} differs)`;
  else if (winners !== null && !winners.ok) reason = 'the winners do not follow from the ranking and the tracks';
  else if (signature.status === 'invalid') reason = `bad signature: ${signature.detail}`;
  else if (signature.status === 'unknown_key') reason = `not signed by the site: ${signature.detail}`;
  else if (signature.status === 'self_signed') {
    reason = `not vouched for: the signature is valid only for the public key the bundle carries, which alone proves nothing (anyone can sign with a key of their own); give the site's keys with --site URL or --key`;
  } else if (signature.status === 'unsigned' && opts.allowUnsigned !== true) {
    reason = 'unsigned: integrity only, not vouched for (a bundle published before results were signed); --allow-unsigned accepts it';
  }
  return {
    ok: reason === null,
    reason,
    sha256: sha,
    ranking: { ok: firstDifference === null, entries: recomputed.length, firstDifference },
    winners,
    signature,
  };
}
