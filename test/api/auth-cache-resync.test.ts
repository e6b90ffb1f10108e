import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryNotifier, NOTIFIER_RESYNC } from '../../src/core/notifier.js';
import { DIALECTS } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';

/**
 * A revocation made by another process while this one's notifier was disconnected never arrives as
 * a message; the reconnection (NOTIFIER_RESYNC) must drop every cached key, or the revoked key keeps
 * working for the whole cache lifetime.
 */
describe.each(DIALECTS)('API-key cache after a notifier reconnect (%s)', (dialect) => {
  let t: TestApp;
  const notifier = memoryNotifier();
  beforeAll(async () => {
    t = await startTestApp(dialect, { notifier, env: { AUTH_CACHE_TTL_MS: '60000' } });
  });
  afterAll(async () => t?.close());

  it('a key revoked elsewhere stops working once the notifier resyncs', async () => {
    const user = await t.user();
    expect((await t.api('GET', '/auth/session', { key: user.key })).status).toBe(200);
    // Another process revokes it; its message is lost (written straight to the database here).
    await t.ctx.db.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).where('user_id', '=', user.id).execute();
    expect((await t.api('GET', '/auth/session', { key: user.key })).status).toBe(200);
    notifier.publish(NOTIFIER_RESYNC);
    const after = await t.api('GET', '/auth/session', { key: user.key });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('unauthorized');
  });
});
