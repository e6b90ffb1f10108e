import { createHash, randomBytes } from 'node:crypto';

/**
 * Invitation tokens: 32 random bytes (256 bits) in base64url, sent once by e-mail and stored only
 * as their SHA-256, like API keys. A fast hash is enough: the token is random, not a password.
 */
export function newInvitationToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashInvitationToken(token) };
}

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Cheap shape check before any database work: garbage never reaches a query. */
export function looksLikeInvitationToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}
