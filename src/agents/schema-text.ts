/**
 * Renders TypeBox (JSON Schema) route schemas as Markdown for the agent material, so the limits an
 * agent reads are the ones the server validates with, never a retyped copy.
 */
type JsonSchema = {
  type?: string | string[];
  /** Alternatives; on an object, branches that are only required sets name a field or its alias. */
  anyOf?: JsonSchema[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  patternProperties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  required?: string[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
  maxProperties?: number;
  pattern?: string;
  default?: unknown;
  description?: string;
};

/** The object member of a schema that may also be null (an optional body like `{reason?} | null`). */
export function objectSchema(schema: unknown): JsonSchema {
  const s = schema as JsonSchema;
  if (s.properties) return s;
  const member = s.anyOf?.find((m) => m.properties);
  if (!member) throw new Error('schema has no object member');
  return member;
}

export function typeText(schema: unknown): string {
  const s = schema as JsonSchema;
  if (s.anyOf && !s.properties) return s.anyOf.map(typeText).join(' or ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.type === 'array') return `array of ${s.items ? typeText(s.items) : 'any'}`;
  if (s.type === 'object' && s.patternProperties) {
    const value = Object.values(s.patternProperties)[0];
    return `object (key → ${value ? typeText(value) : 'any'})`;
  }
  if (s.type === 'object' && s.properties) {
    const required = new Set(s.required ?? []);
    return `object {${Object.keys(s.properties)
      .map((k) => (required.has(k) ? k : `${k}?`))
      .join(', ')}}`;
  }
  if (s.type === 'object') return 'object';
  if (Array.isArray(s.type)) return s.type.join(' or ');
  return s.type ?? 'any';
}

function range(min: number | undefined, max: number | undefined, unit: string): string | null {
  if (min !== undefined && max !== undefined) return `${min}–${max}${unit}`;
  if (max !== undefined) return `at most ${max}${unit}`;
  if (min !== undefined) return `at least ${min}${unit}`;
  return null;
}

/** Every limit a schema (and, for records and arrays, its members) puts on a value. */
export function limitsText(schema: unknown): string {
  const s = schema as JsonSchema;
  const out: string[] = [];
  if (s.anyOf && !s.properties) {
    const inner = s.anyOf.map(limitsText).filter((t) => t !== '');
    if (inner.length) out.push(...new Set(inner));
  }
  const len = range(s.minLength, s.maxLength, ' characters');
  if (len) out.push(len);
  const num = range(s.minimum, s.maximum, '');
  if (num) out.push(num);
  if (s.exclusiveMinimum !== undefined) out.push(`greater than ${s.exclusiveMinimum}`);
  const items = range(s.minItems, s.maxItems, ' items');
  if (items) out.push(items);
  if (s.maxProperties !== undefined) out.push(`at most ${s.maxProperties} entries`);
  if (s.pattern) out.push(`pattern \`${s.pattern}\``);
  if (s.patternProperties) {
    const [keyPattern, value] = Object.entries(s.patternProperties)[0] ?? [];
    if (value) {
      const inner = limitsText(value);
      if (inner) out.push(`each value ${inner}`);
    }
    void keyPattern;
  }
  if (s.items) {
    const inner = limitsText(s.items);
    if (inner) out.push(`each ${inner}`);
  }
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  return out.join('; ');
}

/** The object schema inside a property (itself, or its array items), when it has named properties. */
function nestedObject(schema: JsonSchema): { schema: JsonSchema; prefix: string } | null {
  if (schema.type === 'object' && schema.properties) return { schema, prefix: '.' };
  if (schema.type === 'array' && schema.items?.type === 'object' && schema.items.properties) return { schema: schema.items, prefix: '[].' };
  return null;
}

/**
 * Properties an object requires one of (`anyOf` of required sets, as for a field and its alias):
 * each maps to the text of its required column, e.g. "one of `project_name`, `name`".
 */
export function alternativeRequired(s: JsonSchema): Map<string, string> {
  const out = new Map<string, string>();
  const sets = (s.anyOf ?? []).map((b) => b.required);
  if (!sets.length || sets.some((r) => !r || r.length !== 1)) return out;
  const names = sets.map((r) => r![0]!);
  for (const n of names) out.set(n, `one of ${names.map((x) => `\`${x}\``).join(', ')}`);
  return out;
}

function fieldRows(s: JsonSchema, path: string, notes: Record<string, string>): string[] {
  const required = new Set(s.required ?? []);
  const alternatives = alternativeRequired(s);
  return Object.entries(s.properties ?? {}).flatMap(([key, prop]) => {
    const name = `${path}${key}`;
    const what = [prop.description, notes[name]].filter(Boolean).join('; ');
    // A property with a default is required by the schema only because the server fills it in.
    const needed = required.has(key) && prop.default === undefined ? 'yes' : (alternatives.get(key) ?? 'no');
    const row = `| \`${name}\` | ${typeText(prop)} | ${needed} | ${limitsText(prop) || '–'} | ${what || '–'} |`;
    const nested = nestedObject(prop);
    return nested ? [row, ...fieldRows(nested.schema, `${name}${nested.prefix}`, notes)] : [row];
  });
}

/**
 * A Markdown table of an object schema's properties (name, type, required, limits, notes), with
 * the members of nested objects and arrays of objects as `parent.child` / `parent[].child` rows.
 */
export function fieldTable(schema: unknown, notes: Record<string, string> = {}): string {
  return ['| field | type | required | limits | notes |', '|---|---|---|---|---|', ...fieldRows(objectSchema(schema), '', notes)].join('\n');
}

/** A readable skeleton of a response schema, e.g. `{ "id": string, "track_id": string | null }`. */
export function shapeText(schema: unknown, indent = ''): string {
  const s = schema as JsonSchema;
  if (s.anyOf && !s.properties) return s.anyOf.map((m) => shapeText(m, indent)).join(' | ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.type === 'array') return `[${s.items ? shapeText(s.items, indent) : 'any'}, …]`;
  if (s.type === 'object' && s.properties) {
    const inner = `${indent}  `;
    const required = new Set(s.required ?? []);
    const lines = Object.entries(s.properties).map(([k, v]) => `${inner}"${k}"${required.has(k) ? '' : '?'}: ${shapeText(v, inner)}`);
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  if (s.type === 'object' && s.patternProperties) {
    const value = Object.values(s.patternProperties)[0];
    return `{ "<key>": ${value ? shapeText(value, indent) : 'any'}, … }`;
  }
  return typeText(s);
}

/** The same skeleton on one line, e.g. `{id: string, track_id?: string | null}`: for the lean skill.md. */
export function shapeLine(schema: unknown): string {
  const s = schema as JsonSchema;
  if (s.anyOf && !s.properties) return s.anyOf.map(shapeLine).join(' | ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.type === 'array') return `[${s.items ? shapeLine(s.items) : 'any'}]`;
  if (s.type === 'object' && s.properties) {
    const required = new Set(s.required ?? []);
    return `{${Object.entries(s.properties)
      .map(([k, v]) => `${k}${required.has(k) ? '' : '?'}: ${shapeLine(v)}`)
      .join(', ')}}`;
  }
  if (s.type === 'object' && s.patternProperties) {
    const value = Object.values(s.patternProperties)[0];
    return `{<key>: ${value ? shapeLine(value) : 'any'}}`;
  }
  return typeText(s);
}
