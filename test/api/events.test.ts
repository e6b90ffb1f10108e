import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRow } from '../../src/events/events-model.js';
import { effectiveStatus } from '../../src/events/status.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, eventBody, startTestApp, T0, type ApiResponse, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

const HOUR = 3_600_000;
const at = (ms: number) => new Date(T0.getTime() + ms).toISOString();

describe.each(DIALECTS)('public event discovery (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
    stranger = await quickUser(t, 'organizer');
  });
  afterAll(async () => t?.close());

  /** Every public id, following Link rel="next" from page to page. */
  async function allPages(query: string) {
    const ids: string[] = [];
    let path: string | null = `/api/v1/events?${query}`;
    let pages = 0;
    while (path) {
      const res = await t.request('GET', path);
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      ids.push(...res.body.map((e: { id: string }) => e.id));
      const link = res.headers.get('link');
      if (link) {
        const m = /^<([^>]+)>; rel="next"$/.exec(link);
        expect(m, link).not.toBeNull();
        expect(m![1]!.startsWith(`${t.config.publicUrl}/api/v1/events?`)).toBe(true);
        path = m![1]!.slice(t.config.publicUrl.length);
      } else path = null;
      if (++pages > 100) throw new Error('pagination does not end');
    }
    return { ids, pages };
  }

  it('lists events created through the API as an array of summaries, newest first', async () => {
    const a = await createEvent(t, org.key, { name: 'First' });
    const b = await createEvent(t, org.key, { name: 'Second' });
    const res = await t.api('GET', '/events');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const ids = res.body.map((e: { id: string }) => e.id);
    expect(ids.indexOf(b)).toBeLessThan(ids.indexOf(a));
    const item = res.body.find((e: { id: string }) => e.id === a);
    expect(item).toMatchObject({
      id: a,
      name: 'First',
      status: 'open',
      registration_deadline: at(24 * HOUR),
      submission_deadline: at(48 * HOUR),
      tracks: [
        { id: 'tools', name: 'Developer tools', prize: '$1000' },
        { id: 'fun', name: 'Just for fun', prize: 'glory' },
      ],
    });
  });

  it('hides drafts from the public list and from strangers, shows them to their organizer', async () => {
    const created = await t.api('POST', '/events', { key: org.key, body: eventBody(t.clock.now(), { status: 'draft', name: 'Secret' }) });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('draft');
    const id = created.body.id;

    const list = await t.api('GET', '/events?limit=100');
    expect(list.body.map((e: { id: string }) => e.id)).not.toContain(id);
    const all = await t.api('GET', '/events?status=open,active,judging,ended,cancelled&limit=100');
    expect(all.body.map((e: { id: string }) => e.id)).not.toContain(id);

    for (const key of [undefined, stranger.key]) {
      for (const path of [`/events/${id}`, `/events/${id}/register`]) {
        const res = await t.api('GET', path, { key });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('event_not_found');
        expect(res.text).not.toContain('Secret');
      }
    }
    const own = await t.api('GET', `/events/${id}`, { key: org.key });
    expect(own.status).toBe(200);
    expect(own.body.status).toBe('draft');

    const mine = await t.api('GET', '/events?mine=true&status=draft', { key: org.key });
    expect(mine.status).toBe(200);
    expect(mine.body.map((e: { id: string }) => e.id)).toEqual([id]);
    const theirs = await t.api('GET', '/events?mine=true&status=draft', { key: stranger.key });
    expect(theirs.body).toEqual([]);
  });

  it('refuses status=draft without mine=true, and mine=true without a key', async () => {
    const res = await t.api('GET', '/events?status=draft');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors[0].field).toBe('status');
    const anon = await t.api('GET', '/events?mine=true');
    expect(anon.status).toBe(401);
  });

  it('filters by status, with comma lists, any case, and recruiting meaning open', async () => {
    const open = await createEvent(t, org.key, { name: 'Filter open' });
    const cancelled = await createEvent(t, org.key, { name: 'Filter cancelled' });
    expect((await t.api('PATCH', `/events/${cancelled}`, { key: org.key, body: { status: 'cancelled' } })).status).toBe(200);
    const ids = async (q: string) => {
      const res = await t.api('GET', `/events?${q}&limit=100`);
      expect(res.status, res.text).toBe(200);
      for (const e of res.body) expect(e.status).not.toBe('recruiting');
      return res.body.map((e: { id: string }) => e.id) as string[];
    };
    const openIds = await ids('status=open');
    expect(openIds).toContain(open);
    expect(openIds).not.toContain(cancelled);
    expect(await ids('status=recruiting')).toEqual(openIds);
    expect(await ids('status=RECRUITING')).toEqual(openIds);
    expect(await ids('status=cancelled')).toEqual([cancelled]);
    const both = await ids('status=recruiting,cancelled');
    expect(both).toContain(open);
    expect(both).toContain(cancelled);
    expect(await ids('status=open%2C%20cancelled')).toEqual(both);
    expect(await ids('status=judging')).not.toContain(open);
  });

  it.each([
    ['status=bogus', 'status'],
    ['status=open,bogus', 'status'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['cursor=not-a-cursor', 'cursor'],
    ['cursor=evt_%27%20OR%201%3D1--', 'cursor'],
    ['unknown=1', 'unknown'],
  ])('answers 422 validation_failed for ?%s', async (query, field) => {
    const res = await t.api('GET', `/events?${query}`);
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('treats an empty status filter as no filter', async () => {
    const all = await t.api('GET', '/events');
    const empty = await t.api('GET', '/events?status=');
    expect(empty.status).toBe(200);
    expect(empty.body.length).toBeGreaterThan(0);
    expect(empty.body).toEqual(all.body);
  });

  it('paginates with limit and cursor through Link rel="next", each event exactly once, body stays an array', async () => {
    for (let i = 0; i < 5; i++) await createEvent(t, org.key, { name: `Page ${i}` });
    const publicRows = await t.ctx.db.selectFrom('events').select('id').where('status', '!=', 'draft').orderBy('id', 'desc').execute();
    const expected = publicRows.map((r) => r.id);
    const first = await t.api('GET', '/events?limit=2');
    expect(first.body).toHaveLength(2);
    expect(first.headers.get('link')).toMatch(/rel="next"/);
    const { ids, pages } = await allPages('limit=2');
    expect(ids).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 2));
    const one = await allPages(`limit=${expected.length}`);
    expect(one.pages).toBe(1);
    expect(one.ids).toEqual(expected);
  });

  it('keeps the status filter across pages', async () => {
    const { ids } = await allPages('status=cancelled&limit=1');
    const cancelledRows = await t.ctx.db.selectFrom('events').select('id').where('status', '=', 'cancelled').orderBy('id', 'desc').execute();
    expect(ids).toEqual(cancelledRows.map((r) => r.id));
    expect(ids.length).toBeGreaterThan(0);
  });

  it('GET /events/:id returns the full event with timeline, tracks and dimensions', async () => {
    const id = await createEvent(t, org.key, { name: 'Detail' });
    const res = await t.api('GET', `/events/${id}`);
    expect(res.status).toBe(200);
    const body = eventBody(T0);
    expect(res.body).toMatchObject({
      id,
      name: 'Detail',
      description: body.description,
      status: 'open',
      registration_deadline: at(24 * HOUR),
      submission_deadline: at(48 * HOUR),
      result_announced_at: null,
      timeline: { registration_deadline: at(24 * HOUR), submission_deadline: at(48 * HOUR), result_announced_at: null },
      tracks: body.tracks,
      dimensions: body.dimensions,
      models: body.models,
      registration_config: { open: true, auto_approve: false },
    });
    expect(res.body).not.toHaveProperty('co_organizers');
    const asOwner = await t.api('GET', `/events/${id}`, { key: org.key });
    expect(asOwner.body.co_organizers).toEqual([]);
  });

  it('GET /events/:id answers 404 event_not_found for unknown ids', async () => {
    for (const id of ['evt_doesnotexist', 'nope', encodeURIComponent('é∑😀')]) {
      const res = await t.api('GET', `/events/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('event_not_found');
    }
  });

  it('GET /events/:id/register carries both seed shapes (superset)', async () => {
    const id = await createEvent(t, org.key, { name: 'Form' });
    const res = await t.api('GET', `/events/${id}/register`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      event_id: id,
      event_name: 'Form',
      description: 'Build something agents love.',
      status: 'open',
      open: true,
      timeline: { registration_deadline: at(24 * HOUR), submission_deadline: at(48 * HOUR), result_announced_at: null },
      tracks: eventBody(T0).tracks,
      event: { id, name: 'Form', status: 'open' },
    });
    expect(res.body.fields).toEqual([
      { key: 'repo', name: 'repo', label: 'Repository', type: 'url', required: true },
      { key: 'why', name: 'why', label: 'Why this team', type: 'text', required: false },
    ]);
  });

  it('GET /events/:id/register says open=false when the form is closed or the deadline passed', async () => {
    const closed = await createEvent(t, org.key, { registration_config: { open: false } });
    const form = await t.api('GET', `/events/${closed}/register`);
    expect(form.body.open).toBe(false);
    expect(form.body.status).toBe('open');

    const id = await createEvent(t, org.key);
    t.clock.set(at(24 * HOUR - 1));
    expect((await t.api('GET', `/events/${id}/register`)).body.open).toBe(true);
    t.clock.set(at(24 * HOUR));
    const after = await t.api('GET', `/events/${id}/register`);
    expect(after.body.open).toBe(false);
    expect(after.body.status).toBe('active');
    expect(after.body.event.status).toBe('active');
    t.clock.set(T0);
  });

  it('GET /events/:id/result answers 409 results_not_published before publication, 404 for unknown events', async () => {
    const id = await createEvent(t, org.key);
    const res = await t.api('GET', `/events/${id}/result`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('results_not_published');
    expect((await t.api('GET', '/events/evt_nope/result')).body.code).toBe('event_not_found');
  });
});

// EVENT_CACHE_TTL_MS=0 sends every list through the SQL predicate (events-repo statusPredicate);
// the default serves public lists from the in-memory catalog. Both must agree with effectiveStatus.
describe.each(DIALECTS.flatMap((d) => [[d, 'sql', '0'] as const, [d, 'catalog', '60000'] as const]))(
  'status filter agrees with effectiveStatus (%s, %s)',
  (dialect, _path, ttl) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(dialect, { env: { EVENT_CACHE_TTL_MS: ttl } });
    });
    afterAll(async () => t?.close());

    it('at, 1 ms before and 1 ms after every deadline, for every stored status', async () => {
      const org = await quickUser(t, 'organizer');
      // Deadlines a few hours apart, each in its own event, so every boundary is crossed by some event.
      // Nothing reads the public list until every write is done, so a catalog snapshot is never stale.
      const plans: Array<{ reg: number; sub: number; stored: 'open' | 'active' | 'judging' | 'cancelled' | 'ended' }> = [
        { reg: 1, sub: 3, stored: 'open' },
        { reg: 2, sub: 2, stored: 'open' },
        { reg: 2, sub: 4, stored: 'active' },
        { reg: 3, sub: 5, stored: 'judging' },
        { reg: 1, sub: 4, stored: 'cancelled' },
        { reg: 1, sub: 2, stored: 'ended' },
      ];
      const ids: string[] = [];
      for (const p of plans) {
        const id = await createEvent(t, org.key, { registration_deadline: at(p.reg * HOUR), submission_deadline: at(p.sub * HOUR) });
        if (p.stored === 'ended') await t.ctx.db.updateTable('events').set({ status: 'ended' }).where('id', '=', id).execute();
        else if (p.stored !== 'open') {
          const res = await t.api('PATCH', `/events/${id}`, { key: org.key, body: { status: p.stored } });
          expect(res.status, res.text).toBe(200);
        }
        ids.push(id);
      }
      const rows = (await t.ctx.db.selectFrom('events').selectAll().where('id', 'in', ids).execute()).map(fromRow);
      const times = new Set<number>([0]);
      for (const p of plans) for (const h of [p.reg, p.sub]) for (const d of [-1, 0, 1]) times.add(h * HOUR + d);

      const statuses = ['open', 'active', 'judging', 'ended', 'cancelled'] as const;
      for (const ms of [...times].sort((a, b) => a - b)) {
        t.clock.set(T0.getTime() + ms);
        const now = t.clock.now();
        for (const s of statuses) {
          const expected = rows
            .filter((r) => effectiveStatus(r, now) === s)
            .map((r) => r.id)
            .sort();
          const res = await t.api('GET', `/events?status=${s}&limit=100`);
          expect(res.status).toBe(200);
          const got = res.body.map((e: { id: string }) => e.id).sort();
          expect(got, `status=${s} at ${now.toISOString()}`).toEqual(expected);
          for (const e of res.body) expect(e.status).toBe(s);
        }
        // And every listed status is the function's answer (no stale stored status leaks out).
        const list = await t.api('GET', '/events?limit=100');
        for (const r of rows) {
          const item = list.body.find((e: { id: string }) => e.id === r.id);
          expect(item.status, `${r.id} at ${now.toISOString()}`).toBe(effectiveStatus(r, now));
        }
      }
      t.clock.set(T0);
    });

    it('paginates with a status filter through Link rel="next", each event once, newest first', async () => {
      const org = await quickUser(t, 'organizer');
      for (let i = 0; i < 5; i++) await createEvent(t, org.key, { name: `Paged ${i}` });
      const now = t.clock.now();
      const rows = (await t.ctx.db.selectFrom('events').selectAll().where('status', '!=', 'draft').orderBy('id', 'desc').execute()).map(fromRow);
      const expected = rows.filter((r) => ['open', 'judging'].includes(effectiveStatus(r, now))).map((r) => r.id);
      expect(expected.length).toBeGreaterThan(4);
      const seen: string[] = [];
      const nextLinks: string[] = [];
      let path: string | null = '/api/v1/events?status=recruiting,judging&limit=2';
      while (path) {
        const res: ApiResponse = await t.request('GET', path);
        expect(res.status).toBe(200);
        expect(Array.isArray(res.body)).toBe(true);
        expect(res.body.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.map((e: { id: string }) => e.id));
        const link: string | null = res.headers.get('link');
        path = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1]!.replace(t.config.publicUrl, '') : null;
        if (path) nextLinks.push(path);
        if (seen.length > 200) throw new Error('pagination does not end');
      }
      expect(seen).toEqual(expected);
      // At least two full pages were followed, and every next link kept the filter.
      expect(nextLinks.length).toBeGreaterThanOrEqual(2);
      for (const link of nextLinks) expect(link).toContain('status=recruiting%2Cjudging');
    });
  },
);
