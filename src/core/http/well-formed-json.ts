import { AppError, type FieldError } from '../errors.js';

/** A \uD800–\uDFFF escape: the only way a lone surrogate can enter a body decoded as UTF-8. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed = (s: string) => !LONE_SURROGATE.test(s);

function collect(value: unknown, path: string, out: FieldError[]): void {
  if (typeof value === 'string') {
    if (!wellFormed(value)) out.push({ field: path || '(body)', message: 'contains an unpaired UTF-16 surrogate (not valid Unicode text)' });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => collect(v, path ? `${path}.${i}` : String(i), out));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (!wellFormed(k)) out.push({ field: path || '(body)', message: 'has a member name with an unpaired UTF-16 surrogate' });
      collect(v, path ? `${path}.${k}` : k, out);
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
  collect(parsed, '', errors);
  if (errors.length > 0) throw new AppError('validation_failed', 'The request body contains text that is not valid Unicode.', { errors });
}
