import { AppError, type FieldError } from '../errors.js';

/** A \uD800–\uDFFF escape: the only way a lone surrogate can enter a body decoded as UTF-8. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed = (s: string) => !LONE_SURROGATE.test(s);

/** At most this many fields are named; a longer path is cut (a 100,000-deep body has a 200 kB one). */
const MAX_ERRORS = 20;
const MAX_PATH = 200;
const shortPath = (path: string) => (path.length > MAX_PATH ? `${path.slice(0, MAX_PATH)}…` : path) || '(body)';

/**
 * Every string (value or member name) that is not valid Unicode, by path. Iterative, with an
 * explicit stack, so a deeply nested body cannot overflow the call stack (a recursive walk turned
 * a 40,000-deep body with one `\ud800` escape into a 500).
 */
function collect(root: unknown, out: FieldError[]): void {
  const stack: Array<[unknown, string]> = [[root, '']];
  while (stack.length > 0 && out.length < MAX_ERRORS) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (!wellFormed(value)) out.push({ field: shortPath(path), message: 'contains an unpaired UTF-16 surrogate (not valid Unicode text)' });
    } else if (Array.isArray(value)) {
      // Pushed last first, so fields are reported in document order.
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], path ? `${path}.${i}` : String(i)]);
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, v] = entries[i]!;
        stack.push([v, path ? `${path}.${k}` : k]);
      }
      for (const [k] of entries) {
        if (!wellFormed(k)) out.push({ field: shortPath(path), message: 'has a member name with an unpaired UTF-16 surrogate' });
      }
    }
  }
}

/**
 * Refuses text that is not valid Unicode (a lone surrogate written as a JSON escape): stored, it
 * would come back changed (UTF-8 has no encoding for it), so a team name would not round-trip.
 * Costs one regex test on the raw body; the walk runs only when an escape is present.
 */
export function assertWellFormedJson(raw: string, parsed: unknown): void {
  if (!SURROGATE_ESCAPE.test(raw)) return;
  const errors: FieldError[] = [];
  collect(parsed, errors);
  if (errors.length > 0) throw new AppError('validation_failed', 'The request body contains text that is not valid Unicode.', { errors });
}

/**
 * The 400 of a body the JSON parser refused, saying where: Fastify's parser (secure-json-parse)
 * drops the reason, so the body is parsed again by JSON.parse for its message and position, turned
 * into a line and column (1-based; Node 20's messages give only `position N`, and an early end of
 * the body is reported at its end). A body JSON.parse accepts was refused for a `__proto__` or
 * `constructor.prototype` member. Other parser errors pass unchanged.
 */
export function malformedJsonError(raw: string, err: Error & { code?: string }): Error {
  if (err.code !== 'FST_ERR_CTP_INVALID_JSON_BODY') return err;
  let message: string;
  try {
    JSON.parse(raw);
    return new AppError('bad_request', 'The body contains a "__proto__" or "constructor.prototype" member, which this server refuses.');
  } catch (syntax) {
    message = (syntax as Error).message.replace(/\s*\(line \d+ column \d+\)\s*$/, '');
  }
  const m = /position (\d+)/.exec(message);
  const position = m ? Math.min(Number(m[1]), raw.length) : /end of (JSON|data) input/i.test(message) ? raw.length : null;
  if (position === null) return new AppError('bad_request', `The body is not valid JSON: ${message}.`);
  const before = raw.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return new AppError('bad_request', `The body is not valid JSON at line ${line}, column ${column}: ${message}.`, {
    extra: { line, column, position },
  });
}
