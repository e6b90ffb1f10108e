import { execFile, execFileSync } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_FORMAT, bundleHash, recomputeRanking, signedText, verifyBundle, type BundleScore } from '../../src/results/bundle-verify.js';
import { runVerify } from '../../src/results/bundle-verify-cli.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, T0, type TestApp } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';
import { seedProjects } from '../helpers/seed-projects.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const DAY = 24 * 3_600_000;

/** Runs a file with `node` (no tsx, no loader): the standalone verifier as anyone would run it. */
function runNode(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, args, { cwd: tmpdir(), env: { PATH: process.env.PATH ?? '' }, timeout: 30_000 }, (err, stdout, stderr) =>
      done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The in-process verifier (src, the CLI's code): exit code and output as the process would print it. */
async function runInProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runVerify(
    args,
    {
      readFile: (path) => readFile(path, 'utf8'),
      readStdin: () => Promise.reject(new Error('no stdin')),
      fetch: (url) => fetch(url),
      out: (text) => (stdout += text + '\n'),
      err: (text) => (stderr += text + '\n'),
    },
    'node verify-bundle.mjs',
  );
  return { code, stdout, stderr };
}

const DIMS = ['impact', 'craft', 'novelty'];
const MODELS = ['fake/alpha', 'fake/beta'];
const TAMPERS = ['none', 'score', 'ranking', 'sha256', 'unsigned', 'other-key', 'project-name'] as const;

/** A random bundle body (before hash and signature): rubric, scores, and the ranking they give. */
const bundleBody = fc
  .record({
    dims: fc.uniqueArray(fc.constantFrom(...DIMS), { minLength: 1, maxLength: 3 }),
    weights: fc.array(fc.constantFrom(1, 2, 0.5, 3), { minLength: 3, maxLength: 3 }),
    models: fc.subarray(MODELS),
    normalization: fc.constantFrom('none' as const, 'zscore' as const),
    projects: fc.array(
      fc.record({
        track: fc.constantFrom(null, 'trk_a'),
        day: fc.integer({ min: 1, max: 9 }),
        cards: fc.array(
          fc.option(
            fc.array(
              fc.oneof(
                fc.integer({ min: 0, max: 10 }),
                fc.integer({ min: 0, max: 100 }).map((v) => v / 10),
              ),
              { minLength: 3, maxLength: 3 },
            ),
            { nil: null },
          ),
          {
            minLength: 4,
            maxLength: 4,
          },
        ),
      }),
      { minLength: 1, maxLength: 7 },
    ),
    peoples: fc.boolean(),
  })
  .map((r) => {
    const reviewers = [
      ...r.models.map((m) => ({ kind: 'model' as const, name: m })),
      { kind: 'human' as const, name: 'reviewer-1' },
      { kind: 'human' as const, name: 'reviewer-2' },
    ];
    const projects = r.projects.map((p, i) => ({
      id: `prj_${String(i).padStart(2, '0')}`,
      name: `Project ${i}`,
      team_name: `Team ${i}`,
      track_id: p.track,
      first_submitted_at: `2030-01-0${p.day}T12:00:00.000Z`,
    }));
    const scores: BundleScore[] = [];
    r.projects.forEach((p, i) =>
      reviewers.forEach((rv, j) => {
        const card = p.cards[j];
        if (!card) return;
        scores.push({
          reviewer_kind: rv.kind,
          reviewer: rv.name,
          project_id: projects[i]!.id,
          scores: Object.fromEntries(r.dims.map((d, k) => [d, card[k]!])),
        });
      }),
    );
    const body = {
      format: BUNDLE_FORMAT,
      event: { id: 'evt_random', name: 'Random', published_at: '2030-01-12T12:00:00.000Z' },
      rubric: { dimensions: r.dims.map((d, k) => ({ key: d, name: d, weight: r.weights[k]! })), scale: { min: 0, max: 10 }, score_decimals: 4 },
      tracks: [{ id: 'trk_a', name: 'A' }],
      normalization: r.normalization,
      models: r.models,
      prompt_template_sha256: 'a'.repeat(64),
      projects,
      scores,
      flags: [],
      ranking: [] as unknown[],
      peoples_choice: r.peoples ? [{ rank: 1, project_id: projects[0]!.id, votes: 3 }] : null,
    };
    body.ranking = recomputeRanking(body);
    return body;
  });

/**
 * The site's single-file verifier (GET /verify-bundle.mjs, built by scripts/build-verifier.mjs from
 * the TypeScript sources): served, run with plain `node` on random bundles (genuine and tampered
 * in several ways, signed, unsigned, under another key), it agrees with the CLI's verifier
 * (the same exit code and the same output) and with verifyBundle; and it verifies a real published
 * bundle against the site.
 */
describe.each(DIALECTS)('standalone verifier (%s)', (dialect) => {
  let t: TestApp;
  let dir: string;
  let verifier: string;

  beforeAll(async () => {
    // What `npm run build:server` runs: dist/verify-bundle.mjs from the current sources.
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-verifier.mjs')], { cwd: ROOT });
    t = await startTestApp(dialect);
    dir = mkdtempSync(join(tmpdir(), 'verifier-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('GET /verify-bundle.mjs serves the built single file: a module importing only node: built-ins', async () => {
    const res = await t.request('GET', '/verify-bundle.mjs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.text).toBe(readFileSync(join(ROOT, 'dist', 'verify-bundle.mjs'), 'utf8'));
    const specifiers = [...res.text.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]!);
    expect(specifiers.length).toBeGreaterThan(0);
    for (const s of specifiers) expect(s).toMatch(/^node:/);
    expect(res.text).not.toMatch(/\brequire\(/);
    const again = await t.request('GET', '/verify-bundle.mjs', { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
    verifier = join(dir, 'verify-bundle.mjs');
    writeFileSync(verifier, res.text);
  });

  it('verifies a published bundle against the site; refuses it forged', async () => {
    expect(verifier).toBeDefined();
    const org = await quickUser(t, 'organizer');
    t.clock.set(T0.getTime());
    const eventId = await createEvent(t, org.key, { models: [] });
    await seedProjects(t, eventId, [
      { track: null, score: 7 },
      { track: null, score: 9 },
      { track: null, score: null },
    ]);
    t.clock.set(T0.getTime() + 2 * DAY + 3_600_000);
    expect((await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key, body: { force: true } })).status).toBe(200);
    const bundle = (await t.api<any>('GET', `/events/${eventId}/result/bundle`)).body;
    const file = join(dir, 'published.json');
    writeFileSync(file, JSON.stringify(bundle, null, 2));
    const ok = await runNode([verifier, file, '--site', t.url]);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim().split('\n').at(-1)).toBe(
      `verified: signed with the site's key ${bundle.signer.key_id}; the ranking follows from the scores and the bundle is unchanged`,
    );
    bundle.event.name = 'Forged';
    bundle.sha256 = bundleHash(bundle);
    writeFileSync(file, JSON.stringify(bundle));
    const forged = await runNode([verifier, file, '--site', t.url]);
    expect(forged.code).toBe(1);
    expect(forged.stdout).toMatch(
      /NOT VERIFIED: bad signature: the signature does not match the bundle under key rsk_\w+: the bundle was changed after it was signed\n$/,
    );
  });

  it('property: on random bundles the served verifier and the CLI agree, exit code and output', async () => {
    expect(verifier).toBeDefined();
    const site = generateKeyPairSync('ed25519');
    const other = generateKeyPairSync('ed25519');
    const x = (k: typeof site) => k.publicKey.export({ format: 'jwk' }).x!;
    const keysFile = join(dir, 'keys.json');
    writeFileSync(
      keysFile,
      JSON.stringify({ keys: [{ key_id: 'rsk_site', algorithm: 'Ed25519', public_key: x(site), created_at: '2030-01-01T00:00:00.000Z', retired_at: null }] }),
    );
    const keys = [{ key_id: 'rsk_site', algorithm: 'Ed25519', public_key: x(site) }];
    const outcomes = new Set<string>();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(bundleBody, fc.constantFrom(...TAMPERS), fc.boolean(), async (body, tamper, allowUnsigned) => {
        const signer = tamper === 'other-key' ? other : site;
        const b: Record<string, any> = structuredClone(body);
        if (tamper !== 'unsigned')
          b.signer = { key_id: 'rsk_site', algorithm: 'Ed25519', public_key: x(signer), keys_url: `https://site.test/.well-known/hackathon-results-keys.json` };
        b.sha256 = bundleHash(b);
        if (tamper !== 'unsigned') b.signature = sign(null, Buffer.from(signedText(b)), signer.privateKey).toString('base64url');
        if (tamper === 'score' && b.scores.length > 0) {
          const s = b.scores[0];
          const d = Object.keys(s.scores)[0]!;
          s.scores[d] = s.scores[d] >= 5 ? 0 : 10;
          b.sha256 = bundleHash(b);
        }
        if (tamper === 'ranking' && b.ranking.length > 0) {
          b.ranking[0].score += 1;
          b.sha256 = bundleHash(b);
        }
        if (tamper === 'sha256') b.sha256 = '0'.repeat(64);
        if (tamper === 'project-name') {
          b.projects[0].name = 'Renamed';
          b.sha256 = bundleHash(b);
        }
        const file = join(dir, `random-${n++}.json`);
        writeFileSync(file, JSON.stringify(b, null, n % 2 === 0 ? 2 : undefined));
        const args = [file, '--key', keysFile, ...(allowUnsigned ? ['--allow-unsigned'] : [])];
        const [child, inProcess] = await Promise.all([runNode([verifier, ...args]), runInProcess(args)]);
        expect(child).toEqual(inProcess);
        const verdict = verifyBundle(JSON.parse(readFileSync(file, 'utf8')), { keys, allowUnsigned });
        expect(child.code).toBe(verdict.ok ? 0 : 1);
        outcomes.add(`${tamper}:${child.code}`);
      }),
      { numRuns: 30, seed: dialect === 'sqlite' ? 29 : 2029 },
    );
    // The runs covered verified and refused bundles.
    expect([...outcomes].some((o) => o.endsWith(':0'))).toBe(true);
    expect([...outcomes].some((o) => o.endsWith(':1'))).toBe(true);
  }, 120_000);
});
