import { describe, expect, it } from 'vitest';
import { runEach } from './detail-bulk';
import { modelTotals, nextSteps } from './detail-next-steps';
import type { EventStats } from './detail-types';

const event = {
  status: 'open' as const,
  registration_deadline: '2030-01-02T00:00:00.000Z',
  submission_deadline: '2030-01-03T00:00:00.000Z',
  result_announced_at: null,
  models: ['openai/a', 'anthropic/b'],
};

function stats(over: Partial<EventStats> = {}): EventStats {
  return {
    event_id: 'evt_1',
    registrations: { pending: 0, approved: 3, rejected: 0, withdrawn: 0 },
    projects: 3,
    judged_projects: 3,
    reviews: {
      by_model: [
        { reviewer: 'openai/a', pending: 1, running: 1, done: 1, failed: 0 },
        { reviewer: 'anthropic/b', pending: 0, running: 0, done: 2, failed: 1 },
      ],
      human: { reviewers: 1, invitations_pending: 0, reviews_done: 2 },
    },
    reviewers: [],
    ...over,
  };
}

describe('next steps', () => {
  it('sums model reviews', () => {
    expect(modelTotals(stats())).toEqual({ done: 3, failed: 1, pending: 2, total: 6 });
  });

  it('says when registration closes and that decisions wait', () => {
    expect(nextSteps(event, stats({ registrations: { pending: 2, approved: 0, rejected: 0, withdrawn: 0 } }))).toEqual([
      { key: 'next.registrationCloses', values: { date: event.registration_deadline }, tone: 'info' },
      { key: 'next.pendingRegistrations', values: { count: 2 }, tab: 'registrations', tone: 'warn' },
    ]);
    expect(nextSteps({ ...event, status: 'active' }, stats())).toEqual([
      { key: 'next.submissionCloses', values: { date: event.submission_deadline }, tone: 'info' },
    ]);
    expect(nextSteps({ ...event, status: 'draft' }, undefined)).toEqual([{ key: 'next.draft', tone: 'info' }]);
  });

  it('reports judging progress, failures, and readiness to publish', () => {
    expect(nextSteps({ ...event, status: 'judging' }, stats()).map((s) => [s.key, s.values])).toEqual([
      ['next.aiProgress', { done: 3, total: 6 }],
      ['next.aiFailed', { count: 1 }],
      ['next.humanProgress', { count: 2 }],
    ]);
    const done = stats({
      reviews: {
        by_model: [{ reviewer: 'openai/a', pending: 0, running: 0, done: 3, failed: 0 }],
        human: { reviewers: 0, invitations_pending: 0, reviews_done: 0 },
      },
    });
    expect(nextSteps({ ...event, status: 'judging' }, done).map((s) => s.key)).toEqual(['next.aiProgress', 'next.readyToPublish']);
    expect(nextSteps({ ...event, status: 'ended', result_announced_at: '2030-02-01T00:00:00.000Z' }, stats()).map((s) => s.key)).toEqual(['next.published']);
  });
});

describe('runEach', () => {
  it('keeps each outcome in order, failures beside successes', async () => {
    const out = await runEach(
      [1, 2, 3, 4, 5],
      async (n) => {
        if (n % 2 === 0) throw new Error(`no ${n}`);
      },
      2,
    );
    expect(out.map((o) => [o.item, o.ok])).toEqual([
      [1, true],
      [2, false],
      [3, true],
      [4, false],
      [5, true],
    ]);
    expect((out[1]!.error as Error).message).toBe('no 2');
    expect(await runEach([], async () => {})).toEqual([]);
  });
});
