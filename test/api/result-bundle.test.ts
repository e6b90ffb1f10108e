import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { newId } from '../../src/core/ids.js';
import { generateKeyPairSync, sign } from 'node:crypto';
import { bundleHash, signedText, verifyBundle, type PublishedKey } from '../../src/results/result-bundle.js';
import { runVerify, type VerifyIo } from '../../src/results/bundle-verify-cli.js';
import { runCli } from '../helpers/cli.js';
import { callTool, connectMcp, toolOk, toolProblem } from '../helpers/mcp-client.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, T0, type TestApp } from '../helpers/harness.js';
import { insertFlag } from '../helpers/flags.js';
import { quickUser } from '../helpers/quick-users.js';
import { seedProjects } from '../helpers/seed-projects.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MODELS = ['fake/alpha', 'fake/beta', 'fake/gamma'];
const DIMENSION_NAMES = ['impact', 'craft', 'novelty', 'polish', 'Fit to theme'];

/** mulberry32: a small seeded PRNG, so a failing round reproduces from its seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    chance: (p: number) => next() < p,
  };
}
type Rng = ReturnType<typeof prng>;

/** The same JSON value with every object's members in a random order. */
function shuffleKeys(v: unknown, rng: Rng): unknown {
  if (Array.isArray(v)) return v.map((x) => shuffleKeys(x, rng));
  if (v === null || typeof v !== 'object') return v;
  const keys = Object.keys(v);
  for (let i = keys.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = shuffleKeys((v as Record<string, unknown>)[k], rng);
  return out;
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const KEYS_PATH = '/.well-known/hackathon-results-keys.json';

/** `hackathon results verify` in process (the same code as the CLI and verify-bundle.mjs): its exit code and output. */
async function verifyRun(args: string[]): Promise<{ code: number; out: string; err: string; last: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const { readFile } = await import('node:fs/promises');
  const io: VerifyIo = {
    readFile: (path) => readFile(path, 'utf8'),
    readStdin: () => Promise.reject(new Error('no stdin here')),
    fetch: (url) => fetch(url),
    out: (text) => out.push(text),
    err: (text) => err.push(text),
  };
  const code = await runVerify(args, io);
  const text = out.join('\n');
  return { code, out: text, err: err.join('\n'), last: text.split('\n').at(-1) ?? '' };
}

/**
 * The verifiable results bundle, black-box: random events (projects, dimensions and weights,
 * tracks, model and human scores, ties, both normalisations, unscored projects published with
 * force) are published; each bundle must verify, also re-serialised differently, equal the
 * published ranking and name no human reviewer; a tampered score is refused (hash), and a tampered
 * score with a recomputed hash too (ranking). Model scores are written as succeeded review rows
 * (the fake provider's pipeline is covered by the reviews suites; here only the numbers matter).
 */
describe.each(DIALECTS)('results bundle (%s)', (dialect) => {
  let t: TestApp;
  let org: { id: string; key: string };
  const secrets: string[] = [];
  const published: Array<{ eventId: string; text: string; seed: number }> = [];
  let dir: string;

  async function review(eventId: string, projectId: string, kind: 'model' | 'human', reviewer: string, scores: Record<string, number>, status = 'succeeded') {
    const now = t.clock.now().toISOString();
    await t.ctx.db
      .insertInto('reviews')
      .values({
        id: newId('rev'),
        event_id: eventId,
        project_id: projectId,
        reviewer_kind: kind,
        reviewer,
        group_key: kind === 'human' ? 'human' : reviewer,
        status: status as 'succeeded',
        scores: status === 'succeeded' ? JSON.stringify(scores) : null,
        attempts: 1,
        created_at: now,
        updated_at: now,
        completed_at: now,
      })
      .execute();
  }

  /** A random event, judged and published (force: unscored projects may be left). */
  async function randomEvent(seed: number): Promise<string> {
    const rng = prng(seed);
    t.clock.set(T0.getTime());
    const dims = DIMENSION_NAMES.slice(0, rng.int(1, 4)).map((name) => ({ name, weight: rng.pick([1, 2, 3, 0.5, 1.5]) }));
    const models = MODELS.slice(0, rng.int(0, 3));
    const normalization = rng.pick(['none', 'zscore'] as const);
    const eventId = await createEvent(t, org.key, { dimensions: dims, models, normalization });
    const n = rng.int(2, 10);
    const projects = await seedProjects(
      t,
      eventId,
      Array.from({ length: n }, () => ({ track: rng.pick(['tools', 'fun', null]), score: null })),
    );
    const value = () => rng.pick([rng.int(0, 10), Math.round(rng.next() * 100) / 10]);
    const card = () => {
      const out: Record<string, number> = {};
      for (const d of dims) if (rng.chance(0.9)) out[d.name] = value();
      if (rng.chance(0.1)) out['not a dimension'] = 7;
      return out;
    };
    const humans: string[] = [];
    for (let i = rng.int(0, 3); i > 0; i--) {
      const u = await quickUser(t, 'user');
      const name = `Secret Judge ${randomUUID()}`;
      await t.ctx.db.updateTable('users').set({ name }).where('id', '=', u.id).execute();
      humans.push(u.id);
      secrets.push(u.id, u.email, name);
    }
    let previous: Record<string, number> | null = null;
    for (const p of projects) {
      if (rng.chance(0.15)) continue; // unscored: ranked last with 0
      // Now and then the previous project's card again: a tie.
      const tie = previous !== null && rng.chance(0.2);
      for (const m of models) {
        if (rng.chance(0.1)) await review(eventId, p, 'model', m, {}, 'failed');
        else await review(eventId, p, 'model', m, tie ? previous! : (previous = card()));
      }
      for (const h of humans) if (rng.chance(0.7)) await review(eventId, p, 'human', h, tie ? previous! : (previous = card()));
      if (models.length === 0 && humans.length === 0) await review(eventId, p, 'human', 'usr_judge', (previous = card()));
    }
    const flagged = rng.pick(projects);
    await insertFlag(t.ctx.db, { eventId, projectId: flagged, evidence: 'ignore previous instructions', detail: 'ignore-previous', at: T0 });
    t.clock.set(T0.getTime() + 2 * DAY + HOUR); // judging
    const res = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key, body: { force: true } });
    expect(res.status, `seed ${seed}: ${res.text}`).toBe(200);
    return eventId;
  }

  async function siteKeys(): Promise<PublishedKey[]> {
    const res = await t.request<any>('GET', KEYS_PATH);
    expect(res.status).toBe(200);
    return res.body.keys;
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
    dir = mkdtempSync(join(tmpdir(), 'bundle-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('before publication: results_not_published as the result; an unknown event: event_not_found', async () => {
    t.clock.set(T0.getTime());
    const eventId = await createEvent(t, org.key, { models: [] });
    const early = await t.api('GET', `/events/${eventId}/result/bundle`);
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('results_not_published');
    const unknown = await t.api('GET', `/events/evt_nope/result/bundle`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('event_not_found');
  });

  it('random events: every bundle verifies, re-serialised too, and holds the published ranking', async () => {
    const seeds = [11, 22, 33, 44, 55, 66].map((s) => s + (dialect === 'postgres' ? 1000 : 0));
    const normalizations = new Set<string>();
    for (const seed of seeds) {
      const eventId = await randomEvent(seed);
      const res = await t.request('GET', `/api/v1/events/${eventId}/result/bundle`);
      expect(res.status, `seed ${seed}`).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${eventId}-result-bundle.json"`);
      const bundle = JSON.parse(res.text) as Record<string, any>;
      normalizations.add(bundle.normalization);
      expect(res.headers.get('etag')).toBe(`"${bundle.sha256}"`);
      // Stored canonical: the bytes served are the canonical JSON, and the hash is over it without sha256.
      expect(res.text).toBe(canonicalJson(bundle));
      const { sha256, signature, ...rest } = bundle;
      expect(createHash('sha256').update(canonicalJson(rest)).digest('hex')).toBe(sha256);
      expect(signature).toMatch(/^[A-Za-z0-9_-]{86}$/);
      expect(bundle.format).toBe('hackathon-results-bundle/1');
      // Signed with the site's one key, which the bundle names with the URL publishing it.
      const keys = await siteKeys();
      expect(keys).toHaveLength(1);
      expect(bundle.signer).toEqual({
        key_id: keys[0]!.key_id,
        algorithm: 'Ed25519',
        public_key: keys[0]!.public_key,
        keys_url: `http://hackathon.test${KEYS_PATH}`,
      });
      expect(bundle.event.id).toBe(eventId);
      expect(bundle.prompt_template_sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(bundle.flags).toHaveLength(1);
      expect(bundle.flags[0]).toMatchObject({ kind: 'prompt_injection', status: 'open', evidence: 'ignore previous instructions' });

      const verdict = verifyBundle(bundle, { keys });
      expect(verdict.ranking.firstDifference, `seed ${seed}`).toBeNull();
      expect(verdict.signature.status).toBe('trusted');
      expect(verdict.reason).toBeNull();
      expect(verdict.ok, `seed ${seed}`).toBe(true);
      // Checked only against the key the bundle carries, the signature proves nothing: not verified.
      const alone = verifyBundle(bundle);
      expect(alone.signature.status).toBe('self_signed');
      expect(alone.ok).toBe(false);
      expect(alone.reason).toMatch(/^not vouched for: the signature is valid only for the public key the bundle carries/);

      // The bundle's ranking is the published one (entries as the contract has them: each entry's
      // track place and prize are recorded, and verified, as the winners).
      const result = await t.api('GET', `/events/${eventId}/result?limit=1000`);
      expect(result.status).toBe(200);
      expect(bundle.ranking).toEqual(result.body.map(({ track_rank: _r, track_prize: _p, ...e }: any) => e));
      expect(verdict.winners?.ok).toBe(true);
      const winners = await t.api('GET', `/events/${eventId}/result/winners`);
      expect({ tracks: winners.body.tracks, overall: winners.body.overall }).toEqual(bundle.winners);

      // Re-serialised differently (members re-ordered, indented): still verifies.
      const reordered = JSON.stringify(shuffleKeys(bundle, prng(seed)), null, 2);
      expect(reordered).not.toBe(res.text);
      expect(verifyBundle(JSON.parse(reordered), { keys }).ok).toBe(true);

      // Human reviewers are pseudonyms only.
      for (const s of bundle.scores.filter((x: any) => x.reviewer_kind === 'human')) expect(s.reviewer).toMatch(/^reviewer-\d+$/);
      for (const secret of secrets) expect(res.text.includes(secret), `${secret} in the bundle`).toBe(false);
      expect(res.text.includes('usr_judge')).toBe(false);

      // A second read is the same bytes; If-None-Match gives 304.
      const again = await t.request('GET', `/api/v1/events/${eventId}/result/bundle`, { headers: { 'if-none-match': `"${bundle.sha256}"` } });
      expect(again.status).toBe(304);
      published.push({ eventId, text: res.text, seed });
    }
    // Both normalisations among the random events (seeds fixed: this is deterministic), and the
    // cases the ranking must reproduce: model and human scores, ties, unscored projects.
    expect([...normalizations].sort()).toEqual(['none', 'zscore']);
    const all = published.map(({ text }) => JSON.parse(text) as Record<string, any>);
    const scores = all.flatMap((b) => b.scores as any[]);
    expect(scores.some((s) => s.reviewer_kind === 'model')).toBe(true);
    expect(scores.some((s) => s.reviewer_kind === 'human' && s.reviewer !== 'reviewer-1')).toBe(true);
    const entries = all.flatMap((b) => b.ranking as any[]);
    expect(entries.some((e) => Object.keys(e.scores_by_dimension).length === 0)).toBe(true);
    expect(all.some((b) => b.ranking.some((e: any, i: number) => i > 0 && e.rank === b.ranking[i - 1].rank && e.score > 0))).toBe(true);
  });

  it('a tampered score is refused by the hash; tampered and re-hashed, by the ranking', async () => {
    expect(published.length).toBeGreaterThan(0);
    const keys = await siteKeys();
    for (const { text, seed } of published) {
      const bundle = JSON.parse(text) as Record<string, any>;
      const dims: string[] = bundle.rubric.dimensions.map((d: any) => d.name);
      const target = bundle.scores.find((s: any) => dims.some((d) => typeof s.scores[d] === 'number'));
      if (!target) continue; // nothing scored at all in this event (asserted below that most have some)
      const tampered = clone(bundle);
      const s = tampered.scores[bundle.scores.indexOf(target)];
      const dim = dims.find((d) => typeof s.scores[d] === 'number')!;
      s.scores[dim] = s.scores[dim] >= 5 ? 0 : 10;
      const v1 = verifyBundle(tampered, { keys });
      expect(v1.ok, `seed ${seed}`).toBe(false);
      expect(v1.sha256.ok).toBe(false);
      tampered.sha256 = bundleHash(tampered);
      const v2 = verifyBundle(tampered, { keys });
      expect(v2.sha256.ok).toBe(true);
      expect(v2.ranking.ok, `seed ${seed}`).toBe(false);
      expect(v2.ok).toBe(false);
      expect(v2.ranking.firstDifference).not.toBeNull();
    }
    expect(published.filter(({ text }) => JSON.parse(text).scores.length > 0).length).toBeGreaterThan(published.length / 2);
  });

  it('hackathon results verify: exit 0 for a bundle (re-formatted), 1 for a tampered one, 65 for a non-bundle', async () => {
    const { text, seed } = published.find(({ text }) => JSON.parse(text).scores.length > 0)!;
    const bundle = JSON.parse(text) as Record<string, any>;
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(shuffleKeys(bundle, prng(seed + 1)), null, 4));
    const ok = await runCli(['results', 'verify', good, '--site', t.url], {});
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('sha256: ok');
    expect(ok.stdout).toContain(`ranking: ok (${bundle.ranking.length} entries`);
    expect(ok.stdout).toContain(`signature: ok: Ed25519, the site's key ${bundle.signer.key_id} from ${t.url}${KEYS_PATH}`);
    expect(ok.stdout).toContain(`site: the same bundle as ${t.url}/api/v1/events/${bundle.event.id}/result/bundle serves`);
    expect(ok.stdout.trim().split('\n').at(-1)).toBe(
      `verified: signed with the site's key ${bundle.signer.key_id}; the ranking follows from the scores and the bundle is unchanged`,
    );

    const tampered = clone(bundle);
    const s = tampered.scores.find((x: any) => Object.values(x.scores).some((v) => typeof v === 'number'));
    const dim = tampered.rubric.dimensions.map((d: any) => d.name).find((d: string) => typeof s.scores[d] === 'number');
    s.scores[dim] = s.scores[dim] >= 5 ? 0 : 10;
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify(tampered));
    const refused = await runCli(['results', 'verify', bad, '--site', t.url], {});
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('sha256: MISMATCH');
    expect(refused.stdout).toContain('NOT VERIFIED');

    tampered.sha256 = bundleHash(tampered);
    writeFileSync(bad, JSON.stringify(tampered));
    const rehashed = await runCli(['results', 'verify', bad, '--site', t.url], {});
    expect(rehashed.code).toBe(1);
    expect(rehashed.stdout).toContain('sha256: ok');
    expect(rehashed.stdout).toMatch(/ranking: MISMATCH at entry \d+/);

    const notBundle = join(dir, 'not.json');
    writeFileSync(notBundle, '{"hello": 1}');
    const wrong = await runCli(['results', 'verify', notBundle], {});
    expect(wrong.code).toBe(65);
    expect(wrong.stderr).toContain('not a results bundle');
  }, 120_000);

  it('MCP get_result_bundle: the same bundle; before publication results_not_published', async () => {
    const { eventId, text } = published[1]!;
    const client = await connectMcp(t, org.key);
    try {
      const got = toolOk(await callTool(client, 'get_result_bundle', { event_id: eventId }));
      expect(canonicalJson(got)).toBe(text);
      expect(verifyBundle(got, { keys: await siteKeys() }).ok).toBe(true);
      t.clock.set(T0.getTime());
      const early = await createEvent(t, org.key, { models: [] });
      const refused = toolProblem(await callTool(client, 'get_result_bundle', { event_id: early }));
      expect(refused.code).toBe('results_not_published');
    } finally {
      await client.close();
    }
  });

  it('the well-known URL serves the public keys only; the bundle names them', async () => {
    const res = await t.request('GET', KEYS_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.body.site).toBe('http://hackathon.test');
    expect(res.body.keys_url).toBe(`http://hackathon.test${KEYS_PATH}`);
    const [key] = res.body.keys;
    expect(key).toEqual({
      key_id: expect.stringMatching(/^rsk_/),
      algorithm: 'Ed25519',
      public_key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      jwk: { kty: 'OKP', crv: 'Ed25519', x: key.public_key, kid: key.key_id, alg: 'EdDSA', use: 'sig' },
      created_at: expect.any(String),
      retired_at: null,
    });
    // The private half stays in the database.
    const row = await t.ctx.db.selectFrom('result_signing_keys').selectAll().executeTakeFirstOrThrow();
    expect(row.private_key.length).toBeGreaterThan(40);
    expect(res.text.includes(row.private_key)).toBe(false);
    expect(res.text.includes(row.private_key.slice(-40))).toBe(false);
  });

  it('forgeries are refused, each with a one-line reason; a re-serialised genuine bundle verifies', async () => {
    const { text, seed } = published.find(({ text }) => JSON.parse(text).scores.length > 0)!;
    const genuine = JSON.parse(text) as Record<string, any>;
    const write = (name: string, value: unknown, space?: number) => {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify(value, null, space));
      return path;
    };
    const good = await verifyRun([write('genuine.json', shuffleKeys(genuine, prng(seed + 7)), 3), '--site', t.url]);
    expect(good.code).toBe(0);
    expect(good.last).toMatch(/^verified: signed with the site's key rsk_/);

    const forgeries: Array<[string, (b: Record<string, any>) => void]> = [
      ['peoples_choice +1,000 votes', (b) => (b.peoples_choice = [{ rank: 1, project_id: b.projects[0].id, votes: 1000 }])],
      ['flags emptied', (b) => (b.flags = [])],
      ['models changed', (b) => (b.models = [...b.models, 'openai/gpt-forged'])],
      ['prompt template hash changed', (b) => (b.prompt_template_sha256 = 'f'.repeat(64))],
      ['event name changed', (b) => (b.event.name = 'A Different Hackathon')],
    ];
    for (const [what, forge] of forgeries) {
      const forged = clone(genuine);
      forge(forged);
      forged.sha256 = bundleHash(forged);
      const file = write(`forged-${forgeries.findIndex(([w]) => w === what)}.json`, forged);
      for (const args of [[file, '--site', t.url], [file]]) {
        const run = await verifyRun(args);
        expect(run.code, `${what} ${args.join(' ')}`).toBe(1);
        expect(run.out).toContain('sha256: ok');
        expect(run.last, what).toBe(
          `NOT VERIFIED: bad signature: the signature does not match the bundle under key ${genuine.signer.key_id}: the bundle was changed after it was signed`,
        );
      }
    }

    // Forged and re-signed with a key of the forger's own: the bundle's own key proves nothing.
    const own = generateKeyPairSync('ed25519');
    const forged = clone(genuine);
    forged.event.name = 'A Different Hackathon';
    forged.signer = { ...forged.signer, public_key: own.publicKey.export({ format: 'jwk' }).x };
    forged.sha256 = bundleHash(forged);
    forged.signature = sign(null, Buffer.from(signedText(forged)), own.privateKey).toString('base64url');
    const resigned = write('resigned.json', forged);
    expect(verifyBundle(forged).signature.status).toBe('self_signed');
    const bySite = await verifyRun([resigned, '--site', t.url]);
    expect(bySite.code).toBe(1);
    expect(bySite.last).toBe(
      `NOT VERIFIED: not signed by the site: the public key the bundle carries for ${genuine.signer.key_id} is not the site's key ${genuine.signer.key_id}`,
    );
    const alone = await verifyRun([resigned]);
    expect(alone.code).toBe(1);
    expect(alone.out).toContain('which alone proves nothing');
    expect(alone.last).toMatch(/^NOT VERIFIED: not vouched for: /);
    // The signature removed, the signer kept (or the other way round): refused, not taken for an old unsigned bundle.
    const stripped = clone(genuine);
    delete stripped.signature;
    const noSignature = await verifyRun([write('no-signature.json', stripped), '--site', t.url, '--allow-unsigned']);
    expect(noSignature.code).toBe(1);
    expect(noSignature.last).toBe(`NOT VERIFIED: bad signature: the bundle names key ${genuine.signer.key_id} but carries no signature`);
    const unnamed = clone(genuine);
    delete unnamed.signer;
    unnamed.sha256 = bundleHash(unnamed);
    const noSigner = await verifyRun([write('no-signer.json', unnamed), '--site', t.url, '--allow-unsigned']);
    expect(noSigner.code).toBe(1);
    expect(noSigner.last).toBe('NOT VERIFIED: bad signature: a signature without a signer: the bundle names no key');
    // Under a key id the site never had.
    forged.signer.key_id = 'rsk_forged';
    forged.sha256 = bundleHash(forged);
    forged.signature = sign(null, Buffer.from(signedText(forged)), own.privateKey).toString('base64url');
    const unknown = await verifyRun([write('unknown-key.json', forged), '--site', t.url]);
    expect(unknown.code).toBe(1);
    expect(unknown.last).toMatch(/^NOT VERIFIED: not signed by the site: the key the bundle names \(rsk_forged\) is not one of the site's keys \(rsk_/);

    // --key: the keys document saved earlier (no network), a JWK, or the bare public key.
    const keysDoc = (await t.request('GET', KEYS_PATH)).text;
    const keysFile = join(dir, 'keys.json');
    writeFileSync(keysFile, keysDoc);
    const genuineFile = write('genuine-compact.json', genuine);
    expect((await verifyRun([genuineFile, '--key', keysFile])).code).toBe(0);
    // `--key=<value>`: a base64url key may start with '-', which parseArgs would refuse as a separate argument (1 run in 64 did).
    expect((await verifyRun([genuineFile, `--key=${genuine.signer.public_key}`])).code).toBe(0);
    const otherKey = own.publicKey.export({ format: 'jwk' }).x!;
    const wrongKey = await verifyRun([genuineFile, `--key=${otherKey}`]);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.last).toMatch(
      /^NOT VERIFIED: not signed by the site: the key the bundle names \(rsk_\w+\) is not one of the site's keys \(the key given\)/,
    );
  });

  it('with --site, a bundle the site no longer serves as it was is refused', async () => {
    const { eventId, text } = published[2]!;
    const original = await t.ctx.db.selectFrom('result_bundles').selectAll().where('event_id', '=', eventId).executeTakeFirstOrThrow();
    const file = join(dir, 'kept.json');
    writeFileSync(file, text);
    // The site's copy rewritten (a stored bundle is never changed: this stands for a site that lies later).
    const changed = JSON.parse(text) as Record<string, any>;
    changed.flags = [];
    await t.ctx.db
      .updateTable('result_bundles')
      .set({ bundle: canonicalJson(changed) })
      .where('event_id', '=', eventId)
      .execute();
    try {
      const run = await verifyRun([file, '--site', t.url]);
      expect(run.code).toBe(1);
      expect(run.out).toContain('signature: ok');
      expect(run.last).toBe('NOT VERIFIED: the site serves a different bundle for this event (it differs in flags)');
    } finally {
      await t.ctx.db.updateTable('result_bundles').set({ bundle: original.bundle }).where('event_id', '=', eventId).execute();
    }
    // An event the site does not know.
    const gone = clone(JSON.parse(text) as Record<string, any>);
    gone.event.id = 'evt_unknown';
    gone.sha256 = bundleHash(gone);
    const goneRun = await verifyRun([(writeFileSync(join(dir, 'gone.json'), JSON.stringify(gone)), join(dir, 'gone.json')), '--site', t.url]);
    expect(goneRun.code).toBe(1);
  });

  it('a bundle published before signing: served as it is; verify says integrity only, and accepts it only with --allow-unsigned', async () => {
    const { eventId, text } = published[3]!;
    const original = await t.ctx.db.selectFrom('result_bundles').selectAll().where('event_id', '=', eventId).executeTakeFirstOrThrow();
    const old = JSON.parse(text) as Record<string, any>;
    delete old.signer;
    delete old.signature;
    old.sha256 = bundleHash(old);
    await t.ctx.db
      .updateTable('result_bundles')
      .set({ bundle: canonicalJson(old), sha256: old.sha256 })
      .where('event_id', '=', eventId)
      .execute();
    try {
      const served = await t.request('GET', `/api/v1/events/${eventId}/result/bundle`);
      expect(served.status).toBe(200);
      expect(served.text).toBe(canonicalJson(old));
      const file = join(dir, 'unsigned.json');
      writeFileSync(file, served.text);
      const refused = await verifyRun([file, '--site', t.url]);
      expect(refused.code).toBe(1);
      expect(refused.out).toContain('signature: none (a bundle published before results were signed)');
      expect(refused.last).toBe(
        'NOT VERIFIED: unsigned: integrity only, not vouched for (a bundle published before results were signed); --allow-unsigned accepts it',
      );
      const allowed = await verifyRun([file, '--site', t.url, '--allow-unsigned']);
      expect(allowed.code).toBe(0);
      expect(allowed.last).toMatch(/^verified \(integrity only\): unsigned, so nothing vouches that the site published it/);
      // A signed bundle stripped of its signature is caught by --site: the site serves the signed one.
      await t.ctx.db.updateTable('result_bundles').set({ bundle: original.bundle, sha256: original.sha256 }).where('event_id', '=', eventId).execute();
      const stripped = await verifyRun([file, '--site', t.url, '--allow-unsigned']);
      expect(stripped.code).toBe(1);
      expect(stripped.last).toBe('NOT VERIFIED: the site serves a different bundle for this event (it differs in sha256, signature, signer)');
    } finally {
      await t.ctx.db.updateTable('result_bundles').set({ bundle: original.bundle, sha256: original.sha256 }).where('event_id', '=', eventId).execute();
    }
  });

  it('hackathon results rotate-key: a new key signs from then on; the old one stays published and its bundles verify', async () => {
    const before = (await t.request<any>('GET', KEYS_PATH)).body.keys as PublishedKey[];
    expect(before).toHaveLength(1);
    const rotated = await runCli(['results', 'rotate-key'], { DATABASE_URL: t.config.database.url, PUBLIC_URL: 'http://hackathon.test' });
    expect(rotated.code, rotated.stderr).toBe(0);
    const newId = rotated.stdout.trim();
    expect(newId).toMatch(/^rsk_/);
    expect(newId).not.toBe(before[0]!.key_id);
    expect(rotated.stderr).toContain(`${before[0]!.key_id} retired (still published at http://hackathon.test${KEYS_PATH}`);
    const after = (await t.request<any>('GET', KEYS_PATH)).body.keys as Array<PublishedKey & { retired_at: string | null }>;
    // (Listed oldest first; here the CLI's real clock is earlier than the test's, so not asserted.)
    expect(after.map((k) => k.key_id).sort()).toEqual([before[0]!.key_id, newId].sort());
    const retired = after.find((k) => k.key_id === before[0]!.key_id)!;
    expect(retired.retired_at).toEqual(expect.any(String));
    expect(after.find((k) => k.key_id === newId)!.retired_at).toBeNull();

    // An old bundle still verifies (against the retired key, still published).
    const { text } = published[1]!;
    const oldFile = join(dir, 'old.json');
    writeFileSync(oldFile, text);
    const old = await verifyRun([oldFile, '--site', t.url]);
    expect(old.code).toBe(0);
    expect(old.out).toContain(
      `the site's key ${before[0]!.key_id} from ${t.url}${KEYS_PATH} (created ${before[0]!.created_at}, retired ${retired.retired_at})`,
    );
    // A new publication is signed with the new key.
    const eventId = await randomEvent(dialect === 'postgres' ? 1777 : 777);
    const fresh = (await t.api<any>('GET', `/events/${eventId}/result/bundle`)).body;
    expect(fresh.signer.key_id).toBe(newId);
    const newFile = join(dir, 'new.json');
    writeFileSync(newFile, JSON.stringify(fresh));
    const run = await verifyRun([newFile, '--site', t.url]);
    expect(run.code).toBe(0);
    expect(run.last).toBe(`verified: signed with the site's key ${newId}; the ranking follows from the scores and the bundle is unchanged`);
  }, 60_000);

  it('two first publications at once make one key', async () => {
    const fresh = await startTestApp(dialect);
    try {
      const owner = await quickUser(fresh, 'organizer');
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        fresh.clock.set(T0.getTime());
        const eventId = await createEvent(fresh, owner.key, { models: [] });
        await seedProjects(fresh, eventId, [{ track: null, score: null }]);
        ids.push(eventId);
      }
      fresh.clock.set(T0.getTime() + 2 * DAY + HOUR);
      const both = await Promise.all(ids.map((id) => fresh.api('POST', `/events/${id}/results/publish`, { key: owner.key, body: { force: true } })));
      expect(both.map((r) => r.status)).toEqual([200, 200]);
      const keys = (await fresh.request<any>('GET', KEYS_PATH)).body.keys;
      expect(keys).toHaveLength(1);
      expect(await fresh.ctx.db.selectFrom('result_signing_keys').select('id').execute()).toHaveLength(1);
      for (const id of ids) {
        const bundle = (await fresh.api<any>('GET', `/events/${id}/result/bundle`)).body;
        expect(bundle.signer.key_id).toBe(keys[0].key_id);
        expect(verifyBundle(bundle, { keys }).ok).toBe(true);
      }
    } finally {
      await fresh.close();
    }
  });

  it('an event published before bundles existed: bundle_not_available', async () => {
    const { eventId } = published[0]!;
    await t.ctx.db.deleteFrom('result_bundles').where('event_id', '=', eventId).execute();
    const res = await t.api('GET', `/events/${eventId}/result/bundle`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('bundle_not_available');
    expect((await t.api('GET', `/events/${eventId}/result`)).status).toBe(200);
  });
});
