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

/** The sort key inside `raw`, or a 422 on field `cursor` when it is malformed or from elsewhere. */
export function decodeCursor(raw: string, kind: string, scope: string, arity: number): string[] {
  if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw badCursor('is not a cursor from this list');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw badCursor('is not a cursor from this list');
  }
  if (!Array.isArray(parsed) || parsed.length !== arity + 2 || !parsed.every((p) => typeof p === 'string' && p.length <= 300)) {
    throw badCursor('is not a cursor from this list');
  }
  const [k, s, ...key] = parsed as string[];
  if (k !== kind) throw badCursor('belongs to another list or ordering');
  if (s !== scope) throw badCursor('belongs to another event');
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
