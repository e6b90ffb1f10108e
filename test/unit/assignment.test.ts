import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignReviewers, pairKey, type Assignment, type AssignmentProblem } from '../../src/reviewers/assignment.js';

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`);

function loads(result: Assignment, reviewers: readonly string[]): number[] {
  const count = new Map(reviewers.map((r) => [r, 0]));
  for (const list of result.values()) for (const r of list) count.set(r, count.get(r)! + 1);
  return reviewers.map((r) => count.get(r)!);
}

const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);

/**
 * An independent check of "as even as the conflicts allow": no chain of moves of movable
 * assignments leads from a reviewer to one with at least two projects fewer.
 */
function hasCostReducingChain(problem: AssignmentProblem, result: Assignment): boolean {
  const { reviewers } = problem;
  const load = new Map(reviewers.map((r, i) => [r, loads(result, reviewers)[i]!]));
  const movable = (p: string, r: string) => !problem.manual?.has(p) && !problem.fixed?.has(pairKey(p, r));
  for (const a of reviewers) {
    const seen = new Set([a]);
    const queue = [a];
    while (queue.length) {
      const x = queue.shift()!;
      for (const [p, list] of result) {
        if (!list.includes(x) || !movable(p, x)) continue;
        for (const y of reviewers) {
          if (seen.has(y) || list.includes(y) || problem.conflicts?.get(p)?.has(y)) continue;
          if (load.get(y)! <= load.get(a)! - 2) return true;
          seen.add(y);
          queue.push(y);
        }
      }
    }
  }
  return false;
}

describe('assignReviewers', () => {
  it('gives 12 projects 2 reviewers each out of 4: six each', () => {
    const projects = ids('p', 12);
    const reviewers = ids('r', 4);
    const result = assignReviewers({ projects, reviewers, k: 2 });
    for (const list of result.values()) expect(list).toHaveLength(2);
    expect(loads(result, reviewers)).toEqual([6, 6, 6, 6]);
  });

  it('mixes the panels: over 12 projects x 2 of 4 reviewers, every pair of reviewers shares exactly 2 projects', () => {
    const result = assignReviewers({ projects: ids('p', 12), reviewers: ['a', 'b', 'c', 'd'], k: 2 });
    // Equal loads go to the reviewer least paired so far with the project's first reviewer.
    expect([...result.values()].map((l) => l.join(''))).toEqual(['ab', 'cd', 'ac', 'bd', 'bc', 'ad', 'bc', 'ad', 'bd', 'ac', 'cd', 'ab']);
    const pairs = new Map<string, number>();
    for (const l of result.values()) pairs.set(l.join(''), (pairs.get(l.join('')) ?? 0) + 1);
    expect([...pairs.values()]).toEqual([2, 2, 2, 2, 2, 2]);
  });

  it('spreads 5 projects x 2 over 3 reviewers as 4/3/3, round robin from the first', () => {
    const result = assignReviewers({ projects: ids('p', 5), reviewers: ['a', 'b', 'c'], k: 2 });
    // Equal loads are taken round robin from a cursor after the last pick: ab, ca (c then a), bc, ab, ca.
    expect([...result.values()]).toEqual([
      ['a', 'b'],
      ['a', 'c'],
      ['b', 'c'],
      ['a', 'b'],
      ['a', 'c'],
    ]);
    expect(loads(result, ['a', 'b', 'c'])).toEqual([4, 3, 3]);
  });

  it('respects conflicts, and gives a project all its eligible reviewers when fewer than k are', () => {
    const conflicts = new Map([
      ['p0', new Set(['a', 'b'])],
      ['p1', new Set(['c'])],
    ]);
    const result = assignReviewers({ projects: ['p0', 'p1', 'p2'], reviewers: ['a', 'b', 'c'], k: 2, conflicts });
    expect(result.get('p0')).toEqual(['c']);
    expect(result.get('p1')).toEqual(['a', 'b']);
    expect(result.get('p2')).toHaveLength(2);
    expect(spread(loads(result, ['a', 'b', 'c']))).toBeLessThanOrEqual(1);
  });

  it('a reviewer joining later takes movable work from the busiest, fixed pairs stay', () => {
    const projects = ids('p', 6);
    const before = assignReviewers({ projects, reviewers: ['a', 'b'], k: 1 });
    expect(loads(before, ['a', 'b'])).toEqual([3, 3]);
    // a has reviewed all of theirs; b none.
    const fixed = new Set([...before].filter(([, l]) => l[0] === 'a').map(([p]) => pairKey(p, 'a')));
    const after = assignReviewers({ projects, reviewers: ['a', 'b', 'c'], k: 1, current: before, fixed });
    expect(loads(after, ['a', 'b', 'c'])).toEqual([3, 2, 1]);
    for (const [p, l] of before) if (l[0] === 'a') expect(after.get(p)).toEqual(['a']);
  });

  it('keeps current assignments and only adds what is missing for a new project', () => {
    const projects = ids('p', 4);
    const before = assignReviewers({ projects, reviewers: ['a', 'b', 'c', 'd'], k: 2 });
    const after = assignReviewers({ projects: [...projects, 'p999'], reviewers: ['a', 'b', 'c', 'd'], k: 2, current: before });
    for (const p of projects) expect(after.get(p)).toEqual(before.get(p));
    expect(after.get('p999')).toHaveLength(2);
  });

  it('never tops up or moves a project set by hand', () => {
    const current = new Map([['p0', ['a']]]);
    const result = assignReviewers({ projects: ['p0', 'p1'], reviewers: ['a', 'b', 'c'], k: 2, current, manual: new Set(['p0']) });
    expect(result.get('p0')).toEqual(['a']);
  });

  it('drops a current pair that is now conflicted or whose reviewer left', () => {
    const current = new Map([['p0', ['a', 'gone']]]);
    const result = assignReviewers({ projects: ['p0'], reviewers: ['a', 'b'], k: 2, current, conflicts: new Map([['p0', new Set(['a'])]]) });
    expect(result.get('p0')).toEqual(['b']);
  });

  it('has no reviewers to give: empty lists', () => {
    expect([...assignReviewers({ projects: ['p0'], reviewers: [], k: 3 }).values()]).toEqual([[]]);
  });

  it('property: k each (or every eligible), no conflict, no repeat, deterministic, as even as conflicts allow', () => {
    const problem = fc
      .record({ projects: fc.integer({ min: 0, max: 30 }), reviewers: fc.integer({ min: 1, max: 9 }), k: fc.integer({ min: 1, max: 4 }) })
      .chain(({ projects, reviewers, k }) =>
        fc.record({
          projects: fc.constant(projects),
          reviewers: fc.constant(reviewers),
          k: fc.constant(k),
          conflicts: fc.array(fc.tuple(fc.nat(Math.max(0, projects - 1)), fc.nat(reviewers - 1)), { maxLength: projects * 2 }),
        }),
      );
    fc.assert(
      fc.property(problem, (g) => {
        const projects = ids('p', g.projects);
        const reviewers = ids('r', g.reviewers);
        const conflicts = new Map<string, Set<string>>();
        if (g.projects > 0) {
          for (const [p, r] of g.conflicts) {
            const set = conflicts.get(projects[p]!) ?? new Set<string>();
            set.add(reviewers[r]!);
            conflicts.set(projects[p]!, set);
          }
        }
        const input = { projects, reviewers, k: g.k, conflicts };
        const result = assignReviewers(input);
        expect(assignReviewers(input)).toEqual(result);
        for (const p of projects) {
          const list = result.get(p)!;
          const eligible = reviewers.filter((r) => !conflicts.get(p)?.has(r)).length;
          expect(list).toHaveLength(Math.min(g.k, eligible));
          expect(new Set(list).size).toBe(list.length);
          for (const r of list) expect(conflicts.get(p)?.has(r) ?? false).toBe(false);
        }
        expect(hasCostReducingChain(input, result)).toBe(false);
        const plain = assignReviewers({ projects, reviewers, k: g.k });
        expect(spread(loads(plain, reviewers))).toBeLessThanOrEqual(1);
      }),
      { numRuns: 300, seed: 20 },
    );
  });

  it('property: incremental growth (projects and reviewers arriving) keeps unconflicted loads within one', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 3 }), (arrivals, k) => {
        let projects: string[] = [];
        let reviewers: string[] = ['r000'];
        let current: Assignment = new Map();
        arrivals.forEach((isProject, i) => {
          if (isProject) projects = [...projects, `p${String(i).padStart(3, '0')}`];
          else reviewers = [...reviewers, `r${String(i + 1).padStart(3, '0')}`];
          current = assignReviewers({ projects, reviewers, k, current });
        });
        for (const list of current.values()) expect(list).toHaveLength(Math.min(k, reviewers.length));
        expect(spread(loads(current, reviewers))).toBeLessThanOrEqual(1);
      }),
      { numRuns: 200, seed: 20 },
    );
  });
});
