import { createHash, randomBytes } from 'node:crypto';

/**
 * Browser sessions: a random 32-byte token in an HttpOnly cookie (only its SHA-256 is stored), and a
 * separate CSRF token the web app reads from the API and echoes in X-CSRF-Token. The cookie itself
 * (its name, reading and writing it) is HTTP plumbing: core/http/session-cookie.ts.
 */
export function newSessionToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashSessionToken(token) };
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newCsrfToken(): string {
  return randomBytes(24).toString('base64url');
}

/** A session token is 43 base64url characters; anything else never reaches a query. */
export function looksLikeSessionToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}
