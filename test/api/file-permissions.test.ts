import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/db/index.js';
import { createMailer } from '../../src/core/mailer.js';
import { DIALECTS, createTestDatabase } from '../helpers/databases.js';
import { createEvent, startTestApp, type TestApp } from '../helpers/harness.js';

const mode = (path: string) => statSync(path).mode & 0o777;

/** A umask that would leave new files world-readable (0644) and directories world-listable (0755). */
let previousUmask: number;
beforeAll(() => {
  previousUmask = process.umask(0o022);
});
afterAll(() => {
  process.umask(previousUmask);
});

describe('the SQLite database files are owner-only, whatever the umask', () => {
  let root: string;
  let t: TestApp;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'hk-perm-'));
    const path = join(root, 'data', 'nested', 'app.db');
    t = await startTestApp('sqlite', {
      database: { config: { dialect: 'sqlite', path, url: `sqlite:${path}` }, drop: async () => {} },
    });
    // A write, so the WAL and its index exist.
    await t.user('organizer');
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('creates the data folders 0700 and the database, -wal and -shm 0600', () => {
    const db = join(root, 'data', 'nested', 'app.db');
    expect(mode(join(root, 'data'))).toBe(0o700);
    expect(mode(join(root, 'data', 'nested'))).toBe(0o700);
    expect(mode(db)).toBe(0o600);
    expect(existsSync(`${db}-wal`)).toBe(true);
    expect(existsSync(`${db}-shm`)).toBe(true);
    expect(mode(`${db}-wal`)).toBe(0o600);
    expect(mode(`${db}-shm`)).toBe(0o600);
    // The folder it was put in already existed: that one is left alone.
    expect(mode(root)).toBe(0o700);
  });

  it('tightens an existing world-readable database file and companions on open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hk-perm-old-'));
    try {
      chmodSync(dir, 0o755);
      const path = join(dir, 'old.db');
      writeFileSync(path, '');
      writeFileSync(`${path}-wal`, '');
      chmodSync(path, 0o644);
      chmodSync(`${path}-wal`, 0o644);
      const handle = openDatabase({ dialect: 'sqlite', path, url: `sqlite:${path}` });
      try {
        expect(mode(path)).toBe(0o600);
        expect(mode(`${path}-wal`)).toBe(0o600);
        // An existing folder keeps its mode: it may be shared.
        expect(mode(dir)).toBe(0o755);
      } finally {
        await handle.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(DIALECTS)('the e-mail outbox is owner-only, whatever the umask (%s)', (dialect) => {
  let root: string;
  let t: TestApp;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'hk-perm-mail-'));
    t = await startTestApp(dialect, {
      database: await createTestDatabase(dialect),
      env: { OUTBOX_DIR: join(root, 'mail', 'outbox'), REVIEW_WORKERS: 'false' },
    });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('creates the outbox folders 0700 and each mail 0600', async () => {
    const org = await t.user('organizer');
    const eventId = await createEvent(t, org.key);
    const res = await t.api('POST', `/events/${eventId}/reviewers`, { key: org.key, body: { email: 'perm@mail.test' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.delivery).toBe('outbox');
    const outbox = join(root, 'mail', 'outbox');
    expect(mode(join(root, 'mail'))).toBe(0o700);
    expect(mode(outbox)).toBe(0o700);
    const files = readdirSync(outbox);
    expect(files).toHaveLength(1);
    expect(mode(join(outbox, files[0]!))).toBe(0o600);
  });
});

describe('modes are exact even under a umask that strips owner bits', () => {
  it('outbox folder 0700 and mail 0600 with umask 0277', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hk-perm-umask-'));
    const before = process.umask(0o277);
    try {
      const mailer = createMailer({ smtpUrl: undefined, from: 'x@hackathon.test', outboxDir: join(root, 'a', 'b'), invitationTtlHours: 1 });
      const delivery = await mailer.send({ to: 'y@hackathon.test', subject: 's', text: 't', html: '<p>t</p>' });
      expect(delivery.mode).toBe('outbox');
      expect(mode(join(root, 'a'))).toBe(0o700);
      expect(mode(join(root, 'a', 'b'))).toBe(0o700);
      expect(mode((delivery as { file: string }).file)).toBe(0o600);
    } finally {
      process.umask(before);
      rmSync(root, { recursive: true, force: true });
    }
  });
});
