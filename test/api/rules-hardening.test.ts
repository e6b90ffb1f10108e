import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addReviewer } from '../../src/reviewers/reviewers-repo.js';
import { iso } from '../../src/core/time.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { startFakeGithub, startFakeOpenAI, type FakeGithub, type FakeProvider } from '../helpers/fake-providers.js';
import { createEvent, registrationBody, startTestApp, T0, type ApiResponse, type TestApp, type TestUser } from '../helpers/harness.js';
import { parseCsv } from '../helpers/csv.js';
import { quickApprovedTeam, quickUser } from '../helpers/quick-users.js';
import { until } from '../helpers/until.js';

/**
 * Rules of the contract that a plausible regression would break silently: each test here was
 * checked against a deliberate break of its rule in src (see the hardening notes in docs/development.md).
 * Workers are off (REVIEW_WORKERS=false): the tests step the review queue themselves.
 */
const DAY = 86_400_000;

function expectProblem(res: ApiResponse, status: number, code: string) {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body.code).toBe(code);
}

/** A lease token of one of `app`'s claims: its worker id, then `#` and the claim's number. */
const leasedBy = (app: TestApp) => expect.stringMatching(new RegExp(`^${app.ctx.reviews.workerId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}#\\w+$`));

describe.each(DIALECTS)('contract rules (%s)', (dialect) => {
  let db: TestDatabase;
  let t: TestApp;
  let oa: FakeProvider;
  let gh: FakeGithub;
  let org: TestUser;
  let env: Record<string, string>;

  beforeAll(async () => {
    [oa, gh] = await Promise.all([startFakeOpenAI(), startFakeGithub()]);
    env = {
      AI_PROVIDER_LOCAL_BASE_URL: `${oa.url}/a/v1`,
      GITHUB_API_URL: gh.url,
      REVIEW_WORKERS: 'false',
      REVIEW_BACKOFF_MS: '0',
      REVIEW_LEASE_MS: '60000',
    };
    db = await createTestDatabase(dialect);
    t = await startTestApp(dialect, { database: db, env });
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
    await Promise.all([oa?.close(), gh?.close()]);
  });

  let seq = 0;
  const model = (name: string) => `${name}-${dialect}-${++seq}`;

  /** An event (deadlines relative to T0) with one submitted project of an approved team. */
  async function eventWithProject(overrides: Record<string, unknown> = {}, app: TestApp = t) {
    const eventId = await createEvent(app, org.key, { registration_config: { open: true, auto_approve: true, fields: [] }, ...overrides });
    const { team, registrationId } = await quickApprovedTeam(app, eventId, org.key, { fields: {} });
    const sub = await app.api('POST', `/events/${eventId}/submit`, {
      key: team.key,
      body: { project_name: 'Rocket', github_url: 'https://github.com/acme/rocket' },
    });
    expect(sub.status).toBe(201);
    return { eventId, team, registrationId, projectId: sub.body.id as string };
  }
  const patch = (eventId: string, body: unknown) => t.api('PATCH', `/events/${eventId}`, { key: org.key, body });
  const reviewRows = (eventId: string) =>
    t.ctx.db.selectFrom('reviews').selectAll().where('event_id', '=', eventId).where('reviewer_kind', '=', 'model').execute();

  describe('a cancelled event takes no decisions', () => {
    it('refuses approve and reject with 409 event_locked and leaves the registration as it was', async () => {
      const eventId = await createEvent(t, org.key);
      const pending = await t.api('POST', `/events/${eventId}/register`, { key: (await quickUser(t)).key, body: registrationBody() });
      const approved = await quickApprovedTeam(t, eventId, org.key);
      expect(pending.body.status).toBe('pending');
      expect((await patch(eventId, { status: 'cancelled' })).status).toBe(200);

      expectProblem(await t.api('POST', `/events/${eventId}/registrations/${pending.body.id}/approve`, { key: org.key }), 409, 'event_locked');
      expectProblem(
        await t.api('POST', `/events/${eventId}/registrations/${pending.body.id}/reject`, { key: org.key, body: { reason: 'late' } }),
        409,
        'event_locked',
      );
      expectProblem(await t.api('POST', `/events/${eventId}/registrations/${approved.registrationId}/reject`, { key: org.key, body: {} }), 409, 'event_locked');
      const list = await t.api('GET', `/events/${eventId}/registrations`, { key: org.key });
      expect(list.status).toBe(200);
      const byId = new Map(list.body.map((r: { id: string; status: string }) => [r.id, r.status]));
      expect(byId.get(pending.body.id)).toBe('pending');
      expect(byId.get(approved.registrationId)).toBe('approved');
    });
  });

  describe('queued AI reviews of a finished event are never sent', () => {
    it('cancelling a judging event fails its queued reviews without a call to the provider', async () => {
      const m = model('cancelled');
      const { eventId } = await eventWithProject({ models: [`local/${m}`] });
      expect((await patch(eventId, { status: 'judging' })).status).toBe(200);
      expect((await reviewRows(eventId)).map((r) => r.status)).toEqual(['queued']);
      expect((await patch(eventId, { status: 'cancelled' })).status).toBe(200);

      await t.ctx.reviews.drain();
      expect(oa.callsFor(m)).toHaveLength(0);
      const [row] = await reviewRows(eventId);
      expect(row).toMatchObject({ status: 'failed', scores: null, last_error: 'not reviewed: the event is cancelled' });
    });

    it('publishing results leaves the reviews still queued unsent', async () => {
      const done = model('done');
      oa.setDefault({ kind: 'ok', scores: 6 }, done);
      const { eventId } = await eventWithProject({ models: [`local/${done}`] });
      expect((await patch(eventId, { status: 'judging' })).status).toBe(200);
      await t.ctx.reviews.drain();
      expect(oa.callsFor(done)).toHaveLength(1);
      // Re-queue the scored model, then publish before any worker runs.
      const rerun = await t.api('POST', `/events/${eventId}/reviews/rerun`, { key: org.key, body: { model: `local/${done}` } });
      expect(rerun.body.requeued).toBe(1);
      const pub = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key, body: { force: true } });
      expect(pub.status, pub.text).toBe(200);

      await t.ctx.reviews.drain();
      expect(oa.callsFor(done)).toHaveLength(1);
      expect(await reviewRows(eventId)).toEqual([expect.objectContaining({ status: 'failed', last_error: 'not reviewed: the event is ended' })]);
    });
  });

  describe('a review worker that lost its lease', () => {
    it('cannot write its result once another worker took the review over', async () => {
      // A second app on the same database is the other process; each has its own clock.
      const other = await startTestApp(dialect, { database: db, env: { ...env, AI_PROVIDER_LOCAL_BASE_URL: `${oa.url}/b/v1` } });
      let releaseFirst!: () => void;
      let releaseSecond!: () => void;
      const first = new Promise<void>((r) => (releaseFirst = r));
      const second = new Promise<void>((r) => (releaseSecond = r));
      const running: Promise<unknown>[] = [];
      try {
        const m = model('lease');
        oa.script(m, [
          { kind: 'ok', scores: 9, summary: 'stale', after: first },
          { kind: 'ok', scores: 3, summary: 'fresh', after: second },
        ]);
        const { eventId } = await eventWithProject({ models: [`local/${m}`] });
        expect((await patch(eventId, { status: 'judging' })).status).toBe(200);

        // Worker A leases the review; its model call is held.
        const runA = t.ctx.reviews.runOnce();
        running.push(runA);
        await until('worker A to call the model', () => oa.callsFor(m).length === 1);
        // For worker B the lease has expired (its clock is past it): B takes the review over.
        other.clock.advance(60_001);
        const runB = other.ctx.reviews.drain();
        running.push(runB);
        await until('worker B to call the model', () => oa.callsFor(m).length === 2);
        expect(oa.callsFor(m).map((c) => c.prefix)).toEqual(['/a', '/b']);
        const [taken] = await reviewRows(eventId);
        expect(taken).toMatchObject({ status: 'running', lease_owner: leasedBy(other), attempts: 2 });

        // A's answer arrives while B holds the lease: it must not be written.
        releaseFirst();
        await runA;
        const [afterA] = await reviewRows(eventId);
        expect(afterA).toMatchObject({ status: 'running', lease_owner: leasedBy(other), scores: null, summary: null });

        releaseSecond();
        await runB;
        const [final] = await reviewRows(eventId);
        expect(final).toMatchObject({ status: 'succeeded', summary: 'fresh', attempts: 2, lease_owner: null });
        expect(JSON.parse(final!.scores!)).toEqual({ impact: 3, craft: 3 });
      } finally {
        // Even after a failed assertion: let both calls finish before the second app closes.
        releaseFirst();
        releaseSecond();
        await Promise.allSettled(running);
        await other.close();
      }
    });
  });

  describe('human scores wait for judging', () => {
    it('refuses scores while the event is open or active (409 not_judging), accepts them once judging', async () => {
      const { eventId, projectId } = await eventWithProject();
      const reviewer = await quickUser(t);
      await addReviewer(t.ctx.db, eventId, reviewer.id, iso(t.clock.now()));
      const put = () => t.api('PUT', `/events/${eventId}/projects/${projectId}/review`, { key: reviewer.key, body: { scores: { impact: 7, craft: 8 } } });
      try {
        expectProblem(await put(), 409, 'not_judging');
        t.clock.set(new Date(T0.getTime() + DAY + 1)); // registration closed: active, still taking submissions
        expect((await t.api('GET', `/events/${eventId}`)).body.status).toBe('active');
        expectProblem(await put(), 409, 'not_judging');
        t.clock.set(new Date(T0.getTime() + 2 * DAY)); // exactly at the submission deadline: judging
        expect((await t.api('GET', `/events/${eventId}`)).body.status).toBe('judging');
        const ok = await put();
        expect(ok.status, ok.text).toBe(201);
        expect(ok.body.scores).toEqual({ impact: 7, craft: 8 });
      } finally {
        t.clock.set(T0);
      }
    });

    it('refuses out-of-range, non-numeric and missing scores at the API (422 naming scores.<dimension>)', async () => {
      const { eventId, projectId } = await eventWithProject();
      const reviewer = await quickUser(t);
      await addReviewer(t.ctx.db, eventId, reviewer.id, iso(t.clock.now()));
      expect((await patch(eventId, { status: 'judging' })).status).toBe(200);
      const put = (scores: unknown) => t.api('PUT', `/events/${eventId}/projects/${projectId}/review`, { key: reviewer.key, body: { scores } });
      for (const [scores, field] of [
        [{ impact: 10.5, craft: 5 }, 'scores.impact'],
        [{ impact: 5, craft: -0.01 }, 'scores.craft'],
        [{ impact: 'NaN', craft: 5 }, 'scores.impact'],
        [{ impact: 'Infinity', craft: 5 }, 'scores.impact'],
        [{ impact: '7', craft: 5 }, 'scores.impact'],
        [{ impact: 5 }, 'scores.craft'],
      ] as const) {
        const res = await put(scores);
        expectProblem(res, 422, 'validation_failed');
        expect(
          res.body.errors.map((e: { field: string }) => e.field),
          JSON.stringify(scores),
        ).toEqual([field]);
      }
      expect((await put({ impact: 10, craft: 0 })).status).toBe(201);
    });
  });

  describe('leaderboard CSV', () => {
    it('keeps one row per project and neutralises formulas in team-supplied text', async () => {
      const eventId = await createEvent(t, org.key, { models: [], registration_config: { open: true, auto_approve: true, fields: [] } });
      const names = [
        ['=HYPERLINK("http://evil.example","x")', 'lone\rreturn'],
        ["+cmd|' /C calc'!A0", 'line\nfeed, "quoted"'],
        ['@SUM(A1:A9)', '-2+3'],
      ];
      for (const [team_name, project_name] of names) {
        const { team } = await quickApprovedTeam(t, eventId, org.key, { team_name, fields: {} });
        const sub = await t.api('POST', `/events/${eventId}/submit`, { key: team.key, body: { project_name, github_url: 'https://github.com/a/b' } });
        expect(sub.status, sub.text).toBe(201);
      }
      const csv = await t.api('GET', `/events/${eventId}/leaderboard.csv`, { key: org.key });
      expect(csv.status).toBe(200);
      const rows = parseCsv(csv.text);
      expect(rows).toHaveLength(1 + names.length);
      expect(new Set(rows.map((r) => r.length))).toEqual(new Set([rows[0]!.length]));
      const teams = rows.slice(1).map((r) => r[rows[0]!.indexOf('team_name')]);
      const projects = rows.slice(1).map((r) => r[rows[0]!.indexOf('project_name')]);
      expect(teams.sort()).toEqual(names.map(([team]) => `'${team}`).sort());
      expect(projects.sort()).toEqual(['lone\rreturn', 'line\nfeed, "quoted"', "'-2+3"].sort());
    });
  });
});
