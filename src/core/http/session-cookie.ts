import { timingSafeEqual } from 'node:crypto';

/*
 * The session cookie on the wire: its name, reading it from a Cookie header, the Set-Cookie value.
 * The auth hook (core/http) reads it; accounts (sign-in) and reviewers (accepting an invitation)
 * set it. The token inside is accounts' business (accounts/sessions.ts).
 */

/** Constant-time string equality (length leaks, which is public: tokens have one length). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `__Host-` on https binds the cookie to this exact host, path / and Secure. */
export function sessionCookieName(publicUrl: string): string {
  return publicUrl.startsWith('https:') ? '__Host-hk_session' : 'hk_session';
}

/** One cookie's value from a Cookie header, without parsing the rest (the header may be long). */
export function readCookie(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    return value;
  }
  return undefined;
}

export function sessionCookie(publicUrl: string, token: string, maxAgeSeconds: number): string {
  const secure = publicUrl.startsWith('https:') ? '; Secure' : '';
  return `${sessionCookieName(publicUrl)}=${token}; Max-Age=${maxAgeSeconds}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}

export function clearedSessionCookie(publicUrl: string): string {
  return sessionCookie(publicUrl, '', 0);
}
