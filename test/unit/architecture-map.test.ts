import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The folders directly under `dir` (relative to the repository), sorted. */
function foldersOf(dir: string): string[] {
  return readdirSync(ROOT + dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/**
 * The map in docs/architecture.md (the code block under "## Modules"): for each top-level entry
 * (`src/`, `web/`, `test/`, …) the folders its indented lines name (`  core/`, `  src/api/`).
 */
function mapOf(markdown: string): Map<string, string[]> {
  const section = markdown.split('\n## Modules\n')[1] ?? '';
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const map = new Map<string, string[]>();
  let top = '';
  for (const line of block.split('\n')) {
    const entry = /^(\S+\/)\s/.exec(line + ' ')?.[1];
    if (entry) {
      top = entry;
      map.set(top, []);
      continue;
    }
    const child = /^ {2}(\S+)\/\s/.exec(line)?.[1];
    if (child && top) map.get(top)!.push(child);
  }
  return map;
}

describe("docs/architecture.md's map", () => {
  const map = mapOf(readFileSync(ROOT + 'docs/architecture.md', 'utf8'));

  it('names every folder of src/, and none that is gone', () => {
    expect([...(map.get('src/') ?? [])].sort()).toEqual(foldersOf('src'));
  });

  it('names every folder at the top of web/src/, and none that is gone', () => {
    const named = (map.get('web/') ?? []).filter((c) => c.startsWith('src/')).map((c) => c.slice('src/'.length));
    // web/src/api/ is generated (npm run api-types), so a fresh clone may not have it yet.
    expect(named.sort()).toEqual([...new Set([...foldersOf('web/src'), 'api'])].sort());
  });

  it('names every folder of test/, and none that is gone', () => {
    expect([...(map.get('test/') ?? [])].sort()).toEqual(foldersOf('test'));
  });
});
