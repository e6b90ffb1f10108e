import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { createEvent, startTestApp, type TestApp } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

/** Invites a reviewer without SMTP, so one .eml lands in the outbox; returns the files there. */
async function inviteAndListOutbox(t: TestApp, outbox: string): Promise<string[]> {
  const org = await quickUser(t, 'organizer');
  const eventId = await createEvent(t, org.key);
  const res = await t.api('POST', `/events/${eventId}/reviewers`, { key: org.key, body: { email: 'judge@example.com' } });
  expect(res.status).toBe(201);
  expect(res.body.delivery).toBe('outbox');
  return readdirSync(outbox).filter((f) => f.endsWith('.eml'));
}

describe.each(DIALECTS)('DATA_DIR holds the outbox (%s)', (dialect) => {
  let dir: string;
  let t: TestApp;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hk-data-dir-'));
    t = await startTestApp(dialect, { env: { DATA_DIR: dir, REVIEW_WORKERS: 'false' } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes mail under DATA_DIR/outbox, not under the working directory', async () => {
    expect(t.config.mail.outboxDir).toBe(join(dir, 'outbox'));
    expect(await inviteAndListOutbox(t, join(dir, 'outbox'))).toHaveLength(1);
  });
});

describe('an explicit SQLite database keeps the outbox beside it', () => {
  let db: TestDatabase;
  let t: TestApp;
  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    t = await startTestApp('sqlite', { database: db, env: { REVIEW_WORKERS: 'false' } });
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('writes mail into <database directory>/outbox when DATA_DIR is unset', async () => {
    const outbox = join(dirname((db.config as { path: string }).path), 'outbox');
    expect(await inviteAndListOutbox(t, outbox)).toHaveLength(1);
  });
});
