import { PassThrough } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/app.js';
import { loadConfig } from '../../src/core/config.js';
import { chooseLogFormat } from '../../src/core/log-format.js';

/** Everything a Fastify app built with the server's logger options writes, for LOG_FORMAT and a TTY or not. */
async function logOf(env: Record<string, string>, isTTY: boolean, write: (log: (obj: object, msg: string) => void) => void): Promise<string> {
  const config = loadConfig({ DATABASE_URL: 'sqlite:/tmp/unused.db', ...env });
  const destination = new PassThrough();
  const chunks: string[] = [];
  destination.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  const app = Fastify({ logger: loggerOptions(config, { isTTY, destination }) });
  write((obj, msg) => app.log.info(obj, msg));
  await app.close();
  return chunks.join('');
}

describe('log format', () => {
  it('is readable on a TTY and JSON otherwise, unless LOG_FORMAT forces either', () => {
    expect(chooseLogFormat('auto', true)).toBe('pretty');
    expect(chooseLogFormat('auto', false)).toBe('json');
    expect(chooseLogFormat('pretty', false)).toBe('pretty');
    expect(chooseLogFormat('pretty', true)).toBe('pretty');
    expect(chooseLogFormat('json', true)).toBe('json');
    expect(chooseLogFormat('json', false)).toBe('json');
  });

  it('reads LOG_FORMAT (default auto, any case) and refuses other values', () => {
    expect(loadConfig({ DATABASE_URL: 'sqlite:/tmp/unused.db' }).logFormat).toBe('auto');
    expect(loadConfig({ DATABASE_URL: 'sqlite:/tmp/unused.db', LOG_FORMAT: 'JSON' }).logFormat).toBe('json');
    expect(loadConfig({ DATABASE_URL: 'sqlite:/tmp/unused.db', LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => loadConfig({ DATABASE_URL: 'sqlite:/tmp/unused.db', LOG_FORMAT: 'text' })).toThrow(/LOG_FORMAT="text" must be one of auto, pretty, json/);
  });

  it('writes one readable line per record on a TTY, with the secrets redacted', async () => {
    const out = await logOf({}, true, (log) => log({ body: { password: 'hunter2', email: 'a@example.com' }, token: 'tok_secret' }, 'signed in'));
    expect(out).toContain('signed in');
    expect(out).toContain('[redacted]');
    expect(out).not.toContain('hunter2');
    expect(out).not.toMatch(/^\{/m);
    expect(out).toContain('a@example.com');
  });

  it('writes JSON when forced, even on a TTY, with the same redaction', async () => {
    const out = await logOf({ LOG_FORMAT: 'json' }, true, (log) => log({ body: { password: 'hunter2' } }, 'signed in'));
    const record = JSON.parse(out.trim()) as { msg: string; body: { password: string } };
    expect(record.msg).toBe('signed in');
    expect(record.body.password).toBe('[redacted]');
  });

  it('writes readable lines when forced, even off a TTY (no colour codes then)', async () => {
    const out = await logOf({ LOG_FORMAT: 'pretty' }, false, (log) => log({ body: { password: 'hunter2' } }, 'signed in'));
    expect(out).toContain('signed in');
    expect(out).not.toContain('hunter2');
    expect(out).not.toMatch(/^\{/m);
    expect(out).not.toContain('\u001b[');
  });
});
