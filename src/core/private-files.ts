import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Files that hold accounts, key hashes and mailed invitation links are the owner's alone: 0600 files
 * in 0700 directories. Modes are set with chmod after creation, because the mode given to open or
 * mkdir is filtered through the process umask, which the operator's environment decides.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/**
 * mkdir -p, one level at a time (Node's recursive mkdirSync spins forever on some paths, e.g. under
 * /proc, instead of failing). Directories it creates are 0700; existing ones are left as they are,
 * since they may be shared (a home directory, /var/lib).
 */
export function ensurePrivateDir(dir: string): void {
  if (existsSync(dir)) return;
  const parent = dirname(dir);
  if (parent !== dir) ensurePrivateDir(parent);
  try {
    mkdirSync(dir, { mode: PRIVATE_DIR_MODE });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw err;
  }
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Creates the file empty if it is missing and makes it 0600 (also when it existed with a looser mode). */
export function ensurePrivateFile(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  chmodSync(path, PRIVATE_FILE_MODE);
}

/** Makes an existing file 0600; a missing one is fine. */
export function restrictFile(path: string): void {
  try {
    chmodSync(path, PRIVATE_FILE_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
