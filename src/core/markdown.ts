import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

/**
 * Markdown (CommonMark plus tables, strikethrough and autolinks) as safe HTML, for descriptions that
 * organizers and teams write. Two layers: markdown-it never passes raw HTML through (`html: false`
 * escapes it) and refuses `javascript:`-like link targets; sanitize-html then keeps only the elements
 * and attributes a description needs, with http(s)/mailto links only, so whatever a parser bug let
 * through is still cut. Images become links (the pages' CSP loads images from this site only), headings
 * move two levels down (a description sits in a section under the page's h1 and the section's h2), and every link gets
 * `rel="noopener nofollow ugc"`. No inline styles survive, so the strict CSP holds.
 */
const md = new MarkdownIt('commonmark', { html: false, linkify: true, typographer: false }).enable(['table', 'strikethrough', 'linkify']);

md.renderer.rules.image = (tokens, idx) => {
  const token = tokens[idx]!;
  const src = token.attrGet('src') ?? '';
  const alt = token.children?.map((c) => c.content).join('') || src;
  return `<a href="${md.utils.escapeHtml(String(src))}">${md.utils.escapeHtml(String(alt))}</a>`;
};

const HEADING_DOWN: Record<string, string> = { h1: 'h3', h2: 'h4', h3: 'h5', h4: 'h6', h5: 'h6', h6: 'h6' };

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'em',
    'del',
    's',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: { a: ['href', 'title', 'rel'], ol: ['start'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'escape',
  transformTags: {
    ...Object.fromEntries(Object.entries(HEADING_DOWN).map(([from, to]) => [from, to])),
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'noopener nofollow ugc' } }),
  },
};

/** Renders Markdown source to sanitised HTML (an empty string for empty source). */
export function renderMarkdown(source: string): string {
  if (!source.trim()) return '';
  return sanitizeHtml(md.render(source), SANITIZE).trim();
}

/** The text a reader sees, without markup: for previews, cards and link-preview descriptions. */
export function markdownText(source: string, maxLength = 300): string {
  return remembered(textCache, `${maxLength}\u0000${source}`, () => {
    const text = sanitizeHtml(md.render(source), { allowedTags: [], allowedAttributes: {} })
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&')
      .replace(/\s+/g, ' ')
      .trim();
    return text.length > maxLength ? `${text.slice(0, maxLength - 1).trimEnd()}…` : text;
  });
}

/**
 * Rendering is pure, and the same descriptions are read over and over (a gallery's first page, a
 * popular project): the last 500 results of each kind are kept, oldest dropped first. Parsing and
 * sanitising one description costs far more than the lookup.
 */
const CACHE_LIMIT = 500;
const htmlCache = new Map<string, string>();
const textCache = new Map<string, string>();

function remembered(cache: Map<string, string>, key: string, make: () => string): string {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const value = make();
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
  return value;
}

/**
 * The start of a description rendered like the whole (for cards): whole blocks (paragraphs, lists,
 * headings, split at blank lines) while they fit in `maxChars` of source, at least the first, cut
 * there if it alone is longer (the parser and the sanitiser close whatever the cut left open).
 */
export function markdownExcerptHtml(source: string, maxChars = 320): string {
  return remembered(excerptCache, `${maxChars}\u0000${source}`, () => {
    let out = '';
    for (const block of source.trim().split(/\n[ \t]*\n/)) {
      if (out && out.length + block.length + 2 > maxChars) break;
      out += (out ? '\n\n' : '') + block;
    }
    if (out.length > maxChars) out = `${out.slice(0, maxChars - 1).trimEnd()}…`;
    return renderMarkdown(out);
  });
}

const excerptCache = new Map<string, string>();

/** renderMarkdown with a cache: descriptions are read far more often than they change. */
export function renderMarkdownCached(source: string): string {
  return remembered(htmlCache, source, () => renderMarkdown(source));
}
