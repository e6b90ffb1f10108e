import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueNotification } from '../../src/notifications/notification-queue.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { createEvent, startTestApp, type TestApp } from '../helpers/harness.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { startSmtpReceiver } from '../helpers/smtp-receiver.js';
import { untilWith } from '../helpers/until.js';

const TOTAL = 1000;
const KILL_AFTER = 300;
const CONCURRENCY = 4;
/** Each worker slot holds one leased mail at a time: the most a kill can leave half-sent. */
const BATCH = 1;

/**
 * The notification mail queue across kill -9: 1,000 mails are queued (committed) in one burst, the
 * server sending them is killed mid-way, a new one takes over. The SMTP receiver counts: every mail
 * arrives, and only those in flight at the kill (at most MAIL_CONCURRENCY × batch) arrive twice.
 */
describe.each(DIALECTS)('mail queue across kill -9 (%s)', (dialect) => {
  let db: TestDatabase;
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let server: ServerProcess | null = null;

  beforeAll(async () => {
    // A slow receiver (10 ms a message), so the kill lands mid-burst.
    smtp = await startSmtpReceiver(0, 10);
    db = await createTestDatabase(dialect);
    // Seeds the event and queues the burst only; the spawned servers send.
    t = await startTestApp(dialect, { database: db, now: new Date(), env: { MAIL_WORKERS: 'false', REVIEW_WORKERS: 'false', WEBHOOKS_WORKERS: 'false' } });
  });
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await t?.close();
    await db?.drop();
    await smtp?.close();
  });

  const env = () => ({
    DATABASE_URL: db.config.url,
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    MAIL_POLL_MS: '50',
    MAIL_CONCURRENCY: String(CONCURRENCY),
    // Short, so mails the killed process had leased are taken over soon after the restart.
    MAIL_LEASE_MS: '3000',
    REVIEW_WORKERS: 'false',
    WEBHOOKS_WORKERS: 'false',
  });

  const until = untilWith({ ms: 120_000, details: () => `server log:\n${server?.stderr() ?? ''}` });
  const perAddress = () => {
    const counts = new Map<string, number>();
    for (const m of smtp.mails) for (const to of m.to) counts.set(to, (counts.get(to) ?? 0) + 1);
    return counts;
  };

  it('loses no queued mail when the sending server is killed mid-burst; duplicates only among those in flight', async () => {
    const org = await t.user('organizer');
    const eventId = await createEvent(t, org.key, { name: 'Crash Hack' });
    const addresses = Array.from({ length: TOTAL }, (_, i) => `crash-${dialect}-${i}@example.com`);
    const queued = await t.ctx.db.transaction().execute((tx) =>
      queueNotification(tx, {
        kind: 'team_invitation',
        eventId,
        recipients: addresses.map((email) => ({ email })),
        data: { team_name: 'Burst', inviter_name: 'Lead', join_url: 'http://hackathon.test/join', expires_at: new Date(Date.now() + 86_400_000).toISOString() },
      }),
    );
    expect(queued).toBe(TOTAL);

    server = await spawnServer(env());
    await until(`${KILL_AFTER} mails`, () => perAddress().size >= KILL_AFTER);
    server.child.kill('SIGKILL');
    await server.exited;
    const atKill = perAddress().size;
    // The kill landed mid-burst.
    expect(atKill).toBeLessThan(TOTAL);

    server = await spawnServer(env());
    await until('every mail', () => perAddress().size >= TOTAL);
    const rows = () => t.ctx.db.selectFrom('mail_queue').select(['status']).where('event_id', '=', eventId).execute();
    await until('every row marked sent', async () => (await rows()).every((r) => r.status === 'sent'));

    const counts = perAddress();
    expect([...counts.keys()].sort()).toEqual([...addresses].sort());
    const duplicates = [...counts.values()].reduce((n, c) => n + (c - 1), 0);
    console.log(`[${dialect}] mail queue kill -9: ${atKill} of ${TOTAL} arrived before the kill; ${duplicates} sent twice (bound ${CONCURRENCY * BATCH})`);
    expect(duplicates).toBeLessThanOrEqual(CONCURRENCY * BATCH);
    expect([...counts.values()].every((c) => c <= 2)).toBe(true);
    // The server's log never holds a recipient's address.
    expect(server.stderr()).not.toContain('@example.com');
  }, 300_000);
});
