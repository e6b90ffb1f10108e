import { createHash, randomBytes } from 'node:crypto';

/** Every key starts with this, so a leaked one is recognisable (and greppable by secret scanners). */
export const KEY_PREFIX = 'hk_';
const DISPLAY_LENGTH = KEY_PREFIX.length + 8;

/** A new key: 32 random bytes (256 bits), shown once; only its SHA-256 is stored. */
export function generateApiKey(): { token: string; hash: string; displayPrefix: string } {
  const token = KEY_PREFIX + randomBytes(32).toString('base64url');
  return { token, hash: hashApiKey(token), displayPrefix: token.slice(0, DISPLAY_LENGTH) };
}

export function hashApiKey(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Cheap shape check before any database work: garbage never reaches a query. */
export function looksLikeApiKey(token: string): boolean {
  return token.startsWith(KEY_PREFIX) && token.length >= KEY_PREFIX.length + 22 && token.length <= 200;
}
