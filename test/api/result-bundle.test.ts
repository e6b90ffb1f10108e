import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { newId } from '../../src/core/ids.js';
import { bundleHash, verifyBundle } from '../../src/results/result-bundle.js';
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
      const { sha256, ...rest } = bundle;
      expect(createHash('sha256').update(canonicalJson(rest)).digest('hex')).toBe(sha256);
      expect(bundle.format).toBe('hackathon-results-bundle/1');
      expect(bundle.event.id).toBe(eventId);
      expect(bundle.prompt_template_sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(bundle.flags).toHaveLength(1);
      expect(bundle.flags[0]).toMatchObject({ kind: 'prompt_injection', status: 'open', evidence: 'ignore previous instructions' });

      const verdict = verifyBundle(bundle);
      expect(verdict.ranking.firstDifference, `seed ${seed}`).toBeNull();
      expect(verdict.ok, `seed ${seed}`).toBe(true);

      // The bundle's ranking is the published one.
      const result = await t.api('GET', `/events/${eventId}/result?limit=1000`);
      expect(result.status).toBe(200);
      expect(bundle.ranking).toEqual(result.body);

      // Re-serialised differently (members re-ordered, indented): still verifies.
      const reordered = JSON.stringify(shuffleKeys(bundle, prng(seed)), null, 2);
      expect(reordered).not.toBe(res.text);
      expect(verifyBundle(JSON.parse(reordered)).ok).toBe(true);

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

  it('a tampered score is refused by the hash; tampered and re-hashed, by the ranking', () => {
    expect(published.length).toBeGreaterThan(0);
    for (const { text, seed } of published) {
      const bundle = JSON.parse(text) as Record<string, any>;
      const dims: string[] = bundle.rubric.dimensions.map((d: any) => d.name);
      const target = bundle.scores.find((s: any) => dims.some((d) => typeof s.scores[d] === 'number'));
      if (!target) continue; // nothing scored at all in this event (asserted below that most have some)
      const tampered = clone(bundle);
      const s = tampered.scores[bundle.scores.indexOf(target)];
      const dim = dims.find((d) => typeof s.scores[d] === 'number')!;
      s.scores[dim] = s.scores[dim] >= 5 ? 0 : 10;
      const v1 = verifyBundle(tampered);
      expect(v1.ok, `seed ${seed}`).toBe(false);
      expect(v1.sha256.ok).toBe(false);
      tampered.sha256 = bundleHash(tampered);
      const v2 = verifyBundle(tampered);
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
    const ok = await runCli(['results', 'verify', good], {});
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('sha256: ok');
    expect(ok.stdout).toContain(`ranking: ok (${bundle.ranking.length} entries`);

    const tampered = clone(bundle);
    const s = tampered.scores.find((x: any) => Object.values(x.scores).some((v) => typeof v === 'number'));
    const dim = tampered.rubric.dimensions.map((d: any) => d.name).find((d: string) => typeof s.scores[d] === 'number');
    s.scores[dim] = s.scores[dim] >= 5 ? 0 : 10;
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify(tampered));
    const refused = await runCli(['results', 'verify', bad], {});
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('sha256: MISMATCH');
    expect(refused.stdout).toContain('NOT VERIFIED');

    tampered.sha256 = bundleHash(tampered);
    writeFileSync(bad, JSON.stringify(tampered));
    const rehashed = await runCli(['results', 'verify', bad], {});
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
      expect(verifyBundle(got).ok).toBe(true);
      t.clock.set(T0.getTime());
      const early = await createEvent(t, org.key, { models: [] });
      const refused = toolProblem(await callTool(client, 'get_result_bundle', { event_id: early }));
      expect(refused.code).toBe('results_not_published');
    } finally {
      await client.close();
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
