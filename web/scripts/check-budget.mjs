// The JavaScript budget of the public pages: what a first visit to the home, event or result page
// downloads (the entry, the page's chunk and everything they import statically), gzip-compressed.
// The build fails past the budget. Chunks a page loads later (a chart drawn after the table) are
// reported with their own budget.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const FIRST_LOAD_BUDGET = 150 * 1024;
const LATER_CHUNK_BUDGET = 160 * 1024;
const PUBLIC_PAGES = ['src/features/public/home-page.tsx', 'src/features/public/event-page.tsx', 'src/features/public/result-page.tsx'];

const out = fileURLToPath(new URL('../../dist/public/', import.meta.url));
const manifest = JSON.parse(readFileSync(join(out, '.vite/manifest.json'), 'utf8'));
const gz = new Map();
const size = (file) => {
  if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(join(out, file)), { level: 9 }).length);
  return gz.get(file);
};
/** The files of `key` and of everything it imports statically. */
function closure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return seen;
  seen.add(key);
  for (const dep of chunk.imports ?? []) closure(dep, seen);
  return seen;
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
let failed = false;
for (const page of PUBLIC_PAGES) {
  if (!manifest[page]) {
    console.error(`budget: ${page} is not a chunk of its own`);
    failed = true;
    continue;
  }
  const keys = new Set([...closure(entry), ...closure(page)]);
  const total = [...keys].reduce((sum, k) => sum + size(manifest[k].file), 0);
  const ok = total <= FIRST_LOAD_BUDGET;
  failed ||= !ok;
  console.log(`budget: ${page.replace('src/features/', '')} first load ${kb(total)} of ${kb(FIRST_LOAD_BUDGET)} ${ok ? 'ok' : 'OVER'}`);
  for (const lazy of manifest[page].dynamicImports ?? []) {
    const later = [...closure(lazy)].filter((k) => !keys.has(k)).reduce((sum, k) => sum + size(manifest[k].file), 0);
    const fine = later <= LATER_CHUNK_BUDGET;
    failed ||= !fine;
    console.log(`budget:   then ${lazy.replace('src/', '')} ${kb(later)} of ${kb(LATER_CHUNK_BUDGET)} ${fine ? 'ok' : 'OVER'}`);
  }
}
const dashboard = Object.entries(manifest).filter(([k]) => k.includes('features/organizer/'));
for (const [k, chunk] of dashboard) console.log(`info: ${k.replace('src/features/', '')} ${kb(size(chunk.file))} (own chunk)`);
if (failed) {
  console.error('budget: the public pages are over their JavaScript budget');
  process.exit(1);
}
