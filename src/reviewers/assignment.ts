/**
 * Assigning human reviewers to projects (an event in `assigned` reviewing mode): pure, no I/O,
 * deterministic for a given input (same lists in the same order give the same answer).
 *
 * The rule: every project gets `k` reviewers, or all its eligible reviewers when fewer than `k` are
 * eligible (a reviewer is ineligible for a project when they have a conflict of interest with it);
 * and the reviewers' loads (how many projects each has) are as even as the conflicts allow. "As even
 * as the conflicts allow" is made exact by the repair step: it stops only when no chain of moves
 * from a reviewer to one with at least two projects fewer exists (a cost-reducing path, in the
 * semi-matching sense), which is also what makes the maximum load minimal. Without conflicts loads
 * differ by at most one.
 *
 * Incremental use: `current` holds the assignments already made. They are kept (unless the reviewer
 * is gone or now conflicted) and count toward `k` and the loads; the rule only adds what is missing,
 * then the repair step may move assignments that are not `fixed` (a fixed pair was reviewed already
 * or set by an organizer) to even the loads out, e.g. toward a reviewer who just joined.
 */
export interface AssignmentProblem {
  /** Project ids, in a stable order (e.g. first submitted first). */
  projects: readonly string[];
  /** Reviewer ids, in a stable order (e.g. joined first). */
  reviewers: readonly string[];
  /** Reviewers wanted per project (at least 1). */
  k: number;
  /** Per project, the reviewers who may not review it. */
  conflicts?: ReadonlyMap<string, ReadonlySet<string>>;
  /** The assignments made so far, per project. */
  current?: ReadonlyMap<string, readonly string[]>;
  /** Pairs of `current` that never move: `pairKey(project, reviewer)`. */
  fixed?: ReadonlySet<string>;
  /** Projects whose reviewers an organizer set by hand: never topped up, never moved. */
  manual?: ReadonlySet<string>;
}

/** The key of a (project, reviewer) pair in `fixed`. */
export function pairKey(projectId: string, reviewerId: string): string {
  return `${projectId}\u0000${reviewerId}`;
}

/** Per project (every project of the problem, in its order), its reviewers in the reviewers' order. */
export type Assignment = Map<string, string[]>;

export function assignReviewers(problem: AssignmentProblem): Assignment {
  const { projects, reviewers } = problem;
  const k = Math.max(1, Math.floor(problem.k));
  const R = reviewers.length;
  const P = projects.length;
  const reviewerIndex = new Map<string, number>();
  reviewers.forEach((r, i) => {
    if (!reviewerIndex.has(r)) reviewerIndex.set(r, i);
  });
  const noConflicts = new Set<number>();
  const conflictsOf: Array<Set<number>> = projects.map((p) => {
    const set = problem.conflicts?.get(p);
    if (!set || set.size === 0) return noConflicts;
    const out = new Set<number>();
    for (const r of set) {
      const i = reviewerIndex.get(r);
      if (i !== undefined) out.add(i);
    }
    return out;
  });
  const manual = projects.map((p) => problem.manual?.has(p) === true);
  // Assigned reviewer indices per project, and whether each pair may move.
  const assigned: number[][] = projects.map(() => []);
  const movable: boolean[][] = projects.map(() => []);
  const load = new Int32Array(R);

  for (let p = 0; p < P; p++) {
    const have = problem.current?.get(projects[p]!);
    if (!have) continue;
    for (const r of have) {
      const i = reviewerIndex.get(r);
      if (i === undefined || conflictsOf[p]!.has(i) || assigned[p]!.includes(i)) continue;
      assigned[p]!.push(i);
      movable[p]!.push(!manual[p] && problem.fixed?.has(pairKey(projects[p]!, r)) !== true);
      load[i]!++;
    }
  }

  // How often two reviewers share a project: among equally loaded reviewers a project prefers those
  // who have been paired least with the ones it already has, so panels mix instead of repeating.
  const together = new Int32Array(R * R);
  const pairUp = (list: number[]) => {
    for (let x = 0; x < list.length; x++)
      for (let y = x + 1; y < list.length; y++) {
        together[list[x]! * R + list[y]!]!++;
        together[list[y]! * R + list[x]!]!++;
      }
  };
  for (const list of assigned) pairUp(list);

  // Fill: the most constrained projects first (fewest eligible reviewers), each taking the least
  // loaded eligible reviewers; ties go to the least paired with the project's reviewers so far,
  // then round-robin from a cursor so equal loads spread evenly.
  const eligible = conflictsOf.map((c) => R - c.size);
  const order: number[] = [];
  for (let p = 0; p < P; p++) if (!manual[p] && assigned[p]!.length < Math.min(k, eligible[p]!)) order.push(p);
  order.sort((a, b) => eligible[a]! - eligible[b]! || a - b);
  let cursor = 0;
  for (const p of order) {
    const list = assigned[p]!;
    const conflicts = conflictsOf[p]!;
    const want = Math.min(k, eligible[p]!);
    const had = list.length;
    while (list.length < want) {
      let best = -1;
      let bestLoad = 0;
      let bestPaired = 0;
      let bestRank = 0;
      for (let i = 0; i < R; i++) {
        if (conflicts.has(i) || list.includes(i)) continue;
        const l = load[i]!;
        if (best >= 0 && l > bestLoad) continue;
        let paired = 0;
        for (const j of list) paired += together[i * R + j]!;
        const rank = (i - cursor + R) % R;
        if (best < 0 || l < bestLoad || paired < bestPaired || (paired === bestPaired && rank < bestRank)) {
          best = i;
          bestLoad = l;
          bestPaired = paired;
          bestRank = rank;
        }
      }
      if (best < 0) break;
      list.push(best);
      movable[p]!.push(true);
      load[best]!++;
      cursor = (best + 1) % R;
    }
    if (list.length > had) {
      for (let x = had; x < list.length; x++)
        for (let y = 0; y < x; y++) {
          together[list[x]! * R + list[y]!]!++;
          together[list[y]! * R + list[x]!]!++;
        }
    }
  }

  rebalance({ R, assigned, movable, conflictsOf, load });

  const out: Assignment = new Map();
  for (let p = 0; p < P; p++) {
    out.set(
      projects[p]!,
      [...assigned[p]!].sort((a, b) => a - b).map((i) => reviewers[i]!),
    );
  }
  return out;
}

interface State {
  R: number;
  assigned: number[][];
  movable: boolean[][];
  conflictsOf: Array<Set<number>>;
  load: Int32Array;
}

/**
 * Evens the loads out: while some reviewer `a` can pass work, through a chain of moves of movable
 * assignments (a -> x1 -> ... -> b, each step moving one project the giver has and the taker may
 * review and has not), to a reviewer `b` with load(b) <= load(a) - 2, apply the chain: a loses
 * one, b gains one, the others keep theirs. Each chain lowers the sum of squared loads, so it ends.
 */
function rebalance(s: State): void {
  const { R, load } = s;
  if (R < 2) return;
  for (;;) {
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < R; i++) {
      min = Math.min(min, load[i]!);
      max = Math.max(max, load[i]!);
    }
    if (max - min <= 1) return;
    // Each reviewer's movable projects, rebuilt per round (a round applies one chain).
    const holding: number[][] = Array.from({ length: R }, () => []);
    s.assigned.forEach((list, p) =>
      list.forEach((r, j) => {
        if (s.movable[p]![j]) holding[r]!.push(p);
      }),
    );
    const sources = Array.from({ length: R }, (_, i) => i)
      .filter((i) => load[i]! >= min + 2)
      .sort((a, b) => load[b]! - load[a]! || a - b);
    let applied = false;
    for (const a of sources) {
      const path = findChain(s, holding, a);
      if (path) {
        applyChain(s, path);
        applied = true;
        break;
      }
    }
    if (!applied) return;
  }
}

/** Breadth-first search for a chain of moves from `a` to a reviewer at least two below `a`. */
function findChain(s: State, holding: number[][], a: number): Array<{ from: number; to: number; project: number }> | null {
  const { R, load } = s;
  const via = new Int32Array(R).fill(-1); // the project that moved into each reached reviewer
  const prev = new Int32Array(R).fill(-1);
  const seen = new Uint8Array(R);
  seen[a] = 1;
  const queue = [a];
  for (let q = 0; q < queue.length; q++) {
    const x = queue[q]!;
    for (const p of holding[x]!) {
      const list = s.assigned[p]!;
      const conflicts = s.conflictsOf[p]!;
      for (let y = 0; y < R; y++) {
        if (seen[y] || conflicts.has(y) || list.includes(y)) continue;
        seen[y] = 1;
        prev[y] = x;
        via[y] = p;
        if (load[y]! <= load[a]! - 2) {
          const path: Array<{ from: number; to: number; project: number }> = [];
          for (let t = y; t !== a; t = prev[t]!) path.push({ from: prev[t]!, to: t, project: via[t]! });
          return path.reverse();
        }
        queue.push(y);
      }
    }
  }
  return null;
}

function applyChain(s: State, path: Array<{ from: number; to: number; project: number }>): void {
  for (const { from, to, project } of path) {
    const list = s.assigned[project]!;
    const j = list.indexOf(from);
    if (j < 0 || list.includes(to)) throw new Error('assignment chain no longer applies');
    list[j] = to;
    s.load[from]!--;
    s.load[to]!++;
  }
}
