import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG } from '../../src/core/error-catalog.js';
import { ERROR_STATUS, type ErrorCode } from '../../src/core/errors.js';

/**
 * Every documented error code (the error catalog served at /problems, and docs/api.md) is produced
 * by some black-box test: a test over HTTP (test/api, test/browser, test/faults) or of the CLI
 * process (test/cli*.test.ts) asserts it as an answer's `code`. A code no test produces is a promise
 * nobody checks. Comments do not count, and neither do unit tests (they can build any AppError).
 */
const ROOT = resolve(import.meta.dirname, '../..');

/** Codes that cannot be produced from outside, each with the reason. None today. */
const EXEMPT: Partial<Record<ErrorCode, string>> = {};

/** The forms tests assert an answer's code in; each captures the code. */
const ASSERTION_FORMS: RegExp[] = [
  // expect(res.body).toMatchObject({ code: 'x', … }) / toEqual / objectContaining
  /\bcode: ['"]([a-z0-9_]+)['"]/g,
  // expect(res.body.code).toBe('x')
  /\.code(?:, [^)]*)?\)\.to(?:Be|Equal)\(['"]([a-z0-9_]+)['"]\)/g,
  // expectProblem(res, 404, 'x') and the like (a status, then the code)
  /expect(?:Problem|Answer)\w*\([^;]*?,\s*\d{3},\s*['"]([a-z0-9_]+)['"]/g,
  // expect([res.status, res.body.code]).toEqual([409, 'x']), and tables of [status, code] pairs
  /\[\s*[1-5]\d\d,\s*['"]([a-z0-9_]+)['"]\s*\]/g,
];

function blackBoxTestFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.test.ts')) files.push(path);
    }
  };
  for (const dir of ['test/api', 'test/browser', 'test/faults']) walk(join(ROOT, dir));
  for (const name of readdirSync(join(ROOT, 'test'))) if (/^cli.*\.test\.ts$/.test(name)) files.push(join(ROOT, 'test', name));
  return files;
}

/** The source without comments (a code named in a comment is not asserted). */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** code -> the files that assert it. */
function assertedCodes(): Map<string, Set<string>> {
  const asserted = new Map<string, Set<string>>();
  for (const file of blackBoxTestFiles()) {
    const source = withoutComments(readFileSync(file, 'utf8'));
    for (const form of ASSERTION_FORMS) {
      for (const m of source.matchAll(form)) {
        const code = m[1]!;
        if (!asserted.has(code)) asserted.set(code, new Set());
        asserted.get(code)!.add(relative(ROOT, file));
      }
    }
  }
  return asserted;
}

/** The codes docs/api.md names: its code table and "<status> `code`" in the route tables and text. */
function apiDocCodes(): Set<string> {
  const doc = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');
  return new Set([
    ...[...doc.matchAll(/^\| `([a-z][a-z0-9_]+)` \| [1-5]\d\d \|/gm)].map((m) => m[1]!),
    ...[...doc.matchAll(/\b[1-5]\d\d `([a-z][a-z0-9_]+)`/g)].map((m) => m[1]!),
  ]);
}

describe('every documented error code is produced by a black-box test', () => {
  const catalog = Object.keys(ERROR_CATALOG);
  const documented = apiDocCodes();
  const asserted = assertedCodes();

  it('docs/api.md names only catalog codes, and its code table lists every one with its status', () => {
    expect([...documented].filter((code) => !(code in ERROR_CATALOG))).toEqual([]);
    const doc = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');
    const table = new Map([...doc.matchAll(/^\| `([a-z][a-z0-9_]+)` \| ([1-5]\d\d) \|/gm)].map((m) => [m[1]!, Number(m[2])]));
    expect(Object.fromEntries(catalog.filter((c) => table.get(c) !== ERROR_STATUS[c as ErrorCode]).map((c) => [c, table.get(c) ?? 'missing']))).toEqual({});
  });

  it('some test asserts each code as an answer’s code (exemptions name their reason)', () => {
    const untested = [...new Set([...catalog, ...documented])].filter((code) => !asserted.has(code) && !(code in EXEMPT)).sort();
    expect(untested).toEqual([]);
    // An exemption that a test now produces is no longer needed.
    expect(Object.keys(EXEMPT).filter((code) => asserted.has(code))).toEqual([]);
  });

  it('reads the assertion forms and not comments or unit tests', () => {
    const sample = withoutComments("// code: 'commented'\nexpect(res.body.code).toBe('real');\n/* expectProblem(res, 404, 'block') */");
    expect([...ASSERTION_FORMS.flatMap((f) => [...sample.matchAll(f)].map((m) => m[1]))]).toEqual(['real']);
    expect(asserted.get('internal_error')).toEqual(new Set(['test/api/internal-error.test.ts', 'test/api/request-id.test.ts']));
  });
});
