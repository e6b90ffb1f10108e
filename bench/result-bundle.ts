/**
 * The results bundle's pure costs at 10,000 projects × 5 models × 6 dimensions (50,000 scores):
 * its canonical JSON (RFC 8785) and SHA-256, its Ed25519 signature, and `hackathon results verify`'s
 * work (hash, the ranking recomputed from the scores with the server's functions and compared entry
 * by entry, the signature).
 * Each figure: the first (cold) run and the median of the next. No database: publication's share
 * of it is in bench/growth-results.ts (publish), which builds and stores the bundle.
 * Run: `node --import tsx bench/result-bundle.ts` (also part of `npm run bench`).
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { canonicalJson } from '../src/core/canonical-json.js';
import { BUNDLE_FORMAT, bundleHash, recomputeRanking, signedText, verifyBundle, type ResultBundle } from '../src/results/result-bundle.js';

const KEY = generateKeyPairSync('ed25519');
const PUBLIC_KEY = KEY.publicKey.export({ format: 'jwk' }).x!;

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 10_000);
const MODELS = ['openai/gpt-4o-mini', 'anthropic/claude-sonnet-4-5', 'ollama/llama3.1', 'local/qwen2.5', 'openai/gpt-4.1'];
const DIMENSIONS = ['impact', 'craft', 'novelty', 'design', 'docs', 'pitch'].map((name, i) => ({ key: name, name, weight: [3, 2, 2, 1, 1, 1][i]! }));
const RUNS = 7;

let seed = 42;
const rnd = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;

function fixture(): ResultBundle {
  const projects: ResultBundle['projects'] = [];
  const scores: ResultBundle['scores'] = [];
  for (let i = 0; i < PROJECTS; i++) {
    const id = `prj_${String(i).padStart(6, '0')}`;
    projects.push({
      id,
      name: `Project ${i}`,
      team_name: `Team ${i}`,
      track_id: i % 3 === 0 ? 'tools' : 'fun',
      first_submitted_at: new Date(1e12 + i * 1000).toISOString(),
    });
    for (const m of MODELS) {
      const s: Record<string, number> = {};
      for (const d of DIMENSIONS) s[d.name] = Math.round(rnd() * 100) / 10;
      scores.push({ reviewer_kind: 'model', reviewer: m, project_id: id, scores: s });
    }
  }
  const partial = {
    format: BUNDLE_FORMAT,
    event: { id: 'evt_bench', name: 'Bench', published_at: new Date(2e12).toISOString() },
    rubric: { dimensions: DIMENSIONS, scale: { min: 0, max: 10 }, score_decimals: 4 },
    tracks: [
      { id: 'tools', name: 'Tools' },
      { id: 'fun', name: 'Fun' },
    ],
    normalization: 'zscore' as const,
    models: MODELS,
    prompt_template_sha256: null,
    projects,
    scores,
    flags: [],
    ranking: [] as ResultBundle['ranking'],
    peoples_choice: null,
    sha256: '',
  };
  partial.ranking = recomputeRanking(partial);
  const signed: ResultBundle = {
    ...partial,
    signer: { key_id: 'rsk_bench', algorithm: 'Ed25519', public_key: PUBLIC_KEY, keys_url: 'https://bench.test/.well-known/hackathon-results-keys.json' },
  };
  signed.sha256 = bundleHash(signed as unknown as Record<string, unknown>);
  signed.signature = sign(null, Buffer.from(signedText(signed as unknown as Record<string, unknown>)), KEY.privateKey).toString('base64url');
  return signed;
}

function time(label: string, fn: () => unknown): void {
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  const [cold, ...rest] = ms;
  rest.sort((a, b) => a - b);
  console.log(`${label}: cold ${cold!.toFixed(1)} ms, median ${rest[Math.floor(rest.length / 2)]!.toFixed(1)} ms`);
}

const bundle = fixture();
const text = canonicalJson(bundle);
console.log(`results bundle ${PROJECTS}x${MODELS.length}x${DIMENSIONS.length}: ${(text.length / 1e6).toFixed(1)} MB of canonical JSON`);
time('canonical JSON + SHA-256', () => createHash('sha256').update(canonicalJson(bundle)).digest('hex'));
time('Ed25519 signature of the canonical JSON', () => sign(null, Buffer.from(text), KEY.privateKey));
const keys = [{ key_id: 'rsk_bench', algorithm: 'Ed25519', public_key: PUBLIC_KEY }];
time('verify (parse, hash, recompute zscore ranking, compare, signature)', () => {
  if (!verifyBundle(JSON.parse(text), { keys }).ok) throw new Error('the fixture does not verify');
});
