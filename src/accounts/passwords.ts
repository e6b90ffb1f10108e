import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))));

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** OWASP Password Storage Cheat Sheet's recommendation for scrypt: N=2^17, r=8, p=1 (128 MiB). */
export const OWASP_SCRYPT: Readonly<ScryptParams> = Object.freeze({ N: 2 ** 17, r: 8, p: 1 });
/** The weakest work factor an operator may configure (PASSWORD_SCRYPT_N): the former default. */
export const SCRYPT_MIN_N = 2 ** 14;
/** Above this a single hash needs more than 1 GiB; stored hashes past it are refused, not computed. */
export const SCRYPT_MAX_N = 2 ** 20;
const KEYLEN = 32;

/** scrypt needs 128·N·r bytes; leave headroom so Node's maxmem check never refuses a valid setting. */
const maxmemFor = ({ N, r, p }: ScryptParams) => 128 * N * r + 128 * r * p + 32 * 1024 * 1024;

/** scrypt with a per-password salt, stored as `scrypt$N$r$p$salt$hash` so parameters can grow later. */
export async function hashPassword(password: string, params: ScryptParams = OWASP_SCRYPT): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, { ...params, maxmem: maxmemFor(params) });
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

function parseStored(stored: string): { params: ScryptParams; salt: Buffer; hash: Buffer } | null {
  const [algo, n, r, p, salt, hash, extra] = stored.split('$');
  if (algo !== 'scrypt' || !salt || !hash || extra !== undefined) return null;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const power = Number.isInteger(params.N) && params.N > 1 && (params.N & (params.N - 1)) === 0;
  if (!power || params.N > SCRYPT_MAX_N || !Number.isInteger(params.r) || params.r < 1 || params.r > 32) return null;
  if (!Number.isInteger(params.p) || params.p < 1 || params.p > 16) return null;
  return { params, salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') };
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parsed = stored ? parseStored(stored) : null;
  if (!parsed || parsed.hash.length === 0) return false;
  const key = await scrypt(password, parsed.salt, parsed.hash.length, { ...parsed.params, maxmem: maxmemFor(parsed.params) });
  return key.length === parsed.hash.length && timingSafeEqual(key, parsed.hash);
}

/**
 * True when a stored hash was made with less work than `target` (in memory N·r or in parallel
 * cost p), so the next successful verification should store a fresh hash.
 */
export function needsRehash(stored: string, target: ScryptParams): boolean {
  const parsed = parseStored(stored);
  if (!parsed) return true;
  const { N, r, p } = parsed.params;
  return N * r < target.N * target.r || (N * r === target.N * target.r && p < target.p);
}

export const PASSWORD_MIN_LENGTH = 8;
