import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

/** Each is one address to a lax check and another to a mail library. */
const ATTACKS = ['x<victim@evil.test>', 'a,b@x.test', 'victim(@evil.test)', '"victim@evil.test"@x.test', 'a@x.test\nBcc: victim@evil.test'];
const LINK = /http:\/\/hackathon\.test\/invitations\/([A-Za-z0-9_-]{43})/;

describe.each(DIALECTS)('e-mail addresses are one plain address everywhere (%s)', (dialect) => {
  let t: TestApp;
  let outbox: string;
  let org: TestUser;
  let eventId: string;

  beforeAll(async () => {
    outbox = mkdtempSync(join(tmpdir(), 'hk-email-'));
    t = await startTestApp(dialect, { env: { OUTBOX_DIR: outbox, REVIEW_WORKERS: 'false' } });
    org = await quickUser(t, 'organizer');
    eventId = await createEvent(t, org.key, {
      registration_config: {
        open: true,
        auto_approve: true,
        fields: [
          { key: 'repo', label: 'Repository', type: 'url', required: true },
          { key: 'backup', label: 'Backup e-mail', type: 'email', required: false },
        ],
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(outbox, { recursive: true, force: true });
  });

  it.each(ATTACKS)('invitations refuse %j with 422 naming email, and send nothing', async (email) => {
    const res = await t.api('POST', `/events/${eventId}/reviewers`, { key: org.key, body: { email } });
    expect([res.status, res.body.code]).toEqual([422, 'validation_failed']);
    expect(res.body.errors).toEqual([{ field: 'email', message: 'must be an e-mail address' }]);
    expect(readdirSync(outbox)).toEqual([]);
    const rows = await t.ctx.db.selectFrom('reviewer_invitations').select('id').where('event_id', '=', eventId).execute();
    expect(rows).toEqual([]);
  });

  it('invitations normalise a plain address; accepting refuses a mangled one', async () => {
    const res = await t.api('POST', `/events/${eventId}/reviewers`, { key: org.key, body: { email: '  Judge.Two@Example.TEST ' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.email).toBe('judge.two@example.test');
    const [file] = readdirSync(outbox);
    const token = LINK.exec(readFileSync(join(outbox, file!), 'utf8').replace(/=\r?\n/g, ''))![1]!;
    const bad = await t.api('POST', `/invitations/${token}/accept`, { body: { email: 'x<judge.two@example.test>', password: 'a good password' } });
    expect([bad.status, bad.body.code]).toEqual([422, 'validation_failed']);
    expect(bad.body.errors[0].field).toBe('email');
    const ok = await t.api('POST', `/invitations/${token}/accept`, { body: { email: 'JUDGE.TWO@example.test', password: 'a good password' } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.user.email).toBe('judge.two@example.test');
  });

  it.each(ATTACKS)('registration contact_email refuses %j with 422 naming contact_email', async (contact) => {
    const team = await quickUser(t);
    const res = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody({ contact_email: contact }) });
    expect([res.status, res.body.code]).toEqual([422, 'validation_failed']);
    expect(res.body.errors).toContainEqual({ field: 'contact_email', message: 'must be an e-mail address' });
  });

  it('registration email form fields refuse an attack string, naming the field', async () => {
    const team = await quickUser(t);
    const body = registrationBody({ fields: { repo: 'https://github.com/example/repo', backup: 'x<victim@evil.test>' } });
    const res = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body });
    expect([res.status, res.body.code]).toEqual([422, 'validation_failed']);
    expect(res.body.errors).toEqual([{ field: 'fields.backup', message: 'must be an e-mail address' }]);
  });

  it('registration stores contact_email and email fields normalised', async () => {
    const team = await quickUser(t);
    const body = registrationBody({
      contact_email: ' Team.Lead@Example.TEST ',
      fields: { repo: 'https://github.com/example/repo', backup: 'Backup@Example.TEST' },
    });
    const res = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body });
    expect(res.status, res.text).toBe(201);
    const row = await t.ctx.db.selectFrom('registrations').select(['contact_email', 'fields']).where('id', '=', res.body.id).executeTakeFirstOrThrow();
    expect(row.contact_email).toBe('team.lead@example.test');
    expect(JSON.parse(row.fields)).toMatchObject({ backup: 'backup@example.test' });
  });

  it.each(ATTACKS)('user creation (the service behind the CLI) refuses %j', async (email) => {
    let caught: unknown;
    try {
      await t.ctx.accounts.createUser({ email });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).code).toBe('validation_failed');
    expect((caught as AppError).errors).toEqual([{ field: 'email', message: 'must be an e-mail address' }]);
  });
});

describe('the CLI refuses a mangled address', () => {
  it('users create --email "x<victim@evil.test>" exits 1 and creates nobody', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hk-email-cli-'));
    const root = resolve(import.meta.dirname, '..', '..');
    try {
      const run = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', join(root, 'src', 'cli.ts'), 'users', 'create', '--email', 'x<victim@evil.test>'],
          {
            cwd: root,
            env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', DATABASE_URL: `sqlite:${join(dir, 'cli.db')}` },
            timeout: 30_000,
          },
          (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('email: must be an e-mail address');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
