import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { validationError } from '../errors.js';

/** Organizer lists page through at most this many rows per request (their default is 100). */
export const ORGANIZER_PAGE_MAX = 1000;
export const ORGANIZER_PAGE_DEFAULT = 100;

/** `limit` and `cursor` query parameters of an organizer list; spread into its querystring schema. */
export const organizerPageQuery = {
  limit: Type.Integer({ minimum: 1, maximum: ORGANIZER_PAGE_MAX, default: ORGANIZER_PAGE_DEFAULT, description: 'rows per page' }),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'opaque; from the Link rel="next" header' })),
};

/**
 * Keyset cursors: the sort key of the last row of a page, with the list it belongs to (`kind`) and
 * the scope it was taken in (the event id). Binding kind and scope makes a cursor from another list
 * or another event a client mistake (422) rather than a silently wrong page. The cursor is
 * base64url JSON; it is opaque to clients but carries no secret, so it needs no signature: a forged
 * one is only a position.
 */
export function encodeCursor(kind: string, scope: string, key: readonly string[]): string {
  return Buffer.from(JSON.stringify([kind, scope, ...key])).toString('base64url');
}

const badCursor = (why: string) => validationError([{ field: 'cursor', message: why }]);

/**
 * What one part of a cursor's key may be: a row id (`prj_…`), a stored timestamp (ISO-8601 UTC,
 * as `iso()` writes it), or other text (a name key, a reviewer). Each decoded part is checked
 * against its shape, so a forged cursor is a 422 and never reaches the database (PostgreSQL
 * refuses a NUL byte in text with an error, not an empty page).
 */
export type CursorPart = 'id' | 'time' | 'text';

const ID_PART = /^[a-z]{2,10}_[0-9a-z]{1,60}$/;
const TIME_PART = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
/** Control characters (NUL included) and lone UTF-16 surrogates: never in text a list sorts by. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const BAD_TEXT = /[\u0000-\u001f\u007f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const MAX_TEXT_PART = 300;

/** Whether `value` has the shape of a cursor part of kind `part`. */
export function cursorPartOk(part: CursorPart, value: unknown): value is string {
  if (typeof value !== 'string') return false;
  if (part === 'id') return ID_PART.test(value);
  if (part === 'time') return TIME_PART.test(value);
  return value.length <= MAX_TEXT_PART && !BAD_TEXT.test(value);
}

/**
 * The raw JSON array inside a cursor (base64url of JSON), or a 422 on field `cursor` when it is
 * not one. Callers check each element's type and range.
 */
export function decodeCursorArray(raw: string): unknown[] {
  if (raw.length === 0 || raw.length > 1024 || !/^[A-Za-z0-9_-]+$/.test(raw)) throw badCursor('is not a cursor from this list');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw badCursor('is not a cursor from this list');
  }
  if (!Array.isArray(parsed)) throw badCursor('is not a cursor from this list');
  return parsed;
}

/**
 * The sort key inside `raw`, or a 422 on field `cursor` when it is malformed, from another list
 * (`kind`) or scope (the event), or when a part does not have the shape `parts` gives for it.
 */
export function decodeCursor(raw: string, kind: string, scope: string, parts: readonly CursorPart[]): string[] {
  const parsed = decodeCursorArray(raw);
  if (parsed.length !== parts.length + 2 || !parsed.every((p) => typeof p === 'string')) throw badCursor('is not a cursor from this list');
  const [k, s, ...key] = parsed;
  if (k !== kind) throw badCursor('belongs to another list or ordering');
  if (s !== scope) throw badCursor('belongs to another event');
  if (!key.every((value, i) => cursorPartOk(parts[i]!, value))) throw badCursor('is not a cursor from this list');
  return key;
}

/**
 * Cuts the `limit + 1` rows a query read down to the page, and tells the cursor of the next page
 * (the last row's key) when the extra row shows there is more.
 */
export function takePage<T>(rows: T[], limit: number, keyOf: (row: T) => readonly string[]): { items: T[]; nextKey: readonly string[] | null } {
  if (rows.length <= limit) return { items: rows, nextKey: null };
  const items = rows.slice(0, limit);
  return { items, nextKey: keyOf(items[items.length - 1]!) };
}

/**
 * Sets `Link: <…same query, cursor=…>; rel="next"`. `query` is the request's own query (minus the
 * cursor), so filters carry over to the next page.
 */
export function setNextLink(
  reply: FastifyReply,
  publicUrl: string,
  path: string,
  query: Record<string, string | number | boolean | undefined>,
  cursor: string | null,
): void {
  if (!cursor) return;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && k !== 'cursor') params.set(k, String(v));
  params.set('cursor', cursor);
  reply.header('Link', `<${publicUrl}/api/v1${path}?${params}>; rel="next"`);
}
