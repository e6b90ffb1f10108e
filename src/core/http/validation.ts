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
    // URL parts keep the failing schema on each error, so a bound can be reported as its full range.
    verbose: coerce,
    strict: false,
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
      checked.errors = validate.errors ?? null;
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
  return checked as unknown as ReturnType<FastifySchemaCompiler<unknown>>;
};

function pathToField(instancePath: string): string {
  return instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
}

function hasRange(schema: unknown): schema is { minimum: number; maximum: number } {
  const s = schema as { minimum?: unknown; maximum?: unknown } | undefined;
  return typeof s?.minimum === 'number' && typeof s.maximum === 'number';
}

/** Turns ajv's errors into the contract's `errors: [{field, message}]`. */
export function ajvToFieldErrors(errors: ErrorObject[], context: string | undefined): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    let field = pathToField(e.instancePath);
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
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
