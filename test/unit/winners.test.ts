import { describe, expect, it } from 'vitest';
import type { ResultEntry } from '../../src/results/ranking.js';
import { computeWinners, withTrackPlaces } from '../../src/results/winners.js';

const entry = (rank: number, id: string, track: string | null, score: number): ResultEntry => ({
  rank,
  project_id: id,
  project_name: id.toUpperCase(),
  team_name: `${id} team`,
  track_id: track,
  score,
  scores_by_model: score > 0 ? { human: score } : {},
  scores_by_dimension: score > 0 ? { impact: score } : {},
});

const tracks = [
  { id: 'climate', name: 'Climate', prize: '€500' },
  { id: 'tools', name: 'Developer tools', prize: '' },
  { id: 'empty', name: 'Nobody', prize: '€1' },
  { id: 'idle', name: 'Unscored only', prize: '€2' },
];

describe('winners (pure)', () => {
  it('places each entry within its track; ties share the place and the prize; unscored entries win nothing', () => {
    const ranking = [
      entry(1, 'tooly', 'tools', 9),
      entry(2, 'planet', 'climate', 8),
      entry(2, 'leaf', 'climate', 8),
      entry(4, 'green', 'climate', 6),
      entry(5, 'loose', null, 5),
      entry(6, 'zero', 'idle', 0),
    ];
    const placed = withTrackPlaces(ranking, tracks);
    expect(placed.map((e) => [e.project_id, e.track_rank, e.track_prize])).toEqual([
      ['tooly', 1, null], // its track has no prize
      ['planet', 1, '€500'],
      ['leaf', 1, '€500'],
      ['green', 3, null],
      ['loose', null, null],
      ['zero', 1, null], // first in its track, but never scored
    ]);
    const w = computeWinners(placed, tracks);
    expect(w.tracks.map((t) => [t.track_id, t.prize, t.projects.map((p) => p.project_id)])).toEqual([
      ['climate', '€500', ['planet', 'leaf']],
      ['tools', null, ['tooly']],
      ['empty', null, []],
      ['idle', null, []],
    ]);
    expect(w.overall.map((p) => [p.project_id, p.rank, p.track_rank])).toEqual([
      ['tooly', 1, 1],
      ['planet', 2, 1],
      ['leaf', 2, 1],
    ]);
    // From the entries that can win alone (first in a track, or in the top places), the same winners.
    expect(
      computeWinners(
        placed.filter((e) => e.track_rank === 1 || e.rank <= 3),
        tracks,
      ),
    ).toEqual(w);
  });
});
