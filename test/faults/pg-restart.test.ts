import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../../src/core/config.js';
import { startThrowawayCluster, type ThrowawayCluster } from '../helpers/pg-cluster.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { isRetryable503, seedOrganizer, startWriteLoad, storedEventIds, waitForHealth, type WriteLoad } from '../helpers/faults.js';

/**
 * The database crashes (an immediate stop: no checkpoint, recovery at start) and comes back on the
 * same address; then some of its server processes hang. Both on a cluster of the test's own: the
 * shared one must never be stopped, and a stopped backend may hold locks the whole cluster needs.
 */
describe('database crash, restart and hung backends under a write load (postgres)', () => {
  let cluster: ThrowawayCluster | undefined;
  let config: DatabaseConfig;
  let key: string;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    cluster = await startThrowawayCluster();
    const admin = new pg.Client({ connectionString: cluster.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE hk');
    await admin.end();
    config = { dialect: 'postgres', url: cluster.url('hk') };
    key = await seedOrganizer(config);
    const env = {
      DATABASE_URL: config.url,

      RATE_LIMIT_ENABLED: 'false',
      MAX_CONNECTIONS_PER_IP: '0',
      // Short limits, so the test is quick; the defaults are seconds longer.
      DB_CONNECT_TIMEOUT_MS: '2000',
      DB_STATEMENT_TIMEOUT_MS: '2000',
      DB_QUERY_TIMEOUT_MS: '3000',
    };
    servers.push(...(await Promise.all([spawnServer(env), spawnServer(env)])));
  }, 240_000);

  afterAll(async () => {
    for (const s of servers) s.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    await cluster?.destroy();
  });

  /** No process exited, every failure was a clean 503, every acknowledged write is stored. */
  async function expectNothingLost(load: WriteLoad): Promise<void> {
    for (const s of servers) expect(s.child.exitCode, s.stderr().slice(-3000)).toBeNull();
    const unexpected = load.outcomes.filter((o) => o.status !== 201 && !isRetryable503(o));
    expect(unexpected.slice(0, 5)).toEqual([]);
    const acknowledged = load.outcomes.filter((o) => o.status === 201).map((o) => o.id!);
    const stored = await storedEventIds(config, acknowledged);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  }

  it('answers 503 with Retry-After while down, /healthz says so, and resumes by itself without losing an acknowledged write', async () => {
    const load = startWriteLoad(servers, key, 20);
    try {
      await load.until('the load to be going', (o) => o.filter((x) => x.status === 201).length >= 20);
      await cluster!.stop('immediate');
      const down = load.outcomes.length;

      // While it is down: writes answer 503 on every process, and the health check says why.
      await load.until('503 from every process', (o) => servers.every((_, i) => o.slice(down).some((x) => x.server === i && x.status === 503)));
      for (const s of servers) {
        const health = await waitForHealth(s, 503);
        expect(health.body).toEqual({ ok: false, database: 'down', redis: 'not_configured' });
        expect(health.retryAfter).toBe('5');
      }

      await cluster!.start();
      const up = load.outcomes.length;
      for (const s of servers) expect((await waitForHealth(s, 200)).body).toEqual({ ok: true, database: 'up', redis: 'not_configured' });
      await load.until('every process to acknowledge a write again', (o) =>
        servers.every((_, i) => o.slice(up).some((x) => x.server === i && x.status === 201)),
      );
    } finally {
      await load.stop();
    }
    await expectNothingLost(load);
  }, 240_000);

  it('drops the connections of hung backends and goes on with new ones while those stay hung', async () => {
    const admin = new pg.Client({ connectionString: cluster!.url('postgres') });
    await admin.connect();
    const load = startWriteLoad(servers, key, 20);
    const stopped: number[] = [];
    try {
      await load.until('the load to be going', (o) => o.filter((x) => x.status === 201).length >= 20);
      // Every backend serving the processes now, frozen mid-work (kill -STOP; the tests run as root or as postgres).
      const { rows } = await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = 'hk'");
      for (const { pid } of rows) {
        try {
          process.kill(pid, 'SIGSTOP');
          stopped.push(pid);
        } catch {
          /* ended meanwhile */
        }
      }
      expect(stopped.length).toBeGreaterThan(0);
      const hungAt = load.outcomes.length;
      // Queries on those connections get no answer: they fail after DB_QUERY_TIMEOUT_MS, the
      // connections are dropped, and new ones serve: writes are acknowledged with the old backends still stopped.
      await load.until('503 from the hung connections', (o) => o.slice(hungAt).some((x) => x.status === 503));
      const timedOutAt = load.outcomes.length;
      await load.until('every process to acknowledge writes past the hung backends', (o) =>
        servers.every((_, i) => o.slice(timedOutAt).filter((x) => x.server === i && x.status === 201).length >= 10),
      );
    } finally {
      for (const pid of stopped) process.kill(pid, 'SIGCONT');
      stopped.length = 0;
      await load.stop();
      await admin.end();
    }
    await expectNothingLost(load);
  }, 240_000);

  it('still shuts down gracefully after the faults: SIGTERM drains and exits 0', async () => {
    const last = servers.pop()!;
    last.child.kill('SIGTERM');
    expect(await last.exited, last.stderr().slice(-3000)).toBe(0);
  });
});
