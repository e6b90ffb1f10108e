import type { paths } from '../api/schema';
import { problemFieldText, type FieldProblem } from '../i18n';

/**
 * The one way pages talk to the server: the same /api/v1 routes the agents use, authenticated by the
 * session cookie. Writes carry the session's CSRF token; problem+json answers become ApiProblem.
 */

export type { FieldProblem };

/** A problem+json answer (RFC 9457) as the pages use it: a stable code, a sentence, per-field errors. */
export class ApiProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly errors: FieldProblem[];
  /** Seconds to wait, from Retry-After (429) or the body's retry_after. */
  readonly retryAfter: number | null;
  readonly body: Record<string, unknown>;

  constructor(status: number, body: Record<string, unknown>, retryAfter: number | null) {
    const detail = typeof body.detail === 'string' ? body.detail : typeof body.title === 'string' ? body.title : `HTTP ${status}`;
    super(detail);
    this.name = 'ApiProblem';
    this.status = status;
    this.code = typeof body.code === 'string' ? body.code : status >= 500 ? 'internal_error' : 'bad_request';
    this.detail = detail;
    this.errors = Array.isArray(body.errors) ? (body.errors as FieldProblem[]).filter((e) => e && typeof e.field === 'string') : [];
    this.retryAfter = retryAfter ?? (typeof body.retry_after === 'number' ? body.retry_after : null);
    this.body = body;
  }

  /**
   * The message of one field's problem (`registration_config.fields.0.key` matches `fields.0.key` too),
   * in the page's language where the page knows the server's sentence.
   */
  fieldError(field: string): string | undefined {
    const problem = this.errors.find((e) => e.field === field || e.field.endsWith(`.${field}`));
    return problem ? problemFieldText(problem) : undefined;
  }
}

/** The network failed (offline, server down): not a problem+json answer. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('network error');
    this.name = 'NetworkError';
    this.cause = cause;
  }
}

let csrfToken: string | null = null;

/** Set from the session (GET /auth/session, sign-in, sign-up); sent as X-CSRF-Token on writes. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export const API_BASE = '/api/v1';

/**
 * The API's routes and shapes come from one source: web/src/api/schema.d.ts, generated from the
 * server's OpenAPI document (scripts/web-api-types.ts; `npm run typecheck` and `build:web` write it
 * first). Pages name a route as the document does below /api/v1 (`/events/{id}`), pass its path
 * parameters, query and body, and get the route's answer type: a route schema that changes under a
 * page fails the typecheck.
 */
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type V1Path<P> = P extends `/api/v1${infer R}` ? R : never;
/** Every API route below /api/v1, e.g. `/events/{id}`. */
export type ApiPath = V1Path<keyof paths>;
type Operation<P extends ApiPath, M extends Method> = NonNullable<paths[`/api/v1${P}`][M]>;
/** The routes that answer method M. */
export type PathOf<M extends Method> = { [P in ApiPath]: paths[`/api/v1${P}`][M] extends { responses: unknown } ? P : never }[ApiPath];

type SuccessStatus = 200 | 201 | 202 | 204;
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;
type SuccessOf<O> = O extends { responses: infer R } ? { [S in keyof R & SuccessStatus]: JsonOf<R[S]> }[keyof R & SuccessStatus] : never;
/** The JSON a route answers on success (undefined for 204). */
export type Answer<P extends ApiPath, M extends Method = 'get'> = SuccessOf<Operation<P, M>>;
/** The JSON body a route takes. */
export type Body<P extends ApiPath, M extends Method> = Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** One item of a route's JSON array answer (a paginated list). */
export type Item<P extends ApiPath> = Answer<P> extends readonly (infer I)[] ? I : never;

type PathParams<O> = O extends { parameters: { path: infer PP } } ? { path: PP } : { path?: undefined };
type QueryParams<O> = O extends { parameters: { query?: infer Q } }
  ? [Q] extends [Record<string, unknown>]
    ? { query?: { [K in keyof Q]?: Q[K] | null } }
    : { query?: undefined }
  : { query?: undefined };
type BodyParam<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? { body: B }
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? { body?: B }
    : { body?: undefined };

/** The query parameters a GET route takes. */
export type Query<P extends PathOf<'get'>> = NonNullable<QueryParams<Operation<P, 'get'>>['query']>;

/** A list item compacted by `fields=`: the fields it asked for, all present. */
export type Fields<T, K extends keyof T> = Required<Pick<T, K>>;

/** What one call passes: the route's path parameters, query and body, plus an abort signal and headers. */
export type RequestOptions<O> = PathParams<O> & QueryParams<O> & BodyParam<O> & { signal?: AbortSignal; headers?: Record<string, string> };
/** The options are optional where the route needs no path parameter and no body. */
type Args<O> = object extends RequestOptions<O> ? [opts?: RequestOptions<O>] : [opts: RequestOptions<O>];

interface AnyOptions {
  path?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface Page<T> {
  items: T[];
  /** The cursor of the next page (from the Link rel="next" header), or null on the last page. */
  next: string | null;
  /** The answer's headers (e.g. Leaderboard-Pending). */
  headers: Headers;
}

/** `/events/{id}` with `{ id: 'a b' }` → `/api/v1/events/a%20b`. */
export function buildUrl(path: string, params: AnyOptions['path'] = {}, query?: AnyOptions['query']): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${path}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
  const url = `${API_BASE}${filled}`;
  if (!query) return url;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    search.set(k, typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v));
  }
  const qs = search.toString();
  return qs ? `${url}?${qs}` : url;
}

async function send(method: string, path: string, opts: AnyOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.path, opts.query), { method, headers, body, credentials: 'same-origin', signal: opts.signal });
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new NetworkError(err);
  }
  if (res.ok) return res;
  let problem: Record<string, unknown> = {};
  try {
    problem = (await res.json()) as Record<string, unknown>;
  } catch {
    /* not JSON: keep the status only */
  }
  const retry = res.headers.get('retry-after');
  throw new ApiProblem(res.status, problem, retry && /^\d+$/.test(retry) ? Number(retry) : null);
}

/**
 * PUT a file as the raw body (an event's cover or logo), with its own Content-Type and the session's
 * CSRF token; the answer is JSON like every other route's.
 */
export async function putFile<P extends PathOf<'put'>>(
  path: P,
  params: Record<string, string>,
  file: Blob,
  query?: Record<string, string>,
): Promise<Answer<P, 'put'>> {
  return (await sendFile('PUT', path, params, file, query)) as Answer<P, 'put'>;
}

/** POST a file as the raw body (a project screenshot), like putFile. */
export async function postFile<P extends PathOf<'post'>>(
  path: P,
  params: Record<string, string>,
  file: Blob,
  query?: Record<string, string>,
): Promise<Answer<P, 'post'>> {
  return (await sendFile('POST', path, params, file, query)) as Answer<P, 'post'>;
}

async function sendFile(method: 'PUT' | 'POST', path: string, params: Record<string, string>, file: Blob, query?: Record<string, string>): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': file.type || 'application/octet-stream' };
  if (csrfToken) headers['x-csrf-token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(buildUrl(path, params, query), { method, headers, body: file, credentials: 'same-origin' });
  } catch (err) {
    throw new NetworkError(err);
  }
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    /* not JSON: keep the status only */
  }
  if (!res.ok) throw new ApiProblem(res.status, parsed, null);
  return parsed;
}

/** An image the API serves (an event's cover_url / logo_url) as a path on this site, so the page's CSP (img-src 'self') allows it. */
export function mediaPath(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url, window.location.origin);
    return `${u.pathname}${u.search}`;
  } catch {
    return null;
  }
}

async function call(method: string, path: string, opts: AnyOptions = {}): Promise<unknown> {
  const res = await send(method, path, opts);
  if (res.status === 204) return undefined;
  const text = await res.text();
  return text ? JSON.parse(text) : undefined;
}

/** The cursor of rel="next" in a Link header. */
export function nextCursor(link: string | null): string | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    if (!/rel="?next"?/.test(part)) continue;
    const url = /<([^>]+)>/.exec(part)?.[1];
    if (!url) continue;
    return new URL(url, 'http://x').searchParams.get('cursor');
  }
  return null;
}

/** One page of a paginated list (a bare JSON array plus Link rel="next"). */
export async function apiPage<P extends PathOf<'get'>>(path: P, ...[opts]: Args<Operation<P, 'get'>>): Promise<Page<Item<P>>> {
  const res = await send('GET', path, opts);
  const items = (await res.json()) as Item<P>[];
  return { items, next: nextCursor(res.headers.get('link')), headers: res.headers };
}

/** A GET whose answer is paginated by a Link rel="next" header but is not a bare array. */
export async function getWithNext<P extends PathOf<'get'>>(path: P, ...[opts]: Args<Operation<P, 'get'>>): Promise<{ body: Answer<P>; next: string | null }> {
  const res = await send('GET', path, opts);
  return { body: (await res.json()) as Answer<P>, next: nextCursor(res.headers.get('link')) };
}

export const get = <P extends PathOf<'get'>>(path: P, ...[opts]: Args<Operation<P, 'get'>>) => call('GET', path, opts) as Promise<Answer<P, 'get'>>;
export const post = <P extends PathOf<'post'>>(path: P, ...[opts]: Args<Operation<P, 'post'>>) => call('POST', path, opts) as Promise<Answer<P, 'post'>>;
export const put = <P extends PathOf<'put'>>(path: P, ...[opts]: Args<Operation<P, 'put'>>) => call('PUT', path, opts) as Promise<Answer<P, 'put'>>;
export const patch = <P extends PathOf<'patch'>>(path: P, ...[opts]: Args<Operation<P, 'patch'>>) => call('PATCH', path, opts) as Promise<Answer<P, 'patch'>>;
export const del = <P extends PathOf<'delete'>>(path: P, ...[opts]: Args<Operation<P, 'delete'>>) => call('DELETE', path, opts) as Promise<Answer<P, 'delete'>>;
