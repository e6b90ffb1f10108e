import { ColumnNode, TableNode, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuildWindowJob } from '../../src/reviews/build-window-job.js';
import { createGithubContextFetcher } from '../../src/reviews/github-context.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { fakeCommits, startFakeGithub, startFakeOpenAI, type FakeGithub, type FakeProvider } from '../helpers/fake-providers.js';
import { createEvent, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { callTool, connectMcp, toolOk, toolProblem } from '../helpers/mcp-client.js';
import { quickApprovedTeam, quickUser } from '../helpers/quick-users.js';
import { seedProjects } from '../helpers/seed-projects.js';

/** Counts the statements a Kysely instance runs, the rows they return, and the updates that complete a project's check. */
function statementCounter() {
  const counts = { statements: 0, rows: 0, checksCompleted: 0 };
  const plugin: KyselyPlugin = {
    transformQuery({ node }): RootOperationNode {
      counts.statements++;
      if (node.kind === 'UpdateQueryNode' && node.table && TableNode.is(node.table) && node.table.table.identifier.name === 'projects') {
        const columns = (node.updates ?? []).map((u) => (ColumnNode.is(u.column) ? u.column.column.name : ''));
        if (columns.includes('build_window_url')) counts.checksCompleted++;
      }
      return node;
    },
    async transformResult({ result }) {
      counts.rows += result.rows.length;
      return result;
    },
  };
  return { counts, plugin, reset: () => Object.assign(counts, { statements: 0, rows: 0, checksCompleted: 0 }) };
}

/**
 * Build-window checks against a fake GitHub API: repository created or first committed before
 * hacking started, one commit with more than 90 % of the lines, a fork, the same repository from
 * two teams. The checks run in the background (the review loop's poll; here stepped with
 * ctx.reviews.checkBuildWindows()), never in the submission, and a refusing or absent GitHub never
 * holds up a review.
 *
 * Time: the harness clock starts at T0 = 2030-01-01T12:00Z; events' registration deadline (the
 * default hacking start) is T0 + 1 day = 2030-01-02T12:00Z.
 */
const START = '2030-01-02T12:00:00Z';
const AFTER = '2030-01-05T00:00:00Z';

describe.each(DIALECTS)('build-window checks (%s)', (dialect) => {
  let db: TestDatabase;
  let t: TestApp;
  let gh: FakeGithub;
  let oa: FakeProvider;
  let org: TestUser;

  beforeAll(async () => {
    [gh, oa] = await Promise.all([startFakeGithub(), startFakeOpenAI()]);
    gh.repos.set('old/created', { meta: { created_at: '2029-12-01T00:00:00Z' }, commits: fakeCommits(20, AFTER) });
    gh.repos.set('old/history', { meta: { created_at: '2030-01-03T00:00:00Z' }, commits: fakeCommits(150, AFTER) });
    gh.repos.set('dump/giant', {
      meta: { created_at: '2030-01-03T00:00:00Z' },
      commits: fakeCommits(5, AFTER, (i) => (i === 2 ? 1000 : 10)),
    });
    gh.repos.set('fork/child', { meta: { created_at: '2030-01-03T00:00:00Z', fork: true, parent: 'upstream/original' }, commits: fakeCommits(20, AFTER) });
    gh.repos.set('clean/repo', { meta: { created_at: '2030-01-03T00:00:00Z' }, commits: fakeCommits(20, AFTER) });
    gh.repos.set('shared/thing', { meta: { created_at: '2030-01-03T00:00:00Z' }, commits: fakeCommits(20, AFTER) });
    db = await createTestDatabase(dialect);
    t = await startTestApp(dialect, {
      database: db,
      env: { GITHUB_API_URL: gh.url, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${oa.url}/v1`, REVIEW_WORKERS: 'false', REVIEW_BACKOFF_MS: '0' },
    });
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
    await Promise.all([gh?.close(), oa?.close()]);
  });

  const open = { registration_config: { open: true, auto_approve: true, fields: [] } };

  async function submit(app: TestApp, eventId: string, githubUrl: string, name = githubUrl) {
    const { team } = await quickApprovedTeam(app, eventId, org.key, { fields: {} });
    const res = await app.api('POST', `/events/${eventId}/submit`, { key: team.key, body: { project_name: name, github_url: githubUrl, track_id: 'tools' } });
    expect(res.status, res.text).toBe(201);
    return { id: res.body.id as string, team };
  }

  const flagsOf = async (eventId: string, projectId: string, app = t) => {
    const res = await app.api('GET', `/events/${eventId}/projects/${projectId}/reviews`, { key: org.key });
    expect(res.status, res.text).toBe(200);
    return res.body.flags as Array<{ id: string; kind: string; source: string; evidence: string; detail: string | null; status: string }>;
  };
  const teamOf = async (eventId: string, projectId: string) =>
    (await t.api('GET', `/events/${eventId}/projects/${projectId}/reviews`, { key: org.key })).body.project.team_name as string;
  const sources = async (eventId: string, projectId: string) => (await flagsOf(eventId, projectId)).map((f) => f.source).sort();

  it('hacking_starts_at: null by default (the registration deadline counts), an explicit value normalised, checked and cleared', async () => {
    const plain = await t.api('POST', '/events', { key: org.key, body: eventBodyFor(t) });
    expect(plain.status, plain.text).toBe(201);
    expect(plain.body.hacking_starts_at).toBeNull();

    const set = await t.api('POST', '/events', { key: org.key, body: { ...eventBodyFor(t), hacking_starts_at: '2030-01-02T08:00:00+08:00' } });
    expect(set.status, set.text).toBe(201);
    expect(set.body.hacking_starts_at).toBe('2030-01-02T00:00:00.000Z');
    const read = await t.api('GET', `/events/${set.body.id}`, { key: org.key });
    expect(read.body.hacking_starts_at).toBe('2030-01-02T00:00:00.000Z');

    const late = await t.api('PATCH', `/events/${set.body.id}`, { key: org.key, body: { hacking_starts_at: '2030-01-03T12:00:00Z' } });
    expect(late.status).toBe(422);
    expect(late.body.code).toBe('validation_failed');
    expect(late.body.errors).toEqual([{ field: 'hacking_starts_at', message: 'must be before submission_deadline' }]);
    const junk = await t.api('PATCH', `/events/${set.body.id}`, { key: org.key, body: { hacking_starts_at: 'tomorrow' } });
    expect(junk.status).toBe(422);
    expect(junk.body.code).toBe('validation_failed');
    expect(junk.body.errors).toEqual([{ field: 'hacking_starts_at', message: 'must be an ISO 8601 date-time with a time zone' }]);

    const cleared = await t.api('PATCH', `/events/${set.body.id}`, { key: org.key, body: { hacking_starts_at: null } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.hacking_starts_at).toBeNull();
  });

  it('MCP: create_event and update_event take hacking_starts_at', async () => {
    const client = await connectMcp(t, org.key);
    try {
      const created = toolOk(await callTool(client, 'create_event', { ...eventBodyFor(t), hacking_starts_at: '2030-01-01T18:00:00Z' }));
      expect(created.hacking_starts_at).toBe('2030-01-01T18:00:00.000Z');
      const moved = toolOk(await callTool(client, 'update_event', { event_id: created.id, hacking_starts_at: '2030-01-02T06:00:00Z' }));
      expect(moved.hacking_starts_at).toBe('2030-01-02T06:00:00.000Z');
      const late = toolProblem(await callTool(client, 'update_event', { event_id: created.id, hacking_starts_at: '2030-01-09T00:00:00Z' }));
      expect(late).toMatchObject({ code: 'validation_failed', errors: [{ field: 'hacking_starts_at', message: 'must be before submission_deadline' }] });
    } finally {
      await client.close();
    }
  });

  it('flags each finding with its evidence, leaves a clean repository alone, flags the same repository on both teams', async () => {
    const eventId = await createEvent(t, org.key, open);
    const created = await submit(t, eventId, 'https://github.com/old/created');
    const history = await submit(t, eventId, 'https://github.com/old/history');
    const giant = await submit(t, eventId, 'https://github.com/dump/giant');
    const fork = await submit(t, eventId, 'https://github.com/fork/child');
    const clean = await submit(t, eventId, 'https://github.com/clean/repo');
    const dupA = await submit(t, eventId, 'https://github.com/Shared/Thing', 'Thing A');
    const dupB = await submit(t, eventId, 'https://github.com/shared/thing.git', 'Thing B');
    // The submissions themselves asked GitHub nothing.
    expect(gh.requests.filter((r) => r.path.startsWith('/repos/'))).toEqual([]);

    expect(await t.ctx.reviews.checkBuildWindows()).toBe(7);

    const [c] = await flagsOf(eventId, created.id);
    expect(c).toMatchObject({
      kind: 'build_window',
      source: 'repo_created_before_start',
      status: 'open',
      evidence: `The repository old/created was created at 2029-12-01T00:00:00Z, before hacking started (${START}).`,
    });
    expect(await sources(eventId, created.id)).toEqual(['repo_created_before_start']);

    // 150 commits: the oldest is the last one of the page Link rel="last" names (page 2 of 100).
    const oldest = fakeCommits(150, AFTER)[149]!;
    expect(oldest.date).toBe('2029-12-29T19:00:00Z');
    expect(await flagsOf(eventId, history.id)).toMatchObject([
      {
        source: 'first_commit_before_start',
        evidence: `The first commit of old/history (${oldest.sha.slice(0, 7)}) was authored 2029-12-29T19:00:00Z and committed 2029-12-29T19:00:00Z, before hacking started (${START}).`,
      },
    ]);
    expect(gh.requests.some((r) => r.path === '/repos/old/history/commits' && r.query.includes('page=2'))).toBe(true);
    // More commits than are examined one by one: no commit's details were read.
    expect(gh.requests.some((r) => r.path.startsWith('/repos/old/history/commits/'))).toBe(false);

    const big = fakeCommits(5, AFTER, (i) => (i === 2 ? 1000 : 10)).find((x) => x.additions === 1000)!;
    const g = await flagsOf(eventId, giant.id);
    expect(g.map((f) => f.source)).toEqual(['giant_commit']);
    expect(g[0]!.evidence).toBe(`One commit (${big.sha.slice(0, 7)}) carries 96.1 % of the changed lines of dump/giant (1000 of 1040, 5 commits).`);
    expect(JSON.parse(g[0]!.detail!)).toMatchObject({ repository: 'dump/giant', sha: big.sha, lines: 1000, total_lines: 1040, commits: 5 });

    expect(await flagsOf(eventId, fork.id)).toMatchObject([{ source: 'fork', evidence: 'The repository fork/child is a fork of upstream/original.' }]);
    expect(await flagsOf(eventId, clean.id)).toEqual([]);

    const a = await flagsOf(eventId, dupA.id);
    const b = await flagsOf(eventId, dupB.id);
    const [teamA, teamB] = [await teamOf(eventId, dupA.id), await teamOf(eventId, dupB.id)];
    expect(a.map((f) => f.evidence)).toEqual([`The same repository (shared/thing) was also submitted by team "${teamB}" as "Thing B" (${dupB.id}).`]);
    expect(b.map((f) => f.evidence)).toEqual([`The same repository (shared/thing) was also submitted by team "${teamA}" as "Thing A" (${dupA.id}).`]);
    expect(a[0]!.source).toBe('duplicate_repository');
    // One read of the shared repository served both projects.
    expect(gh.requests.filter((r) => r.path === '/repos/Shared/Thing' || r.path === '/repos/shared/thing')).toHaveLength(1);

    // The projects tab counts them; an organizer marks one checked with a note.
    const list = await t.api('GET', `/events/${eventId}/projects`, { key: org.key });
    const counts = Object.fromEntries((list.body as Array<{ id: string; open_flags: number }>).map((p) => [p.id, p.open_flags]));
    expect([counts[created.id], counts[history.id], counts[giant.id], counts[fork.id], counts[clean.id], counts[dupA.id], counts[dupB.id]]).toEqual([
      1, 1, 1, 1, 0, 1, 1,
    ]);
    const put = await t.api('PUT', `/events/${eventId}/projects/${fork.id}/flags/${(await flagsOf(eventId, fork.id))[0]!.id}`, {
      key: org.key,
      body: { status: 'checked', note: 'a fork of their own library' },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ kind: 'build_window', status: 'checked', note: 'a fork of their own library' });

    // A second pass has nothing due: nothing is asked again, nothing doubled.
    const before = gh.requests.length;
    expect(await t.ctx.reviews.checkBuildWindows()).toBe(0);
    expect(gh.requests.length).toBe(before);
    expect(await sources(eventId, created.id)).toEqual(['repo_created_before_start']);
  });

  it('an explicit hacking_starts_at is what repositories are compared with', async () => {
    const eventId = await createEvent(t, org.key, { ...open, hacking_starts_at: '2029-11-01T00:00:00Z' });
    const p = await submit(t, eventId, 'https://github.com/old/created');
    const q = await submit(t, eventId, 'https://github.com/old/history');
    expect(await t.ctx.reviews.checkBuildWindows()).toBe(2);
    expect(await flagsOf(eventId, p.id)).toEqual([]);
    expect(await flagsOf(eventId, q.id)).toEqual([]);

    // The organizer moves the start (back to the registration deadline): both are compared again,
    // from the cached facts (GitHub is not asked), and now flagged; moved back, the open flags go.
    const asked = gh.requests.length;
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { hacking_starts_at: null } })).status).toBe(200);
    expect(await t.ctx.reviews.checkBuildWindows()).toBe(2);
    expect(await sources(eventId, p.id)).toEqual(['repo_created_before_start']);
    expect(await sources(eventId, q.id)).toEqual(['first_commit_before_start']);
    expect(gh.requests.length).toBe(asked);
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { hacking_starts_at: '2029-11-01T00:00:00Z' } })).status).toBe(200);
    expect(await t.ctx.reviews.checkBuildWindows()).toBe(2);
    expect(await flagsOf(eventId, p.id)).toEqual([]);
    expect(await flagsOf(eventId, q.id)).toEqual([]);
    expect(await t.ctx.reviews.checkBuildWindows()).toBe(0);
  });

  it('a changed github_url is checked again: open flags of the old repository go, the other team loses its duplicate flag', async () => {
    const eventId = await createEvent(t, org.key, open);
    const a = await submit(t, eventId, 'https://github.com/fork/child', 'Fork A');
    const b = await submit(t, eventId, 'https://github.com/fork/child', 'Fork B');
    await t.ctx.reviews.checkBuildWindows();
    expect(await sources(eventId, a.id)).toEqual(['duplicate_repository', 'fork']);
    expect(await sources(eventId, b.id)).toEqual(['duplicate_repository', 'fork']);

    const again = await t.api('POST', `/events/${eventId}/submit`, {
      key: a.team.key,
      body: { project_name: 'Fork A', github_url: 'https://github.com/clean/repo', track_id: 'tools' },
    });
    expect(again.status, again.text).toBe(200);
    expect(await t.ctx.reviews.checkBuildWindows()).toBe(1);
    expect(await flagsOf(eventId, a.id)).toEqual([]);
    expect(await sources(eventId, b.id)).toEqual(['fork']);
  });

  it('a rate-limited GitHub (403, remaining 0) fails neither the submission nor the review; the check runs once the limit resets', async () => {
    const reset = Math.floor(t.clock.now().getTime() / 1000) + 600;
    gh.repos.set('busy/repo', {
      meta: { created_at: '2030-01-03T00:00:00Z', fork: true, parent: 'someone/else' },
      commits: fakeCommits(3, AFTER),
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
    });
    oa.setDefault({ kind: 'ok', scores: { impact: 7, craft: 7 } }, `bw-${dialect}`);
    const eventId = await createEvent(t, org.key, { ...open, models: [`openai/bw-${dialect}`] });
    const p = await submit(t, eventId, 'https://github.com/busy/repo');

    expect(await t.ctx.reviews.checkBuildWindows()).toBe(0);
    expect(await flagsOf(eventId, p.id)).toEqual([]);
    const judging = await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'judging' } });
    expect(judging.status, judging.text).toBe(200);
    await t.ctx.reviews.drain();
    const page = await t.api('GET', `/events/${eventId}/projects/${p.id}/reviews`, { key: org.key });
    expect(page.body.ai_reviews.map((r: { status: string }) => r.status)).toEqual(['succeeded']);

    // Before the reset nothing is asked of GitHub for it again.
    const asked = () => gh.requests.filter((r) => r.path === '/repos/busy/repo').length;
    const n = asked();
    t.clock.advance(300_000);
    expect(await t.ctx.reviews.checkBuildWindows()).toBe(0);
    expect(asked()).toBe(n);

    gh.repos.set('busy/repo', { ...gh.repos.get('busy/repo')!, status: undefined, headers: { 'x-ratelimit-remaining': '4999' } });
    t.clock.advance(301_000);
    expect(await t.ctx.reviews.checkBuildWindows()).toBe(1);
    expect(await flagsOf(eventId, p.id)).toMatchObject([{ source: 'fork', evidence: 'The repository busy/repo is a fork of someone/else.' }]);
  });

  it('a 429 with Retry-After waits that long', async () => {
    gh.repos.set('slow/down', { meta: { created_at: '2029-01-01T00:00:00Z' }, commits: fakeCommits(3, AFTER), status: 429, headers: { 'retry-after': '120' } });
    const eventId = await createEvent(t, org.key, open);
    const p = await submit(t, eventId, 'https://github.com/slow/down');
    expect(await t.ctx.reviews.checkBuildWindows()).toBe(0);
    gh.repos.set('slow/down', { ...gh.repos.get('slow/down')!, status: undefined, headers: {} });
    t.clock.advance(60_000);
    expect(await t.ctx.reviews.checkBuildWindows()).toBe(0);
    expect(await flagsOf(eventId, p.id)).toEqual([]);
    t.clock.advance(61_000);
    expect(await t.ctx.reviews.checkBuildWindows()).toBe(1);
    expect(await sources(eventId, p.id)).toEqual(['repo_created_before_start']);
  });

  it('many teams submitting one repository: each project is checked once, one duplicate flag each, work linear in the projects', async () => {
    gh.repos.set('example/x', { meta: { created_at: '2030-01-03T00:00:00Z' }, commits: fakeCommits(3, AFTER) });
    const counter = statementCounter();
    const job = createBuildWindowJob({
      db: t.database.db.withPlugin(counter.plugin),
      clock: t.clock,
      github: createGithubContextFetcher(t.config.github),
      log: () => ({ info() {}, warn() {}, error() {} }),
    });
    // Runs passes until nothing is due: the statements, rows and completed checks they took.
    const checkAll = async (eventId: string, n: number) => {
      await seedProjects(
        t,
        eventId,
        Array.from({ length: n }, () => ({ track: 'tools', score: null })),
      );
      counter.reset();
      let handled = 0;
      for (let pass = 0; pass < 100; pass++) {
        const done = await job.runDue();
        if (done === 0) break;
        handled += done;
      }
      expect(handled).toBe(n);
      return { ...counter.counts };
    };
    const duplicateFlags = async (eventId: string) =>
      Number(
        (
          await t.database.db
            .selectFrom('project_flags')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('event_id', '=', eventId)
            .where('source', '=', 'duplicate_repository')
            .executeTakeFirstOrThrow()
        ).n,
      );

    const small = await createEvent(t, org.key, open);
    const large = await createEvent(t, org.key, open);
    const s = await checkAll(small, 100);
    const l = await checkAll(large, 200);
    // Each changed project's check completed once; one flag per project, not one per pair.
    expect([s.checksCompleted, l.checksCompleted]).toEqual([100, 200]);
    expect([await duplicateFlags(small), await duplicateFlags(large)]).toEqual([100, 200]);
    // Twice the projects, about twice the work (quadratic work would be four times).
    expect(l.statements).toBeLessThan(2.5 * s.statements);
    expect(l.rows).toBeLessThan(2.5 * s.rows);

    // Nothing changed: a pass reads no project rows (a rescan would read the 300 projects).
    counter.reset();
    expect(await job.runDue()).toBe(0);
    expect(counter.counts.checksCompleted).toBe(0);
    expect(counter.counts.rows).toBeLessThan(100);

    // The review page names the count and the first three others.
    const [first] = await t.database.db.selectFrom('projects').select('id').where('event_id', '=', large).orderBy('id').limit(1).execute();
    const [flag] = await flagsOf(large, first!.id);
    expect(flag!.evidence).toMatch(
      /^The same repository \(example\/x\) was also submitted by 199 other teams: team "Team \d+" as "Project \d+" \(prj_\w+\), .+ and 196 more\.$/,
    );
    expect(JSON.parse(flag!.detail!)).toMatchObject({ repository: 'example/x', other_projects: 199 });
    await job.close();
  });

  it('GitHub down: the review is still done, the check waits, the duplicate check (no GitHub) still flags', async () => {
    const gone = await startFakeGithub();
    const deadUrl = gone.url;
    await gone.close();
    const database = await createTestDatabase(dialect);
    const app = await startTestApp(dialect, {
      database,
      env: { GITHUB_API_URL: deadUrl, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${oa.url}/v1`, REVIEW_WORKERS: 'false', REVIEW_BACKOFF_MS: '0' },
    });
    try {
      const organizer = await quickUser(app, 'organizer');
      oa.setDefault({ kind: 'ok', scores: { impact: 6, craft: 6 } }, `down-${dialect}`);
      const eventId = await createEvent(app, organizer.key, { ...open, models: [`openai/down-${dialect}`] });
      const ids: string[] = [];
      for (const name of ['A', 'B']) {
        const { team } = await quickApprovedTeam(app, eventId, organizer.key, { fields: {} });
        const res = await app.api('POST', `/events/${eventId}/submit`, {
          key: team.key,
          body: { project_name: name, github_url: 'https://github.com/fork/child', track_id: 'tools' },
        });
        expect(res.status, res.text).toBe(201);
        ids.push(res.body.id as string);
      }
      expect(await app.ctx.reviews.checkBuildWindows()).toBe(2);
      expect((await app.api('PATCH', `/events/${eventId}`, { key: organizer.key, body: { status: 'judging' } })).status).toBe(200);
      await app.ctx.reviews.drain();
      for (const id of ids) {
        const page = await app.api('GET', `/events/${eventId}/projects/${id}/reviews`, { key: organizer.key });
        expect(page.body.ai_reviews.map((r: { status: string }) => r.status)).toEqual(['succeeded']);
        expect(page.body.flags.map((f: { source: string }) => f.source)).toEqual(['duplicate_repository']);
      }
      // Still due, but not before its retry time.
      expect(await app.ctx.reviews.checkBuildWindows()).toBe(0);
      app.clock.advance(10 * 60_000);
      expect(await app.ctx.reviews.checkBuildWindows()).toBe(2);
    } finally {
      await app.close();
      await database.drop();
    }
  });
});

function eventBodyFor(t: TestApp) {
  const day = 86_400_000;
  const now = t.clock.now().getTime();
  return {
    name: 'Window',
    tracks: [{ id: 'tools', name: 'Tools' }],
    registration_deadline: new Date(now + day).toISOString(),
    submission_deadline: new Date(now + 2 * day).toISOString(),
  };
}
