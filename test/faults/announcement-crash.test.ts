import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { createEvent, startTestApp, type TestApp } from '../helpers/harness.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { quickApprovedTeam } from '../helpers/quick-users.js';
import { mailSubject, startSmtpReceiver } from '../helpers/smtp-receiver.js';
import { untilWith } from '../helpers/until.js';

const TEAMS = 24;
const CONCURRENCY = 2;

/**
 * A scheduled announcement across kill -9: it is scheduled (committed), the server that publishes it
 * when due is killed right after publishing, mid-way through sending its mails, and a new server
 * takes over. Every recipient is recorded once and has exactly one queued mail; the SMTP receiver
 * gets every one, twice only for the few in flight at the kill (the mail queue's bound).
 */
describe.each(DIALECTS)('scheduled announcement across kill -9 (%s)', (dialect) => {
  let db: TestDatabase;
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let server: ServerProcess | null = null;

  beforeAll(async () => {
    // A slow receiver (100 ms a message), so the kill lands mid-send.
    smtp = await startSmtpReceiver(0, 100);
    db = await createTestDatabase(dialect);
    // Seeds and schedules only; the spawned servers publish and send.
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
    MAIL_LEASE_MS: '3000',
    REVIEW_WORKERS: 'false',
    WEBHOOKS_WORKERS: 'false',
  });
  // The approvals' mails go out too: only the announcement's count.
  const announcementMails = () => smtp.mails.filter((m) => mailSubject(m.raw).includes('Deadline moved'));
  const until = untilWith({ ms: 120_000, details: () => `server log:\n${server?.stderr() ?? ''}` });

  it('publishes once and loses no mail when the server is killed between publishing and sending', async () => {
    const org = await t.user('organizer');
    const eventId = await createEvent(t, org.key, { name: 'Crash News' });
    const members: string[] = [];
    for (let i = 0; i < TEAMS; i++) members.push((await quickApprovedTeam(t, eventId, org.key)).team.email);
    const publishAt = new Date(Date.now() + 1500).toISOString();
    const posted = await t.api('POST', `/events/${eventId}/announcements`, {
      key: org.key,
      body: { title: 'Deadline moved', body: 'Two days earlier.', segment: 'approved', publish_at: publishAt },
    });
    expect(posted.status).toBe(201);
    expect(posted.body.state).toBe('scheduled');
    const row = () => t.ctx.db.selectFrom('announcements').select(['status', 'recipients']).where('id', '=', posted.body.id).executeTakeFirstOrThrow();

    server = await spawnServer(env());
    await until('published', async () => (await row()).status === 'published');
    server.child.kill('SIGKILL');
    await server.exited;
    const atKill = announcementMails().length;
    expect(atKill).toBeLessThan(TEAMS);

    server = await spawnServer(env());
    const perAddress = () => {
      const counts = new Map<string, number>();
      for (const m of announcementMails()) for (const to of m.to) counts.set(to, (counts.get(to) ?? 0) + 1);
      return counts;
    };
    await until('every mail', () => perAddress().size >= TEAMS);
    expect(await row()).toEqual({ status: 'published', recipients: TEAMS });
    const queued = await t.ctx.db.selectFrom('mail_queue').select('to_address').where('kind', '=', 'announcement').where('event_id', '=', eventId).execute();
    expect(queued.map((q) => q.to_address).sort()).toEqual([...members].sort());
    const recorded = await t.ctx.db.selectFrom('announcement_recipients').select('user_id').where('announcement_id', '=', posted.body.id).execute();
    expect(recorded).toHaveLength(TEAMS);
    const counts = perAddress();
    expect([...counts.keys()].sort()).toEqual([...members].sort());
    const duplicates = [...counts.values()].reduce((n, c) => n + (c - 1), 0);
    console.log(`[${dialect}] announcement kill -9: ${atKill} of ${TEAMS} mails arrived before the kill; ${duplicates} sent twice (bound ${CONCURRENCY})`);
    expect(duplicates).toBeLessThanOrEqual(CONCURRENCY);
  }, 300_000);
});
