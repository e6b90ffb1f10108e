import type { ResultEntry } from './ranking.js';

/**
 * Winners as the event defines them (pure, no I/O): per track, the best-ranked scored project(s) of
 * the track win it (ties share the place) with the track's prize; beside them the overall top
 * places. The server computes them at publication from the frozen ranking, GET result/winners
 * derives them again from the stored entries, and the bundle verifier recomputes them from the
 * ranking it recomputed: one function, so the three cannot drift.
 */

/** How many overall places the winners section lists (ties at the last place included). */
export const OVERALL_PLACES = 3;

/** A published entry: the contract's entry plus its place in its track and the prize it won. */
export interface PublishedEntry extends ResultEntry {
  /** Competition rank within the entry's track (null without a track). */
  track_rank: number | null;
  /** The track's prize when the entry won its track (track_rank 1, scored, the track has a prize); else null. */
  track_prize: string | null;
}

export interface WinnerProject {
  rank: number;
  track_rank: number | null;
  project_id: string;
  project_name: string;
  team_name: string;
  track_id: string | null;
  score: number;
}

export interface TrackWinners {
  track_id: string;
  track_name: string;
  /** The track's prize as it stood at publication (null: no prize, or nobody won the track). */
  prize: string | null;
  /** The project(s) with the best rank within the track: several on a tie; none when no project of the track was scored. */
  projects: WinnerProject[];
}

export interface Winners {
  tracks: TrackWinners[];
  /** The overall top places (rank ≤ OVERALL_PLACES), scored entries only. */
  overall: WinnerProject[];
}

export interface WinnerTrack {
  id: string;
  name: string;
  prize?: string | null | undefined;
}

/** A scored entry: at least one dimension scored (an unscored project ranks last with 0 and wins nothing). */
export const isScored = (e: Pick<ResultEntry, 'scores_by_dimension'>) => Object.keys(e.scores_by_dimension).length > 0;

/**
 * Each entry's rank within its track (competition ranks down the ranking, as ordered) and the
 * prize it wins: the ranking must be in published order.
 */
export function withTrackPlaces(ranking: readonly ResultEntry[], tracks: readonly WinnerTrack[]): PublishedEntry[] {
  const prizes = new Map(tracks.map((t) => [t.id, t.prize ? t.prize : null]));
  const state = new Map<string, { position: number; rank: number; lastRank: number | null }>();
  return ranking.map((e) => {
    let trackRank: number | null = null;
    if (e.track_id !== null) {
      let s = state.get(e.track_id);
      if (!s) state.set(e.track_id, (s = { position: 0, rank: 1, lastRank: null }));
      // Equal overall ranks are equal scores: they share the track's place too.
      if (s.lastRank !== null && e.rank !== s.lastRank) s.rank = s.position + 1;
      s.lastRank = e.rank;
      s.position++;
      trackRank = s.rank;
    }
    return { ...e, track_rank: trackRank, track_prize: prizeWon(e, trackRank, prizes) };
  });
}

/** The prize an entry wins: its track's, when it is first in its track and scored. */
export function prizeWon(e: Pick<ResultEntry, 'track_id' | 'scores_by_dimension'>, trackRank: number | null, prizes: ReadonlyMap<string, string | null>) {
  if (e.track_id === null || trackRank !== 1 || !isScored(e)) return null;
  return prizes.get(e.track_id) ?? null;
}

function project(e: PublishedEntry): WinnerProject {
  return {
    rank: e.rank,
    track_rank: e.track_rank,
    project_id: e.project_id,
    project_name: e.project_name,
    team_name: e.team_name,
    track_id: e.track_id,
    score: e.score,
  };
}

/**
 * The winners from published entries in ranking order (all of them, or at least every entry with
 * track_rank 1 or rank ≤ OVERALL_PLACES): every track of the event in its order, with the name
 * given and the prize the winning entries carry (frozen with them at publication).
 */
export function computeWinners(entries: readonly PublishedEntry[], tracks: ReadonlyArray<Pick<WinnerTrack, 'id' | 'name'>>): Winners {
  const scored = entries.filter(isScored);
  return {
    tracks: tracks.map((t) => {
      const won = scored.filter((e) => e.track_id === t.id && e.track_rank === 1);
      return { track_id: t.id, track_name: t.name, prize: won[0]?.track_prize ?? null, projects: won.map(project) };
    }),
    overall: scored.filter((e) => e.rank <= OVERALL_PLACES).map(project),
  };
}
