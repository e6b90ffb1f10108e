import type { ApiResponse, TestApp } from './harness.js';

/** The origin of PUBLIC_URL in the test harness. */
export const ORIGIN = 'http://hackathon.test';
export const PASSWORD = 'correct horse battery';

export interface WebSession {
  cookie: string;
  csrf: string;
  userId: string;
  email: string;
}

/** The `name=value` of the session cookie a response set (Set-Cookie), or null. */
export function sessionCookieFrom(res: ApiResponse): string | null {
  const set = res.headers.get('set-cookie');
  const m = set ? /(?:^|,\s*)((?:__Host-)?hk_session=[^;]*)/.exec(set) : null;
  return m ? m[1]! : null;
}

/** Headers of a browser request of this session: the cookie, the site's Origin and the CSRF token. */
export function browser(s: WebSession, extra: Record<string, string> = {}): Record<string, string> {
  return { cookie: s.cookie, origin: ORIGIN, 'x-csrf-token': s.csrf, ...extra };
}

function toSession(res: ApiResponse): WebSession {
  const cookie = sessionCookieFrom(res);
  if (!cookie) throw new Error(`no session cookie: ${res.status} ${res.text}`);
  return { cookie, csrf: res.body.csrf_token, userId: res.body.user.id, email: res.body.user.email };
}

export async function signUp(t: TestApp, email: string, password = PASSWORD, extra: Record<string, unknown> = {}): Promise<WebSession> {
  const res = await t.api('POST', '/auth/signup', { body: { email, password, ...extra }, headers: { origin: ORIGIN } });
  if (res.status !== 201) throw new Error(`signup: ${res.status} ${res.text}`);
  return toSession(res);
}

export async function signIn(t: TestApp, email: string, password = PASSWORD): Promise<WebSession> {
  const res = await t.api('POST', '/auth/signin', { body: { email, password }, headers: { origin: ORIGIN } });
  if (res.status !== 200) throw new Error(`signin: ${res.status} ${res.text}`);
  return toSession(res);
}
