import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, PG_ADMIN_URL, type TestDatabase } from '../helpers/databases.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { isRetryable503, seedOrganizer, startWriteLoad, storedEventIds } from '../helpers/faults.js';

/**
 * PostgreSQL ends the processes' connections (pg_terminate_backend, as an admin, a failover or a
 * restart does) while three server processes take a load of 50 concurrent writes. PostgreSQL only:
 * the fault is PostgreSQL's own.
 */
describe('connections terminated under a write load (postgres)', () => {
  let db: TestDatabase;
  const servers: ServerProcess[] = [];

  afterAll(async () => {
    for (const s of servers) s.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    await db?.drop();
  });

  it('no process exits, failed writes answer 503 with Retry-After, every acknowledged write is stored, service resumes', async () => {
    db = await createTestDatabase('postgres');
    const key = await seedOrganizer(db.config);
    // Review workers on (the default): their polls meet the faults too.
    const env = { DATABASE_URL: db.config.url, RATE_LIMIT_ENABLED: 'false', MAX_CONNECTIONS_PER_IP: '0' };
    servers.push(...(await Promise.all([spawnServer(env), spawnServer(env), spawnServer(env)])));
    const database = new URL(db.config.url).pathname.slice(1);

    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    const load = startWriteLoad(servers, key, 50);
    try {
      await load.until('the load to be going', (o) => o.filter((x) => x.status === 201).length >= 30);
      // Terminate every connection of the servers, again each time the load has gone on a little,
      // until writes in flight have met it (a 503 answered).
      let terminated = 0;
      let lastRoundAt = 0;
      for (let round = 0; round < 40 && !load.outcomes.some((o) => o.status === 503); round++) {
        const { rows } = await admin.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()) t',
          [database],
        );
        terminated += rows[0]!.n;
        lastRoundAt = load.outcomes.length;
        await load.until(`answers after termination round ${round}`, (o) => o.length >= lastRoundAt + 20);
      }
      expect(terminated).toBeGreaterThan(0);
      expect(load.outcomes.some((o) => o.status === 503)).toBe(true);

      // Service resumes by itself: every process acknowledges writes again.
      const after = load.outcomes.length;
      await load.until('every process to acknowledge a write again', (o) =>
        servers.every((_, i) => o.slice(after).some((x) => x.server === i && x.status === 201)),
      );
    } finally {
      await load.stop();
      await admin.end();
    }

    // No process exited.
    for (const s of servers) expect(s.child.exitCode, s.stderr().slice(-3000)).toBeNull();
    // Every answer is a success or a clean 503 asking to retry: never a 500, never a dropped connection.
    const unexpected = load.outcomes.filter((o) => o.status !== 201 && !isRetryable503(o));
    expect(unexpected.slice(0, 5)).toEqual([]);
    // Every acknowledged write is in the database.
    const acknowledged = load.outcomes.filter((o) => o.status === 201).map((o) => o.id!);
    const stored = await storedEventIds(db.config, acknowledged);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    // And the health check says so.
    for (const s of servers) {
      const health = await fetch(`${s.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ ok: true, database: 'up', redis: 'not_configured' });
    }
  }, 180_000);
});
