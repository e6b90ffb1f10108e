import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README and docs/ link to each other by file and by heading; a moved or renamed section must
 * not leave a dead link behind. Anchors follow GitHub's rule for heading ids.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const FILES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Lines outside fenced code blocks (a `# comment` in a shell example is no heading). */
function proseLines(text: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const m = /^\s*(```+|~~~+)/.exec(line);
    if (m) {
      if (fence === null) fence = m[1]![0]!;
      else if (m[1]![0] === fence) fence = null;
      continue;
    }
    if (fence === null) out.push(line);
  }
  return out;
}

/** GitHub's heading ids: lower case, markup and punctuation dropped, spaces to hyphens, repeats numbered. */
function headingIds(text: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const plain = m[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*_]/g, (c) => (c === '_' ? '_' : ''));
    const base = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}

function links(text: string): string[] {
  const out: string[] = [];
  for (const line of proseLines(text)) {
    // Inline code may show link syntax as an example; it is not a link.
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) out.push(m[1]!);
  }
  return out;
}

describe('documentation links', () => {
  it('finds the documents it checks', () => {
    expect(FILES).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/api.md',
        'docs/operator.md',
        'docs/agents.md',
        'docs/architecture.md',
        'docs/performance.md',
        'docs/development.md',
      ]),
    );
  });

  it('computes heading ids as GitHub does', () => {
    const ids = headingIds('# A b\n## Agents: skill.md, scripts\n### `GET /x` and *y*\n```sh\n# not a heading\n```\n## A b\n');
    expect([...ids]).toEqual(['a-b', 'agents-skillmd-scripts', 'get-x-and-y', 'a-b-1']);
  });

  it('every relative link names an existing file and heading', () => {
    const dead: string[] = [];
    for (const file of FILES) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const link of links(text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // http:, https:, mailto:
        const [path, anchor] = link.split('#') as [string, string | undefined];
        const target = path === '' ? join(ROOT, file) : resolve(dirname(join(ROOT, file)), path);
        if (!target.startsWith(ROOT) || !existsSync(target)) {
          dead.push(`${file}: ${link} (no file ${relative(ROOT, target)})`);
          continue;
        }
        if (anchor !== undefined && target.endsWith('.md') && !headingIds(readFileSync(target, 'utf8')).has(anchor)) {
          dead.push(`${file}: ${link} (no heading #${anchor} in ${relative(ROOT, target)})`);
        }
      }
    }
    expect(dead).toEqual([]);
  });

  it('keeps the README short: what it is, the two commands, first steps and a map', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThan(200);
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm install && npm test');
  });
});
