#!/usr/bin/env node
// Bundles the results-bundle verifier (src/results/verify-bundle-main.ts and what it imports: the
// server's own canonical JSON, ranking and signature checks) into one dependency-free ES module,
// dist/verify-bundle.mjs, which the site serves at /verify-bundle.mjs: `node verify-bundle.mjs
// bundle.json --site URL` on any machine with Node 20+. Run by `npm run build:server`.
// Usage: node scripts/build-verifier.mjs [outfile]
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = resolve(root, process.argv[2] ?? 'dist/verify-bundle.mjs');
const { version } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));

await build({
  entryPoints: [resolve(root, 'src/results/verify-bundle-main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Only node: built-ins may remain imports: anything else would be a dependency.
  packages: 'bundle',
  legalComments: 'none',
  logLevel: 'warning',
  banner: {
    js: `#!/usr/bin/env node\n// Results bundle verifier of the hackathon platform ${version} (MIT), built from src/results/bundle-verify*.ts.\n// node verify-bundle.mjs bundle.json [--site URL] [--key KEYS] [--allow-unsigned]; --help for more.`,
  },
});
