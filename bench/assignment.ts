/**
 * Reviewer assignment benchmark (issue 20, target < 2 s): 10,000 projects × 200 reviewers × k = 3,
 * the pure rule (src/reviewers/assignment.ts) on data in memory:
 *   (a) from scratch, no conflicts (the target);
 *   (b) from scratch with 2% of the pairs conflicted (every project still has plenty of eligible reviewers);
 *   (c) incremental: the result of (a) plus 50 new projects and one new reviewer (top-up and rebalancing).
 * Baseline in the same run: a plain round-robin of the same size (no balancing, no conflicts), so the
 * ratio says what evenness and conflicts cost over merely handing out slots.
 * Each figure: the median of RUNS runs after one warm-up. Run: `node --import tsx bench/assignment.ts`.
 */
import { cpus, loadavg } from 'node:os';
import { assignReviewers, type Assignment } from '../src/reviewers/assignment.js';

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 10_000);
const REVIEWERS = Number(process.env.BENCH_REVIEWERS ?? 200);
const K = 3;
const RUNS = 5;
const TARGET_MS = 2000;

const projects = Array.from({ length: PROJECTS }, (_, i) => `prj_${String(i).padStart(6, '0')}`);
const reviewers = Array.from({ length: REVIEWERS }, (_, i) => `usr_${String(i).padStart(4, '0')}`);

/** Deterministic pseudo-random numbers, so runs are comparable. */
let seed = 42;
const rnd = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;

const conflicts = new Map<string, Set<string>>();
for (const p of projects) {
  const set = new Set<string>();
  for (const r of reviewers) if (rnd() < 0.02) set.add(r);
  if (set.size) conflicts.set(p, set);
}

function roundRobin(): Assignment {
  const out: Assignment = new Map();
  let c = 0;
  for (const p of projects) {
    const list: string[] = [];
    for (let j = 0; j < K; j++) list.push(reviewers[c++ % REVIEWERS]!);
    out.set(p, list);
  }
  return out;
}

function median(fn: () => unknown): number {
  fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

function spread(result: Assignment, who: readonly string[]): number {
  const load = new Map(who.map((r) => [r, 0]));
  for (const list of result.values()) for (const r of list) load.set(r, load.get(r)! + 1);
  const l = [...load.values()];
  return Math.max(...l) - Math.min(...l);
}

const baseline = median(roundRobin);
let scratch: Assignment = new Map();
const a = median(() => (scratch = assignReviewers({ projects, reviewers, k: K })));
let conflicted: Assignment = new Map();
const b = median(() => (conflicted = assignReviewers({ projects, reviewers, k: K, conflicts })));
const moreProjects = [...projects, ...Array.from({ length: 50 }, (_, i) => `prj_new_${i}`)];
const moreReviewers = [...reviewers, 'usr_new'];
let grown: Assignment = new Map();
const c = median(() => (grown = assignReviewers({ projects: moreProjects, reviewers: moreReviewers, k: K, current: scratch })));

const label = `assignment ${PROJECTS}x${REVIEWERS}xk${K}`;
console.log(`${label} on ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}, ${new Date().toISOString()}`);
console.log(`  baseline round-robin:            ${baseline.toFixed(1)} ms`);
console.log(`  (a) from scratch:                ${a.toFixed(1)} ms  (${(a / baseline).toFixed(1)}x baseline)  load spread ${spread(scratch, reviewers)}`);
console.log(`  (b) with 2% conflicts:           ${b.toFixed(1)} ms  (${(b / baseline).toFixed(1)}x baseline)  load spread ${spread(conflicted, reviewers)}`);
console.log(`  (c) +50 projects, +1 reviewer:   ${c.toFixed(1)} ms  (${(c / baseline).toFixed(1)}x baseline)  load spread ${spread(grown, moreReviewers)}`);
const worst = Math.max(a, b, c);
console.log(`  target < ${TARGET_MS} ms: ${worst < TARGET_MS ? 'met' : 'MISSED'} (slowest ${worst.toFixed(0)} ms)`);
if (worst >= TARGET_MS) process.exit(1);
