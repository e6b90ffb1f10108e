import { createHash, randomBytes } from 'node:crypto';

export const INVITE_CODE_PREFIX = 'inv_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const CODE_LENGTH = 24;

/** A new invite code, `inv_` + 24 base62 characters (~142 bits), shown once; only its SHA-256 is stored. */
export function generateInviteCode(): { code: string; hash: string; prefix: string } {
  let body = '';
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 62).
  while (body.length < CODE_LENGTH) {
    for (const b of randomBytes(32)) if (b < 248 && body.length < CODE_LENGTH) body += BASE62[b % 62];
  }
  const code = INVITE_CODE_PREFIX + body;
  return { code, hash: hashInviteCode(code), prefix: code.slice(0, INVITE_CODE_PREFIX.length + 6) };
}

export function hashInviteCode(code: string): string {
  return createHash('sha256').update(code.trim()).digest('hex');
}
