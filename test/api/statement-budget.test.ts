import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { DIALECTS, type Dialect } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, T0, type ApiResponse, type TestApp } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

/**
 * What a hot route may cost: statements the database runs per request (on PostgreSQL each is a
 * round trip; BEGIN and COMMIT count). `warm`: the caller's key and the event are in the
 * process's caches, as for a busy agent; `cold`: neither is (a key's first request after the
 * cache's TTL, an event not read lately). A change that adds a statement to one of these routes
 * changes its line here in the same commit, and says why.
 *
 * Why each costs what it does (warm):
 * - GET /events, GET /events/:id: nothing (the event catalog); cold, the page's ids and the events.
 * - register: the registration and its leader's membership (SQLite: BEGIN, two INSERTs, COMMIT;
 *   PostgreSQL: one statement with a data-modifying CTE, atomic without BEGIN). Cold adds the key
 *   (lookup, last-used stamp) and the event.
 * - submit: the team's registration, then the project (PostgreSQL: one upsert; SQLite: an INSERT
 *   that does nothing on conflict, then the UPDATE when the project exists).
 * - my-registration: the registration, then its project (the result only once one is published).
 * - team join: the invitation, the joiner's membership check, the membership in one transaction with
 *   the leader's notification mail (who wants it, in which language), then the team to answer with.
 * - vote: the project, the voter's own team check, an earlier vote, the insert.
 * - review save: the reviewer's right to review the project (reviewer, project, conflicts,
 *   assignment mode), the upsert.
 * - leaderboard: stale standings to refresh (none), the page. result: the publication, the page.
 * No webhook subscription, no Idempotency-Key: the optional side effects cost nothing.
 */
const BUDGET: Record<string, Record<Dialect, { warm: number; cold: number }>> = {
  'GET /events': { sqlite: { warm: 0, cold: 2 }, postgres: { warm: 0, cold: 2 } },
  'GET /events/:id': { sqlite: { warm: 0, cold: 1 }, postgres: { warm: 0, cold: 1 } },
  'POST /events/:id/register': { sqlite: { warm: 4, cold: 7 }, postgres: { warm: 1, cold: 4 } },
  'POST /events/:id/submit (create)': { sqlite: { warm: 2, cold: 3 }, postgres: { warm: 2, cold: 3 } },
  'POST /events/:id/submit (update)': { sqlite: { warm: 3, cold: 4 }, postgres: { warm: 2, cold: 3 } },
  'GET /events/:id/my-registration': { sqlite: { warm: 2, cold: 3 }, postgres: { warm: 2, cold: 3 } },
  'POST /events/:id/team/join': { sqlite: { warm: 12, cold: 15 }, postgres: { warm: 12, cold: 15 } },
  'POST /events/:id/gallery/:project_id/vote': { sqlite: { warm: 4, cold: 7 }, postgres: { warm: 4, cold: 7 } },
  'PUT /events/:id/projects/:pid/review': { sqlite: { warm: 6, cold: 8 }, postgres: { warm: 6, cold: 8 } },
  'GET /events/:id/leaderboard': { sqlite: { warm: 3, cold: 3 }, postgres: { warm: 3, cold: 3 } },
  'GET /events/:id/result': { sqlite: { warm: 2, cold: 3 }, postgres: { warm: 2, cold: 3 } },
};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.each(DIALECTS)('statement budget of the hot routes (%s)', (dialect) => {
  let t: TestApp;
  let recording: string[] | null = null;
  const measured = new Map<string, { warm?: string[]; cold?: string[] }>();

  beforeAll(async () => {
    t = await startTestApp(dialect, {
      env: {
        // Nothing in the background: every statement recorded is the request's own.
        REVIEW_WORKERS: 'false',
        WEBHOOKS_WORKERS: 'false',
        MAIL_WORKERS: 'false',
        // Warm means warm for the whole test, however slow the machine (the caches' TTLs are wall-clock).
        EVENT_CACHE_TTL_MS: '3600000',
        AUTH_CACHE_TTL_MS: '60000',
        // One process: no timed re-read of the webhook subscriptions in the middle of a measured request.
        WEBHOOK_INDEX_RELOAD_MS: '0',
      },
      observeStatements: (sql) => recording?.push(sql),
    });
  });
  afterAll(async () => t?.close());

  /** Runs one request and returns it with the statements it ran (the answer is complete once the body is read). */
  async function counted(send: () => Promise<ApiResponse>): Promise<{ res: ApiResponse; statements: string[] }> {
    recording = [];
    const res = await send();
    // Anything the request started after answering (it should start nothing) lands before we stop recording.
    await new Promise((r) => setImmediate(r));
    const statements = recording;
    recording = null;
    return { res, statements };
  }

  function record(route: string, phase: 'warm' | 'cold', statements: string[]) {
    const m = measured.get(route) ?? {};
    m[phase] = statements;
    measured.set(route, m);
  }

  /** The same request twice: the first with cold caches (a fresh key, the event dropped), the second warm. */
  async function both(route: string, coldSend: () => Promise<ApiResponse>, warmSend: () => Promise<ApiResponse>, status: number) {
    const cold = await counted(coldSend);
    expect(cold.res.status, cold.res.text).toBe(status);
    record(route, 'cold', cold.statements);
    const warm = await counted(warmSend);
    expect(warm.res.status, warm.res.text).toBe(status);
    record(route, 'warm', warm.statements);
  }

  const dropCaches = () => t.ctx.notifier.publish('events:changed', '');

  it('measures each hot route', async () => {
    const org = await quickUser(t, 'organizer');
    const eventId = await createEvent(t, org.key, {
      models: [],
      registration_config: { open: true, auto_approve: true, fields: [{ key: 'repo', label: 'Repository', type: 'url', required: true }] },
      voting: { enabled: true, closes_at: new Date(T0.getTime() + 4 * DAY).toISOString(), votes_per_person: 3 },
    });
    const keys = await Promise.all(Array.from({ length: 6 }, () => quickUser(t)));
    const reg = (i: number) => () => t.api('POST', `/events/${eventId}/register`, { key: keys[i]!.key, body: registrationBody() });

    await both(
      'GET /events',
      async () => {
        dropCaches();
        return t.api('GET', '/events');
      },
      () => t.api('GET', '/events'),
      200,
    );
    await both(
      'GET /events/:id',
      async () => {
        dropCaches();
        return t.api('GET', `/events/${eventId}`);
      },
      () => t.api('GET', `/events/${eventId}`),
      200,
    );

    // Cold: the key's first request and the event out of the cache; warm: the next key, already seen, the event cached.
    await t.api('GET', '/me', { key: keys[1]!.key });
    await both(
      'POST /events/:id/register',
      async () => {
        dropCaches();
        return reg(0)();
      },
      reg(1),
      201,
    );
    const project = (name: string) => ({ project_name: name, github_url: 'https://github.com/example/x', description: 'A project.', track_id: 'tools' });
    await both(
      'POST /events/:id/submit (create)',
      async () => {
        dropCaches();
        return t.api('POST', `/events/${eventId}/submit`, { key: keys[0]!.key, body: project('P0') });
      },
      () => t.api('POST', `/events/${eventId}/submit`, { key: keys[1]!.key, body: project('P1') }),
      201,
    );
    await both(
      'POST /events/:id/submit (update)',
      async () => {
        dropCaches();
        return t.api('POST', `/events/${eventId}/submit`, { key: keys[0]!.key, body: project('P0 again') });
      },
      () => t.api('POST', `/events/${eventId}/submit`, { key: keys[1]!.key, body: project('P1 again') }),
      200,
    );
    await both(
      'GET /events/:id/my-registration',
      async () => {
        dropCaches();
        return t.api('GET', `/events/${eventId}/my-registration`, { key: keys[0]!.key });
      },
      () => t.api('GET', `/events/${eventId}/my-registration`, { key: keys[1]!.key }),
      200,
    );
    const code = async (i: number) => (await t.api('POST', `/events/${eventId}/team/invitations`, { key: keys[i]!.key, body: {} })).body.join_code as string;
    const codes = [await code(0), await code(1)];
    await t.api('GET', '/me', { key: keys[3]!.key });
    await both(
      'POST /events/:id/team/join',
      async () => {
        dropCaches();
        return t.api('POST', `/events/${eventId}/team/join`, { key: keys[2]!.key, body: { join_code: codes[0] } });
      },
      () => t.api('POST', `/events/${eventId}/team/join`, { key: keys[3]!.key, body: { join_code: codes[1] } }),
      200,
    );
    // More teams to vote for and review.
    await reg(4)();
    await t.api('POST', `/events/${eventId}/submit`, { key: keys[4]!.key, body: project('P4') });
    const projects = (await t.api('GET', `/events/${eventId}/projects`, { key: org.key })).body as Array<{ id: string }>;
    expect(projects).toHaveLength(3);

    // The vote opens at the submission deadline (and judging starts).
    t.clock.set(T0.getTime() + 2 * DAY + HOUR);
    const voters = [await quickUser(t), await quickUser(t)];
    await t.api('GET', '/me', { key: voters[1]!.key });
    await t.api('GET', `/events/${eventId}/gallery`);
    await both(
      'POST /events/:id/gallery/:project_id/vote',
      async () => {
        dropCaches();
        return t.api('POST', `/events/${eventId}/gallery/${projects[0]!.id}/vote`, { key: voters[0]!.key });
      },
      () => t.api('POST', `/events/${eventId}/gallery/${projects[0]!.id}/vote`, { key: voters[1]!.key }),
      201,
    );

    const judges = [await quickUser(t), await quickUser(t)];
    const now = t.clock.now().toISOString();
    await t.ctx.db
      .insertInto('event_reviewers')
      .values(judges.map((j) => ({ event_id: eventId, user_id: j.id, created_at: now })))
      .execute();
    await t.api('GET', '/me', { key: judges[1]!.key });
    await both(
      'PUT /events/:id/projects/:pid/review',
      async () => {
        dropCaches();
        return t.api('PUT', `/events/${eventId}/projects/${projects[0]!.id}/review`, { key: judges[0]!.key, body: { scores: { impact: 5, craft: 5 } } });
      },
      () => t.api('PUT', `/events/${eventId}/projects/${projects[0]!.id}/review`, { key: judges[1]!.key, body: { scores: { impact: 7, craft: 6 } } }),
      201,
    );
    for (const p of projects.slice(1)) {
      for (const j of judges) {
        await t.api('PUT', `/events/${eventId}/projects/${p.id}/review`, { key: j.key, body: { scores: { impact: 6, craft: 6 } } });
      }
    }
    await t.api('GET', `/events/${eventId}/leaderboard`, { key: org.key });
    await both(
      'GET /events/:id/leaderboard',
      async () => {
        dropCaches();
        return t.api('GET', `/events/${eventId}/leaderboard`, { key: org.key });
      },
      () => t.api('GET', `/events/${eventId}/leaderboard`, { key: org.key }),
      200,
    );
    t.clock.set(T0.getTime() + 5 * DAY);
    const published = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key });
    expect(published.status, published.text).toBe(200);
    await both(
      'GET /events/:id/result',
      async () => {
        dropCaches();
        return t.api('GET', `/events/${eventId}/result`);
      },
      () => t.api('GET', `/events/${eventId}/result`),
      200,
    );
    void newId;
  });

  it('keeps every hot route within its budget', () => {
    const report: string[] = [];
    const over: string[] = [];
    for (const [route, budget] of Object.entries(BUDGET)) {
      const m = measured.get(route);
      expect(m?.warm, `${route} was not measured`).toBeDefined();
      for (const phase of ['warm', 'cold'] as const) {
        const statements = m![phase]!;
        const limit = budget[dialect][phase];
        report.push(`${route} ${phase}: ${statements.length} (budget ${limit})`);
        if (process.env.BUDGET_SQL) report.push(...statements.map((q) => `    ${q.slice(0, 200)}`));
        if (statements.length > limit) over.push(`${route} (${phase}) ran ${statements.length} statements, budget ${limit}:\n  ${statements.join('\n  ')}`);
      }
    }
    console.log(`${dialect}:\n${report.join('\n')}`);
    expect(over, over.join('\n')).toEqual([]);
  });
});
