import type { Generated, Selectable } from 'kysely';

export interface ResultsTable {
  event_id: string;
  published_at: string;
  published_by: string;
  /**
   * Empty since migration 0106: the frozen entries are rows of result_entries. (Before, the whole
   * JSON array; `etag` is still the hash of that array's exact bytes.)
   */
  entries: string;
  etag: string;
  /** The normalisation the published ranking used (since 0223). */
  normalization: Generated<'none' | 'zscore'>;
}

/**
 * Per project, its numbers as the ranking computes them, kept current by triggers (stale/version)
 * and recomputed by readers for the stale rows only (src/results/standings.ts).
 */
export interface StandingsTable {
  project_id: string;
  event_id: string;
  version: Generated<number>;
  stale: Generated<number>;
  /** 1 when the project's registration is approved (it takes part in the ranking). */
  judged: Generated<number>;
  track_id: string | null;
  first_submitted_at: string;
  /** The score in 10^-4 units (the ranking key), -1 when nobody scored the project. */
  score_key: Generated<number>;
  /** The raw (unnormalised) score in 10^-4 units, -1 when unscored; equals score_key under normalization none. */
  raw_score_key: Generated<number>;
  /** JSON text of scores_by_model / scores_by_dimension, as published. */
  by_model: Generated<string>;
  by_dimension: Generated<string>;
  /** JSON array of the keys of by_model (for the CSV columns). */
  model_groups: Generated<string>;
  reviews_expected: Generated<number>;
  reviews_succeeded: Generated<number>;
  reviews_failed: Generated<number>;
  reviews_pending: Generated<number>;
  reviews_human: Generated<number>;
}

/** A published result's verifiable bundle (src/results/result-bundle.ts), one per event, never changed. */
export interface ResultBundlesTable {
  event_id: string;
  /** The bundle's canonical JSON (RFC 8785), `sha256` member included. */
  bundle: string;
  /** SHA-256 (hex) of the canonical JSON of the bundle without its `sha256` member. */
  sha256: string;
  created_at: string;
}

/**
 * The site's Ed25519 keys that sign results bundles (src/results/result-signing.ts): one current
 * (is_current 1), the others retired (NULL) and still published so old bundles verify.
 */
export interface ResultSigningKeysTable {
  /** `rsk_…`: named by the bundles it signs. */
  id: string;
  /** `Ed25519`. */
  algorithm: string;
  /** The raw 32-byte public key, base64url (a JWK's `x`). */
  public_key: string;
  /** PKCS#8 DER, base64: never logged, never served. */
  private_key: string;
  /** 1 for the current key, NULL once retired (unique: at most one current key). */
  is_current: number | null;
  created_at: string;
  retired_at: string | null;
}

/** One entry of a published result: its JSON after `{"rank":N`, and its overall and per-track place. */
export interface ResultEntriesTable {
  event_id: string;
  position: number;
  rank: number;
  track_id: string | null;
  track_position: number | null;
  track_rank: number | null;
  entry_tail: string;
  /** Null only for rows stored before 0217 that its backfill has not reached (none after it ran). */
  project_id: string | null;
}

export type ResultRow = Selectable<ResultsTable>;
