import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/app.js';
import type { Config } from '../../src/core/config.js';
import { DIALECTS } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';

/**
 * A fault on the server's side (here: a table gone from under the running server, as a botched
 * manual migration would leave it) answers 500 `internal_error` as problem+json, says nothing of
 * the cause, and logs it; the server answers again once the fault is gone.
 */
describe.each(DIALECTS)('a fault on the server side (%s)', (dialect) => {
  let t: TestApp;
  const logged: Array<{ level: number; msg: string; err?: { message?: string } }> = [];

  beforeAll(async () => {
    const options = loggerOptions({ logLevel: 'warn', logFormat: 'json' } as Config, { isTTY: false }) as object;
    t = await startTestApp(dialect, {
      env: { WEBHOOKS_WORKERS: 'false' },
      logger: { ...options, stream: { write: (line: string) => void logged.push(JSON.parse(line) as (typeof logged)[number]) } },
    });
  });
  afterAll(() => t?.close());

  it('answers 500 internal_error without the cause, logs the cause, and recovers', async () => {
    const u = await t.user();
    expect((await t.api('GET', '/webhooks', { key: u.key })).status).toBe(200);
    await t.ctx.db.schema.alterTable('webhooks').renameTo('webhooks_moved').execute();
    const seen = logged.length;
    try {
      const res = await t.api('GET', '/webhooks', { key: u.key });
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ code: 'internal_error', status: 500, detail: 'Something went wrong on our side; it has been logged.' });
      expect(JSON.stringify(res.body)).not.toMatch(/webhooks|relation|table|sql/i);
      const errors = logged.slice(seen).filter((l) => l.level >= 50);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.err?.message).toMatch(/webhooks/);
    } finally {
      await t.ctx.db.schema.alterTable('webhooks_moved').renameTo('webhooks').execute();
    }
    expect((await t.api('GET', '/webhooks', { key: u.key })).status).toBe(200);
  });
});
