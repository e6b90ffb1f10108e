import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMOVED_MARKER } from '../../src/reviews/injection-screen.js';
import { INJECTIONS, ORDINARY } from '../fixtures/injection-corpus.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { startFakeGithub, startFakeOpenAI, type FakeGithub, type FakeProvider } from '../helpers/fake-providers.js';
import { createEvent, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickApprovedTeam, quickUser } from '../helpers/quick-users.js';

/**
 * The screening corpus end to end, over the API on both databases: every known injection text
 * (in a project's description or its README, read through a local fake GitHub) gets a flag and
 * never reaches the model; no ordinary README or description gets one, and the model reads it whole.
 */
describe.each(DIALECTS)('injection screening against the corpus (%s)', (dialect) => {
  let db: TestDatabase;
  let t: TestApp;
  let oa: FakeProvider;
  let gh: FakeGithub;
  let org: TestUser;
  const MODEL = `corpus-${dialect}`;

  beforeAll(async () => {
    [oa, gh] = await Promise.all([startFakeOpenAI(), startFakeGithub()]);
    oa.setDefault({ kind: 'ok', scores: { impact: 6, craft: 6 } }, MODEL);
    db = await createTestDatabase(dialect);
    t = await startTestApp(dialect, {
      database: db,
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${oa.url}/v1`, GITHUB_API_URL: gh.url, REVIEW_WORKERS: 'false', REVIEW_BACKOFF_MS: '0' },
    });
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
    await Promise.all([oa?.close(), gh?.close()]);
  });

  it(`flags all ${INJECTIONS.length} injections (none reach the model) and none of ${ORDINARY.length} ordinary texts`, { timeout: 120_000 }, async () => {
    expect(INJECTIONS.length).toBeGreaterThanOrEqual(30);
    expect(ORDINARY.length).toBeGreaterThanOrEqual(30);
    const eventId = await createEvent(t, org.key, { models: [`openai/${MODEL}`], registration_config: { open: true, auto_approve: true, fields: [] } });
    // Every text once as a description (even index) or a README (odd index); the other place holds a neutral line.
    const cases = [
      ...INJECTIONS.map((text, i) => ({ name: `Corpus I${String(i).padStart(2, '0')}`, text, injection: true, inReadme: i % 2 === 1 })),
      ...ORDINARY.map((text, i) => ({ name: `Corpus O${String(i).padStart(2, '0')}`, text, injection: false, inReadme: i % 2 === 1 })),
    ];
    const ids = new Map<string, string>();
    for (const c of cases) {
      const repo = `corpus-${dialect}/${c.name.replace(' ', '-').toLowerCase()}`;
      gh.repos.set(repo, { readme: c.inReadme ? c.text : '# A project\n\nA small tool.', entries: [{ name: 'src', type: 'dir' }] });
      const { team } = await quickApprovedTeam(t, eventId, org.key, { fields: {} });
      const res = await t.api('POST', `/events/${eventId}/submit`, {
        key: team.key,
        body: { project_name: c.name, github_url: `https://github.com/${repo}`, description: c.inReadme ? 'A small tool.' : c.text, track_id: 'tools' },
      });
      expect(res.status, res.text).toBe(201);
      ids.set(c.name, res.body.id as string);
    }
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'judging' } })).status).toBe(200);
    await t.ctx.reviews.drain();

    const calls = oa.callsFor(MODEL);
    /** The project's screening flags, and the one prompt the model received for it. */
    const seen = async (c: (typeof cases)[number]) => {
      const page = await t.api('GET', `/events/${eventId}/projects/${ids.get(c.name)}/reviews`, { key: org.key });
      expect(page.status).toBe(200);
      const flags = (page.body.flags as Array<{ kind: string; source: string; evidence: string }>).filter((f) => f.kind === 'prompt_injection');
      const sent = calls.filter((call) => call.prompt.includes(`\n${c.name}\n`));
      expect(sent, c.name).toHaveLength(1);
      return { flags, prompt: sent[0]!.prompt };
    };
    for (const c of cases.filter((x) => x.injection)) {
      // Flagged where it was written, quoted as written, and cut from what the model read.
      const { flags, prompt } = await seen(c);
      expect(flags.length, c.name).toBeGreaterThan(0);
      for (const f of flags) {
        expect(f.source, c.name).toBe(c.inReadme ? 'repository.readme' : 'project.description');
        expect(c.text.replace(/\s+/g, ' '), c.name).toContain(f.evidence.replace(/\s+/g, ' ').replace(/…$/, ''));
        expect(prompt, c.name).not.toContain(f.evidence);
      }
      expect(prompt, c.name).toContain(REMOVED_MARKER);
    }
    for (const c of cases.filter((x) => !x.injection)) {
      // Nothing flagged, nothing cut.
      const { flags, prompt } = await seen(c);
      expect(flags, c.name).toEqual([]);
      expect(prompt, c.name).not.toContain(REMOVED_MARKER);
    }
    // The projects list counts them: exactly the injection projects have open flags.
    const list = (await t.api('GET', `/events/${eventId}/projects?limit=100`, { key: org.key })).body as Array<{ project_name: string; open_flags: number }>;
    expect(
      list
        .filter((p) => p.open_flags > 0)
        .map((p) => p.project_name)
        .sort(),
    ).toEqual(
      cases
        .filter((c) => c.injection)
        .map((c) => c.name)
        .sort(),
    );
  });
});
