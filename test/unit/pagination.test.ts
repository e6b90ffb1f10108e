import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { cursorPartOk, decodeCursor, encodeCursor, takePage } from '../../src/core/http/pagination.js';
import { prefixUpperBound } from '../../src/registrations/registrations-repo.js';

function cursorError(fn: () => unknown): { code: string; errors: unknown } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return { code: (err as AppError).code, errors: (err as AppError).errors };
  }
  throw new Error('expected a cursor error');
}

describe('keyset cursors', () => {
  it('round-trips a key, bound to its list and scope', () => {
    const c = encodeCursor('projects', 'evt_1', ['2030-01-01T00:00:00.000Z', 'prj_1']);
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(c, 'projects', 'evt_1', ['time', 'id'])).toEqual(['2030-01-01T00:00:00.000Z', 'prj_1']);
    expect(cursorError(() => decodeCursor(c, 'projects', 'evt_2', ['time', 'id']))).toEqual({
      code: 'validation_failed',
      errors: [{ field: 'cursor', message: 'belongs to another event' }],
    });
    expect(cursorError(() => decodeCursor(c, 'reviews', 'evt_1', ['time', 'id'])).errors).toEqual([
      { field: 'cursor', message: 'belongs to another list or ordering' },
    ]);
    expect(cursorError(() => decodeCursor(c, 'projects', 'evt_1', ['time'])).code).toBe('validation_failed');
  });

  it.each(['', '!!', 'a b', Buffer.from('nope').toString('base64url'), Buffer.from('[1,2,3]').toString('base64url'), Buffer.from('{}').toString('base64url')])(
    'refuses the malformed cursor %j on field cursor',
    (raw) => {
      expect(cursorError(() => decodeCursor(raw, 'projects', 'evt_1', ['text'])).errors).toEqual([
        { field: 'cursor', message: 'is not a cursor from this list' },
      ]);
    },
  );

  it.each([
    ['id', 'prj_01hx0000000000000000000000', true],
    ['id', 'prj_1\u0000', false],
    ['id', 'PRJ_1', false],
    ['id', '', false],
    ['time', '2030-01-01T00:00:00.000Z', true],
    ['time', '2030-01-01T00:00:00.000Z\u0000', false],
    ['time', '2030-01-01', false],
    ['text', 'team rocket', true],
    ['text', '', true],
    ['text', 'a\u0000', false],
    ['text', 'a\nb', false],
    ['text', '\ud800', false],
    ['text', '\ud83d\ude00', true],
    ['text', 'x'.repeat(301), false],
  ] as const)('a %s part %j is accepted: %s', (part, value, ok) => {
    expect(cursorPartOk(part, value)).toBe(ok);
  });

  it.each([2 ** 31, 1, null, true, {}, []])('no part may be the non-string %j', (value) => {
    for (const part of ['id', 'time', 'text'] as const) expect(cursorPartOk(part, value)).toBe(false);
  });

  it('takePage cuts limit + 1 rows to the page and keys the next one on its last row', () => {
    expect(takePage([1, 2, 3], 3, (n) => [String(n)])).toEqual({ items: [1, 2, 3], nextKey: null });
    expect(takePage([1, 2, 3, 4], 3, (n) => [String(n)])).toEqual({ items: [1, 2, 3], nextKey: ['3'] });
  });
});

describe('prefixUpperBound', () => {
  it.each([
    ['abc', 'abd'],
    ['a', 'b'],
    ['team 1', 'team 2'],
    ['\u{D7FF}', '\u{E000}'],
    ['a\u{10FFFF}', 'b'],
    ['\u{10FFFF}', null],
    ['é', 'ê'],
  ])('%j -> %j', (prefix, upper) => {
    expect(prefixUpperBound(prefix)).toBe(upper);
  });

  it('bounds exactly the strings that start with the prefix (code point order)', () => {
    const upper = prefixUpperBound('al')!;
    const inRange = (s: string) => s >= 'al' && s < upper;
    expect(['al', 'alpha', 'al\u{10FFFF}x', 'al😀'].every(inRange)).toBe(true);
    expect(['ak', 'am', 'a', 'b'].some(inRange)).toBe(false);
  });
});
