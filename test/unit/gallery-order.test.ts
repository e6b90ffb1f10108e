import { describe, expect, it } from 'vitest';
import type { EventRecord } from '../../src/events/events-model.js';
import { isWinner, pageOfKeyed, resultKey, shuffleKey, votingOpen } from '../../src/showcase/gallery-order.js';

const event = (voting: Partial<EventRecord['voting']>, status: EventRecord['status'] = 'active') =>
  ({
    status,
    submission_deadline: '2030-01-03T00:00:00.000Z',
    voting: {
      enabled: true,
      opens_at: null,
      closes_at: '2030-01-05T00:00:00.000Z',
      votes_per_person: 1,
      per_track: true,
      exclude_new_accounts: false,
      ...voting,
    },
  }) as unknown as EventRecord;

describe('the gallery orders', () => {
  it('knows when the vote is open: from the submission deadline (or opens_at) up to, not at, closes_at', () => {
    expect(votingOpen(event({}), new Date('2030-01-02T23:59:59.999Z'))).toBe(false);
    expect(votingOpen(event({}), new Date('2030-01-03T00:00:00.000Z'))).toBe(true);
    expect(votingOpen(event({}), new Date('2030-01-04T23:59:59.999Z'))).toBe(true);
    expect(votingOpen(event({}), new Date('2030-01-05T00:00:00.000Z'))).toBe(false);
    expect(votingOpen(event({ opens_at: '2030-01-04T00:00:00.000Z' }), new Date('2030-01-03T12:00:00.000Z'))).toBe(false);
    expect(votingOpen(event({ enabled: false }), new Date('2030-01-04T00:00:00.000Z'))).toBe(false);
    expect(votingOpen(event({}, 'ended'), new Date('2030-01-04T00:00:00.000Z'))).toBe(false);
    expect(votingOpen(event({}, 'cancelled'), new Date('2030-01-04T00:00:00.000Z'))).toBe(false);
  });

  it('shuffles by a keyed hash: stable per seed, different across seeds', () => {
    const ids = Array.from({ length: 50 }, (_, i) => `prj_${String(i).padStart(4, '0')}`);
    const order = (seed: string) =>
      pageOfKeyed(
        ids.map((id) => ({ id, key: shuffleKey(seed, id) })),
        null,
        100,
      ).map((r) => r.id);
    expect(order('a')).toEqual(order('a'));
    expect(order('a')).not.toEqual(order('b'));
    expect([...order('a')].sort()).toEqual(ids);
  });

  it('pages after a (key, id) cursor without repeats or gaps, even when the cursor row is gone', () => {
    const rows = ['e', 'b', 'd', 'a', 'c'].map((id) => ({ id, key: id === 'c' ? 'b' : id }));
    expect(pageOfKeyed([...rows], null, 2).map((r) => r.id)).toEqual(['a', 'b']);
    expect(pageOfKeyed([...rows], ['b', 'b'], 2).map((r) => r.id)).toEqual(['c', 'd']);
    // The row the cursor names no longer listed: the next one after its key still follows.
    expect(
      pageOfKeyed(
        [...rows].filter((r) => r.id !== 'd'),
        ['d', 'd'],
        2,
      ).map((r) => r.id),
    ).toEqual(['e']);
    expect(pageOfKeyed([...rows], ['z', 'z'], 2)).toEqual([]);
  });

  it('puts winners (podium, track firsts) first by place, then the rest by id', () => {
    expect(isWinner({ rank: 3, track_rank: 2 })).toBe(true);
    expect(isWinner({ rank: 7, track_rank: 1 })).toBe(true);
    expect(isWinner({ rank: 4, track_rank: 2 })).toBe(false);
    const keys = [
      { id: 'prj_b', entry: { rank: 5, position: 5, track_rank: 2 } },
      { id: 'prj_a', entry: null },
      { id: 'prj_c', entry: { rank: 6, position: 6, track_rank: 1 } },
      { id: 'prj_d', entry: { rank: 1, position: 1, track_rank: 1 } },
    ];
    const sorted = pageOfKeyed(
      keys.map((k) => ({ id: k.id, key: resultKey(k.id, k.entry) })),
      null,
      10,
    ).map((r) => r.id);
    expect(sorted).toEqual(['prj_d', 'prj_c', 'prj_a', 'prj_b']);
  });
});
