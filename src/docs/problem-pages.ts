import type { ProblemType } from '../core/error-catalog.js';
import { escapeHtml, htmlPage } from './html-page.js';

function entry(p: ProblemType, heading: 'h1' | 'h2'): string {
  return `<${heading} id="${p.code}"><code>${p.code}</code>: ${escapeHtml(p.title)}</${heading}><dl><dt>HTTP status</dt><dd>${p.status}</dd><dt>When it happens</dt><dd>${escapeHtml(p.when)}</dd><dt>What to do</dt><dd>${escapeHtml(p.action)}</dd></dl>`;
}

export function renderProblemPage(p: ProblemType, siteUrl: string): string {
  return htmlPage(
    `${p.code}: ${p.title}`,
    `${entry(p, 'h1')}<p>Problem type URI: <code>${escapeHtml(p.type)}</code></p><p><a href="${escapeHtml(`${siteUrl}/problems`)}">All error codes</a> · <a href="${escapeHtml(`${siteUrl}/docs`)}">API reference</a></p>`,
  );
}

export function renderProblemIndex(all: ProblemType[], siteUrl: string): string {
  const rows = all
    .map((p) => `<tr><td><a href="${escapeHtml(p.type)}"><code>${p.code}</code></a></td><td>${p.status}</td><td>${escapeHtml(p.title)}</td></tr>`)
    .join('');
  return htmlPage(
    'Error codes',
    `<h1>Error codes</h1><p>Every error of the API is an RFC 9457 problem document (<code>application/problem+json</code>) whose <code>type</code> is one of these pages and whose <code>code</code> is stable. <a href="${escapeHtml(`${siteUrl}/docs`)}">API reference</a></p><div class="tw"><table><thead><tr><th>Code</th><th>Status</th><th>Title</th></tr></thead><tbody>${rows}</tbody></table></div>`,
  );
}
