import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldError } from '../errors.js';

// ajv-formats ships CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv) => Ajv;

/**
 * Two validators: bodies are checked strictly (no type coercion, unknown properties refused, every
 * error reported), while query strings and path params coerce "20" to 20 as URLs require.
 */
function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    // Errors carry the failing schema, so an enum or a union of constants can list what it accepts,
    // and a bound can be reported as its full range.
    verbose: true,
  });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = makeAjv(false);
const urlAjv = makeAjv(true);

/**
 * JSON pointer of the first string (value or key) holding a NUL character, or null. PostgreSQL text
 * cannot store NUL, so such input must be refused as invalid rather than fail in the database.
 * Iterative, so a deeply nested body cannot overflow the stack.
 */
export function nulPath(data: unknown): string | null {
  // Each entry knows its parent and key: the pointer is spelled out only for the one that holds a NUL.
  type Entry = { value: unknown; parent: Entry | null; key: string };
  const pointer = (e: Entry, last?: string): string => {
    const keys: string[] = last === undefined ? [] : [last];
    for (let at: Entry | null = e; at && at.parent; at = at.parent) keys.push(at.key);
    return keys
      .reverse()
      .map((k) => `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`)
      .join('');
  };
  const stack: Entry[] = [{ value: data, parent: null, key: '' }];
  const seen = new WeakSet<object>();
  while (stack.length) {
    const entry = stack.pop()!;
    const value = entry.value;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return pointer(entry);
      continue;
    }
    // Parsed JSON has no cycles, but a custom body parser might hand over any object.
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push({ value: value[i], parent: entry, key: String(i) });
      continue;
    }
    for (const k in value) {
      if (!Object.hasOwn(value, k)) continue;
      if (k.includes('\u0000')) return pointer(entry, k);
      stack.push({ value: (value as Record<string, unknown>)[k], parent: entry, key: k });
    }
  }
  return null;
}

type CompiledValidator = ((data: unknown, dataCxt?: unknown) => boolean) & { errors?: ErrorObject[] | null; schemaEnv?: unknown };

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : urlAjv;
  const validate = ajv.compile(schema as object);
  const checked: CompiledValidator = (data, dataCxt) => {
    if (!validate(data, dataCxt as never)) {
      // verbose mode also copies the rejected value into each error: drop it, so a refused password
      // can never travel further (logs, error reports) than this check.
      checked.errors = validate.errors?.map(({ data: _data, ...e }) => e) ?? null;
      return false;
    }
    const at = nulPath(data);
    if (at !== null) {
      checked.errors = [{ instancePath: at, schemaPath: '#', keyword: 'nul', params: {}, message: 'must not contain NUL characters' }];
      return false;
    }
    checked.errors = null;
    return true;
  };
  // Fastify passes the parent object to ajv validators (recognised by schemaEnv) so root values can be coerced.
  checked.schemaEnv = (validate as unknown as { schemaEnv: unknown }).schemaEnv;
  return checked;
};

function pathToField(instancePath: string): string {
  return instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
}

/**
 * The values a schema accepts when it is a closed set (`const`, `enum`, `null`, or a union of
 * those, as TypeBox writes `Type.Union([Type.Literal(…), …])`); null when it accepts anything else.
 */
export function allowedValues(schema: unknown): unknown[] | null {
  if (typeof schema !== 'object' || schema === null) return null;
  const s = schema as { const?: unknown; enum?: unknown; type?: unknown; anyOf?: unknown; oneOf?: unknown };
  if ('const' in s) return [s.const];
  if (Array.isArray(s.enum)) return [...(s.enum as unknown[])];
  const branches = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : null;
  if (branches) {
    const all: unknown[] = [];
    for (const b of branches) {
      const values = allowedValues(b);
      if (!values) return null;
      all.push(...values);
    }
    return all.length ? all : null;
  }
  if (s.type === 'null') return [null];
  return null;
}

function oneOfMessage(values: unknown[]): string {
  const shown = values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  return shown.length === 1 ? `must be ${shown[0]}` : `must be one of: ${shown.join(', ')}`;
}

function hasRange(schema: unknown): schema is { minimum: number; maximum: number } {
  const s = schema as { minimum?: unknown; maximum?: unknown } | undefined;
  return typeof s?.minimum === 'number' && typeof s.maximum === 'number';
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  null: 'null',
  object: 'an object',
  array: 'an array',
};

/** "a string, a number or null" */
function typesSentence(types: string[]): string {
  const words = [...new Set(types.map((t) => TYPE_WORDS[t] ?? t))];
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} or ${words.at(-1)!}`;
}

/**
 * Names agents reach for instead of this API's: each maps to the property meant. Only suggested
 * where the schema in question has that property.
 */
const SYNONYMS: Record<string, string[]> = {
  project_name: ['title', 'project', 'project_title', 'projectname', 'projectName'],
  github_url: ['repo', 'repo_url', 'repository', 'repository_url', 'github', 'git_url', 'source_url', 'code_url', 'githubUrl', 'repoUrl'],
  project_website: ['website', 'url', 'homepage', 'project_url', 'site', 'link'],
  demo_video_url: ['video', 'video_url', 'demo', 'demo_link', 'youtube'],
  team_name: ['team', 'teamname', 'teamName', 'name'],
  contact_email: ['email', 'contact', 'mail'],
  track_id: ['track', 'track_name', 'trackId'],
  team_size: ['size', 'members', 'team_members'],
  description: ['summary', 'desc', 'details', 'about', 'pitch'],
};

/** Levenshtein distance, capped: only small distances matter. */
function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j]!;
      row[j] = next;
    }
  }
  return row[b.length]!;
}

/** The known property an unknown one most likely meant, or null. */
export function nearMiss(unknown: string, known: string[]): string | null {
  const lower = unknown.toLowerCase();
  for (const k of known) if (k.toLowerCase() === lower) return k;
  for (const k of known) if ((SYNONYMS[k] ?? []).some((s) => s.toLowerCase() === lower)) return k;
  let best: string | null = null;
  let bestDistance = 3;
  for (const k of known) {
    const d = distance(lower, k.toLowerCase());
    if (d < bestDistance && d <= (k.length > 5 ? 2 : 1)) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}

/** What an unknown property is told: the name meant, or where form answers go, or what is known. */
function unknownPropertyMessage(extra: string, schema: unknown): string {
  const props = (schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  const known = Object.keys(props);
  const meant = nearMiss(extra, known);
  if (meant) return `is not a known property; did you mean \`${meant}\`?`;
  if ('fields' in props) {
    return `is not a known property; answers to the event's form go under \`fields\`, e.g. {"fields": {"${extra}": …}}`;
  }
  return known.length ? `is not a known property; known: ${known.join(', ')}` : 'is not a known property';
}

/** The `requiredMessage` a schema object carries (why a field is required there), if any. */
function requiredHint(schema: unknown): string {
  const hint = (schema as { requiredMessage?: unknown } | undefined)?.requiredMessage;
  return typeof hint === 'string' ? `: ${hint}` : '';
}

/**
 * One sentence for each failed `anyOf`/`oneOf` that is not a closed set, replacing its branch
 * errors: a field or its alias missing ("is required (send project_name or name)"), or a value of
 * none of the allowed types ("must be a string, a number or null"). When a branch got past the
 * type (the value is an object, and something inside it is wrong), those deeper errors speak.
 */
function unionSentences(errors: ErrorObject[], skip: (e: ErrorObject) => boolean) {
  const consumed = new Set<ErrorObject>();
  const sentences = new Map<ErrorObject, FieldError[]>();
  const unions = errors.filter((e) => (e.keyword === 'anyOf' || e.keyword === 'oneOf') && !skip(e)).sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const u of unions) {
    if (consumed.has(u)) continue;
    const branch = errors.filter((x) => x !== u && x.schemaPath.startsWith(`${u.schemaPath}/`));
    const base = pathToField(u.instancePath);
    if (branch.length && branch.every((x) => x.keyword === 'required' && x.instancePath === u.instancePath)) {
      const names = [...new Set(branch.map((x) => (x.params as { missingProperty: string }).missingProperty))];
      for (const x of branch) consumed.add(x);
      const field = base ? `${base}.${names[0]!}` : names[0]!;
      sentences.set(u, [{ field, message: `is required (send ${names.join(' or ')})${requiredHint(u.parentSchema)}` }]);
      continue;
    }
    const shallow = branch.filter((x) => x.keyword === 'type' && x.instancePath === u.instancePath);
    for (const x of shallow) consumed.add(x);
    if (branch.length > shallow.length) {
      sentences.set(u, []);
      continue;
    }
    const types = shallow.flatMap((x) => {
      const t = (x.params as { type: string | string[] }).type;
      return Array.isArray(t) ? t : String(t).split(',');
    });
    sentences.set(u, types.length ? [{ field: base, message: `must be ${typesSentence(types)}` }] : []);
  }
  return { consumed, sentences };
}

/** Turns ajv's errors into the contract's `errors: [{field, message}]`. */
export function ajvToFieldErrors(errors: ErrorObject[], context: string | undefined): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  // A union of constants fails once per branch ("must be equal to constant" six times); report it
  // once, with the allowed values, and drop its branch errors.
  const closedUnions = new Map<string, unknown[]>();
  for (const e of errors) {
    if (e.keyword !== 'anyOf' && e.keyword !== 'oneOf') continue;
    const values = allowedValues({ [e.keyword]: e.schema });
    if (values) closedUnions.set(e.schemaPath, values);
  }
  const insideClosedUnion = (schemaPath: string) => [...closedUnions.keys()].some((p) => schemaPath.startsWith(`${p}/`));
  const { consumed, sentences } = unionSentences(errors, (e) => closedUnions.has(e.schemaPath) || insideClosedUnion(e.schemaPath));
  const fallback = context === 'body' ? 'body' : (context ?? 'request');
  const push = (field: string, message: string) => {
    const key = `${field || fallback}|${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ field: field || fallback, message });
  };
  for (const e of errors) {
    if (insideClosedUnion(e.schemaPath) || consumed.has(e)) continue;
    const sentence = sentences.get(e);
    if (sentence) {
      for (const f of sentence) push(f.field, f.message);
      continue;
    }
    let field = pathToField(e.instancePath);
    let message = e.message ?? 'is invalid';
    const union = closedUnions.get(e.schemaPath);
    const custom = (e.parentSchema as { errorMessage?: unknown } | undefined)?.errorMessage;
    if (typeof custom === 'string' && e.keyword !== 'required' && e.keyword !== 'additionalProperties') {
      // The schema says in words what a value must be (a pattern alone teaches nothing).
      message = custom;
    } else if (union) {
      message = oneOfMessage(union);
    } else if (e.keyword === 'enum') {
      message = oneOfMessage((e.params as { allowedValues: unknown[] }).allowedValues);
    } else if (e.keyword === 'const') {
      message = oneOfMessage([(e.params as { allowedValue: unknown }).allowedValue]);
    } else if (e.keyword === 'required') {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      field = field ? `${field}.${missing}` : missing;
      message = `is required${requiredHint(e.parentSchema)}`;
    } else if (e.keyword === 'additionalProperties') {
      const extra = (e.params as { additionalProperty: string }).additionalProperty;
      field = field ? `${field}.${extra}` : extra;
      message = unknownPropertyMessage(extra, e.parentSchema);
    } else if ((e.keyword === 'minimum' || e.keyword === 'maximum') && hasRange(e.parentSchema)) {
      // "must be <= 1000" alone hides the other end; a client fixing `limit=0` wants both.
      message = `must be between ${e.parentSchema.minimum} and ${e.parentSchema.maximum}`;
    }
    push(field, message);
  }
  return out;
}
