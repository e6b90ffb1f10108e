import { describe, expect, it } from 'vitest';
import { createOutageLog, errorGist } from '../../src/core/outage-log.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

function recorder() {
  const lines: Array<{ level: 'info' | 'warn' | 'error'; obj: Record<string, unknown>; msg: string | undefined }> = [];
  const log = {
    info: (obj: object, msg?: string) => void lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg }),
    warn: (obj: object, msg?: string) => void lines.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
    error: (obj: object, msg?: string) => void lines.push({ level: 'error', obj: obj as Record<string, unknown>, msg }),
  };
  return { lines, log: () => log };
}

describe('createOutageLog: one warning per outage, one line when it is over', () => {
  it('logs the first failure of an outage at warn without a stack, stays quiet until ok(), then logs the recovery at info', () => {
    const { lines, log } = recorder();
    let now = 1_000;
    const outage = createOutageLog(log, 'review queue', () => now);
    expect(outage.down).toBe(false);
    for (let i = 0; i < 50; i++) expect(outage.failed(withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'))).toBe(true);
    expect(outage.down).toBe(true);
    expect(lines).toEqual([
      {
        level: 'warn',
        obj: { component: 'review queue', err: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' } },
        msg: 'review queue: database unavailable; retrying quietly until it is back',
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain('    at ');
    now = 91_000;
    outage.ok();
    outage.ok();
    expect(lines).toHaveLength(2);
    expect(lines[1]).toEqual({
      level: 'info',
      obj: { component: 'review queue', outage_ms: 90_000, failures: 50 },
      msg: 'review queue resumed after 90000 ms of database outage',
    });
    expect(outage.down).toBe(false);
    // A second outage is a new one: warned about again.
    expect(outage.failed(withCode('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info', 'warn']);
  });

  it('leaves an unexpected error to the caller (it logs it at error with the stack) and does not start an outage', () => {
    const { lines, log } = recorder();
    const outage = createOutageLog(log, 'mail queue');
    expect(outage.failed(new TypeError('x is not a function'))).toBe(false);
    expect(outage.failed(withCode('23505', 'duplicate key value'))).toBe(false);
    expect(outage.down).toBe(false);
    outage.ok();
    expect(lines).toEqual([]);
  });

  it('errorGist: code and messages along the cause chain, never the stack', () => {
    expect(errorGist(new Error('outer', { cause: withCode('57P01', 'inner') }))).toEqual({ code: '57P01', message: 'outer: inner' });
    expect(errorGist('plain')).toEqual({ message: 'plain' });
  });
});
