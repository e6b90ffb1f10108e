import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOG } from '../../src/core/error-catalog.js';
import { ERROR_STATUS, titleOf, type ErrorCode } from '../../src/core/errors.js';
import { DIALECTS } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';

const CODES = Object.keys(ERROR_STATUS) as ErrorCode[];
const CSP = /^default-src 'none'; style-src 'unsafe-inline'/;

describe.each(DIALECTS)('problem types and the reference page (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('resolves the type URL of every code as JSON: status, title, when and what to do', async () => {
    for (const code of CODES) {
      const type = `${t.config.publicUrl}/problems/${code}`;
      const res = await t.request('GET', new URL(type).pathname);
      expect(res.status, code).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('vary')).toMatch(/Accept/);
      expect(res.body).toEqual({ code, type, status: ERROR_STATUS[code], title: titleOf(code), ...ERROR_CATALOG[code] });
    }
  });

  it('uses the type URL that a real problem carries', async () => {
    const problem = await t.api('GET', '/events/evt_nope');
    expect(problem.body.code).toBe('event_not_found');
    const page = await t.request('GET', new URL(problem.body.type).pathname, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toMatch(CSP);
    expect(page.text).toContain('<code>event_not_found</code>');
    expect(page.text).toContain(ERROR_CATALOG.event_not_found.action);
    expect(page.text).not.toMatch(/<script/i);
  });

  it('lists every code at /problems, as JSON or HTML', async () => {
    const json = await t.request('GET', '/problems');
    expect(json.status).toBe(200);
    expect(json.body.map((p: { code: string }) => p.code)).toEqual(CODES);
    const html = await t.request('GET', '/problems', { headers: { accept: 'text/html,application/xhtml+xml;q=0.9' } });
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    for (const code of CODES) expect(html.text).toContain(`href="${t.config.publicUrl}/problems/${code}"`);
  });

  it('answers an unknown code with 404 not_found as problem+json', async () => {
    for (const path of ['/problems/no_such_code', '/problems/toString', '/problems/__proto__']) {
      const res = await t.request('GET', path, { headers: { accept: 'text/html' } });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('not_found');
    }
  });

  it('serves /docs: every operation grouped by tag, problem codes linking to their pages, no scripts, strict CSP', async () => {
    const res = await t.request('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toMatch(CSP);
    expect(res.headers.get('etag')).toMatch(/^"/);
    expect(res.text).not.toMatch(/<script|<link|src=|@import/i);
    expect(res.text).toContain('<meta name="viewport"');
    const doc = (await t.api('GET', '/openapi.json')).body;
    for (const [path, item] of Object.entries<object>(doc.paths)) {
      for (const method of Object.keys(item)) {
        expect(res.text, `${method} ${path}`).toContain(`<span class="m ${method.toUpperCase()}">${method.toUpperCase()}</span><code>${path}</code>`);
      }
    }
    for (const tag of ['events', 'registration', 'submission', 'results', 'organizer']) expect(res.text).toContain(`<h2 id="tag-${tag}">`);
    expect(res.text).toContain(`<a href="${t.config.publicUrl}/problems/team_name_taken"><code>team_name_taken</code></a>`);
    // Body fields with their limits.
    expect(res.text).toContain(
      '<td data-label="Field"><code>team_name</code></td><td data-label="Type">string (1-80 chars)</td><td data-label="Required">yes</td>',
    );
    expect(res.text).toContain('<summary>Example body</summary><pre>{\n  &quot;team_name&quot;: &quot;Night Owls&quot;');
    const cached = await t.request('GET', '/docs', { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(cached.status).toBe(304);
  });
});
