// `npm run bench`: every benchmark in turn, each in its own process so none disturbs another.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const scripts = ['bench/http.ts', 'bench/ranking.ts', 'bench/review-pipeline.ts'].filter((s) => existsSync(s));
let failed = 0;
for (const script of scripts) {
  console.log(`\n=== ${script} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
