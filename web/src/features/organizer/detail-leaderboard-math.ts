import type { LeaderboardEntry } from './detail-types';

/** Pure arithmetic behind the leaderboard tab's charts and disagreement view (unit-tested, no DOM). */

/** Largest minus smallest; 0 for fewer than two values. */
export function spread(values: readonly number[]): number {
  if (values.length < 2) return 0;
  return Math.max(...values) - Math.min(...values);
}

/** Population standard deviation; 0 for fewer than two values. */
export function stdDev(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length);
}

/** Rounded to 4 decimals, like the API publishes numbers (no 0.30000000000000004 on screen). */
export function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}

/** A project scored at all: some AI or human review succeeded. */
export function isScored(e: Pick<LeaderboardEntry, 'reviews'>): boolean {
  return e.reviews.succeeded + e.reviews.human > 0;
}

/** The first `n` scored entries in rank order (unscored ones carry no information for a chart). */
export function topScored(entries: readonly LeaderboardEntry[], n: number): LeaderboardEntry[] {
  return [...entries]
    .filter(isScored)
    .sort((a, b) => a.rank - b.rank)
    .slice(0, Math.max(0, n));
}

/** Every key of a record member across entries, sorted (models first alphabetically, `human` last). */
export function keysOf(entries: readonly LeaderboardEntry[], member: 'scores_by_model' | 'scores_by_dimension'): string[] {
  const set = new Set<string>();
  for (const e of entries) for (const k of Object.keys(e[member])) set.add(k);
  return [...set].sort((a, b) => (a === 'human' ? 1 : b === 'human' ? -1 : a.localeCompare(b)));
}

export interface Series {
  /** A key safe for a chart's dataKey (names such as "openai/gpt-4.1" hold dots, which charts read as paths). */
  key: string;
  name: string;
}

export interface ChartData {
  series: Series[];
  rows: Array<{ label: string; project_id: string } & Record<string, number | string | null>>;
}

/** Rows of the top `n` scored projects with one value per key of `member` (null where that key did not score). */
export function chartData(
  entries: readonly LeaderboardEntry[],
  member: 'scores_by_model' | 'scores_by_dimension',
  n: number,
  order?: readonly string[],
): ChartData {
  const top = topScored(entries, n);
  const names = order ? [...order].filter((k) => top.some((e) => k in e[member])) : keysOf(top, member);
  const series = names.map((name, i) => ({ key: `s${i}`, name }));
  const rows = top.map((e) => {
    const row: ChartData['rows'][number] = { label: e.project_name, project_id: e.project_id };
    for (const s of series) row[s.key] = s.name in e[member] ? round4(e[member][s.name]!) : null;
    return row;
  });
  return { series, rows };
}

export interface Disagreement {
  entry: LeaderboardEntry;
  /** Highest minus lowest group score (models and the human group). */
  spread: number;
  high: { group: string; score: number };
  low: { group: string; score: number };
}

/**
 * Where the scoring groups disagree most about a project: the spread between the highest and the
 * lowest group score, for projects scored by at least two groups, largest first (ties by rank).
 */
export function disagreements(entries: readonly LeaderboardEntry[], n: number): Disagreement[] {
  const out: Disagreement[] = [];
  for (const entry of entries) {
    const groups = Object.entries(entry.scores_by_model);
    if (groups.length < 2) continue;
    let high = groups[0]!;
    let low = groups[0]!;
    for (const g of groups) {
      if (g[1] > high[1]) high = g;
      if (g[1] < low[1]) low = g;
    }
    out.push({ entry, spread: round4(high[1] - low[1]), high: { group: high[0], score: high[1] }, low: { group: low[0], score: low[1] } });
  }
  return out.sort((a, b) => b.spread - a.spread || a.entry.rank - b.entry.rank).slice(0, Math.max(0, n));
}

/** Unscored entries of a list (they rank last with score 0; publishing them needs `force`). */
export function unscored(entries: readonly LeaderboardEntry[]): LeaderboardEntry[] {
  return entries.filter((e) => !isScored(e));
}

/** The first `n` entries of each track (entries already ordered by rank), in the tracks' order; null = no track. */
export function topPerTrack(entries: readonly LeaderboardEntry[], trackIds: readonly (string | null)[], n: number): Map<string | null, LeaderboardEntry[]> {
  const out = new Map<string | null, LeaderboardEntry[]>();
  for (const id of trackIds) out.set(id, []);
  for (const e of entries) {
    const list = out.get(e.track_id);
    if (list && list.length < n) list.push(e);
  }
  return out;
}

/**
 * Each entry's competition rank within its track, as the published result counts it (entries
 * ordered by rank; equal overall ranks are equal scores and share the track's place): 1 is the
 * track's winner. Entries without a track have none.
 */
export function trackPlaces(entries: readonly LeaderboardEntry[]): Map<string, number> {
  const out = new Map<string, number>();
  const state = new Map<string, { seen: number; place: number; lastRank: number }>();
  for (const e of entries) {
    if (e.track_id === null) continue;
    const s = state.get(e.track_id);
    if (!s) state.set(e.track_id, { seen: 1, place: 1, lastRank: e.rank });
    else {
      if (e.rank !== s.lastRank) s.place = s.seen + 1;
      s.seen++;
      s.lastRank = e.rank;
    }
    out.set(e.project_id, state.get(e.track_id)!.place);
  }
  return out;
}

/** Share of a whole as 0..1, 0 when the whole is 0 (progress bars). */
export function fraction(part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.min(1, Math.max(0, part / whole));
}
