import { describe, expect, it } from 'vitest';
import { markdownExcerptHtml, renderMarkdown } from '../../src/core/markdown.js';

describe('markdownExcerptHtml', () => {
  it('keeps whole blocks while they fit, rendered like the whole description', () => {
    const source = '# PlanetPal\n\nAn **agent** that plans your week.\n\n- tracks habits\n- suggests `plans`\n\n' + 'More text. '.repeat(40);
    const excerpt = markdownExcerptHtml(source, 120);
    expect(excerpt).toBe(renderMarkdown('# PlanetPal\n\nAn **agent** that plans your week.\n\n- tracks habits\n- suggests `plans`'));
    expect(excerpt).toContain('<li>tracks habits</li>');
    expect(excerpt).not.toContain('More text');
  });

  it('cuts a first block that alone is too long, and closes what the cut left open', () => {
    const excerpt = markdownExcerptHtml('A **very ' + 'long '.repeat(100) + 'paragraph**.', 60);
    expect(excerpt.startsWith('<p>A ')).toBe(true);
    expect(excerpt.endsWith('…</p>')).toBe(true);
    const fenced = markdownExcerptHtml('```js\n' + 'x = 1;\n'.repeat(50) + '```', 40);
    expect(fenced).toMatch(/^<pre><code[^>]*>x = 1;\n/);
    expect(fenced).toMatch(/<\/code><\/pre>$/);
  });

  it('is empty for an empty description and never passes raw HTML', () => {
    expect(markdownExcerptHtml('')).toBe('');
    expect(markdownExcerptHtml('<script>alert(1)</script> hi')).not.toContain('<script');
  });
});
