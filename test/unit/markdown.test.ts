import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { markdownText, renderMarkdown } from '../../src/core/markdown.js';

/** Every element and attribute in an HTML fragment, parsed the way a browser's tokenizer would. */
function elements(html: string): Array<{ name: string; attribs: Record<string, string> }> {
  const found: Array<{ name: string; attribs: Record<string, string> }> = [];
  const parser = new Parser({ onopentag: (name, attribs) => found.push({ name, attribs }) }, { decodeEntities: true, lowerCaseTags: true });
  parser.write(html);
  parser.end();
  return found;
}

const ALLOWED = new Set([
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
]);

/** Known XSS payloads (OWASP filter-evasion cheat sheet and Markdown-specific ones), raw and inside Markdown constructs. */
const PAYLOADS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<a href="javascript:alert(1)">x</a>',
  '<body onload=alert(1)>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<<script>script>alert(1)<</script>/script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](java\tscript:alert(1))',
  '[x](&#106;avascript:alert(1))',
  '[x](javascript&colon;alert(1))',
  '[x](vbscript:msgbox(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[x](//evil.example/path)',
  '[x]( javascript:alert(1) )',
  '<javascript:alert(1)>',
  '![x](javascript:alert(1))',
  '![x" onerror="alert(1)](https://example.com/a.png)',
  '[x](https://example.com/" onmouseover="alert(1))',
  '[x][ref]\n\n[ref]: javascript:alert(1)',
  '<details open ontoggle=alert(1)>',
  '<input autofocus onfocus=alert(1)>',
  '<object data="javascript:alert(1)">',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel=stylesheet href="https://evil.example/x.css">',
  '<base href="https://evil.example/">',
  '`<script>alert(1)</script>`',
  '```html\n<script>alert(1)</script>\n```',
  '| a |\n|---|\n| <img src=x onerror=alert(1)> |',
  '> <script>alert(1)</script>',
  '* [x](javascript:alert(1))',
  '<!-- --><script>alert(1)</script>',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<style>@import "https://evil.example/x.css";</style>',
];

describe('Markdown rendering', () => {
  it('renders CommonMark, tables, strikethrough and autolinks, with headings under the page title and its section and safe links', () => {
    const html = renderMarkdown('# Build\n\nSome **bold**, _em_, ~~old~~ and https://example.com.\n\n| a | b |\n|--:|---|\n| 1 | 2 |\n\n- one\n- two');
    expect(html).toContain('<h3>Build</h3>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<em>em</em>');
    expect(html).toContain('<s>old</s>');
    expect(html).toContain('<a href="https://example.com" rel="noopener nofollow ugc">https://example.com</a>');
    expect(html).toContain('<td>1</td>');
    expect(html).not.toContain('style=');
    expect(html).toContain('<li>one</li>');
  });

  it('turns images into links (the pages load images from this site only) and keeps mailto', () => {
    expect(renderMarkdown('![diagram](https://example.com/a.png)')).toBe('<p><a href="https://example.com/a.png" rel="noopener nofollow ugc">diagram</a></p>');
    expect(renderMarkdown('[write](mailto:team@example.com)')).toBe('<p><a href="mailto:team@example.com" rel="noopener nofollow ugc">write</a></p>');
  });

  it.each(PAYLOADS)('leaves nothing script-capable of %j', (payload) => {
    for (const source of [payload, `text before\n\n${payload}\n\ntext after`]) {
      const html = renderMarkdown(source);
      for (const el of elements(html)) {
        expect(ALLOWED.has(el.name), `element <${el.name}> in ${html}`).toBe(true);
        for (const [name, value] of Object.entries(el.attribs)) {
          expect(['href', 'title', 'rel', 'start'].includes(name), `attribute ${name} in ${html}`).toBe(true);
          if (name === 'href') expect(value, html).toMatch(/^(https?:\/\/|mailto:)/i);
        }
      }
    }
  });

  it('gives plain text for previews, shortened with an ellipsis', () => {
    expect(markdownText('# Title\n\nSome **bold** & [a link](https://example.com).')).toBe('Title Some bold & a link.');
    expect(markdownText('word '.repeat(100), 20)).toBe('word word word word…');
    expect(markdownText('')).toBe('');
  });
});
