import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, T0, type ApiResponse, type TestApp } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';
import { seedProjects } from '../helpers/seed-projects.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BASE = 'http://hackathon.test';

/**
 * Pagination of the live leaderboard and of the published result (limit, opaque cursor, Link
 * rel="next"), the streamed CSV export (never paginated), review coverage on leaderboard entries,
 * and the refusal to publish unscored projects unless forced.
 *
 * Projects (dimensions impact ×2, craft ×1; one human review each where scored):
 *   p0 tools 9 · p1 fun 8 · p2 tools 8 · p3 fun 8 (p1..p3 tie, by first submission) · p4 tools 5 ·
 *   p5 fun unscored · p6 tools unscored.  Ranks 1, 2, 2, 2, 5, 6, 6.
 *   tools: p0 1, p2 2, p4 3, p6 4 · fun: p1 1, p3 1, p5 3.
 */
const SPEC = [
  { track: 'tools', score: 9 },
  { track: 'fun', score: 8 },
  { track: 'tools', score: 8 },
  { track: 'fun', score: 8 },
  { track: 'tools', score: 5 },
  { track: 'fun', score: null },
  { track: 'tools', score: null },
] as const;

/** The next page's path from a Link header, or null. */
function nextPath(res: ApiResponse): string | null {
  const link = res.headers.get('link');
  if (!link) return null;
  const m = /^<([^>]+)>; rel="next"$/.exec(link);
  expect(m).not.toBeNull();
  const url = new URL(m![1]!);
  expect(url.origin).toBe(BASE);
  return url.pathname + url.search;
}

describe.each(DIALECTS)('leaderboard and result pagination (%s)', (dialect) => {
  let t: TestApp;
  let org: { id: string; key: string };
  let eventId: string;
  let ids: string[];
  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
    eventId = await createEvent(t, org.key, { models: [] });
    ids = await seedProjects(t, eventId, SPEC);
  });
  afterAll(async () => t?.close());

  async function walk(first: string, key?: string) {
    const pages: ApiResponse[] = [];
    let path: string | null = first;
    while (path) {
      const res = await t.request('GET', path, key ? { key } : {});
      expect(res.status).toBe(200);
      pages.push(res);
      path = nextPath(res);
    }
    return pages;
  }

  it('pages the leaderboard by limit and cursor, ranks continuing across pages (ties too)', async () => {
    const whole = await t.api('GET', `/events/${eventId}/leaderboard`, { key: org.key });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('link')).toBeNull();
    expect(whole.body.map((e: any) => [e.project_id, e.rank, e.score])).toEqual([
      [ids[0], 1, 9],
      [ids[1], 2, 8],
      [ids[2], 2, 8],
      [ids[3], 2, 8],
      [ids[4], 5, 5],
      [ids[5], 6, 0],
      [ids[6], 6, 0],
    ]);

    const pages = await walk(`/api/v1/events/${eventId}/leaderboard?limit=2`, org.key);
    expect(pages.map((p) => p.body.length)).toEqual([2, 2, 2, 1]);
    expect(pages.flatMap((p) => p.body)).toEqual(whole.body);
    const link = pages[0]!.headers.get('link')!;
    expect(link).toMatch(new RegExp(`^<${BASE}/api/v1/events/${eventId}/leaderboard\\?limit=2&cursor=[A-Za-z0-9_-]+>; rel="next"$`));
  });

  it('ranks a page right when its cursor carries no place, or the place of another walk', async () => {
    const whole = (await t.api('GET', `/events/${eventId}/leaderboard`, { key: org.key })).body;
    const first = await t.api('GET', `/events/${eventId}/leaderboard?limit=2`, { key: org.key });
    const cursor = new URL(/^<([^>]+)>/.exec(first.headers.get('link')!)![1]!).searchParams.get('cursor')!;
    const parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    expect(parts.slice(0, 2)).toEqual(['leaderboard', eventId]); // the list and the event it is bound to
    expect(parts).toHaveLength(8); // then the sort key, then the last entry's rank, position and track
    // Only the sort key (a cursor without the place): the page counts its place itself.
    const bare = Buffer.from(JSON.stringify(parts.slice(0, 5))).toString('base64url');
    const page = await t.api('GET', `/events/${eventId}/leaderboard?limit=2&cursor=${bare}`, { key: org.key });
    expect(page.body).toEqual(whole.slice(2, 4));
    // The all-tracks walk's cursor used for one track: the carried place is not that track's.
    const tools = (await t.api('GET', `/events/${eventId}/leaderboard?track_id=tools`, { key: org.key })).body;
    const inTrack = await t.api('GET', `/events/${eventId}/leaderboard?track_id=tools&cursor=${cursor}`, { key: org.key });
    expect(inTrack.body.map((e: any) => [e.project_id, e.rank])).toEqual(
      tools.filter((e: any) => whole.findIndex((w: any) => w.project_id === e.project_id) >= 2).map((e: any) => [e.project_id, e.rank]),
    );
    // A place that cannot be (rank above position + 1) is not a cursor this endpoint issued.
    const forged = Buffer.from(JSON.stringify([...parts.slice(0, 5), 5, 1, ''])).toString('base64url');
    const bad = await t.api('GET', `/events/${eventId}/leaderboard?cursor=${forged}`, { key: org.key });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe('cursor');
  });

  it('keeps ?track_id= in the next link and ranks within the track', async () => {
    const pages = await walk(`/api/v1/events/${eventId}/leaderboard?track_id=tools&limit=3`, org.key);
    expect(pages).toHaveLength(2);
    expect(pages[0]!.headers.get('link')).toContain('track_id=tools&limit=3&cursor=');
    expect(pages.flatMap((p) => p.body).map((e: any) => [e.project_id, e.rank])).toEqual([
      [ids[0], 1],
      [ids[2], 2],
      [ids[4], 3],
      [ids[6], 4],
    ]);
    const fun = await walk(`/api/v1/events/${eventId}/leaderboard?track_id=fun&limit=1`, org.key);
    expect(fun.flatMap((p) => p.body).map((e: any) => [e.project_id, e.rank])).toEqual([
      [ids[1], 1],
      [ids[3], 1],
      [ids[5], 3],
    ]);
  });

  it('shows each project’s review coverage on the leaderboard', async () => {
    const res = await t.api('GET', `/events/${eventId}/leaderboard?limit=1`, { key: org.key });
    expect(res.body[0].reviews).toEqual({ expected: 0, succeeded: 0, failed: 0, pending: 0, human: 1 });
  });

  it('answers 422 validation_failed on cursor for a malformed cursor, and on limit out of range', async () => {
    const bad = [
      'not-a-cursor!!',
      Buffer.from('{"a":1}').toString('base64url'),
      Buffer.from('[1,2]').toString('base64url'),
      Buffer.from('["x","y","z"]').toString('base64url'),
    ];
    for (const cursor of bad) {
      for (const path of [`/events/${eventId}/leaderboard?cursor=${cursor}`]) {
        const res = await t.api('GET', path, { key: org.key });
        expect(res.status).toBe(422);
        expect(res.body.code).toBe('validation_failed');
        expect(res.body.errors.map((e: any) => e.field)).toEqual(['cursor']);
      }
    }
    for (const limit of ['0', '1001', 'ten']) {
      const res = await t.api('GET', `/events/${eventId}/leaderboard?limit=${limit}`, { key: org.key });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
    }
  });

  it('streams the whole CSV whatever the page size, escaped as before', async () => {
    const csv = await t.api('GET', `/events/${eventId}/leaderboard?format=csv&limit=1`, { key: org.key });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = csv.text.split('\r\n');
    expect(lines).toHaveLength(SPEC.length + 2); // header, rows, and the empty string after the last CRLF
    expect(lines[0]).toBe(
      'rank,project_id,project_name,team_name,track_id,score,score_raw,score_normalized,scores_by_model.human,scores_by_dimension.impact,scores_by_dimension.craft,track_rank,prize',
    );
    expect(lines.slice(1, -1).map((l) => l.split(',')[0])).toEqual(['1', '2', '2', '2', '5', '6', '6']);
  });

  it('refuses to publish while judged projects are unscored (409 unscored_projects), unless forced', async () => {
    t.clock.set(T0.getTime() + 2 * DAY + HOUR); // judging
    const refused = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('unscored_projects');
    expect(refused.body.unscored_count).toBe(2);
    expect(refused.body.project_ids).toEqual([ids[5], ids[6]]);
    expect(refused.body.detail).toContain('2 judged project(s) have no score');
    expect((await t.api('GET', `/events/${eventId}/result`)).body.code).toBe('results_not_published');

    const notBoolean = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key, body: { force: 'yes' } });
    expect(notBoolean.status).toBe(422);
    expect(notBoolean.body.code).toBe('validation_failed');

    const forced = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key, body: { force: true } });
    expect(forced.status).toBe(200);
    expect(forced.body.entries.map((e: any) => e.rank)).toEqual([1, 2, 2, 2, 5, 6, 6]);
    expect(forced.body.entries[0].reviews).toBeUndefined();
  });

  it('pages the result from its stored entries, each page with its own ETag and 304', async () => {
    const first = await t.api('GET', `/events/${eventId}/result`);
    expect(first.status).toBe(200);
    const snapshot = await t.ctx.db.selectFrom('results').select('etag').where('event_id', '=', eventId).executeTakeFirstOrThrow();
    expect(first.headers.get('etag')).toBe(`"${snapshot.etag}"`);
    expect(first.body.map((e: any) => e.rank)).toEqual([1, 2, 2, 2, 5, 6, 6]);

    const pages = await walk(`/api/v1/events/${eventId}/result?limit=3`);
    expect(pages.map((p) => p.body.length)).toEqual([3, 3, 1]);
    expect(pages.flatMap((p) => p.body)).toEqual(first.body);
    expect(pages[0]!.headers.get('link')).toMatch(new RegExp(`^<${BASE}/api/v1/events/${eventId}/result\\?limit=3&cursor=[A-Za-z0-9_-]+>; rel="next"$`));
    const tags = pages.map((p) => p.headers.get('etag')!);
    expect(new Set([...tags, first.headers.get('etag')]).size).toBe(4);
    for (const [i, p] of pages.entries()) {
      const url = new URL(`${BASE}${i === 0 ? `/api/v1/events/${eventId}/result?limit=3` : nextPath(pages[i - 1]!)}`);
      const again = await t.request('GET', url.pathname + url.search, { headers: { 'if-none-match': tags[i]! } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(p.headers.get('etag'));
    }

    const tools = await walk(`/api/v1/events/${eventId}/result?track_id=tools&limit=3`);
    expect(tools[0]!.headers.get('link')).toContain('track_id=tools&limit=3&cursor=');
    expect(tools.flatMap((p) => p.body).map((e: any) => [e.project_id, e.rank])).toEqual([
      [ids[0], 1],
      [ids[2], 2],
      [ids[4], 3],
      [ids[6], 4],
    ]);
    const fun = await t.api('GET', `/events/${eventId}/result?track_id=fun`);
    expect(fun.body.map((e: any) => [e.project_id, e.rank])).toEqual([
      [ids[1], 1],
      [ids[3], 1],
      [ids[5], 3],
    ]);

    const bad = await t.api('GET', `/events/${eventId}/result?cursor=${Buffer.from('[0]').toString('base64url')}`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.field)).toEqual(['cursor']);
  });

  it('answers a conditional request from the tag alone, without reading the entries', async () => {
    const page = await t.api('GET', `/events/${eventId}/result?limit=2`);
    const etag = page.headers.get('etag')!;
    // With the entry rows gone, only a request that never reads them can still answer.
    await t.ctx.db.deleteFrom('result_entries').where('event_id', '=', eventId).execute();
    const again = await t.api('GET', `/events/${eventId}/result?limit=2`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
  });
});

describe.each(DIALECTS)('leaderboard CSV streaming (%s)', (dialect) => {
  let t: TestApp;
  afterAll(async () => t?.close());
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });

  it('streams more rows than one read chunk, in order, chunked transfer', async () => {
    const org = await quickUser(t, 'organizer');
    const eventId = await createEvent(t, org.key, { models: [] });
    const n = 1_205;
    const ids = await seedProjects(
      t,
      eventId,
      Array.from({ length: n }, (_, i) => ({ track: null, score: i % 10 })),
    );
    const csv = await t.api('GET', `/events/${eventId}/leaderboard.csv`, { key: org.key });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-length')).toBeNull();
    expect(csv.headers.get('transfer-encoding')).toBe('chunked');
    const rows = csv.text
      .split('\r\n')
      .slice(1, -1)
      .map((l) => l.split(','));
    expect(rows).toHaveLength(n);
    // The 120 projects scored 9 share rank 1; those scored 8 start at 121, across the read chunks.
    expect(rows[0]![0]).toBe('1');
    expect(rows[119]![0]).toBe('1');
    expect(rows[120]![0]).toBe('121');
    expect(rows[1_199]![0]).toBe('1085');
    expect(rows[1_204]![0]).toBe('1085');
    expect(new Set(rows.map((r) => r[1]))).toEqual(new Set(ids));

    // Published from the same 1,205 entries (built and hashed a read chunk at a time): the tag is
    // the SHA-256 of exactly the entries' bytes in the answer, and the result serves those bytes.
    t.clock.set(T0.getTime() + 2 * DAY + HOUR); // judging
    const published = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key });
    expect(published.status).toBe(200);
    const marker = '"entries":';
    const entriesJson = published.text.slice(published.text.indexOf(marker) + marker.length, -1);
    expect(published.body.etag).toBe(`"${createHash('sha256').update(entriesJson).digest('base64url')}"`);
    expect(published.body.entries.map((e: any) => [e.rank, e.project_id])).toEqual(rows.map((r) => [Number(r[0]), r[1]]));
    const pages: string[] = [];
    for (let path: string | null = `/api/v1/events/${eventId}/result?limit=1000`; path !== null;) {
      const res: ApiResponse = await t.request('GET', path);
      pages.push(res.text.slice(1, -1));
      path = nextPath(res);
    }
    expect(pages).toHaveLength(2);
    expect(`[${pages.join(',')}]`).toBe(entriesJson);
  }, 60_000);
});
