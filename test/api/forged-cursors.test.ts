import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, T0, type ApiResponse, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';
import { seedProjects } from '../helpers/seed-projects.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SPEC = [
  { track: 'tools', score: 9 },
  { track: 'tools', score: 7 },
  { track: 'tools', score: 5 },
] as const;

/** base64url of JSON, as the server writes its cursors. */
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const unb64 = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];

/** Values no part of any cursor may hold: control characters, broken Unicode, numbers past 32 bits, wrong types. */
const BAD_PARTS: ReadonlyArray<[string, unknown]> = [
  ['a NUL byte', '\u0000'],
  ['text with a NUL byte', 'prj_1\u0000'],
  ['a newline', 'a\nb'],
  ['a lone surrogate', '\ud800'],
  ['301 characters', 'x'.repeat(301)],
  ['2^31', 2 ** 31],
  ['2^40', 2 ** 40],
  ['-2', -2],
  ['1.5', 1.5],
  ['1e308', 1e308],
  ['null', null],
  ['true', true],
  ['an object', { a: 1 }],
  ['an array', ['x']],
];

/**
 * Every paginated list refuses a forged cursor with 422 validation_failed on field `cursor`, on both
 * databases, never a 500 (PostgreSQL errors on a NUL byte in text or an integer past 32 bits) and
 * never a silently wrong page: each part of a real cursor is replaced in turn by each bad value,
 * parts are added and removed, and a cursor of one event is refused by another.
 */
describe.each(DIALECTS)('forged cursors (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let admin: TestUser;
  let reviewer: TestUser;
  let eventA: string;
  let eventB: string;

  async function seedEvent(): Promise<string> {
    const id = await createEvent(t, org.key, { models: [] });
    await seedProjects(t, id, SPEC);
    const now = t.clock.now().toISOString();
    // Two reviewers (the list pages reviewers, then unused invitations) and the reviewer of the assignments.
    for (const u of [reviewer, await quickUser(t), await quickUser(t)]) {
      await t.ctx.db.insertInto('event_reviewers').values({ event_id: id, user_id: u.id, created_at: now }).execute();
    }
    return id;
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
    admin = await quickUser(t, 'admin');
    reviewer = await quickUser(t);
    eventA = await seedEvent();
    eventB = await seedEvent();
    // Judging, so the results can be published (their pages have cursors too).
    t.clock.set(T0.getTime() + 2 * DAY + HOUR);
    for (const id of [eventA, eventB]) {
      const res = await t.api('POST', `/events/${id}/results/publish`, { key: org.key, body: { force: true } });
      expect(res.status, res.text).toBe(200);
    }
  });
  afterAll(async () => t?.close());

  /** Each paginated list: its path in event `ev` (limit 1, so there is a next page) and who may read it. */
  const LISTS: ReadonlyArray<[string, (ev: string) => string, () => TestUser | null]> = [
    ['registrations', (ev) => `/events/${ev}/registrations?limit=1`, () => org],
    ['registrations by name', (ev) => `/events/${ev}/registrations?q=team&limit=1`, () => org],
    ['projects', (ev) => `/events/${ev}/projects?limit=1`, () => org],
    ['reviews', (ev) => `/events/${ev}/reviews?limit=1`, () => org],
    ['reviewers', (ev) => `/events/${ev}/reviewers?limit=1`, () => org],
    ['review-assignments', (ev) => `/events/${ev}/review-assignments?limit=1`, () => reviewer],
    ['leaderboard', (ev) => `/events/${ev}/leaderboard?limit=1`, () => org],
    ['result', (ev) => `/events/${ev}/result?limit=1`, () => null],
    ['admin users', () => `/admin/users?limit=1`, () => admin],
  ];

  const get = (path: string, who: TestUser | null) => t.api('GET', path, who ? { key: who.key } : {});

  function cursorOf(res: ApiResponse): string {
    expect(res.status, res.text).toBe(200);
    const link = res.headers.get('link');
    expect(link, 'a next page').not.toBeNull();
    return new URL(/^<([^>]+)>; rel="next"$/.exec(link!)![1]!).searchParams.get('cursor')!;
  }

  function expectCursorRefused(res: ApiResponse, label: string): void {
    expect(res.status, `${label}: ${res.text}`).toBe(422);
    expect(res.body.code, label).toBe('validation_failed');
    expect(
      res.body.errors.map((e: { field: string }) => e.field),
      label,
    ).toEqual(['cursor']);
  }

  it.each(LISTS)('%s: each part of a real cursor replaced by a bad value answers 422 on cursor', async (_name, path, who) => {
    const real = cursorOf(await get(path(eventA), who()));
    // The real cursor works.
    expect((await get(`${path(eventA)}&cursor=${real}`, who())).status).toBe(200);
    const parts = unb64(real);
    const forged: Array<[string, string]> = [];
    for (let i = 0; i < parts.length; i++) {
      for (const [what, value] of BAD_PARTS) forged.push([`part ${i} = ${what}`, b64(parts.map((p, j) => (j === i ? value : p)))]);
    }
    forged.push(['one part more', b64([...parts, 'x'])]);
    forged.push(['one part less', b64(parts.slice(0, -1))]);
    forged.push(['an object', b64({ 0: parts[0] })]);
    forged.push(['a number', b64(2 ** 40)]);
    forged.push(['NUL bytes', Buffer.from('\u0000\u0000\u0000').toString('base64url')]);
    forged.push(['not JSON', Buffer.from('[1,').toString('base64url')]);
    for (const [label, cursor] of forged) expectCursorRefused(await get(`${path(eventA)}&cursor=${cursor}`, who()), label);
  });

  it.each(LISTS.filter(([name]) => name !== 'admin users'))("%s: another event's cursor answers 422 on cursor", async (_name, path, who) => {
    const fromA = cursorOf(await get(path(eventA), who()));
    expect((await get(`${path(eventB)}`, who())).status).toBe(200);
    expectCursorRefused(await get(`${path(eventB)}&cursor=${fromA}`, who()), 'cursor of event A on event B');
  });

  it('the events list takes only an event id as its cursor', async () => {
    for (const cursor of ['evt_%00', '%00', b64(['x']), `evt_${'1'.repeat(41)}`]) {
      const res = await t.api('GET', `/events?cursor=${cursor}`);
      expectCursorRefused(res, cursor);
    }
  });
});
