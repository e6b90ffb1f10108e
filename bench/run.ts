// `npm run bench`: every benchmark in turn, each in its own process so none disturbs another.
// `npm run bench -- growth` (or any words) runs only the scripts whose names contain one of them.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { serverNodeFlags } from './bench-server.js';

const ALL = [
  // Throughput and latency against a bare Fastify route measured in the same run.
  'bench/http.ts',
  // The ranking: pure arithmetic, the standings-backed leaderboard, a full rebuild.
  'bench/ranking.ts',
  // The results bundle: canonical JSON + SHA-256, and what `hackathon results verify` does.
  'bench/result-bundle.ts',
  'bench/review-pipeline.ts',
  // Injection screening per submission (patterns vs a plain split) and the classifier's added latency per review.
  'bench/screening.ts',
  // Reviewer assignment (pure rule): 10,000 projects x 200 reviewers x k=3, against a round-robin.
  'bench/assignment.ts',
  // Growth curves: the first page of every list, small vs large, reported as large/small ratios.
  'bench/growth-events.ts',
  'bench/growth-organizer-lists.ts',
  'bench/growth-results.ts',
  // The audit tab's first page at 100 vs 100,000 entries.
  'bench/audit.ts',
  // One project's review page at 10 vs 500 reviews, among 2,000 other projects.
  'bench/project-review-page.ts',
  // 5,000 ?wait= long-polls on PostgreSQL without Redis: CPU and the rate of another read.
  'bench/long-poll.ts',
  // The public gallery at 100 vs 10,000 projects, and a burst of 2,000 votes (0 lost).
  'bench/showcase.ts',
  // What an Idempotency-Key costs on a write.
  'bench/idempotency.ts',
  // What queueing webhook deliveries adds to a write, and delivery throughput to a local receiver.
  'bench/webhooks.ts',
];

const filters = process.argv.slice(2);
const scripts = ALL.filter((s) => existsSync(s) && (filters.length === 0 || filters.some((f) => s.includes(f))));
let failed = 0;
for (const script of scripts) {
  console.log(`\n=== ${script} ===`);
  // With the Node flags of `npm start`: several benchmarks run the app in their own process.
  const r = spawnSync(process.execPath, [...serverNodeFlags(), '--import', 'tsx', script], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
