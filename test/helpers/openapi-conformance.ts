import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, any>;

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv) => Ajv;

/** `schema` with the document's `#/components/...` references inlined (a `$ref`'s siblings kept beside it, as 2020-12 reads them). */
function inline(schema: unknown, doc: Json): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, doc));
  if (typeof schema !== 'object' || schema === null) return schema;
  const { $ref, ...rest } = schema as Json;
  const out: Json = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, inline(v, doc)]));
  if (typeof $ref !== 'string') return out;
  const target = $ref
    .slice(2)
    .split('/')
    .reduce((node: Json, part) => node[part], doc);
  return Object.keys(out).length ? { allOf: [inline(target, doc), out] } : inline(target, doc);
}

export interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

/**
 * Checks answers against the OpenAPI document: the status must be documented for the operation
 * (or, for a success, covered by `default`), the media type listed, and a JSON body valid against
 * its schema (so a problem's `code` must be one the operation documents for that status).
 * Returns what is wrong, or null.
 */
export function conformanceChecker(doc: Json) {
  const ajv = addFormats(new Ajv({ strict: false }));
  const compiled = new Map<object, ValidateFunction>();
  const validator = (schema: object) => {
    if (!compiled.has(schema)) compiled.set(schema, ajv.compile(inline(schema, doc) as object));
    return compiled.get(schema)!;
  };
  return function check(method: string, path: string, answer: Answer): string | null {
    const op = doc.paths[path]?.[method.toLowerCase()];
    if (!op) return `no operation ${method} ${path} in the document`;
    if (answer.status >= 500) return `server error ${answer.status}`;
    const documented = op.responses[String(answer.status)] ?? (answer.status < 400 ? op.responses.default : undefined);
    if (!documented) return `undocumented status ${answer.status}`;
    if (!documented.content) return answer.text === '' ? null : 'a body on an answer documented without one';
    const mediaType = (answer.contentType ?? '').split(';')[0]!.trim();
    const media = documented.content[mediaType];
    if (!media) return `undocumented media type "${mediaType}"`;
    if (!mediaType.endsWith('json')) return null;
    const validate = validator(media.schema);
    return validate(JSON.parse(answer.text)) ? null : `schema: ${ajv.errorsText(validate.errors)}`;
  };
}
