import { createHash } from 'node:crypto';
import type { EventRecord } from '../events/events-model.js';

/**
 * The gallery's orders (pure): which one applies, and the sort keys of the two that are not plain
 * submission order. During an open people's-choice vote every visitor sees their own stable
 * shuffle (no first-listed advantage); after publication winners come first.
 */
export type GalleryOrder = 'submission' | 'shuffle' | 'result';

/**
 * Whether the event's people's-choice vote takes votes at `now`: the same window as voting-service
 * (opens at `voting.opens_at`, else the submission deadline; closed at `closes_at` itself, at
 * publication and for cancelled or draft events).
 */
export function votingOpen(event: EventRecord, now: Date): boolean {
  const { enabled, closes_at } = event.voting;
  if (!enabled || !closes_at || event.status === 'ended' || event.status === 'cancelled' || event.status === 'draft') return false;
  const opensAt = event.voting.opens_at ?? event.submission_deadline;
  return now.getTime() >= Date.parse(opensAt) && now.getTime() < Date.parse(closes_at);
}

/** A short fingerprint of a shuffle's seed: binds a cursor to the order it was taken in. */
export function seedTag(seed: string): string {
  return createHash('sha256').update(`gallery-seed\u0000${seed}`).digest('hex').slice(0, 12);
}

/** A project's place in the shuffle seeded by `seed`: a keyed hash of the project id (64 bits, hex). */
export function shuffleKey(seed: string, projectId: string): string {
  return createHash('sha256').update(`${seed}\u0000${projectId}`).digest('hex').slice(0, 16);
}

/** Whether a result entry is a winner: on the overall podium (rank 1–3) or first in its track. */
export function isWinner(entry: { rank: number; track_rank: number | null }): boolean {
  return entry.rank <= 3 || entry.track_rank === 1;
}

/**
 * A project's place after publication: winners first by their place in the result, then every
 * other project in submission order (project ids are time-sortable).
 */
export function resultKey(projectId: string, entry: { rank: number; position: number; track_rank: number | null } | null): string {
  return entry && isWinner(entry) ? `0${String(entry.position).padStart(9, '0')}` : `1${projectId}`;
}

/**
 * One page of ids sorted by (key, id), after the cursor's (key, id): `limit + 1` rows so the caller
 * can tell there is more. O(n log n) over the event's matching ids.
 */
export function pageOfKeyed(rows: Array<{ id: string; key: string }>, after: readonly [string, string] | null, limit: number) {
  const sorted = [...rows].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const start = after ? sorted.findIndex((r) => r.key > after[0] || (r.key === after[0] && r.id > after[1])) : 0;
  return start < 0 ? [] : sorted.slice(start, start + limit);
}
