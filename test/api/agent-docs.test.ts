import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPT_NAMES } from '../../src/agents/shell-scripts.js';
import { errorGroup, SKILL_FILES } from '../../src/agents/skill-md.js';
import { ERROR_STATUS, type ErrorCode } from '../../src/core/errors.js';
import { DIALECTS } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { connectMcp, EXPECTED_MCP_TOOLS } from '../helpers/mcp-client.js';
import { quickUser } from '../helpers/quick-users.js';

/** 60 characters: the budget below must hold for a long address too (issue 29). */
const PUBLIC_URL = 'https://hackathon-platforms.example-university.org/spring-26';
/** The size skill.md stays under (docs/agents.md says so): 12 KB with a PUBLIC_URL of 60 characters. */
const SKILL_MD_MAX_BYTES = 12 * 1024;
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Every http(s) URL in a text (Markdown link targets, backticks and quotes end it). */
function urlsIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s`"'<>)\]]+/g)].map((m) => m[0].replace(/[.,;:]+$/, ''));
}

/** A documented URL as a route pattern: `{id}`, `$EVENT_ID`, `$(seg "$X")` become parameters; no query. */
function routePattern(url: string, site: string): string {
  const path = url.startsWith(site) ? url.slice(site.length) : url;
  return path
    .split('?')[0]!
    .replace(/\$\(seg "\$\w+"\)/g, ':p')
    .replace(/\{\w+\}|\$\w+/g, ':p');
}

interface Mention {
  method: string;
  url: string;
  body?: string;
}

/** `METHOD URL` mentions in prose and tables, and curl commands in code blocks. */
function mentionsIn(markdown: string, site: string): Mention[] {
  const out: Mention[] = [];
  for (const m of markdown.matchAll(/\b(GET|POST|PUT|PATCH|DELETE)\b[ `|]+(https?:\/\/[^\s`"'|]+)/g)) out.push({ method: m[1]!, url: m[2]! });
  for (const block of markdown.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const command of block[1]!.split(/\n(?=\s*curl )/)) {
      if (!command.trimStart().startsWith('curl ')) continue;
      const url = /"(https?:\/\/[^"]+)"/.exec(command)?.[1];
      if (!url || !url.startsWith(site) || url.includes('/scripts/')) continue;
      const data = /-d '([^']*)'/.exec(command)?.[1];
      out.push({ method: /-X (\w+)/.exec(command)?.[1] ?? 'GET', url, ...(data !== undefined ? { body: data } : {}) });
    }
  }
  return out;
}

/** `#### Body of `METHOD URL`` / `#### Query of …` sections and the field names in their tables. */
function fieldSections(markdown: string): Array<{ part: 'Body' | 'Query'; method: string; url: string; fields: string[] }> {
  const out: Array<{ part: 'Body' | 'Query'; method: string; url: string; fields: string[] }> = [];
  for (const m of markdown.matchAll(/^#### (Body|Query) of `(\w+) (\S+)`\n\n((?:\|.*\n)+)/gm)) {
    const fields = [...m[4]!.matchAll(/^\| `([\w.[\]]+)` \|/gm)].map((f) => f[1]!);
    out.push({ part: m[1] as 'Body' | 'Query', method: m[2]!, url: m[3]!, fields });
  }
  return out;
}

describe.each(DIALECTS)('agent documents (%s)', (dialect) => {
  let t: TestApp;
  /** skill.md (the participant's), skill-organizer.md, skill-reference.md, skill-reviewer.md, and all four together. */
  let skill: string;
  let organizer: string;
  let reference: string;
  let reviewer: string;
  let docs: string;
  /** What tools/list shows an organizer (every tool), in the server's order. */
  let mcpTools: Array<{ name: string; inputSchema: object; annotations?: { title?: string } }>;
  const site = PUBLIC_URL;

  beforeAll(async () => {
    t = await startTestApp(dialect, {
      env: { PUBLIC_URL, RATE_LIMIT_PER_KEY: '77', RATE_LIMIT_PER_IP: '33', RATE_LIMIT_WINDOW_MS: '90000', MAX_WAIT_SECONDS: '45', BODY_LIMIT_BYTES: '51200' },
    });
    skill = (await t.api('GET', '/skill.md')).text;
    organizer = (await t.api('GET', '/skill-organizer.md')).text;
    reference = (await t.api('GET', '/skill-reference.md')).text;
    reviewer = (await t.api('GET', '/skill-reviewer.md')).text;
    docs = [skill, organizer, reference, reviewer].join('\n');
    const client = await connectMcp(t, (await quickUser(t, 'organizer')).key);
    mcpTools = (await client.listTools()).tools;
    await client.close();
  });
  afterAll(async () => t?.close());

  /**
   * Whether the running server's route knows a body or query field: an unknown one is refused with
   * "is not a known property" before the handler runs (any valid key gets that far).
   */
  async function knowsField(method: string, pattern: string, part: 'Body' | 'Query', field: string): Promise<boolean> {
    const path = pattern.replace(/:\w+/g, 'x_1');
    // `a[].b` is a member of the objects in array a, `a.b` of object a: probe inside them.
    const steps = field.split('.').map((name) => (name.endsWith('[]') ? { name: name.slice(0, -2), array: true } : { name, array: false }));
    let body: unknown = { probe: true };
    for (const step of [...steps].reverse()) body = { [step.name]: step.array ? [body] : body };
    const reported = steps.map((step) => (step.array ? `${step.name}.0` : step.name)).join('.');
    // A key of its own per probe: the suite's low per-key rate limit (shown in skill.md) must not answer instead.
    const key = (await quickUser(t, 'organizer')).key;
    const res =
      part === 'Body' ? await t.request(method, path, { key, body }) : await t.request(method, `${path}?${field}=${encodeURIComponent('{probe}')}`, { key });
    if (res.status === 429) throw new Error(`rate limited while probing ${method} ${path} ${field}`);
    const errors = (res.body?.errors ?? []) as Array<{ field: string; message: string }>;
    return !errors.some((e) => e.field === reported && e.message.startsWith('is not a known property'));
  }

  describe('skill.md', () => {
    it('is served as text/markdown with a strong ETag, and 304 for a matching If-None-Match', async () => {
      const res = await t.api('GET', '/skill.md');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      const etag = res.headers.get('etag')!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await t.api('GET', '/skill.md', { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      const other = await t.api('GET', '/skill.md', { headers: { 'if-none-match': '"something-else"' } });
      expect(other.status).toBe(200);
      expect(other.text).toBe(res.text);
    });

    it('opens with YAML front matter holding name, description and version', () => {
      const fm = /^---\n([\s\S]*?)\n---\n/.exec(skill);
      expect(fm).not.toBeNull();
      const entries = Object.fromEntries(fm![1]!.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]));
      expect(Object.keys(entries)).toEqual(['name', 'description', 'version']);
      expect(entries.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(entries.description!.length).toBeGreaterThan(20);
      expect(entries.version).toBe(VERSION);
      // Plain YAML scalars: nothing that would make a YAML parser read them differently.
      for (const value of Object.values(entries)) expect(value).not.toMatch(/: | #|^["'&*!|>%@`{[]/);
    });

    it('prints only URLs of the configured PUBLIC_URL, and the live limits', () => {
      const urls = urlsIn(docs);
      expect(urls.length).toBeGreaterThan(30);
      // `https://github.com/<owner>/<repo>` and its regular expression are the shape github_url takes, not links.
      const githubShape = (u: string) => u === 'https://github.com/' || u.startsWith('https://github\\.com/');
      expect(urls.filter((u) => u !== site && !u.startsWith(`${site}/`) && !githubShape(u))).toEqual([]);
      expect(skill).toContain(`${site}/api-keys`);
      expect(skill).toContain(`curl -s -X POST "${site}/api/v1/agents/signup"`);
      expect(skill).toContain('`POST /api/v1/api-keys/current/rotate`');
      expect(skill).toContain('77 requests per 90 s per API key; 33 per 90 s per client IP');
      expect(skill).toContain(`my-registration?wait=45"`);
      expect(skill).toContain('at most 50 KB');
      expect(reference).toContain(`"url": "${site}/api/v1/mcp"`);
      for (const part of [organizer, reference, reviewer])
        expect(urlsIn(part).filter((u) => u !== site && !u.startsWith(`${site}/`) && !githubShape(u))).toEqual([]);
    });

    it(`stays lean (under ${SKILL_MD_MAX_BYTES} bytes) and links each other agent file, which is served as Markdown`, async () => {
      expect(Buffer.byteLength(skill)).toBeLessThan(SKILL_MD_MAX_BYTES);
      expect(SKILL_FILES.map(([file]) => file)).toEqual(['skill-organizer.md', 'skill-reference.md', 'skill-reviewer.md']);
      for (const [file, what] of SKILL_FILES) {
        expect(skill).toContain(`- \`${site}/api/v1/${file}\`: ${what}`);
        const res = await t.api('GET', `/${file}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
        expect(res.text.length).toBeGreaterThan(1000);
        // Each links back to skill.md.
        expect(res.text).toContain(`${site}/api/v1/skill.md`);
      }
      // The organizer's part lives in its own file, not in skill.md.
      expect(skill).not.toContain('## For organizers');
      expect(skill).not.toContain('/results/publish');
      expect(organizer).toContain('/results/publish');
    });

    it("a participant's whole flow is in skill.md alone: every step's route and the participant's fields", () => {
      const routes = mentionsIn(skill, site).map((m) => `${m.method} ${routePattern(m.url, site)}`);
      expect([...new Set(routes)].sort()).toEqual(
        [
          'POST /api/v1/agents/signup',
          'GET /api/v1/events',
          'GET /api/v1/events/:p',
          'GET /api/v1/events/:p/my-registration',
          'GET /api/v1/events/:p/register',
          'GET /api/v1/events/:p/result',
          'POST /api/v1/events/:p/register',
          'POST /api/v1/events/:p/submit',
        ].sort(),
      );
      expect(fieldSections(skill).map((x) => `${x.part} ${x.method} ${routePattern(x.url, site)}`)).toEqual([
        'Body POST /api/v1/events/:p/register',
        'Query GET /api/v1/events/:p/my-registration',
        'Body POST /api/v1/events/:p/submit',
      ]);
    });

    it('mentions only routes that exist on the server (tables, prose and curl examples)', () => {
      const mentions = mentionsIn(docs, site);
      expect(mentions.length).toBeGreaterThan(20);
      const missing = mentions
        .map((m) => ({ method: m.method, url: routePattern(m.url, new URL(site).origin + new URL(site).pathname) }))
        .filter((m) => !t.app.hasRoute({ method: m.method, url: m.url }));
      expect(missing).toEqual([]);
    });

    it('lists request fields that the server validates: every field in its tables and curl bodies is known to the route', async () => {
      const sections = fieldSections(docs);
      expect(sections.map((s) => `${s.part} ${s.method} ${routePattern(s.url, site)}`)).toEqual([
        'Body POST /api/v1/events/:p/register',
        'Query GET /api/v1/events/:p/my-registration',
        'Body POST /api/v1/events/:p/submit',
        'Body POST /api/v1/events',
        'Body POST /api/v1/events/:p/registrations/:p/reject',
        'Query GET /api/v1/events/:p/registrations',
        // Moved to skill-reference.md for skill.md's size budget.
        'Query GET /api/v1/events',
        'Body POST /api/v1/invitations/:p/accept',
        'Body PUT /api/v1/events/:p/projects/:p/review',
      ]);
      const checks: Array<[string, string, 'Body' | 'Query', string]> = [];
      for (const s of sections) for (const f of s.fields) checks.push([s.method, routePattern(s.url, site), s.part, f]);
      for (const m of mentionsIn(docs, site)) {
        if (m.body === undefined) continue;
        for (const f of Object.keys(JSON.parse(m.body) as object)) checks.push([m.method, routePattern(m.url, site), 'Body', f]);
      }
      expect(checks.length).toBeGreaterThan(40);
      const unknown: string[] = [];
      for (const [method, pattern, part, field] of checks) if (!(await knowsField(method, pattern, part, field))) unknown.push(`${method} ${pattern} ${field}`);
      expect(unknown).toEqual([]);
      // The probe itself tells an unknown field apart.
      expect(await knowsField('POST', '/api/v1/events/:p/register', 'Body', 'no_such_field')).toBe(false);
      expect(await knowsField('GET', '/api/v1/events', 'Query', 'no_such_field')).toBe(false);
      expect(await knowsField('POST', '/api/v1/events', 'Body', 'tracks[].no_such_field')).toBe(false);
      expect(await knowsField('POST', '/api/v1/events', 'Body', 'registration_config.no_such_field')).toBe(false);
      expect(await knowsField('POST', '/api/v1/events', 'Body', 'registration_config.fields[].no_such_field')).toBe(false);
    });

    it('names only real error codes, with their real status', () => {
      // skill.md's table and the transport codes every route may answer (in skill-reference.md, where skill.md points).
      const table = skill.slice(skill.indexOf('## Errors'), skill.indexOf('## Rate limits')) + reference.slice(reference.indexOf('## Transport errors'));
      const listed = [...table.matchAll(/^\| `(\w+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
      expect(listed.length).toBeGreaterThan(25);
      expect(listed.filter(([code, status]) => ERROR_STATUS[code as keyof typeof ERROR_STATUS] !== status)).toEqual([]);
      for (const code of [
        'unauthorized',
        'event_not_found',
        'validation_failed',
        'registration_closed',
        'already_registered',
        'team_name_taken',
        'registration_not_approved',
        'submission_closed',
        'results_not_published',
        'rate_limited',
        'idempotency_key_reused',
        'idempotency_key_in_use',
      ]) {
        expect(listed.map(([c]) => c)).toContain(code);
      }
      // Every code an agent may meet is in the table of the file for its reader; none twice.
      const rows = (text: string) => [...text.matchAll(/^\| `(\w+)` \| (\d{3}) \|/gm)].map((m) => m[1]!);
      const section = (text: string, from: string, to: string) => text.slice(from ? text.indexOf(from) : 0, text.indexOf(to));
      const byFile = {
        participant: rows(skill.slice(skill.indexOf('## Errors'), skill.indexOf('## Rate limits'))),
        organizer: rows(organizer),
        reviewer: rows(reviewer),
        team: rows(section(reference, '', '## Webhooks')),
        webhook: rows(section(reference, '## Webhooks', '## Gallery')),
        showcase: rows(section(reference, '## Gallery', '## Shell scripts')),
        transport: rows(reference.slice(reference.indexOf('## Transport errors'))),
      };
      expect(rows(reference).length).toBe(byFile.team.length + byFile.webhook.length + byFile.showcase.length + byFile.transport.length);
      for (const code of Object.keys(ERROR_STATUS) as ErrorCode[]) {
        const group = errorGroup(code);
        const holders = Object.entries(byFile)
          .filter(([, codes]) => codes.includes(code))
          .map(([file]) => file);
        expect({ code, holders }).toEqual({ code, holders: group === 'none' ? [] : [group] });
      }
      expect(byFile.organizer).toEqual(expect.arrayContaining(['invalid_transition', 'not_judging', 'unscored_projects', 'event_locked']));
      expect(byFile.organizer).toEqual(expect.arrayContaining(['model_not_configured', 'no_reviewers']));
      expect(byFile.reviewer).toEqual([
        'invitation_not_found',
        'invitation_used',
        'invitation_expired',
        'invitation_closed',
        'project_not_assigned',
        'conflict_of_interest',
      ]);
      expect(byFile.webhook).toEqual(['webhook_not_found', 'webhook_delivery_not_found', 'webhook_url_refused']);
      expect(byFile.showcase).toEqual([
        'bundle_not_available',
        'gallery_not_open',
        'voting_closed',
        'vote_limit_reached',
        'project_not_in_vote',
        'own_project',
        'account_too_new',
        'vote_not_found',
        'screenshot_limit_reached',
      ]);
      // Web sign-in codes concern no agent.
      for (const code of ['invalid_credentials', 'csrf_failed', 'session_not_found']) expect(docs).not.toContain(`\`${code}\``);
      // "409 results_not_published" style mentions in the prose.
      const prose = [...docs.matchAll(/`(\d{3}) ([a-z_]+)`/g)].map((m) => [m[2], Number(m[1])]);
      expect(prose.length).toBeGreaterThan(5);
      expect(prose.filter(([code, status]) => ERROR_STATUS[code as keyof typeof ERROR_STATUS] !== status)).toEqual([]);
    });

    it('describes the MCP tools by their shared names, exactly the tools the MCP server lists', async () => {
      const section = reference.slice(reference.indexOf('## MCP server'), reference.indexOf('## Webhooks'));
      expect(section.length).toBeGreaterThan(100);
      const tools = [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
      // One table per role; together exactly the tools the server has.
      expect([...tools].sort()).toEqual(mcpTools.map((tool) => tool.name).sort());
      expect([...tools].sort()).toEqual([...EXPECTED_MCP_TOOLS].sort());
      expect(section).toContain('**Reviewers');
      expect(section).toContain('| `save_review` | Save my review |');
    });
  });

  describe('the scripts', () => {
    it('call only existing routes, send only known fields and test only real error codes', async () => {
      for (const name of SCRIPT_NAMES) {
        const res = await t.request('GET', `/scripts/${name}.sh`);
        expect(res.status).toBe(200);
        expect(urlsIn(res.text).filter((u) => !u.startsWith(`${site}/`))).toEqual([]);
        const calls = [...res.text.matchAll(/^\s*api (GET|POST) "(\/.*?)"(?= "\{|$)/gm)].map((m) => ({
          method: m[1]!,
          url: routePattern(`/api/v1${m[2]}`, site),
        }));
        expect(calls.length).toBeGreaterThan(0);
        expect(calls.filter((c) => !t.app.hasRoute({ method: c.method, url: c.url }))).toEqual([]);
        const post = calls.find((c) => c.method === 'POST');
        const fields = [...res.text.matchAll(/\badd_(?:str|raw) (\w+) /g)].map((m) => m[1]!);
        expect(fields.length > 0).toBe(post !== undefined);
        for (const f of fields) expect(`${name}: ${f} ${await knowsField('POST', post!.url, 'Body', f)}`).toBe(`${name}: ${f} true`);
        const codes = [...res.text.matchAll(/API_CODE" = "(\w+)"/g)].map((m) => m[1]!);
        expect(codes.filter((c) => !(c in ERROR_STATUS))).toEqual([]);
      }
    });
  });

  describe('against the OpenAPI document', () => {
    let doc: { info: { description?: string }; paths: Record<string, Record<string, any>> };
    beforeAll(async () => {
      const res = await t.api('GET', '/openapi.json');
      expect(res.status).toBe(200);
      doc = res.body;
    });

    /** `/api/v1/events/{id}/register` → `/api/v1/events/:p/register`, the pattern routePattern writes. */
    const documented = () => {
      const out = new Map<string, any>();
      for (const [path, ops] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(ops)) out.set(`${method.toUpperCase()} ${path.replace(/\{\w+\}/g, ':p')}`, op);
      }
      return out;
    };
    const prefix = () => new URL(site).origin + new URL(site).pathname;

    it('documents every route skill.md and the scripts call', async () => {
      const ops = documented();
      const mentioned = mentionsIn(docs, site).map((m) => `${m.method} ${routePattern(m.url, prefix())}`);
      for (const name of SCRIPT_NAMES) {
        const text = (await t.request('GET', `/scripts/${name}.sh`)).text;
        for (const m of text.matchAll(/^\s*api (GET|POST) "(\/.*?)"(?= "\{|$)/gm)) mentioned.push(`${m[1]} ${routePattern(`/api/v1${m[2]}`, site)}`);
      }
      expect(mentioned.length).toBeGreaterThan(25);
      expect([...new Set(mentioned)].filter((m) => !ops.has(m))).toEqual([]);
    });

    it("documents every request field skill.md lists, in the same route's body or query", () => {
      const ops = documented();
      const missing: string[] = [];
      for (const s of fieldSections(docs)) {
        const op = ops.get(`${s.method} ${routePattern(s.url, site)}`);
        // An optional body is documented as a union (object or null): its members are the object's.
        const body = op?.requestBody?.content?.['application/json']?.schema ?? {};
        const branches: Array<{ properties?: object }> = [body, ...(body.anyOf ?? []), ...(body.oneOf ?? [])];
        const names: string[] =
          s.part === 'Body'
            ? branches.flatMap((b) => Object.keys(b.properties ?? {}))
            : (op?.parameters ?? []).filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name);
        for (const f of s.fields) {
          const top = f.split('.')[0]!.replace(/\[\]$/, '');
          if (!names.includes(top)) missing.push(`${s.part} ${s.method} ${s.url} ${f}`);
        }
      }
      expect(missing).toEqual([]);
    });

    it('documents every error code skill.md and the scripts name on some route', async () => {
      const codes = new Set<string>();
      for (const ops of Object.values(doc.paths)) {
        for (const op of Object.values(ops)) {
          for (const r of Object.values((op as { responses?: Record<string, any> }).responses ?? {})) {
            for (const c of r?.content?.['application/problem+json']?.schema?.properties?.code?.enum ?? []) codes.add(c);
          }
        }
      }
      // Codes no route can list (raised before routing) are named in the document's description.
      for (const m of (doc.info.description ?? '').matchAll(/`([a-z_]+)` \(\d{3}\)/g)) codes.add(m[1]!);
      const named = [...docs.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => m[1]!);
      for (const name of SCRIPT_NAMES) {
        const text = (await t.request('GET', `/scripts/${name}.sh`)).text;
        named.push(...[...text.matchAll(/API_CODE" = "(\w+)"/g)].map((m) => m[1]!));
      }
      expect(named.length).toBeGreaterThan(10);
      expect([...new Set(named)].filter((c) => !codes.has(c))).toEqual([]);
    });
  });

  describe('required fields', () => {
    /** The row of a skill.md body table: field → its "required" column. */
    const requiredColumn = (method: string, pattern: string): Map<string, string> => {
      const start = docs.search(new RegExp(`^#### Body of \`${method} \\S+\`$`, 'm'));
      const out = new Map<string, string>();
      for (const m of docs.matchAll(/^#### Body of `(\w+) (\S+)`\n\n((?:\|.*\n)+)/gm)) {
        if (m[1] !== method || routePattern(m[2]!, site) !== pattern) continue;
        for (const row of m[3]!.matchAll(/^\| `([\w.[\]]+)` \| [^|]+ \| ([^|]+) \|/gm)) out.set(row[1]!, row[2]!.trim());
      }
      expect(start, `${method} ${pattern}`).toBeGreaterThan(-1);
      return out;
    };
    /** Whether a JSON schema object requires `field`: in `required`, or in every `anyOf` required set's alternatives. */
    const marks = (schema: { required?: string[]; anyOf?: Array<{ required?: string[] }> }, field: string) =>
      (schema.required ?? []).includes(field) || (schema.anyOf ?? []).some((b) => b.required?.includes(field));
    // Required only in some events (one with tracks, a form with required fields): said in the notes, not the schema.
    const conditional = new Set(['track_id', 'fields']);

    const cases = [
      {
        name: 'create event',
        method: 'POST',
        pattern: '/api/v1/events',
        tool: 'create_event',
        full: () => ({
          name: 'Full',
          description: 'd',
          tracks: [{ id: 'tools', name: 'Tools', prize: 'p' }],
          dimensions: [{ name: 'impact', weight: 1 }],
          models: ['openai/gpt-4o-mini'],
          registration_deadline: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
          submission_deadline: new Date(t.clock.now().getTime() + 2 * 86_400_000).toISOString(),
          time_zone: 'Europe/Berlin',
          registration_config: { open: true, auto_approve: false, fields: [{ key: 'k', label: 'K', type: 'text', required: false }] },
          co_organizers: [],
          status: 'draft',
        }),
        send: async (body: object, orgKey: string) => t.api('POST', '/events', { key: orgKey, body }),
      },
      {
        name: 'register',
        method: 'POST',
        pattern: '/api/v1/events/:p/register',
        tool: 'register_team',
        full: () => ({
          team_name: `Team ${Math.random()}`,
          contact_email: 'a@example.org',
          github_url: 'https://github.com/a/b',
          track_id: 'tools',
          fields: { k: 'x' },
        }),
        send: async (body: object, orgKey: string) => {
          const ev = await t.api('POST', '/events', {
            key: orgKey,
            body: {
              name: 'E',
              tracks: [{ id: 'tools', name: 'Tools' }],
              registration_deadline: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
              submission_deadline: new Date(t.clock.now().getTime() + 2 * 86_400_000).toISOString(),
              registration_config: { fields: [{ key: 'k', label: 'K', required: true }] },
            },
          });
          return t.api('POST', `/events/${ev.body.id}/register`, { key: (await quickUser(t)).key, body });
        },
      },
      {
        name: 'submit',
        method: 'POST',
        pattern: '/api/v1/events/:p/submit',
        tool: 'submit_project',
        full: () => ({
          project_name: 'P',
          name: 'P',
          github_url: 'https://github.com/a/b',
          project_website: 'https://p.example.org',
          demo_video_url: 'https://v.example.org',
          demo_url: 'https://v.example.org',
          team_size: 2,
          description: 'd',
          track_id: 'tools',
        }),
        send: async (body: object, orgKey: string) => {
          const ev = await t.api('POST', '/events', {
            key: orgKey,
            body: {
              name: 'S',
              tracks: [{ id: 'tools', name: 'Tools' }],
              registration_deadline: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
              submission_deadline: new Date(t.clock.now().getTime() + 2 * 86_400_000).toISOString(),
              registration_config: { auto_approve: true },
            },
          });
          const team = await quickUser(t);
          expect((await t.api('POST', `/events/${ev.body.id}/register`, { key: team.key, body: { team_name: 'S', track_id: 'tools' } })).status).toBe(201);
          return t.api('POST', `/events/${ev.body.id}/submit`, { key: team.key, body });
        },
      },
    ];

    for (const c of cases) {
      it(`${c.name}: a field the server requires is required in OpenAPI, MCP and skill.md, and nothing else is`, async () => {
        let doc: any = (await t.api('GET', '/openapi.json')).body;
        const [path, op] = Object.entries(doc.paths as Record<string, any>).find(([p]) => p.replace(/\{\w+\}/g, ':p') === c.pattern)!;
        doc = op.post.requestBody.content['application/json'].schema;
        void path;
        const tool = mcpTools.find((x) => x.name === c.tool)!.inputSchema as never;
        const table = requiredColumn(c.method, c.pattern);
        // A fresh organizer: this test sends many requests, more than one key's rate limit here.
        const orgKey = (await quickUser(t, 'organizer')).key;
        const ok = await c.send(c.full(), orgKey);
        expect(ok.status, ok.text).toBeLessThan(300);
        const full = c.full() as Record<string, unknown>;
        const requiredByServer: string[] = [];
        for (const field of Object.keys(full)) {
          const { [field]: _gone, ...rest } = full;
          const res = await c.send(rest, orgKey);
          const says = (res.body?.errors ?? []).some((e: { field: string; message: string }) => e.field === field && e.message.startsWith('is required'));
          // Aliases: project_name may go when name stays (and the other way round), so neither alone is required.
          const aliasKept = marks(doc, field) && !(doc.required ?? []).includes(field);
          if (conditional.has(field)) continue;
          if (says) requiredByServer.push(field);
          expect(says || res.status < 300 || aliasKept, `${c.name} without ${field}: ${res.text}`).toBe(true);
          expect({ field, openapi: marks(doc, field), mcp: marks(tool, field), skill: table.get(field) !== 'no' }).toEqual({
            field,
            openapi: says || aliasKept,
            mcp: says || aliasKept,
            skill: says || aliasKept,
          });
        }
        // An alias pair sent without either member is refused naming it required.
        for (const set of (doc.anyOf ?? []) as Array<{ required: string[] }>) {
          const rest = Object.fromEntries(Object.entries(full).filter(([k]) => !doc.anyOf.some((b: { required: string[] }) => b.required.includes(k))));
          const res = await c.send(rest, orgKey);
          expect(res.status).toBe(422);
          expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(
            set.required[0] === doc.anyOf[0].required[0] ? set.required[0] : doc.anyOf[0].required[0],
          );
          expect(table.get(set.required[0]!)).toMatch(/^one of /);
        }
        expect(requiredByServer.length + (doc.anyOf?.length ?? 0)).toBeGreaterThan(0);
      });
    }
  });

  describe("the reviewer's and the organizer's judging", () => {
    it("skill-reviewer.md holds a reviewer's whole job: every step's route and its MCP tool", () => {
      const routes = [...new Set(mentionsIn(reviewer, site).map((m) => `${m.method} ${routePattern(m.url, site)}`))].sort();
      expect(routes).toEqual(
        [
          'GET /api/v1/invitations/:p',
          'POST /api/v1/invitations/:p/accept',
          'GET /api/v1/me/review-events',
          'GET /api/v1/events/:p/review-assignments',
          'PUT /api/v1/events/:p/projects/:p/review',
          'GET /api/v1/events/:p/projects/:p/review',
          'POST /api/v1/events/:p/projects/:p/conflict',
        ].sort(),
      );
      // Accepting with a key: the curl example sends the key and no password.
      const withKey = mentionsIn(reviewer, site).find((m) => m.url.endsWith('/accept') && m.body === '{}');
      expect(withKey).toBeDefined();
      for (const tool of ['accept_review_invitation', 'get_review_queue', 'get_my_review', 'save_review', 'declare_conflict'])
        expect(reviewer).toContain(`\`${tool}\``);
      // The flags, what each kind means, and the queue's shape with them.
      for (const text of ['`flags`', 'prompt_injection', 'build_window', 'repo_created_before_start', '"flags": [']) expect(reviewer).toContain(text);
      expect(reviewer).toContain(`${site}/api/v1/skill.md`);
    });

    it('skill-organizer.md covers reviewers, assignments and the configured models, with their routes and tools', () => {
      const routes = new Set(mentionsIn(organizer, site).map((m) => `${m.method} ${routePattern(m.url, site)}`));
      for (const route of [
        'GET /api/v1/models',
        'POST /api/v1/events/:p/reviewers',
        'GET /api/v1/events/:p/reviewers',
        'DELETE /api/v1/events/:p/reviewers/:p',
        'DELETE /api/v1/events/:p/reviewer-invitations/:p',
        'POST /api/v1/events/:p/reviewers/:p/remind',
        'POST /api/v1/events/:p/reviewer-reminders',
        'POST /api/v1/events/:p/assignments/auto',
        'GET /api/v1/events/:p/assignments',
        'GET /api/v1/events/:p/assignments/summary',
        'PATCH /api/v1/events/:p/assignments',
        'POST /api/v1/events/:p/reviewers/:p/conflicts/:p',
        'POST /api/v1/events/:p/reviews/rerun',
      ])
        expect([...routes]).toContain(route);
      for (const text of ['`422 model_not_configured`', '`409 no_reviewers`', '`409 unscored_projects`', '`notes`', 'skill-reviewer.md'])
        expect(organizer).toContain(text);
      for (const tool of [
        'invite_reviewer',
        'list_reviewers',
        'remove_reviewer',
        'revoke_reviewer_invitation',
        'remind_reviewer',
        'remind_reviewers',
        'auto_assign_reviewers',
        'list_assignments',
        'set_assignment',
        'set_assignment_mode',
        'add_reviewer_conflict',
        'remove_reviewer_conflict',
        'get_assignment_summary',
      ])
        expect(organizer).toContain(`\`${tool}\``);
    });
  });

  describe('llms.txt and the agent card', () => {
    it('llms.txt follows llmstxt.org (H1, summary, link sections) and links skill.md, OpenAPI, docs, MCP and the scripts', async () => {
      const res = await t.request('GET', '/llms.txt');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const lines = res.text.split('\n');
      expect(lines[0]).toBe('# Hackathon platform');
      expect(lines[2]!.startsWith('> ')).toBe(true);
      expect(lines.filter((l) => /^## /.test(l))).toEqual(['## Docs', '## MCP', '## Scripts', '## Optional']);
      const links = [...res.text.matchAll(/^- \[[^\]]+\]\(([^)]+)\)/gm)].map((m) => m[1]!);
      expect(links.filter((u) => !u.startsWith(`${site}/`))).toEqual([]);
      expect(links).toEqual(
        expect.arrayContaining([
          `${site}/api/v1/skill.md`,
          `${site}/api/v1/skill-organizer.md`,
          `${site}/api/v1/skill-reference.md`,
          `${site}/api/v1/skill-reviewer.md`,
          `${site}/api/v1/openapi.json`,
          `${site}/docs`,
          `${site}/api/v1/mcp`,
          `${site}/.well-known/agent-card.json`,
          ...SCRIPT_NAMES.map((n) => `${site}/scripts/${n}.sh`),
        ]),
      );
    });

    it('the agent card is an A2A card with skills, a bearer scheme and links, all on PUBLIC_URL', async () => {
      const res = await t.request('GET', '/.well-known/agent-card.json');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      // The older path serves the same card.
      const older = await t.request('GET', '/.well-known/agent.json');
      expect(older.status).toBe(200);
      expect(older.text).toBe(res.text);
      const card = res.body;
      expect(card).toMatchObject({
        protocolVersion: '0.3.0',
        name: expect.any(String),
        description: expect.any(String),
        url: `${site}/api/v1/mcp`,
        preferredTransport: 'MCP',
        version: VERSION,
        documentationUrl: `${site}/api/v1/skill.md`,
        capabilities: expect.any(Object),
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        security: [{ bearer: [] }],
      });
      // Only what is true: no A2A binding (JSONRPC, GRPC, HTTP+JSON) is claimed, the MCP endpoint is
      // named by its own transport, and it is a route of this server.
      expect(card.additionalInterfaces).toEqual([{ url: `${site}/api/v1/mcp`, transport: 'MCP' }]);
      expect(res.text).not.toMatch(/HTTP\+JSON|JSONRPC|GRPC/);
      expect(t.app.hasRoute({ method: 'POST', url: '/api/v1/mcp' })).toBe(true);
      expect(card.links.openapi).toBe(`${site}/api/v1/openapi.json`);
      expect(card.links).toMatchObject({
        skillOrganizer: `${site}/api/v1/skill-organizer.md`,
        skillReference: `${site}/api/v1/skill-reference.md`,
        skillReviewer: `${site}/api/v1/skill-reviewer.md`,
      });
      expect(card.skills.length).toBeGreaterThan(3);
      for (const s of card.skills)
        expect(s).toMatchObject({ id: expect.any(String), name: expect.any(String), description: expect.any(String), tags: expect.any(Array) });
      expect(urlsIn(res.text).filter((u) => u !== site && !u.startsWith(`${site}/`))).toEqual([]);
    });

    it('the material this part serves exists on the server (OpenAPI, docs and MCP come from other parts)', () => {
      const origin = new URL(site);
      const served = [
        '/api/v1/skill.md',
        '/api/v1/skill-organizer.md',
        '/api/v1/skill-reference.md',
        '/api/v1/skill-reviewer.md',
        '/llms.txt',
        '/.well-known/agent-card.json',
        '/.well-known/agent.json',
        ...SCRIPT_NAMES.map((n) => `/scripts/${n}.sh`),
      ];
      expect(served.filter((p) => !t.app.hasRoute({ method: 'GET', url: p }))).toEqual([]);
      expect(origin.pathname).toBe('/spring-26');
    });
  });

  describe('caching', () => {
    it.each([
      ['/api/v1/skill.md', 'text/markdown; charset=utf-8'],
      ['/api/v1/skill-organizer.md', 'text/markdown; charset=utf-8'],
      ['/api/v1/skill-reference.md', 'text/markdown; charset=utf-8'],
      ['/api/v1/skill-reviewer.md', 'text/markdown; charset=utf-8'],
      ['/llms.txt', 'text/plain; charset=utf-8'],
      ['/.well-known/agent-card.json', 'application/json; charset=utf-8'],
      ['/.well-known/agent.json', 'application/json; charset=utf-8'],
      ...SCRIPT_NAMES.map((n) => [`/scripts/${n}.sh`, 'text/x-shellscript; charset=utf-8']),
    ])('%s has its exact content type, a strong ETag and 304 on If-None-Match', async (path, type) => {
      const res = await t.request('GET', path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      const etag = res.headers.get('etag')!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
      const again = await t.request('GET', path, { headers: { 'if-none-match': `"other", ${etag}` } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
    });
  });

  describe('cost and errors', () => {
    it('is not rate-limited and needs no key, but a wrong key is still a 401 problem', async () => {
      const limited = await startTestApp(dialect, { env: { RATE_LIMIT_PER_IP: '1' } });
      try {
        const answers = await Promise.all(
          ['/api/v1/skill.md', '/llms.txt', '/.well-known/agent.json', '/scripts/status.sh', '/api/v1/skill.md'].map((p) => limited.request('GET', p)),
        );
        expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
        expect(answers.map((a) => a.headers.get('ratelimit-limit'))).toEqual([null, null, null, null, null]);
        const bad = await limited.request('GET', '/llms.txt', { key: 'hk_wrong' });
        expect(bad.status).toBe(401);
        expect(bad.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
        expect(bad.body.code).toBe('unauthorized');
      } finally {
        await limited.close();
      }
    });

    it('answers problem+json for an unknown script', async () => {
      const res = await t.request('GET', '/scripts/nope.sh');
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    });
  });
});
