import { describe, expect, it } from 'vitest';
import { nulPath } from '../../src/core/http/validation.js';

describe('nulPath', () => {
  it('is null when no string holds a NUL character', () => {
    expect(nulPath({ a: 'x', b: [1, 'y', null, { c: true }] })).toBeNull();
    expect(nulPath('plain')).toBeNull();
    expect(nulPath(undefined)).toBeNull();
  });

  it('points at the value or key holding a NUL, as a JSON pointer', () => {
    expect(nulPath('a\u0000')).toBe('');
    expect(nulPath({ team_name: 'a\u0000b' })).toBe('/team_name');
    expect(nulPath({ fields: { repo: ['ok', 'x\u0000'] } })).toBe('/fields/repo/1');
    expect(nulPath({ fields: { 'k\u0000': 'v' } })).toBe('/fields/k\u0000');
    expect(nulPath({ 'a/b~c': '\u0000' })).toBe('/a~1b~0c');
  });

  it('copes with deep nesting and cycles', () => {
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nulPath(deep)).toBe('/0'.repeat(100_000));
    const cyclic: Record<string, unknown> = { a: 'x' };
    cyclic.self = cyclic;
    expect(nulPath(cyclic)).toBeNull();
  });
});
