import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as reviewsRepo from '../../src/reviews/reviews-repo.js';
import { DIALECTS } from '../helpers/databases.js';
import { startFakeGithub, startFakeOpenAI, type FakeGithub, type FakeProvider } from '../helpers/fake-providers.js';
import { createEvent, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickApprovedTeam, quickUser } from '../helpers/quick-users.js';
import { untilWith } from '../helpers/until.js';

// The real repository, except that every claim takes four times what it is asked for: a claim
// statement that does not keep to its LIMIT (as the former PostgreSQL claim did with stale
// statistics). The worker must keep to REVIEW_CONCURRENCY anyway.
vi.mock('../../src/reviews/reviews-repo.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/reviews/reviews-repo.js')>();
  return {
    ...real,
    claimReviews: vi.fn(
      (db: Parameters<typeof real.claimReviews>[0], dialect: Parameters<typeof real.claimReviews>[1], q: Parameters<typeof real.claimReviews>[2]) =>
        real.claimReviews(db, dialect, { ...q, limit: q.limit * 4 }),
    ),
  };
});
const claimReviews = vi.mocked(reviewsRepo.claimReviews);

const K = 2;

const until = untilWith({ ms: 30_000, every: 20 });

describe.each(DIALECTS)('the worker keeps to REVIEW_CONCURRENCY whatever a claim returns (%s)', (dialect) => {
  let t: TestApp;
  let oa: FakeProvider;
  let gh: FakeGithub;
  let org: TestUser;

  beforeAll(async () => {
    [oa, gh] = await Promise.all([startFakeOpenAI(), startFakeGithub()]);
    t = await startTestApp(dialect, {
      env: {
        AI_PROVIDER_LOCAL_BASE_URL: `${oa.url}/v1`,
        GITHUB_API_URL: gh.url,
        REVIEW_WORKERS: 'false',
        REVIEW_CONCURRENCY: String(K),
        REVIEW_LEASE_MS: '60000',
      },
    });
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([oa?.close(), gh?.close()]);
  });

  it('hands a claim’s surplus back untouched and reviews everything once', async () => {
    const m = `lane-${dialect}`;
    let answer!: () => void;
    oa.setDefault({ kind: 'ok', after: new Promise<void>((r) => (answer = r)) }, m);
    const eventId = await createEvent(t, org.key, { models: [`local/${m}`], registration_config: { open: true, auto_approve: true, fields: [] } });
    const P = 6;
    for (let i = 0; i < P; i++) {
      const { team } = await quickApprovedTeam(t, eventId, org.key, { fields: {} });
      expect(
        (
          await t.api('POST', `/events/${eventId}/submit`, {
            key: team.key,
            body: { project_name: `Lane ${i}`, github_url: `https://github.com/acme/lane-${i}` },
          })
        ).status,
      ).toBe(201);
    }
    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'judging' } })).status).toBe(200);
    const rows = () => t.ctx.db.selectFrom('reviews').selectAll().where('event_id', '=', eventId).execute();

    const run = t.ctx.reviews.runOnce();
    try {
      // The claim took more than the lane's room (the mock). Every review still running is a job
      // this worker launched, and each launched job calls the model: wait until the calls held are
      // as many as the running reviews, then count them.
      await until('every launched review to reach the model', async () => {
        const running = (await rows()).filter((r) => r.status === 'running').length;
        return running > 0 && oa.inFlight() === running;
      });
      expect(oa.inFlight()).toBe(K);
      const claimed = await claimReviews.mock.results.at(-1)!.value;
      expect(claimed.length).toBeGreaterThan(K);
      const queued = (await rows()).filter((r) => r.status === 'queued');
      // Handed back as they were: the attempt did not count.
      expect(queued).toHaveLength(P - K);
      expect(queued.filter((r) => r.attempts !== 0 || r.lease_owner !== null)).toEqual([]);
    } finally {
      answer();
      await Promise.allSettled([run]);
    }
    await run;
    const done = await rows();
    expect(done.filter((r) => r.status !== 'succeeded' || r.attempts !== 1)).toEqual([]);
    expect(oa.callsFor(m)).toHaveLength(P);
    expect(oa.maxInFlight()).toBe(K);
  });
});
