import { problemFieldText } from '../i18n';

/**
 * The one way pages talk to the server: the same /api/v1 routes the agents use, authenticated by the
 * session cookie. Writes carry the session's CSRF token; problem+json answers become ApiProblem.
 */

export interface FieldProblem {
  field: string;
  message: string;
}

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

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
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

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const url = path.startsWith('/api/') || path.startsWith('http') ? path : `${API_BASE}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
}

async function send(method: string, path: string, opts: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.query), { method, headers, body, credentials: 'same-origin', signal: opts.signal });
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

/** One JSON call. 204 resolves to undefined. */
export async function api<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await send(method, path, opts);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
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
export async function apiPage<T>(path: string, opts: RequestOptions = {}): Promise<Page<T>> {
  const res = await send('GET', path, opts);
  const items = (await res.json()) as T[];
  return { items, next: nextCursor(res.headers.get('link')), headers: res.headers };
}

export const get = <T = unknown>(path: string, opts?: RequestOptions) => api<T>('GET', path, opts);
export const post = <T = unknown>(path: string, body?: unknown, opts?: RequestOptions) => api<T>('POST', path, { ...opts, body });
export const put = <T = unknown>(path: string, body?: unknown, opts?: RequestOptions) => api<T>('PUT', path, { ...opts, body });
export const patch = <T = unknown>(path: string, body?: unknown, opts?: RequestOptions) => api<T>('PATCH', path, { ...opts, body });
export const del = <T = unknown>(path: string, opts?: RequestOptions) => api<T>('DELETE', path, opts);
