import { createHash } from 'node:crypto';

/** The request header, lower-cased as Node presents it. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Marks an answer replayed from an earlier request with the same key. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** 1-255 printable ASCII characters (space to tilde), as Stripe and the IETF draft allow. */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

export function isValidIdempotencyKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/**
 * JSON with object keys sorted at every depth, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are one body.
 * Arrays keep their order (it is meaningful); undefined members vanish as in JSON.stringify.
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
  return out;
}

/**
 * What makes two requests "the same": method, route, its decoded path parameters (so `/events/x/`
 * and `/events/%78` are the event `x` either way) and the parsed body.
 */
export function requestFingerprint(method: string, route: string, params: unknown, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${route}\n${canonicalJson(params)}\n${canonicalJson(body)}`)
    .digest('hex');
}

/**
 * Which answers are kept and replayed: every answer below 500 that the route produced (a 201, but also
 * a 409 already_registered or a 422 from the form's own checks: the same request gets the same
 * answer). Not 5xx (our failure: a retry should run again) nor 408/429 (about timing, not the request).
 */
export function isStoredOutcome(status: number): boolean {
  return status < 500 && status !== 408 && status !== 429;
}
