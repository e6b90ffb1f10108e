import { randomFillSync } from 'node:crypto';

// Crockford base32: sortable, unambiguous, URL-safe.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

/** Random bytes drawn a pool at a time: one call into the CSPRNG per 341 ids, not one per id. */
const pool = Buffer.alloc(4096);
let used = pool.length;

function encodeRandom(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  let out = '';
  for (let i = used; i < used + bytes; i++) out += ALPHABET[pool[i]! & 31];
  used += bytes;
  return out;
}

export type IdPrefix =
  | 'evt'
  | 'reg'
  | 'prj'
  | 'usr'
  | 'key'
  | 'rev'
  | 'inv'
  | 'res'
  | 'ses'
  | 'icd'
  | 'pwr'
  | 'sgr'
  | 'whk'
  | 'msg'
  | 'tinv'
  | 'ann'
  | 'mql'
  | 'flg'
  | 'aud'
  | 'req'
  | 'rsk'
  | 'tjr'
  | 'shot';

/**
 * Prefixed, time-sortable identifiers (`evt_01hx…`): the prefix tells a reader what an id names,
 * and ordering by id is ordering by creation, which keeps cursor pagination simple.
 */
export function newId(prefix: IdPrefix, nowMs: number = Date.now()): string {
  return `${prefix}_${encodeTime(nowMs)}${encodeRandom(12)}`;
}
