import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from '../../src/app.js';
import type { App, AppContext } from '../../src/app-context.js';
import { ManualClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { openDatabase, type DatabaseHandle } from '../../src/core/db/index.js';
import { migrateToLatest } from '../../src/core/db/migrations.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { T0 } from '../helpers/harness.js';
import { unfoldMail } from '../helpers/smtp-receiver.js';

/** With real (info-level) logs and no SMTP: the reset mail lands in the outbox, and no secret reaches a log line. */
describe.each(DIALECTS)('accounts secrets stay out of the logs (%s)', (dialect) => {
  let app: App;
  let ctx: AppContext;
  let database: DatabaseHandle;
  let testDb: TestDatabase;
  let outbox: string;
  let url: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    outbox = mkdtempSync(join(tmpdir(), 'hk-outbox-'));
    testDb = await createTestDatabase(dialect);
    const config = loadConfig({
      DATABASE_URL: testDb.config.url,
      LOG_LEVEL: 'info',
      PUBLIC_URL: 'http://hackathon.test',
      OUTBOX_DIR: outbox,
      PASSWORD_SCRYPT_N: '16384',
      REVIEW_WORKERS: 'false',
    });
    database = openDatabase(testDb.config);
    await migrateToLatest(database.db);
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const logger = { ...(loggerOptions(config) as object), stream } as Parameters<typeof buildApp>[0]['logger'];
    ({ app, ctx } = await buildApp({ config, database, clock: new ManualClock(T0), logger }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await testDb?.drop();
    rmSync(outbox, { recursive: true, force: true });
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${url}/api/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://hackathon.test', ...headers },
      body: JSON.stringify(body),
    });

  it('session cookie, CSRF token, reset token and passwords never appear in a log line', async () => {
    const signup = await post('/auth/signup', { email: 'logged@example.com', password: 'first password 1' });
    expect(signup.status).toBe(201);
    const cookie = /hk_session=[^;]+/.exec(signup.headers.get('set-cookie')!)![0];
    const csrf = ((await signup.json()) as { csrf_token: string }).csrf_token;
    const key = await post('/api-keys', { name: 'k' }, { cookie, 'x-csrf-token': csrf });
    expect(key.status).toBe(201);

    expect((await post('/auth/password-reset', { email: 'logged@example.com' })).status).toBe(202);
    await ctx.auth.drain();
    const files = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const token = /reset-password\?token=([A-Za-z0-9_-]{43})/.exec(unfoldMail(readFileSync(join(outbox, files[0]!), 'utf8')))![1]!;
    // The page URL carries the token in its query, as a browser would request it.
    await fetch(`${url}/reset-password?token=${token}`);
    expect((await post('/auth/password-reset/confirm', { token, password: 'second password 2' })).status).toBe(204);

    const logs = logLines.join('\n');
    expect(logs).toContain('password-reset e-mail written to the outbox');
    for (const secret of [cookie.split('=')[1]!, csrf, token, 'first password 1', 'second password 2']) expect(logs).not.toContain(secret);
  });
});
