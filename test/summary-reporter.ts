import type { Reporter, TestCase, TestModule, TestSuite } from 'vitest/node';

export interface Summary {
  passed: number;
  failed: number;
  skipped: number;
}

/** True when this suite or module, or one around it, hit an error outside its tests (import, collection, a hook). */
function brokenAround(node: TestCase | TestSuite | TestModule): boolean {
  for (let n: TestCase | TestSuite | TestModule = node; ; n = n.parent) {
    if (n.type !== 'test' && n.errors().length > 0) return true;
    if (n.type === 'module') return false;
  }
}

/**
 * Counts a run. A test that did not run because its file or suite broke (PostgreSQL down, a throw in
 * beforeAll, an import error) is failed, not skipped: "skipped" must only ever mean a deliberate skip.
 * A broken file, suite or hook none of whose tests were counted failed (no tests collected, or an
 * afterAll that threw after they passed) counts as one failure itself, as does every unhandled error,
 * so a red run can never print "0 failed".
 */
export function summarize(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown> = []): Summary {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const mod of testModules) {
    for (const test of mod.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') passed++;
      else if (state === 'failed') failed++;
      else if (brokenAround(test.parent)) failed++;
      else skipped++;
    }
    for (const holder of [mod, ...mod.children.allSuites()]) {
      if (holder.errors().length === 0) continue;
      const tests = [...holder.children.allTests()];
      if (!tests.some((t) => t.result().state !== 'passed')) failed++;
    }
    // A module that never got to report its errors (e.g. its worker died) still failed.
    if (mod.state() === 'failed' && mod.errors().length === 0 && [...mod.children.allTests()].length === 0) failed++;
  }
  failed += unhandledErrors.length;
  return { passed, failed, skipped };
}

/** Ends the run with one plain line, `N passed, N failed, N skipped`, that any CI log reader understands. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const s = summarize(testModules, unhandledErrors);
    process.stdout.write(`\n${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped\n`);
  }
}
