import { escapeHtml, htmlPage } from './html-page.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The parts of a JSON Schema the page shows. */
interface Schema {
  const?: unknown;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  type?: string | string[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
  maxProperties?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
  description?: string;
  examples?: unknown[];
}

interface Media {
  schema?: Schema;
  example?: unknown;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

interface Operation {
  summary?: string;
  tags?: string[];
  security?: Record<string, unknown>[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { description?: string; content?: Record<string, Media> }>;
}

/** The parts of the OpenAPI document (as @fastify/swagger builds it) the page shows. */
export interface OpenApiDocument {
  info?: { title?: string; version?: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths?: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
}

/** A short description of a schema's type with its limits: `string (1-80 chars)`, `integer 1..100`. */
export function describeType(schema: Schema | undefined): string {
  if (!schema) return 'any';
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(' | ');
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) return branches.map((b) => describeType(b)).join(' | ');
  const limits: string[] = [];
  if (schema.minLength !== undefined || schema.maxLength !== undefined) limits.push(`${schema.minLength ?? 0}-${schema.maxLength ?? '∞'} chars`);
  if (schema.minimum !== undefined || schema.maximum !== undefined) limits.push(`${schema.minimum ?? '−∞'}..${schema.maximum ?? '∞'}`);
  if (schema.exclusiveMinimum !== undefined) limits.push(`> ${schema.exclusiveMinimum}`);
  if (schema.minItems !== undefined || schema.maxItems !== undefined) limits.push(`${schema.minItems ?? 0}-${schema.maxItems ?? '∞'} items`);
  if (schema.maxProperties !== undefined) limits.push(`at most ${schema.maxProperties} keys`);
  if (schema.pattern) limits.push(`pattern ${schema.pattern}`);
  if (schema.format) limits.push(schema.format);
  if (schema.default !== undefined) limits.push(`default ${JSON.stringify(schema.default)}`);
  let type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
  if (type === 'array' && schema.items) type = `array of ${describeType(schema.items)}`;
  return limits.length ? `${type} (${limits.join(', ')})` : type;
}

/** Rows `field · type · required · description` of an object schema, nested objects flattened with dots. */
function fieldRows(schema: Schema | undefined, prefix = '', depth = 0): string[][] {
  if (!schema || depth > 3) return [];
  const target = schema.type === 'array' && schema.items ? schema.items : schema;
  const props = target.properties;
  if (!props) return [];
  const required = new Set<string>(target.required ?? []);
  const rows: string[][] = [];
  for (const [name, prop] of Object.entries(props)) {
    const field = prefix ? `${prefix}.${name}` : name;
    rows.push([`<code>${escapeHtml(field)}</code>`, escapeHtml(describeType(prop)), required.has(name) ? 'yes' : '', prose(prop.description ?? '')]);
    const inner = prop.type === 'array' ? prop.items : prop;
    if (inner?.properties) rows.push(...fieldRows(inner, prop.type === 'array' ? `${field}[]` : field, depth + 1));
  }
  return rows;
}

/** A table whose cells carry their column name, so narrow screens can show each row as a card. */
function table(head: string[], rows: string[][]): string {
  if (!rows.length) return '';
  const body = rows.map((cells) => `<tr>${cells.map((c, i) => `<td data-label="${head[i]}">${c}</td>`).join('')}</tr>`).join('');
  return `<div class="tw"><table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${body}</tbody></table></div>`;
}

/** Escaped text with its `code spans` set as code (the document's descriptions use Markdown backticks). */
function prose(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function anchor(method: string, path: string): string {
  return `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-').replace(/-+$/, '');
}

function operationHtml(siteUrl: string, method: string, path: string, op: Operation): string {
  const secured = Array.isArray(op.security) && !op.security.some((s) => Object.keys(s).length === 0);
  const parts = [
    `<section class="op" id="${anchor(method, path)}"><h3><span class="m ${method.toUpperCase()}">${method.toUpperCase()}</span><code>${escapeHtml(path)}</code></h3>`,
    `<p>${prose(op.summary ?? '')}</p>`,
    `<p class="auth">${secured ? 'Needs an API key (<code>Authorization: Bearer hk_…</code>).' : 'Public; a key, when sent, is checked.'}</p>`,
  ];
  const params = op.parameters ?? [];
  parts.push(
    table(
      ['Parameter', 'In', 'Type', 'Required', 'Description'],
      params.map((p) => [
        `<code>${escapeHtml(p.name)}</code>`,
        escapeHtml(p.in),
        escapeHtml(describeType(p.schema)),
        // A parameter with a default may be left out, whatever the schema's `required` says.
        p.required && p.schema?.default === undefined ? 'yes' : '',
        prose(p.description ?? p.schema?.description ?? ''),
      ]),
    ),
  );
  const media = op.requestBody?.content?.['application/json'];
  const body = media?.schema;
  if (body) {
    parts.push(`<p><strong>Body</strong> (JSON${body.additionalProperties === false ? ', no other fields' : ''})</p>`);
    parts.push(table(['Field', 'Type', 'Required', 'Description'], fieldRows(body)));
    const example = media?.example ?? body.examples?.[0];
    if (example !== undefined) parts.push(`<details><summary>Example body</summary><pre>${escapeHtml(JSON.stringify(example, null, 2))}</pre></details>`);
  }
  const rows: string[][] = [];
  const errors: string[] = [];
  for (const [status, res] of Object.entries(op.responses ?? {})) {
    const problem = res.content?.['application/problem+json']?.schema;
    if (problem) {
      // Errors in one compact line per status: the codes link to their explanations.
      const codes = (problem.properties?.code?.enum ?? []).map(String);
      errors.push(
        `<li>${escapeHtml(status)}: ${codes.map((c) => `<a href="${escapeHtml(`${siteUrl}/problems/${c}`)}"><code>${escapeHtml(c)}</code></a>`).join(' ')}</li>`,
      );
      continue;
    }
    const media = Object.keys(res.content ?? {});
    const description = res.description === 'Default Response' ? '' : prose(res.description ?? '');
    rows.push([escapeHtml(status), `${description}${media.length ? ` <code>${escapeHtml(media.join(', '))}</code>` : ''}`]);
  }
  parts.push(`<p><strong>Responses</strong></p>`, table(['Status', 'Content'], rows));
  if (errors.length) parts.push(`<p><strong>Errors</strong> (<code>application/problem+json</code>)</p><ul class="errs">${errors.join('')}</ul>`);
  const ok = Object.entries(op.responses ?? {}).find(([s]) => s.startsWith('2'));
  const okSchema = ok?.[1].content?.['application/json']?.schema;
  const okRows = fieldRows(okSchema);
  if (okRows.length)
    parts.push(`<details><summary>Response ${escapeHtml(ok![0])} fields</summary>${table(['Field', 'Type', 'Required', 'Description'], okRows)}</details>`);
  parts.push('</section>');
  return parts.join('');
}

/** The readable reference: every operation of the OpenAPI document, grouped by tag. */
export function renderReferencePage(doc: OpenApiDocument, siteUrl: string): string {
  const tags = (doc.tags ?? []).map((t) => t.name);
  const byTag = new Map<string, string[]>(tags.map((t) => [t, []]));
  const toc = new Map<string, string[]>(tags.map((t) => [t, []]));
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'other';
      if (!byTag.has(tag)) {
        byTag.set(tag, []);
        toc.set(tag, []);
      }
      byTag.get(tag)!.push(operationHtml(siteUrl, method, path, op));
      toc.get(tag)!.push(`<li><a href="#${anchor(method, path)}">${method.toUpperCase()} <code>${escapeHtml(path)}</code></a></li>`);
    }
  }
  const descriptions = new Map((doc.tags ?? []).map((t) => [t.name, t.description ?? '']));
  const sections = [...byTag].filter(([, ops]) => ops.length);
  const body = [
    `<h1>${escapeHtml(doc.info?.title ?? 'API')} <small>${escapeHtml(doc.info?.version ?? '')}</small></h1>`,
    ...(doc.info?.description ?? '').split('\n\n').map((p) => `<p>${prose(p)}</p>`),
    `<p>Machine-readable: <a href="${escapeHtml(`${siteUrl}/api/v1/openapi.json`)}"><code>/api/v1/openapi.json</code></a> (OpenAPI 3.1). Error codes: <a href="${escapeHtml(`${siteUrl}/problems`)}"><code>/problems</code></a>.</p>`,
    `<nav><ul>${sections.map(([tag]) => `<li><a href="#tag-${escapeHtml(tag)}">${escapeHtml(tag)}</a>: ${escapeHtml(descriptions.get(tag) ?? '')}<ul>${toc.get(tag)!.join('')}</ul></li>`).join('')}</ul></nav>`,
    ...sections.map(([tag, ops]) => `<h2 id="tag-${escapeHtml(tag)}">${escapeHtml(tag)}</h2><p>${escapeHtml(descriptions.get(tag) ?? '')}</p>${ops.join('')}`),
  ];
  return htmlPage(`${doc.info?.title ?? 'API'} reference`, body.join(''));
}
