import { describe, expect, it } from 'vitest';
import { dialectsOf } from '../helpers/databases.js';

describe('TEST_DB: the databases a test run covers', () => {
  it('covers both dialects unless told, one when named, and refuses any other name', () => {
    expect(dialectsOf(undefined)).toEqual(['sqlite', 'postgres']);
    expect(dialectsOf('')).toEqual(['sqlite', 'postgres']);
    expect(dialectsOf('sqlite')).toEqual(['sqlite']);
    expect(dialectsOf('postgres')).toEqual(['postgres']);
    expect(() => dialectsOf('pg')).toThrow('TEST_DB must be one of sqlite, postgres (or unset for both), not "pg"');
  });
});
