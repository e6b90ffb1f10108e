import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../../src/core/config.js';
import { startThrowawayCluster, type ThrowawayCluster } from '../helpers/pg-cluster.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { isRetryable503, seedOrganizer, startWriteLoad, storedEventIds, waitForHealth } from '../helpers/faults.js';

/**
 * The database crashes (an immediate stop: no checkpoint, recovery at start) under a write load and
 * comes back on the same address. It runs on a cluster of the test's own: the shared one must never
 * be stopped.
 */
describe('database stopped and started under a write load (postgres)', () => {
  let cluster: ThrowawayCluster | undefined;
  const servers: ServerProcess[] = [];

  afterAll(async () => {
    for (const s of servers) s.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    await cluster?.destroy();
  });

  it('answers 503 with Retry-After while down, /healthz says so, and resumes by itself without losing an acknowledged write', async () => {
    cluster = await startThrowawayCluster();
    const admin = new pg.Client({ connectionString: cluster.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE hk');
    await admin.end();
    const config: DatabaseConfig = { dialect: 'postgres', url: cluster.url('hk') };
    const key = await seedOrganizer(config);
    const env = { DATABASE_URL: config.url, REVIEW_WORKERS: 'false', RATE_LIMIT_ENABLED: 'false', MAX_CONNECTIONS_PER_IP: '0', DB_CONNECT_TIMEOUT_MS: '2000' };
    servers.push(...(await Promise.all([spawnServer(env), spawnServer(env)])));

    const load = startWriteLoad(servers, key, 20);
    try {
      await load.until('the load to be going', (o) => o.filter((x) => x.status === 201).length >= 20);
      await cluster.stop('immediate');
      const down = load.outcomes.length;

      // While it is down: writes answer 503 on every process, and the health check says why.
      await load.until('503 from every process', (o) => servers.every((_, i) => o.slice(down).some((x) => x.server === i && x.status === 503)));
      for (const s of servers) {
        const health = await waitForHealth(s, 503);
        expect(health.body).toEqual({ ok: false, database: 'down', redis: 'not_configured' });
        expect(health.retryAfter).toBe('5');
      }

      await cluster.start();
      const up = load.outcomes.length;
      for (const s of servers) expect((await waitForHealth(s, 200)).body).toEqual({ ok: true, database: 'up', redis: 'not_configured' });
      await load.until('every process to acknowledge a write again', (o) =>
        servers.every((_, i) => o.slice(up).some((x) => x.server === i && x.status === 201)),
      );
    } finally {
      await load.stop();
    }

    for (const s of servers) expect(s.child.exitCode, s.stderr().slice(-3000)).toBeNull();
    const unexpected = load.outcomes.filter((o) => o.status !== 201 && !isRetryable503(o));
    expect(unexpected.slice(0, 5)).toEqual([]);
    const acknowledged = load.outcomes.filter((o) => o.status === 201).map((o) => o.id!);
    const stored = await storedEventIds(config, acknowledged);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);

    // Graceful shutdown still holds after the outage: SIGTERM drains and exits 0.
    const last = servers.pop()!;
    last.child.kill('SIGTERM');
    expect(await last.exited, last.stderr().slice(-3000)).toBe(0);
  }, 240_000);
});
