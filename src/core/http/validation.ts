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
  const stack: Array<[unknown, string]> = [[data, '']];
  const seen = new WeakSet<object>();
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
      continue;
    }
    // Parsed JSON has no cycles, but a custom body parser might hand over any object.
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push([v, `${path}/${i}`]));
      continue;
    }
    for (const [k, v] of Object.entries(value)) {
      const p = `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (k.includes('\u0000')) return p;
      stack.push([v, p]);
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
  for (const e of errors) {
    if (insideClosedUnion(e.schemaPath)) continue;
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
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      const extra = (e.params as { additionalProperty: string }).additionalProperty;
      field = field ? `${field}.${extra}` : extra;
      message = 'is not a known property';
    } else if ((e.keyword === 'minimum' || e.keyword === 'maximum') && hasRange(e.parentSchema)) {
      // "must be <= 1000" alone hides the other end; a client fixing `limit=0` wants both.
      message = `must be between ${e.parentSchema.minimum} and ${e.parentSchema.maximum}`;
    } else if (e.keyword === 'anyOf' || e.keyword === 'oneOf') {
      // The branch errors already say what is wrong; the summary adds nothing.
      if (errors.length > 1) continue;
    }
    if (!field) field = context === 'body' ? 'body' : (context ?? 'request');
    const key = `${field}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ field, message });
  }
  return out;
}
