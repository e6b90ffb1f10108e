import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryNotifier, NOTIFIER_RESYNC, type Notifier } from '../../src/core/notifier.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, type TestApp } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

/** A cross-process notifier whose connection the test cuts and restores (as Redis going away would). */
function switchableNotifier(): Notifier & { cut(): void; restore(): void } {
  const inner = memoryNotifier();
  let connected = true;
  return {
    crossProcess: true,
    connected: () => connected,
    publish: (channel, message) => inner.publish(channel, message),
    wait: (channel, ms, signal) => inner.wait(channel, ms, signal),
    subscribe: (channel, fn) => inner.subscribe(channel, fn),
    close: () => inner.close(),
    cut() {
      connected = false;
    },
    restore() {
      connected = true;
      inner.publish(NOTIFIER_RESYNC);
    },
  };
}

/**
 * While the notifier is cut off, another process's revocation or edit cannot reach this one, so
 * the caches that only a message could invalidate are not trusted: what changed elsewhere (here:
 * straight in the database, as another process would) shows at once. With the notifier connected
 * the same change stays hidden behind the (long) cache, which proves the cache is in use.
 */
describe.each(DIALECTS)('caches while the cross-process notifier is cut off (%s)', (dialect) => {
  let t: TestApp;
  const notifier = switchableNotifier();
  beforeAll(async () => {
    t = await startTestApp(dialect, { notifier, env: { AUTH_CACHE_TTL_MS: '60000', EVENT_CACHE_TTL_MS: '600000', REVIEW_WORKERS: 'false' } });
  });
  afterAll(async () => {
    notifier.restore();
    await t?.close();
  });

  it('a key revoked elsewhere stops working at once, and the cache is used again after the return', async () => {
    const user = await quickUser(t);
    expect((await t.api('GET', '/auth/session', { key: user.key })).status).toBe(200);
    const revoke = () => t.ctx.db.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).where('user_id', '=', user.id).execute();
    const other = await quickUser(t);
    expect((await t.api('GET', '/auth/session', { key: other.key })).status).toBe(200);
    await revoke();
    // Connected: the cached key still works (the revocation's message never came).
    expect((await t.api('GET', '/auth/session', { key: user.key })).status).toBe(200);

    notifier.cut();
    const refused = await t.api('GET', '/auth/session', { key: user.key });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('unauthorized');
    // Checked while cut off: not cached, so revoking it then is seen too.
    expect((await t.api('GET', '/auth/session', { key: other.key })).status).toBe(200);
    await t.ctx.db.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).where('user_id', '=', other.id).execute();
    expect((await t.api('GET', '/auth/session', { key: other.key })).status).toBe(401);

    notifier.restore();
    const third = await quickUser(t);
    expect((await t.api('GET', '/auth/session', { key: third.key })).status).toBe(200);
    await t.ctx.db.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).where('user_id', '=', third.id).execute();
    expect((await t.api('GET', '/auth/session', { key: third.key })).status).toBe(200);
  });

  it('an event edited elsewhere shows at once, and the cache is used again after the return', async () => {
    const org = await quickUser(t, 'organizer');
    const id = await createEvent(t, org.key, { name: 'Cached name' });
    const name = async () => (await t.api('GET', `/events/${id}`)).body.name as string;
    const listed = async () => (await t.api('GET', '/events?limit=100')).body.find((e: { id: string }) => e.id === id)?.name as string | undefined;
    expect(await name()).toBe('Cached name');
    expect(await listed()).toBe('Cached name');
    const rename = (to: string) => t.ctx.db.updateTable('events').set({ name: to }).where('id', '=', id).execute();
    await rename('Edited elsewhere');
    expect(await name()).toBe('Cached name');

    notifier.cut();
    expect(await name()).toBe('Edited elsewhere');
    expect(await listed()).toBe('Edited elsewhere');
    await rename('Edited again');
    expect(await name()).toBe('Edited again');

    notifier.restore();
    expect(await name()).toBe('Edited again');
    await rename('Hidden by the cache');
    expect(await name()).toBe('Edited again');
  });
});
