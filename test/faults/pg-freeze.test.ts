import { afterAll, describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../../src/core/config.js';
import { createTestDatabase, PG_ADMIN_URL, type TestDatabase } from '../helpers/databases.js';
import { isRetryable503, seedOrganizer, startWriteLoad, storedEventIds, waitForHealth } from '../helpers/faults.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { startFreezableProxy, type FreezableProxy } from '../helpers/freezable-proxy.js';

/**
 * The database stops answering without closing anything (a network partition, a frozen host): a
 * proxy between the server and PostgreSQL holds every byte. Requests and /healthz must come back
 * (503) within the configured limits instead of waiting forever, and service resumes when the
 * database answers again.
 */
describe('frozen database (postgres)', () => {
  let db: TestDatabase | undefined;
  let proxy: FreezableProxy | undefined;
  let server: ServerProcess | undefined;

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await proxy?.close();
    await db?.drop();
  });

  it('answers 503 instead of hanging while frozen, and resumes after', async () => {
    db = await createTestDatabase('postgres');
    const key = await seedOrganizer(db.config);
    proxy = await startFreezableProxy(Number(new URL(PG_ADMIN_URL).port || 5432));
    const viaProxy = new URL(db.config.url);
    viaProxy.port = String(proxy.port);
    const config: DatabaseConfig = { dialect: 'postgres', url: viaProxy.toString() };
    server = await spawnServer({
      DATABASE_URL: config.url,

      RATE_LIMIT_ENABLED: 'false',
      MAX_CONNECTIONS_PER_IP: '0',
      // Short limits, so the test is quick; the defaults are seconds longer.
      DB_CONNECT_TIMEOUT_MS: '2000',
      DB_STATEMENT_TIMEOUT_MS: '2000',
      DB_QUERY_TIMEOUT_MS: '3000',
      // Key checks go to the database on every request, as they would once the cache expires.
      AUTH_CACHE_TTL_MS: '0',
    });

    const load = startWriteLoad([server], key, 10);
    try {
      await load.until('the load to be going', (o) => o.filter((x) => x.status === 201).length >= 10);
      proxy.freeze();
      const frozenAt = load.outcomes.length;
      // Writes in flight and new ones come back (the load's own bound is a minute: a hang fails).
      await load.until('writes to be answered 503 while frozen', (o) => o.slice(frozenAt).filter((x) => x.status === 503).length >= 10);
      const health = await waitForHealth(server, 503);
      expect(health.body).toEqual({ ok: false, database: 'down', redis: 'not_configured' });
      expect(health.retryAfter).toBe('5');

      proxy.thaw();
      const thawedAt = load.outcomes.length;
      expect((await waitForHealth(server, 200)).body).toEqual({ ok: true, database: 'up', redis: 'not_configured' });
      await load.until('writes to be acknowledged again', (o) => o.slice(thawedAt).some((x) => x.status === 201));
    } finally {
      await load.stop();
    }

    expect(server.child.exitCode, server.stderr().slice(-3000)).toBeNull();
    const unexpected = load.outcomes.filter((o) => o.status !== 201 && !isRetryable503(o));
    expect(unexpected.slice(0, 5)).toEqual([]);
    const acknowledged = load.outcomes.filter((o) => o.status === 201).map((o) => o.id!);
    const stored = await storedEventIds(db.config, acknowledged);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  }, 240_000);
});
