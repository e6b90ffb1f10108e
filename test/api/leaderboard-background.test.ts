import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStandingsRefresher } from '../../src/results/standings-refresh.js';
import { standingsPage } from '../../src/results/standings-repo.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, T0, type TestApp } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';
import { seedProjects } from '../helpers/seed-projects.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Stale standings a read recomputes itself in these tests (LEADERBOARD_INLINE_REFRESH). */
const INLINE = 3;
const N = 12;
/** Project i scores (i + 1) / 2 on both dimensions: 0.5 … 6, so the last seeded ranks first. */
const SCORE = (i: number) => (i + 1) / 2;
/** After the bulk change every project scores 10.25 minus that (never the same number): the order turns round. */
const CHANGED = (i: number) => 10.25 - SCORE(i);

/**
 * The live leaderboard after a bulk change (many standings stale at once): a read recomputes at
 * most LEADERBOARD_INLINE_REFRESH of them before it answers and says in `Leaderboard-Pending` how
 * many it left to the background; once that is done the ranking is exact. Exports and publication
 * never use pending standings.
 */
describe.each(DIALECTS)('leaderboard recomputed in the background (%s)', (dialect) => {
  let t: TestApp;
  let org: { id: string; key: string };
  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { LEADERBOARD_INLINE_REFRESH: String(INLINE) } });
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => t?.close());

  async function seeded(): Promise<{ eventId: string; ids: string[]; scoreOf: Map<string, number> }> {
    const eventId = await createEvent(t, org.key, { models: [] });
    const ids = await seedProjects(
      t,
      eventId,
      Array.from({ length: N }, (_, i) => ({ track: i % 2 ? 'fun' : 'tools', score: SCORE(i) })),
    );
    return { eventId, ids, scoreOf: new Map(ids.map((id, i) => [id, SCORE(i)])) };
  }

  /** Every project's review re-scored, one statement each: N standings stale at once. */
  async function changeEveryScore(ids: string[]): Promise<void> {
    for (const [i, id] of ids.entries()) {
      await t.ctx.db
        .updateTable('reviews')
        .set({ scores: JSON.stringify({ impact: CHANGED(i), craft: CHANGED(i) }) })
        .where('project_id', '=', id)
        .execute();
    }
  }

  const board = (eventId: string) => t.api('GET', `/events/${eventId}/leaderboard`, { key: org.key });

  it('answers at once after a bulk change, says how many standings are pending, and is exact once they are done', async () => {
    const { eventId, ids, scoreOf } = await seeded();

    // Every standing is stale after seeding: the read did 3, left 9.
    const first = await board(eventId);
    expect(first.status).toBe(200);
    expect(first.headers.get('leaderboard-pending')).toBe(String(N - INLINE));
    // A project not computed yet is not listed; whatever is listed has its true numbers.
    expect(first.body.length).toBeGreaterThanOrEqual(INLINE);
    for (const e of first.body) expect(e.score).toBe(scoreOf.get(e.project_id));

    await t.ctx.standings.idle();
    const done = await board(eventId);
    expect(done.headers.get('leaderboard-pending')).toBeNull();
    expect(done.body.map((e: any) => e.project_id)).toEqual([...ids].reverse());
    expect(done.body.map((e: any) => e.score)).toEqual(ids.map((_, i) => SCORE(i)).reverse());

    // A bulk change: the stale projects stay listed with their previous numbers meanwhile.
    await changeEveryScore(ids);
    const during = await board(eventId);
    expect(during.headers.get('leaderboard-pending')).toBe(String(N - INLINE));
    expect(during.body).toHaveLength(N);
    const i = (id: string) => ids.indexOf(id);
    for (const e of during.body) expect([SCORE(i(e.project_id)), CHANGED(i(e.project_id))]).toContain(e.score);

    await t.ctx.standings.idle();
    const after = await board(eventId);
    expect(after.headers.get('leaderboard-pending')).toBeNull();
    expect(after.body.map((e: any) => e.project_id)).toEqual(ids);
    expect(after.body.map((e: any) => e.score)).toEqual(ids.map((_, k) => CHANGED(k)));
  });

  it('tells MCP clients too: get_leaderboard returns the count as `pending`', async () => {
    const { eventId } = await seeded();
    const call = async (id: number) => {
      const res = await t.api('POST', '/mcp', {
        key: org.key,
        headers: { accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_leaderboard', arguments: { event_id: eventId } } },
      });
      expect(res.status).toBe(200);
      return res.body.result.structuredContent;
    };
    expect((await call(1)).pending).toBe(N - INLINE);
    await t.ctx.standings.idle();
    const done = await call(2);
    expect(done.pending).toBe(0);
    expect(done.items).toHaveLength(N);
  });

  it('recomputes a change within the budget before answering: no header, exact at once', async () => {
    const { eventId, ids } = await seeded();
    await board(eventId);
    await t.ctx.standings.idle();
    // Three projects re-scored (the budget): the first one now ranks last.
    for (const k of [0, 1, N - 1]) {
      await t.ctx.db
        .updateTable('reviews')
        .set({ scores: JSON.stringify({ impact: 0.25, craft: 0.25 }) })
        .where('project_id', '=', ids[k]!)
        .execute();
    }
    const res = await board(eventId);
    expect(res.status).toBe(200);
    expect(res.headers.get('leaderboard-pending')).toBeNull();
    expect(res.body.map((e: any) => e.project_id)).toEqual([...ids.slice(2, N - 1).reverse(), ids[0], ids[1], ids[N - 1]]);
  });

  it('never exports or publishes pending standings: the CSV and the result wait for every one', async () => {
    const { eventId, ids } = await seeded();
    await board(eventId);
    await t.ctx.standings.idle();
    await changeEveryScore(ids);
    // The read leaves 9 to the background; the export right after it still has every new number.
    expect((await board(eventId)).headers.get('leaderboard-pending')).toBe(String(N - INLINE));
    const csv = await t.api('GET', `/events/${eventId}/leaderboard.csv`, { key: org.key });
    expect(csv.status).toBe(200);
    const rows = csv.text.trim().split('\r\n').slice(1);
    expect(rows.map((r) => r.split(',')[1])).toEqual(ids);
    expect(rows.map((r) => Number(r.split(',')[5]))).toEqual(ids.map((_, k) => CHANGED(k)));

    // Back to the first numbers, and published at once: the snapshot has them all.
    for (const [k, id] of ids.entries()) {
      await t.ctx.db
        .updateTable('reviews')
        .set({ scores: JSON.stringify({ impact: SCORE(k), craft: SCORE(k) }) })
        .where('project_id', '=', id)
        .execute();
    }
    expect((await board(eventId)).headers.get('leaderboard-pending')).toBe(String(N - INLINE));
    t.clock.set(T0.getTime() + 2 * DAY + HOUR); // judging
    const published = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key });
    expect(published.status).toBe(200);
    expect(published.body.entries.map((e: any) => e.project_id)).toEqual([...ids].reverse());
    expect(published.body.entries.map((e: any) => e.score)).toEqual(ids.map((_, k) => SCORE(k)).reverse());
    t.clock.set(T0.getTime());
  });

  it('computes with the event as stored when it reads the versions (a run takes the event id, never a copy)', async () => {
    // A background run lasts seconds: the event may be edited meanwhile (here: a model added).
    const { eventId } = await seeded();
    await t.ctx.db
      .updateTable('events')
      .set({ models: JSON.stringify(['openai/a']) })
      .where('id', '=', eventId)
      .execute();
    const refresher = createStandingsRefresher({ db: t.ctx.db, dialect, inlineRows: 1000 });
    expect(await refresher.forRead(eventId)).toBe(0);
    const rows = await standingsPage(t.ctx.db, { eventId, limit: 100 });
    expect(rows.map((r) => r.reviews_expected)).toEqual(Array(N).fill(1));
    await refresher.stop();
  });

  it.runIf(dialect === 'postgres')('vacuums the standings after a bulk recomputation (PostgreSQL: dead row versions would slow the stale probe)', async () => {
    const { eventId } = await seeded();
    const refresher = createStandingsRefresher({ db: t.ctx.db, dialect, inlineRows: 1, vacuumAfterRows: N });
    const vacuums = async () => {
      const r = await sql<{ n: string }>`select vacuum_count as n from pg_stat_user_tables where relname = 'standings'`.execute(t.ctx.db);
      return Number(r.rows[0]!.n);
    };
    const before = await vacuums();
    expect(await refresher.forRead(eventId)).toBe(N - 1);
    await refresher.idle();
    expect(await vacuums()).toBe(before + 1);
    // A refresh below the threshold leaves it to autovacuum.
    await t.ctx.db
      .updateTable('reviews')
      .set({ status: 'failed' })
      .where('event_id', '=', eventId)
      .where(
        'project_id',
        'in',
        (await t.ctx.db.selectFrom('projects').select('id').where('event_id', '=', eventId).limit(2).execute()).map((p) => p.id),
      )
      .execute();
    expect(await refresher.forRead(eventId)).toBe(1);
    await refresher.idle();
    expect(await vacuums()).toBe(before + 1);
    await refresher.stop();
  });
});
