import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, type ApiResponse, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

const HOUR = 3_600_000;

/**
 * `GET /events?mine=true`: the organizer's own events (drafts and co-organized ones included),
 * newest first, paged by `Link: rel="next"`, filtered by effective status at the server's clock.
 */
describe.each(DIALECTS)('GET /events?mine=true (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let other: TestUser;
  /** Every event `org` organizes, newest (largest id) first. */
  let mine: string[];

  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { REVIEW_WORKERS: 'false' } });
    org = await quickUser(t, 'organizer');
    other = await quickUser(t, 'organizer');
    const own: string[] = [];
    for (let i = 0; i < 6; i++) own.push(await createEvent(t, org.key, { name: `mine ${i}`, ...(i % 3 === 0 ? { status: 'draft' } : {}) }));
    // Someone else's events: one names org as co-organizer (it is org's too), the others are not org's.
    own.push(await createEvent(t, other.key, { name: 'shared', co_organizers: [org.email] }));
    await createEvent(t, other.key, { name: 'theirs' });
    await createEvent(t, other.key, { name: 'their draft', status: 'draft' });
    own.push(await createEvent(t, org.key, { name: 'mine last' }));
    mine = [...own].sort().reverse();
  });
  afterAll(async () => t?.close());

  /**
   * Follows Link rel="next" from `first`, at most `maxPages` requests: a cursor that repeats its
   * last event never ends with limit=1, and the test must fail on that rather than hang.
   */
  async function walk(first: string, maxPages: number): Promise<string[][]> {
    const pages: string[][] = [];
    let next: string | null = first;
    while (next) {
      if (pages.length === maxPages) throw new Error(`still a rel="next" after ${maxPages} pages: ${JSON.stringify(pages)}`);
      const res: ApiResponse = await t.request('GET', next.replace('http://hackathon.test', ''), { key: org.key });
      expect(res.status).toBe(200);
      pages.push(res.body.map((e: { id: string }) => e.id));
      const link = res.headers.get('link');
      next = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1]! : null;
    }
    return pages;
  }

  it.each([1, 3, 4, 100])('returns each of the organizer’s events exactly once, newest first (limit=%i)', async (limit) => {
    expect(mine).toHaveLength(8);
    const pages = await walk(`/api/v1/events?mine=true&limit=${limit}`, Math.ceil(mine.length / limit) + 1);
    expect(pages.flat()).toEqual(mine);
    // Full pages until the last; a page count that divides evenly may end on a full page with no next.
    for (const p of pages.slice(0, -1)) expect(p).toHaveLength(limit);
    expect(pages).toHaveLength(Math.ceil(mine.length / limit));
    // The next link keeps mine=true: a later page never switches to the public list.
    for (const id of pages.flat()) expect(mine).toContain(id);
  });

  it('keeps a status filter on every page (mine=true&status=draft)', async () => {
    const drafts = (await t.ctx.db.selectFrom('events').select('id').where('created_by', '=', org.id).where('status', '=', 'draft').execute())
      .map((r) => r.id)
      .sort()
      .reverse();
    expect(drafts).toHaveLength(2);
    const pages = await walk('/api/v1/events?mine=true&status=draft&limit=1', drafts.length + 1);
    expect(pages.flat()).toEqual(drafts);
  });

  it('leaves out of status=open an event exactly at its registration deadline (it is active then)', async () => {
    const start = t.clock.now().getTime();
    const closing = await createEvent(t, org.key, {
      name: 'closing',
      registration_deadline: new Date(start + HOUR).toISOString(),
      submission_deadline: new Date(start + 3 * HOUR).toISOString(),
    });
    const later = await createEvent(t, org.key, {
      name: 'later',
      registration_deadline: new Date(start + 2 * HOUR).toISOString(),
      submission_deadline: new Date(start + 3 * HOUR).toISOString(),
    });
    const statusOf = async (query: string) => {
      const res = await t.api('GET', `/events?mine=true&limit=100&${query}`, { key: org.key });
      expect(res.status).toBe(200);
      return Object.fromEntries(
        res.body.filter((e: { id: string }) => e.id === closing || e.id === later).map((e: { name: string; status: string }) => [e.name, e.status]),
      );
    };
    try {
      // One millisecond before: still open.
      t.clock.set(start + HOUR - 1);
      expect(await statusOf('status=open')).toEqual({ closing: 'open', later: 'open' });
      expect(await statusOf('status=active')).toEqual({});
      // Exactly at the deadline: registration has closed, the event is active.
      t.clock.set(start + HOUR);
      expect(await statusOf('status=open')).toEqual({ later: 'open' });
      expect(await statusOf('status=recruiting')).toEqual({ later: 'open' });
      expect(await statusOf('status=active')).toEqual({ closing: 'active' });
      expect(await statusOf('status=open,active')).toEqual({ closing: 'active', later: 'open' });
      // And registering says so too (the same rule, from the same clock).
      const team = await quickUser(t);
      const reg = await t.api('POST', `/events/${closing}/register`, {
        key: team.key,
        body: { team_name: 'At the deadline', track_id: 'tools', fields: { repo: 'https://github.com/example/repo' } },
      });
      expect(reg.status).toBe(409);
      expect(reg.body.code).toBe('registration_closed');
    } finally {
      t.clock.set(start);
    }
  });
});
