import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rankProjects, SCORE_DECIMALS } from '../../src/results/ranking.js';
import { computeStandings } from '../../src/results/standings.js';

/** One project's standing, computed alone, carries exactly the numbers of the full ranking. */
describe('computeStandings', () => {
  const groups = ['m/a', 'm/b', 'human'];
  const review = fc.record({
    project: fc.nat(5),
    group: fc.nat(groups.length - 1),
    status: fc.constantFrom('succeeded', 'failed', 'queued', 'running'),
    scores: fc.dictionary(fc.constantFrom('impact', 'craft', ' IMPACT', 'x'), fc.constantFrom<unknown>(0, 2.5, 7, 7.25, 10, 11, 'n')),
  });

  it('agrees with rankProjects per project, and counts coverage by status', () => {
    fc.assert(
      fc.property(fc.array(review, { maxLength: 25 }), fc.constantFrom(1, 2, 3), (reviews, w) => {
        const event = {
          dimensions: [
            { name: 'impact', weight: w },
            { name: 'craft', weight: 1 },
          ],
          models: ['m/b', 'm/a'],
        };
        const projects = Array.from({ length: 6 }, (_, i) => ({ id: `p${i}`, track_id: null, first_submitted_at: `2030-01-0${i + 1}`, judged: true }));
        const rows = reviews.map((r) => ({
          project_id: `p${r.project}`,
          reviewer_kind: groups[r.group] === 'human' ? 'human' : 'model',
          group_key: groups[r.group]!,
          reviewer: groups[r.group]!,
          status: r.status,
          scores: JSON.stringify(r.scores),
        }));
        const standings = new Map(computeStandings(event, projects, rows).map((s) => [s.project_id, s]));
        const full = rankProjects({
          dimensions: event.dimensions,
          projects: projects.map((p) => ({ project_id: p.id, project_name: '', team_name: '', track_id: null, first_submitted_at: p.first_submitted_at })),
          reviews: rows
            .filter((r) => r.status === 'succeeded')
            .map((r) => ({ project_id: r.project_id, group_key: r.group_key, scores: JSON.parse(r.scores) })),
          groupOrder: event.models,
        });
        for (const e of full) {
          const s = standings.get(e.project_id)!;
          expect(JSON.parse(s.by_model)).toEqual(e.scores_by_model);
          expect(Object.keys(JSON.parse(s.by_model))).toEqual(Object.keys(e.scores_by_model));
          expect(JSON.parse(s.by_dimension)).toEqual(e.scores_by_dimension);
          expect(s.score_key < 0 ? 0 : s.score_key / 10 ** SCORE_DECIMALS).toBe(e.score);
          expect(s.score_key < 0).toBe(Object.keys(e.scores_by_dimension).length === 0);
          expect(s.raw_score_key).toBe(s.score_key);
          const mine = rows.filter((r) => r.project_id === e.project_id);
          const model = mine.filter((r) => r.reviewer_kind === 'model');
          expect(s.coverage).toEqual({
            expected: 2,
            succeeded: model.filter((r) => r.status === 'succeeded').length,
            failed: model.filter((r) => r.status === 'failed').length,
            pending: model.filter((r) => r.status === 'queued' || r.status === 'running').length,
            human: mine.filter((r) => r.reviewer_kind === 'human' && r.status === 'succeeded').length,
          });
        }
      }),
      { numRuns: 200 },
    );
  });

  it('never makes a score from a broken stored document', () => {
    const [s] = computeStandings(
      { dimensions: [{ name: 'impact', weight: 1 }], models: [] },
      [{ id: 'p', track_id: 't', first_submitted_at: 'x', judged: false }],
      [
        { project_id: 'p', reviewer_kind: 'human', reviewer: 'u1', group_key: 'human', status: 'succeeded', scores: '{not json' },
        { project_id: 'p', reviewer_kind: 'human', reviewer: 'u1', group_key: 'human', status: 'succeeded', scores: '[9]' },
      ],
    );
    expect(s).toMatchObject({ score_key: -1, by_model: '{}', by_dimension: '{}', judged: 0, track_id: 't' });
  });
});
