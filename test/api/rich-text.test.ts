import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, type TestApp } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

const DESCRIPTION = [
  '# Rules',
  '',
  'Build **anything** with agents; see https://example.com/rules and [the FAQ](https://example.com/faq).',
  '',
  '| Prize | Amount |',
  '|---|---:|',
  '| First | $1000 |',
  '',
  '<script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=alert(1)>',
].join('\n');

/** The contents of every <meta> tag of a page, by name or property. */
function metas(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<meta (?:name|property)="([^"]+)" content="([^"]*)" \/>/g)) out[m[1]!] = m[2]!;
  return out;
}

describe.each(DIALECTS)('Markdown descriptions and page heads (%s)', (dialect) => {
  let t: TestApp;
  let org: Awaited<ReturnType<typeof quickUser>>;
  let eventId: string;
  let draftId: string;
  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { REVIEW_WORKERS: 'false', SITE_NAME: 'Open <Hack> Days' } });
    org = await quickUser(t, 'organizer');
    eventId = await createEvent(t, org.key, { name: 'Agents & "Friends"', description: DESCRIPTION });
    draftId = await createEvent(t, org.key, { name: 'Secret draft', description: 'not yet', status: 'draft' });
  });
  afterAll(async () => t?.close());

  it('keeps the Markdown source and serves it rendered and sanitised as description_html', async () => {
    const res = await t.api<any>('GET', `/events/${eventId}`);
    expect(res.status).toBe(200);
    expect(res.body.description).toBe(DESCRIPTION);
    const html: string = res.body.description_html;
    expect(html).toContain('<h3>Rules</h3>');
    expect(html).toContain('<strong>anything</strong>');
    expect(html).toContain('<a href="https://example.com/rules" rel="noopener nofollow ugc">https://example.com/rules</a>');
    expect(html).toContain('<a href="https://example.com/faq" rel="noopener nofollow ugc">the FAQ</a>');
    expect(html).toContain('<td>$1000</td>');
    expect(html).not.toMatch(/<script|<img|href="javascript|<[^>]*onerror/i);
    expect(html).toContain('&lt;script&gt;');
  });

  it('gives lists and cards the plain text (description_text), also as a chosen field', async () => {
    const list = await t.api<any[]>('GET', '/events');
    const item = list.body.find((e) => e.id === eventId)!;
    expect(item.description_text).toBe(
      'Rules Build anything with agents; see https://example.com/rules and the FAQ. Prize Amount First $1000 <script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=alert(1)>',
    );
    const picked = await t.api<any[]>('GET', '/events?fields=id,description_text');
    expect(picked.status).toBe(200);
    expect(Object.keys(picked.body.find((e) => e.id === eventId)).sort()).toEqual(['description_text', 'id']);
  });

  it('writes the event into the page head before any script runs: title with SITE_NAME, link-preview tags, escaped', async () => {
    const res = await t.request('GET', `/hackathons/${eventId}`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>Agents &amp; &quot;Friends&quot; · Open &lt;Hack&gt; Days</title>');
    const m = metas(res.text);
    expect(m['og:title']).toBe('Agents &amp; &quot;Friends&quot; · Open &lt;Hack&gt; Days');
    expect(m['og:site_name']).toBe('Open &lt;Hack&gt; Days');
    expect(m['site-name']).toBe('Open &lt;Hack&gt; Days');
    expect(m['og:url']).toBe(`${t.config.publicUrl}/hackathons/${eventId}`);
    expect(m['og:description']).toMatch(/^Rules Build anything with agents/);
    expect(m['og:description']).not.toContain('<script');
    expect(m['twitter:card']).toBe('summary');
    expect(m['description']).toBe(m['og:description']);

    const result = await t.request('GET', `/hackathons/${eventId}/result`, { headers: { accept: 'text/html' } });
    expect(metas(result.text)['og:title']).toBe('Results: Agents &amp; &quot;Friends&quot; · Open &lt;Hack&gt; Days');
  });

  it('never describes a draft or an unknown event: those pages carry the site head', async () => {
    for (const id of [draftId, 'evt_unknown']) {
      const res = await t.request('GET', `/hackathons/${id}`, { headers: { accept: 'text/html' } });
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('Secret draft');
      expect(res.text).not.toContain('not yet');
      expect(res.text).toContain('<title>Open &lt;Hack&gt; Days</title>');
      expect(metas(res.text)['og:description']).toBe('Hackathons for people and agents.');
    }
    const home = await t.request('GET', '/', { headers: { accept: 'text/html' } });
    expect(home.text).toContain('<title>Open &lt;Hack&gt; Days</title>');
  });
});

describe('page head without SITE_NAME', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { env: { REVIEW_WORKERS: 'false' } });
  });
  afterAll(async () => t?.close());

  it('uses the default name and leaves the translated name to the pages (no site-name tag)', async () => {
    const home = await t.request('GET', '/', { headers: { accept: 'text/html' } });
    expect(home.text).toContain('<title>Hackathon platform</title>');
    expect(metas(home.text)['site-name']).toBeUndefined();
    expect(metas(home.text)['og:site_name']).toBe('Hackathon platform');
  });
});
