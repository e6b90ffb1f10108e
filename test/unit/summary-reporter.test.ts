import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Runs the real vitest, with the real summary reporter, on fixture files that break the way real
 * test files break (PostgreSQL down in beforeAll, an import error, a suite hook, a teardown), and
 * reads the summary line it prints.
 */
const root = join(import.meta.dirname, '..', '..');
const config = join(root, 'test', 'fixtures', 'summary-reporter', 'vitest.config.ts');

function summaryOf(filter: string[]): { line: string; status: number | null } {
  // A clean environment: the outer run's worker variables must not leak into the inner run.
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const k of Object.keys(env)) if (k.startsWith('VITEST')) delete env[k];
  const run = spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', config, ...filter], {
    cwd: root,
    encoding: 'utf8',
    env,
    timeout: 60_000,
  });
  const lines = run.stdout.trim().split('\n');
  const line = lines[lines.length - 1] ?? '';
  expect(line, `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`).toMatch(/^\d+ passed, \d+ failed, \d+ skipped$/);
  return { line, status: run.status };
}

describe('summary reporter', () => {
  it.each([
    ['passes', '2 passed, 0 failed, 1 skipped', 0],
    ['before-all-throws', '0 passed, 2 failed, 0 skipped', 1],
    ['import-error', '0 passed, 1 failed, 0 skipped', 1],
    ['suite-hook-throws', '1 passed, 1 failed, 0 skipped', 1],
    ['after-all-throws', '1 passed, 1 failed, 0 skipped', 1],
  ])('%s: %s', (fixture, expected, exitCode) => {
    const { line, status } = summaryOf([`${fixture}.fixture.ts`]);
    expect(line).toBe(expected);
    expect(status).toBe(exitCode);
  });

  it('adds every file up in one run', () => {
    expect(summaryOf([]).line).toBe('4 passed, 5 failed, 1 skipped');
  });
});
