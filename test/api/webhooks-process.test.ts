import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { createEvent, startTestApp, type TestApp } from '../helpers/harness.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { quickApprovedTeam, quickUser } from '../helpers/quick-users.js';
import { startReceiver, verifySignature } from '../helpers/webhook-receiver.js';

const TOTAL = 1000;
const KILL_AFTER = 400;
const PARALLEL = 8;

describe.each(DIALECTS)('webhooks across kill -9 (%s)', (dialect) => {
  let db: TestDatabase;
  let t: TestApp;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  let server: ServerProcess | null = null;

  beforeAll(async () => {
    rx = await startReceiver();
    db = await createTestDatabase(dialect);
    // Seeds users and the event only; the spawned servers deliver.
    t = await startTestApp(dialect, {
      database: db,
      now: new Date(),
      env: { WEBHOOKS_WORKERS: 'false', REVIEW_WORKERS: 'false', WEBHOOKS_ALLOW_LOOPBACK: 'true' },
    });
  });
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await t?.close();
    await db?.drop();
    await rx?.close();
  });

  const env = () => ({
    DATABASE_URL: db.config.url,
    WEBHOOKS_ALLOW_LOOPBACK: 'true',
    WEBHOOKS_POLL_MS: '50',
    // Short, so deliveries the killed process had leased are taken over soon after the restart.
    WEBHOOKS_LEASE_MS: '3000',
    WEBHOOKS_CONCURRENCY: '16',
    REVIEW_WORKERS: 'false',
    RATE_LIMIT_PER_IP: '100000',
    RATE_LIMIT_PER_KEY: '100000',
  });

  it('loses no acknowledged write’s delivery when the server is killed mid-burst of 1,000 events', async () => {
    const org = await quickUser(t, 'organizer');
    const eventId = await createEvent(t, org.key, { registration_config: { open: true, auto_approve: true, fields: [] } });
    const { team } = await quickApprovedTeam(t, eventId, org.key, { fields: {} });
    const hook = await t.api('POST', '/webhooks', {
      key: team.key,
      body: { url: rx.url('/burst'), events: ['project.submitted', 'project.updated'], event_id: eventId },
    });
    expect(hook.status).toBe(201);

    const acked: string[] = [];
    let next = 0;
    const submit = async (base: string, i: number): Promise<boolean> => {
      try {
        const res = await fetch(`${base}/api/v1/events/${eventId}/submit`, {
          method: 'POST',
          headers: { authorization: `Bearer ${team.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ project_name: `burst ${i}`, github_url: 'https://github.com/acme/burst', track_id: 'tools' }),
        });
        if (res.status === 200 || res.status === 201) acked.push(`burst ${i}`);
        return true;
      } catch {
        return false; // the connection died with the server: not acknowledged
      }
    };
    /** Sends writes PARALLEL at a time until `stopAt` are acknowledged (or all are sent). */
    const burst = async (base: string, stopAt: number, onStop?: () => void) => {
      const lane = async () => {
        while (next < TOTAL && acked.length < stopAt) {
          const i = next++;
          if (!(await submit(base, i))) return;
        }
        onStop?.();
      };
      await Promise.all(Array.from({ length: PARALLEL }, lane));
    };

    server = await spawnServer(env());
    const first = server;
    // Kill the process the moment KILL_AFTER writes are acknowledged, with writes still in flight.
    await burst(first.url, KILL_AFTER, () => {
      if (first.child.exitCode === null) first.child.kill('SIGKILL');
    });
    await first.exited;
    const beforeRestart = acked.length;
    expect(beforeRestart).toBeGreaterThanOrEqual(KILL_AFTER);

    server = await spawnServer(env());
    await burst(server.url, TOTAL);
    expect(acked.length).toBeGreaterThan(beforeRestart);

    const names = () => new Set(rx.received.map((r) => r.json.data.project.project_name as string));
    await rx.until(() => {
      const got = names();
      return acked.every((n) => got.has(n));
    });
    const got = names();
    expect(acked.filter((n) => !got.has(n))).toEqual([]);
    // Every message verifies; a re-sent message keeps its webhook-id (at least once, never twice under two ids).
    expect(rx.received.every((r) => verifySignature(hook.body.secret, r))).toBe(true);
    const idsByName = new Map<string, Set<string>>();
    for (const r of rx.received) {
      const n = r.json.data.project.project_name as string;
      if (!idsByName.has(n)) idsByName.set(n, new Set());
      idsByName.get(n)!.add(String(r.headers['webhook-id']));
    }
    expect([...idsByName.values()].filter((ids) => ids.size !== 1)).toEqual([]);
  }, 180_000);
});
