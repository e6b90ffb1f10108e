import { describe, expect, it } from 'vitest';
import { chartData, disagreements, fraction, keysOf, round4, spread, stdDev, topPerTrack, topScored, trackPlaces, unscored } from './detail-leaderboard-math';
import type { LeaderboardEntry } from './detail-types';

function entry(rank: number, name: string, byModel: Record<string, number>, over: Partial<LeaderboardEntry> = {}): LeaderboardEntry {
  const scored = Object.keys(byModel).length > 0;
  const score = scored ? Object.values(byModel).reduce((a, b) => a + b, 0) / Object.keys(byModel).length : 0;
  return {
    rank,
    project_id: `prj_${name}`,
    project_name: name,
    team_name: `Team ${name}`,
    track_id: 'tools',
    score,
    score_raw: score,
    score_normalized: null,
    scores_by_model: byModel,
    scores_by_dimension: scored ? { impact: 7, 'craft.v2': 6 } : {},
    reviews: {
      expected: 2,
      succeeded: scored ? Object.keys(byModel).filter((k) => k !== 'human').length : 0,
      failed: 0,
      pending: 0,
      human: 'human' in byModel ? 1 : 0,
    },
    ...over,
  };
}

const A = entry(1, 'Alpha', { 'openai/gpt-4.1': 9, 'anthropic/claude': 8, human: 8.5 });
const B = entry(2, 'Beta', { 'openai/gpt-4.1': 9.5, 'anthropic/claude': 5 });
const C = entry(3, 'Gamma', { 'openai/gpt-4.1': 6 }, { track_id: 'fun' });
const D = entry(4, 'Delta', {}, { track_id: 'fun' });

describe('leaderboard arithmetic', () => {
  it('spread and standard deviation', () => {
    expect(spread([])).toBe(0);
    expect(spread([4])).toBe(0);
    expect(spread([4, 9, 6])).toBe(5);
    expect(stdDev([2, 4, 4, 4, 5, 5, 7, 9])).toBe(2);
    expect(stdDev([3])).toBe(0);
    expect(round4(0.1 + 0.2)).toBe(0.3);
  });

  it('takes the top scored entries in rank order, leaving unscored ones out', () => {
    expect(topScored([D, C, B, A], 3).map((e) => e.project_name)).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(topScored([A, B], 0)).toEqual([]);
    expect(unscored([A, B, C, D]).map((e) => e.project_name)).toEqual(['Delta']);
  });

  it('lists the groups with human last', () => {
    expect(keysOf([A, B, C], 'scores_by_model')).toEqual(['anthropic/claude', 'openai/gpt-4.1', 'human']);
  });

  it('shapes chart rows with safe series keys and null where a group did not score', () => {
    const data = chartData([A, B, C, D], 'scores_by_model', 10);
    expect(data.series).toEqual([
      { key: 's0', name: 'anthropic/claude' },
      { key: 's1', name: 'openai/gpt-4.1' },
      { key: 's2', name: 'human' },
    ]);
    expect(data.rows).toEqual([
      { label: 'Alpha', project_id: 'prj_Alpha', s0: 8, s1: 9, s2: 8.5 },
      { label: 'Beta', project_id: 'prj_Beta', s0: 5, s1: 9.5, s2: null },
      { label: 'Gamma', project_id: 'prj_Gamma', s0: null, s1: 6, s2: null },
    ]);
    const dims = chartData([A], 'scores_by_dimension', 5, ['impact', 'craft.v2', 'unused']);
    expect(dims.series).toEqual([
      { key: 's0', name: 'impact' },
      { key: 's1', name: 'craft.v2' },
    ]);
    expect(dims.rows[0]).toEqual({ label: 'Alpha', project_id: 'prj_Alpha', s0: 7, s1: 6 });
  });

  it('ranks disagreement by the spread between the highest and the lowest group', () => {
    const d = disagreements([A, B, C, D], 5);
    expect(d.map((x) => [x.entry.project_name, x.spread])).toEqual([
      ['Beta', 4.5],
      ['Alpha', 1],
    ]);
    expect(d[0]!.high).toEqual({ group: 'openai/gpt-4.1', score: 9.5 });
    expect(d[0]!.low).toEqual({ group: 'anthropic/claude', score: 5 });
    expect(disagreements([A, B], 1)).toHaveLength(1);
  });

  it('places each entry within its track: the Climate winner 2nd overall is 1st in Climate; ties share the place', () => {
    const e = (rank: number, name: string, track: string | null) => entry(rank, name, { human: 10 - rank }, { track_id: track });
    const places = trackPlaces([
      e(1, 'Tooly', 'tools'),
      e(2, 'PlanetPal', 'climate'),
      e(3, 'Greenish', 'climate'),
      e(3, 'Toolish', 'tools'),
      e(5, 'Leafy', 'climate'),
      e(6, 'Loose', null),
    ]);
    expect(Object.fromEntries(places)).toEqual({ prj_Tooly: 1, prj_PlanetPal: 1, prj_Greenish: 2, prj_Toolish: 2, prj_Leafy: 3 });
    const tie = trackPlaces([e(1, 'A', 'climate'), e(1, 'B', 'climate'), e(3, 'C', 'climate')]);
    expect(Object.fromEntries(tie)).toEqual({ prj_A: 1, prj_B: 1, prj_C: 3 });
  });

  it('groups the top entries per track and computes progress fractions', () => {
    const per = topPerTrack([A, B, C, D], ['tools', 'fun'], 1);
    expect([...per.entries()].map(([k, v]) => [k, v.map((e) => e.project_name)])).toEqual([
      ['tools', ['Alpha']],
      ['fun', ['Gamma']],
    ]);
    expect(fraction(3, 4)).toBe(0.75);
    expect(fraction(1, 0)).toBe(0);
    expect(fraction(5, 4)).toBe(1);
  });
});

describe('date and time text', () => {
  it('formats without the zone name (Intl refuses it beside dateStyle)', async () => {
    const { dateTimeText } = await import('./detail-format');
    // ICU versions differ in the space before PM (U+202F or a plain one).
    expect(dateTimeText('en', '2030-01-02T15:30:00.000Z', 'UTC').replace(/\s/gu, ' ')).toBe('Jan 2, 2030, 3:30 PM');
    expect(dateTimeText('en', null)).toBe('–');
  });
});
