import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgNotifier, redisNotifier, type Notifier } from '../../src/core/notifier.js';
import { openRedis, type RedisLink } from '../../src/core/redis.js';
import { EVENTS_CHANGED } from '../../src/events/event-catalog.js';
import { createTestDatabase, DIALECTS, type Dialect, type TestDatabase } from '../helpers/databases.js';
import { createEvent, startTestApp, type TestApp } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

const REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

/**
 * The public-event cache is observed from outside: a name changed behind the app's back (straight
 * in the database) shows whether an event was served from the cache (old name) or read again (new).
 */
async function renameBehindTheBack(t: TestApp, ids: string[], suffix: string) {
  for (const id of ids)
    await t.ctx.db
      .updateTable('events')
      .set({ name: `${id} ${suffix}` })
      .where('id', '=', id)
      .execute();
}

async function nameOf(t: TestApp, id: string): Promise<string> {
  const res = await t.api('GET', `/events/${id}`);
  expect(res.status).toBe(200);
  return res.body.name as string;
}

describe.each(DIALECTS)('bounded public-event cache (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { EVENT_CACHE_MAX_ENTRIES: '3', EVENT_CACHE_TTL_MS: '600000', REVIEW_WORKERS: 'false' } });
  });
  afterAll(async () => t?.close());

  it('holds at most EVENT_CACHE_MAX_ENTRIES events and evicts the least recently used', async () => {
    const org = await quickUser(t, 'organizer');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await createEvent(t, org.key, { name: `event ${i}` }));
    for (const id of ids) await nameOf(t, id); // loads all five; the first two are evicted
    // Touch ids[2] so that ids[3] becomes the least recently used of the three held.
    await nameOf(t, ids[2]!);
    expect(t.ctx.events.cacheStats().entries).toBe(3);

    await renameBehindTheBack(t, ids, 'renamed');
    // Held: served from memory (old names).
    expect(await nameOf(t, ids[2]!)).toBe('event 2');
    expect(await nameOf(t, ids[4]!)).toBe('event 4');
    // Evicted: read again from the database (new name), which evicts ids[3], the least recently used.
    expect(await nameOf(t, ids[0]!)).toBe(`${ids[0]} renamed`);
    expect(await nameOf(t, ids[3]!)).toBe(`${ids[3]} renamed`);
    expect(t.ctx.events.cacheStats().entries).toBe(3);
  });

  it('an edit drops that one event, not the others', async () => {
    const org = await quickUser(t, 'organizer');
    const a = await createEvent(t, org.key, { name: 'A' });
    const b = await createEvent(t, org.key, { name: 'B' });
    expect(await nameOf(t, a)).toBe('A');
    expect(await nameOf(t, b)).toBe('B');
    await renameBehindTheBack(t, [a, b], 'renamed');
    const patched = await t.api('PATCH', `/events/${a}`, { key: org.key, body: { description: 'edited' } });
    expect(patched.status).toBe(200);
    const readA = await t.api('GET', `/events/${a}`);
    expect(readA.body.description).toBe('edited');
    expect(readA.body.name).toBe(`${a} renamed`);
    // b was not dropped: still the cached copy.
    expect(await nameOf(t, b)).toBe('B');
    // The list serves its items from the same cache.
    const list = await t.api('GET', '/events?limit=100');
    expect(list.status).toBe(200);
    const byId = new Map(list.body.map((e: { id: string; name: string }) => [e.id, e.name]));
    expect(byId.get(a)).toBe(`${a} renamed`);
    expect(byId.get(b)).toBe('B');
  });

  it('status is computed per request even for a cached event', async () => {
    const org = await quickUser(t, 'organizer');
    const id = await createEvent(t, org.key);
    const listed = async () => (await t.api('GET', '/events?limit=100')).body.find((e: { id: string }) => e.id === id).status;
    expect((await t.api('GET', `/events/${id}`)).body.status).toBe('open');
    expect(await listed()).toBe('open');
    t.clock.advance(86_400_000 + 1);
    try {
      expect((await t.api('GET', `/events/${id}`)).body.status).toBe('active');
      expect(await listed()).toBe('active');
    } finally {
      t.clock.advance(-(86_400_000 + 1));
    }
    // The text serialised for one status is never served for another (the same cached record).
    expect((await t.api('GET', `/events/${id}`)).body.status).toBe('open');
    expect(await listed()).toBe('open');
  });
});

/** Resolves when `notifier` delivers an EVENTS_CHANGED message for `id`. */
function changedOn(notifier: Notifier, id: string): Promise<void> {
  return new Promise((resolve) => {
    const off = notifier.subscribe(EVENTS_CHANGED, (m) => {
      if (m === id) {
        off();
        resolve();
      }
    });
  });
}

type Setup = { name: string; dialects: readonly Dialect[]; notifier: (db: TestDatabase, prefix: string, clients: RedisLink[]) => Promise<Notifier> };
const SETUPS: Setup[] = [
  {
    name: 'PostgreSQL LISTEN/NOTIFY, no Redis',
    dialects: ['postgres'],
    async notifier(db) {
      const n = pgNotifier(db.config.url);
      await n.listening();
      return n;
    },
  },
  {
    name: 'Redis',
    dialects: DIALECTS,
    async notifier(_db, prefix, clients) {
      const link = openRedis(REDIS_URL, { commandTimeoutMs: 5000, log: () => undefined });
      clients.push(link);
      const n = redisNotifier(link, prefix);
      if (!(await link.ready(10_000))) throw new Error(`Redis is not reachable at ${REDIS_URL}`);
      return n;
    },
  },
];

describe.each(SETUPS.flatMap((s) => s.dialects.map((d) => [s.name, d, s] as const)))('event cache across two instances (%s, %s)', (_name, dialect, setup) => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  const notifiers: Notifier[] = [];
  const clients: RedisLink[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    const prefix = `hk:test:${randomBytes(6).toString('hex')}:`;
    const instance = async () => {
      const notifier = await setup.notifier(db, prefix, clients);
      notifiers.push(notifier);
      // A long TTL: only the message can refresh the other instance's copy.
      return startTestApp(dialect, { database: db, notifier, env: { EVENT_CACHE_TTL_MS: '600000', REVIEW_WORKERS: 'false' } });
    };
    a = await instance();
    b = await instance();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    for (const n of notifiers) await n.close();
    for (const c of clients) c.close();
    await db?.drop();
  });

  it('an edit on one instance drops that event on the other, and only that one', async () => {
    const org = await quickUser(a, 'organizer');
    const x = await createEvent(a, org.key, { name: 'X' });
    const y = await createEvent(a, org.key, { name: 'Y' });
    expect(await nameOf(b, x)).toBe('X');
    expect(await nameOf(b, y)).toBe('Y');
    await renameBehindTheBack(a, [y], 'renamed');

    const heard = changedOn(notifiers[1]!, x);
    const patched = await a.api('PATCH', `/events/${x}`, { key: org.key, body: { name: 'X2' } });
    expect(patched.status).toBe(200);
    await heard;
    expect(await nameOf(b, x)).toBe('X2');
    // y was not dropped on b: still its cached copy.
    expect(await nameOf(b, y)).toBe('Y');
  });
});
