import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRow } from '../../src/events/events-model.js';
import { effectiveStatus } from '../../src/events/status.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, T0, type ApiResponse, type TestApp } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

const HOUR = 3_600_000;
const ALLOWED =
  'id, name, description, description_text, status, registration_deadline, submission_deadline, result_announced_at, tracks, cover_url, logo_url, created_at';

/** Follows Link rel="next" from `first` to the end; returns every page's ids. */
async function walk(t: TestApp, first: string, between?: () => Promise<void>): Promise<string[][]> {
  const pages: string[][] = [];
  let next: string | null = first;
  type Res = ApiResponse<any>;
  while (next) {
    const res: Res = await t.request('GET', next.replace('http://hackathon.test', ''));
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    pages.push(res.body.map((e: { id: string }) => e.id));
    const link: string | null = res.headers.get('link');
    next = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1]! : null;
    if (between) await between();
  }
  return pages;
}

describe.each(DIALECTS)('GET /events pages from the index (%s)', (dialect) => {
  let t: TestApp;
  let org: Awaited<ReturnType<typeof quickUser>>;
  const ids: string[] = [];

  beforeAll(async () => {
    // A small cache: most items of a page come from the database, the rest from memory.
    t = await startTestApp(dialect, { env: { EVENT_CACHE_MAX_ENTRIES: '10', REVIEW_WORKERS: 'false' } });
    org = await quickUser(t, 'organizer');
    // 90 events whose deadlines and stored statuses vary, so every filter has members on many pages.
    const moves: number[] = [];
    for (let i = 0; i < 90; i++) {
      const reg = 1 + (i % 5);
      const id = await createEvent(t, org.key, {
        name: `event ${i}`,
        registration_deadline: new Date(T0.getTime() + reg * HOUR).toISOString(),
        submission_deadline: new Date(T0.getTime() + (reg + 1 + (i % 3)) * HOUR).toISOString(),
      });
      const stored = i % 11 === 0 ? 'cancelled' : i % 13 === 0 ? 'judging' : i % 7 === 0 ? 'active' : null;
      if (stored) moves.push((await t.api('PATCH', `/events/${id}`, { key: org.key, body: { status: stored } })).status);
      ids.push(id);
    }
    // Every stored-status move was accepted.
    expect(moves).toEqual(Array(moves.length).fill(200));
    expect(moves.length).toBeGreaterThan(10);
    // A draft never appears in the public list.
    await createEvent(t, org.key, { status: 'draft' });
    // Some deadlines have passed: the clock moves effective statuses.
    t.clock.set(T0.getTime() + 3 * HOUR);
  });
  afterAll(async () => t?.close());

  async function expected(statuses: string[] | null): Promise<string[]> {
    const rows = (await t.ctx.db.selectFrom('events').selectAll().where('status', '!=', 'draft').execute()).map(fromRow);
    const now = t.clock.now();
    return rows
      .filter((r) => !statuses || statuses.includes(effectiveStatus(r, now)))
      .map((r) => r.id)
      .sort()
      .reverse();
  }

  for (const filter of [null, 'open', 'active', 'judging', 'cancelled', 'recruiting,judging', 'active,cancelled,ended']) {
    it(`every event once, newest first (status=${filter ?? 'none'})`, async () => {
      const statuses = filter ? filter.split(',').map((s) => (s === 'recruiting' ? 'open' : s)) : null;
      const want = await expected(statuses);
      expect(want.length).toBeGreaterThan(filter === null ? 89 : 0);
      const pages = await walk(t, `/api/v1/events?limit=7${filter ? `&status=${filter}` : ''}`);
      const got = pages.flat();
      expect(got).toEqual(want);
      for (const p of pages.slice(0, -1)) expect(p).toHaveLength(7);
      // Each item's status is the one the filter asked for.
      if (statuses) {
        const first = await t.api('GET', `/events?limit=100&status=${filter}`);
        expect(first.status).toBe(200);
        for (const e of first.body) expect(statuses).toContain(e.status);
      }
    });
  }

  it('is stable under concurrent inserts: every event that existed is listed once, in order', async () => {
    const before = await expected(['open', 'active']);
    const created: string[] = [];
    const pages = await walk(t, '/api/v1/events?limit=5&status=open,active', async () => {
      created.push(await createEvent(t, org.key, { name: 'late' }));
    });
    const got = pages.flat();
    // New events are newer than every cursor, so they never shift a later page.
    expect(got).toEqual(before);
    expect(got.filter((id) => created.includes(id))).toEqual([]);
    const fresh = await t.api('GET', '/events?limit=3&status=open');
    expect(fresh.body.map((e: { id: string }) => e.id)).toEqual(created.slice(-3).reverse());
  });

  it('defaults to 50 per page and refuses a limit above 100', async () => {
    const res = await t.api('GET', '/events');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(50);
    expect(res.headers.get('link')).toMatch(/limit=50/);
    const tooMany = await t.api('GET', '/events?limit=101');
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.code).toBe('validation_failed');
  });

  it('?mine=true lists the organizer’s events, drafts included', async () => {
    const res = await t.api('GET', '/events?mine=true&status=draft', { key: org.key });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0].status).toBe('draft');
  });

  it('fields= returns only the named fields, and the Link keeps them', async () => {
    const res = await t.api('GET', '/events?fields=id,name,status&limit=2');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    for (const e of res.body) expect(Object.keys(e).sort()).toEqual(['id', 'name', 'status']);
    expect(res.headers.get('link')).toContain('fields=id%2Cname%2Cstatus');
    const pages = await walk(t, '/api/v1/events?fields=id&limit=40');
    expect(pages.flat()).toEqual(await expected(null));
    // Compact: a page of 50 without descriptions and tracks is a few KB.
    const compact = await t.api('GET', '/events?fields=id,name,status&limit=50');
    expect(compact.body).toHaveLength(50);
    expect(compact.text.length).toBeLessThan(5 * 1024);
  });

  it('serves each shape of a page as its own bytes, whatever was asked before (items are serialised once per shape)', async () => {
    const full = await t.api('GET', '/events?limit=3');
    const few = await t.api('GET', '/events?fields=name,id&limit=3');
    const again = await t.api('GET', '/events?fields=id,name,id&limit=3');
    const fullAgain = await t.api('GET', '/events?limit=3');
    for (const e of few.body) expect(Object.keys(e)).toEqual(['id', 'name']);
    expect(again.text).toBe(few.text);
    expect(fullAgain.text).toBe(full.text);
    expect(Object.keys(full.body[0]).length).toBeGreaterThan(2);
    expect(few.body).toEqual(full.body.map((e: any) => ({ id: e.id, name: e.name })));
  });

  it('fields= with an unknown field answers 422 listing the allowed ones', async () => {
    for (const bad of ['id,secret', 'registration_config', '', 'id,,name']) {
      const res = await t.api('GET', `/events?fields=${bad}`);
      expect(res.status, bad).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors[0].field).toBe('fields');
      expect(res.body.errors[0].message).toContain(`allowed: ${ALLOWED}`);
    }
  });
});

describe.each(DIALECTS)('GET /events remembers pages, never past a write or a status change (%s)', (dialect) => {
  let t: TestApp;
  let org: Awaited<ReturnType<typeof quickUser>>;

  beforeAll(async () => {
    // A long TTL: only a write or the clock crossing a deadline may refresh a remembered page.
    t = await startTestApp(dialect, { env: { EVENT_CACHE_TTL_MS: '600000', REVIEW_WORKERS: 'false' } });
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => t?.close());

  const ids = async (query: string) => {
    const res = await t.api('GET', `/events${query}`);
    expect(res.status).toBe(200);
    return res.body.map((e: { id: string; status: string }) => `${e.id}:${e.status}`);
  };

  it('moves an event from ?status=open to ?status=active the moment its registration deadline passes', async () => {
    const start = t.clock.now().getTime();
    const soon = await createEvent(t, org.key, {
      registration_deadline: new Date(start + HOUR).toISOString(),
      submission_deadline: new Date(start + 3 * HOUR).toISOString(),
    });
    const later = await createEvent(t, org.key, {
      registration_deadline: new Date(start + 2 * HOUR).toISOString(),
      submission_deadline: new Date(start + 3 * HOUR).toISOString(),
    });
    expect(await ids('?status=open')).toEqual([`${later}:open`, `${soon}:open`]);
    expect(await ids('?status=active')).toEqual([]);
    expect(t.ctx.events.cacheStats().pages).toBe(2); // both pages are remembered now

    t.clock.set(start + HOUR); // exactly at the deadline the window is closed
    expect(await ids('?status=open')).toEqual([`${later}:open`]);
    expect(await ids('?status=active')).toEqual([`${soon}:active`]);
    // The unfiltered list does not depend on the clock: same members, statuses computed now.
    expect(await ids('')).toEqual([`${later}:open`, `${soon}:active`]);

    t.clock.set(start + 3 * HOUR);
    expect(await ids('?status=judging')).toEqual([`${later}:judging`, `${soon}:judging`]);
    expect(await ids('?status=open,active')).toEqual([]);
  });

  it('shows a new, edited or cancelled event at once', async () => {
    const first = await createEvent(t, org.key, { name: 'First' });
    const before = await ids('?status=open');
    expect(before[0]).toBe(`${first}:open`);
    const second = await createEvent(t, org.key, { name: 'Second' });
    expect((await ids('?status=open'))[0]).toBe(`${second}:open`);
    expect((await t.api('PATCH', `/events/${second}`, { key: org.key, body: { status: 'cancelled' } })).status).toBe(200);
    expect(await ids('?status=open')).toEqual(before);
    expect((await ids('?status=cancelled'))[0]).toBe(`${second}:cancelled`);
  });
});
