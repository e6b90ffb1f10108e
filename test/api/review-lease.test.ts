import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as reviewsRepo from '../../src/reviews/reviews-repo.js';
import { DIALECTS } from '../helpers/databases.js';
import { startFakeGithub, startFakeOpenAI, type FakeGithub, type FakeProvider } from '../helpers/fake-providers.js';
import { createEvent, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickApprovedTeam, quickUser } from '../helpers/quick-users.js';
import { until } from '../helpers/until.js';

// The real repository, with finishSucceeded watched, so the test can await a worker's write and
// read whether the database took it (no sleeping, no guessing when it happened).
vi.mock('../../src/reviews/reviews-repo.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/reviews/reviews-repo.js')>();
  return { ...real, finishSucceeded: vi.fn(real.finishSucceeded) };
});
const finishSucceeded = vi.mocked(reviewsRepo.finishSucceeded);

/**
 * A lease belongs to one claim, not to a process: when a review's lease expires while its call is
 * still in flight (the heartbeat could not renew it) and the same process claims the review again,
 * the first, stale attempt must not write its result over the attempt that now holds the lease.
 */
describe.each(DIALECTS)('review leases are per claim (%s)', (dialect) => {
  let t: TestApp;
  let oa: FakeProvider;
  let gh: FakeGithub;
  let org: TestUser;

  beforeAll(async () => {
    [oa, gh] = await Promise.all([startFakeOpenAI(), startFakeGithub()]);
    t = await startTestApp(dialect, {
      env: { AI_PROVIDER_LOCAL_BASE_URL: `${oa.url}/v1`, GITHUB_API_URL: gh.url, REVIEW_WORKERS: 'false', REVIEW_BACKOFF_MS: '0', REVIEW_LEASE_MS: '60000' },
    });
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([oa?.close(), gh?.close()]);
  });

  it('keeps renewing the lease of a call in flight under its claim token', async () => {
    // A short lease: the heartbeat runs every 333 ms (a third of it) in real time.
    const app = await startTestApp(dialect, {
      env: { AI_PROVIDER_LOCAL_BASE_URL: `${oa.url}/v1`, GITHUB_API_URL: gh.url, REVIEW_WORKERS: 'false', REVIEW_LEASE_MS: '1000' },
    });
    const m = `renew-${dialect}`;
    let release!: () => void;
    oa.script(m, [{ kind: 'ok', scores: 5, after: new Promise<void>((r) => (release = r)) }]);
    let run: Promise<unknown> = Promise.resolve();
    try {
      const owner = await quickUser(app, 'organizer');
      const eventId = await createEvent(app, owner.key, { models: [`local/${m}`], registration_config: { open: true, auto_approve: true, fields: [] } });
      const { team } = await quickApprovedTeam(app, eventId, owner.key, { fields: {} });
      expect(
        (await app.api('POST', `/events/${eventId}/submit`, { key: team.key, body: { project_name: 'R', github_url: 'https://github.com/a/r' } })).status,
      ).toBe(201);
      expect((await app.api('PATCH', `/events/${eventId}`, { key: owner.key, body: { status: 'judging' } })).status).toBe(200);
      const row = () => app.ctx.db.selectFrom('reviews').selectAll().where('event_id', '=', eventId).executeTakeFirstOrThrow();
      run = app.ctx.reviews.runOnce();
      await until('the call to start', () => oa.callsFor(m).length === 1);
      const claimed = await row();
      // The lease is computed on the injected clock: move it, and the next renewal must show it.
      app.clock.advance(10_000);
      const renewedTo = new Date(app.clock.now().getTime() + 1000).toISOString();
      let current = claimed;
      const deadline = Date.now() + 10_000;
      while (current.lease_expires_at !== renewedTo) {
        if (Date.now() > deadline) throw new Error(`the lease was never renewed: ${current.lease_expires_at}, expected ${renewedTo}`);
        await new Promise((r) => setTimeout(r, 25));
        current = await row();
      }
      expect(current).toMatchObject({ status: 'running', lease_owner: claimed.lease_owner });
      release();
      await run;
      expect(await row()).toMatchObject({ status: 'succeeded', lease_owner: null });
    } finally {
      release();
      await Promise.allSettled([run]);
      await app.close();
    }
  });

  it('refuses the stale attempt’s result after its own process took the review over', async () => {
    const m = `relapse-${dialect}`;
    let releaseFirst!: () => void;
    let releaseSecond!: () => void;
    const first = new Promise<void>((r) => (releaseFirst = r));
    const second = new Promise<void>((r) => (releaseSecond = r));
    oa.script(m, [
      { kind: 'ok', scores: 9, summary: 'stale', after: first },
      { kind: 'ok', scores: 3, summary: 'fresh', after: second },
    ]);
    const eventId = await createEvent(t, org.key, { models: [`local/${m}`], registration_config: { open: true, auto_approve: true, fields: [] } });
    const { team } = await quickApprovedTeam(t, eventId, org.key, { fields: {} });
    expect(
      (await t.api('POST', `/events/${eventId}/submit`, { key: team.key, body: { project_name: 'Rocket', github_url: 'https://github.com/acme/rocket' } }))
        .status,
    ).toBe(201);
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'judging' } })).status).toBe(200);
    const row = async () => await t.ctx.db.selectFrom('reviews').selectAll().where('event_id', '=', eventId).executeTakeFirstOrThrow();

    const runs: Promise<unknown>[] = [];
    try {
      runs.push(t.ctx.reviews.runOnce());
      await until('the first attempt to call the model', () => oa.callsFor(m).length === 1);
      const firstLease = (await row()).lease_owner;
      // The lease runs out while the call hangs; the same process claims the review again.
      t.clock.advance(60_001);
      runs.push(t.ctx.reviews.runOnce());
      await until('the second attempt to call the model', () => oa.callsFor(m).length === 2);
      const taken = await row();
      expect(taken).toMatchObject({ status: 'running', attempts: 2 });
      expect(taken.lease_owner).not.toBe(firstLease);

      const before = finishSucceeded.mock.calls.length;
      releaseFirst();
      await until('the stale attempt to try its write', () => finishSucceeded.mock.calls.length > before);
      expect(await finishSucceeded.mock.results[before]!.value).toBe(false);
      expect(await row()).toMatchObject({ status: 'running', scores: null, summary: null, lease_owner: taken.lease_owner });

      releaseSecond();
      await Promise.all(runs);
      const final = await row();
      expect(final).toMatchObject({ status: 'succeeded', summary: 'fresh', attempts: 2, lease_owner: null });
      expect(JSON.parse(final.scores!)).toEqual({ impact: 3, craft: 3 });
    } finally {
      releaseFirst();
      releaseSecond();
      await Promise.allSettled(runs);
    }
  });
});
