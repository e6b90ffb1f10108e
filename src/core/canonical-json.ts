/**
 * Canonical JSON, RFC 8785 (JSON Canonicalization Scheme, JCS): the one serialisation of a JSON
 * value that hashes the same wherever it is made, so a re-serialised (re-indented, re-ordered)
 * document still verifies.
 *
 * - object members sorted by their names as arrays of UTF-16 code units (JavaScript's own string
 *   order), at every depth; array order kept;
 * - no whitespace;
 * - numbers as ECMAScript serialises them (JSON.stringify: shortest round-trip form, `1e+21`,
 *   `-0` → `0`); a number that is not finite (NaN, ±Infinity) has no JSON form and is refused;
 * - strings as JSON.stringify escapes them (`"` and `\`, \b \f \n \r \t, other control characters
 *   as lower-case \u00xx; everything else as is, in UTF-8 once encoded).
 *
 * Only JSON values are accepted: null, booleans, finite numbers, strings, arrays and plain objects.
 * `undefined`, functions, symbols and bigints are refused, inside objects too (JSON.stringify would
 * silently drop or throw on them), so a canonical form never hides a member.
 */
export class CanonicalJsonError extends Error {}

export function canonicalJson(value: unknown): string {
  return write(value);
}

/** Where in the value a refused member sits, for the error (found only when there is one). */
function pathTo(value: unknown, bad: unknown, path = '$'): string | null {
  if (value === bad) return path;
  if (value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
    const found = pathTo(v, bad, Array.isArray(value) ? `${path}[${k}]` : `${path}.${k}`);
    if (found) return found;
  }
  return null;
}

class Refused extends Error {
  constructor(readonly bad: unknown) {
    super('refused');
  }
}

function write(value: unknown): string {
  try {
    return part(value);
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    const where = pathTo(value, err.bad) ?? '$';
    const what = typeof err.bad === 'number' ? String(err.bad) : typeof err.bad === 'object' ? 'not a plain object' : `a ${typeof err.bad}`;
    throw new CanonicalJsonError(`${where}: ${what} is not a JSON value`);
  }
}

function part(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new Refused(value);
      // ES Number::toString, as JSON.stringify writes it; -0 becomes 0.
      return JSON.stringify(value);
    case 'string':
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        return '[' + value.map(part).join(',') + ']';
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) throw new Refused(value);
      // Default sort: by UTF-16 code units, as RFC 8785 §3.2.3 asks.
      const keys = Object.keys(value).sort();
      const obj = value as Record<string, unknown>;
      return '{' + keys.map((k) => JSON.stringify(k) + ':' + part(obj[k])).join(',') + '}';
    }
    default:
      throw new Refused(value);
  }
}
