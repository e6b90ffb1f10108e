import { isDatabaseUnavailable } from './db/index.js';

/** The subset of pino's logger the background loops use. */
export interface LoopLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface OutageLog {
  /**
   * Reports a failure. An expected database outage (isDatabaseUnavailable) is logged once per outage,
   * at warn, without a stack (its code and message only); later failures of the same outage are not
   * logged. Returns whether it was an outage: an unexpected error is the caller's to log (at error,
   * with its stack).
   */
  failed(err: unknown): boolean;
  /** Reports a success: ends an outage in progress, logged at info with how long it lasted. */
  ok(): void;
  /** Whether an outage is in progress (a failure reported and no success since). */
  readonly down: boolean;
}

/** What an error says without its stack: its code and message, and those of its cause. */
export function errorGist(err: unknown): { code?: string; message: string } {
  const seen: string[] = [];
  let code: string | undefined;
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && typeof e === 'object' && depth < 3;
    e = e.cause as typeof e, depth++
  ) {
    if (code === undefined && typeof e.code === 'string' && e.code) code = e.code;
    if (typeof e.message === 'string' && e.message && !seen.includes(e.message)) seen.push(e.message);
  }
  const message = seen.join(': ').slice(0, 300) || String(err).slice(0, 300);
  return code === undefined ? { message } : { code, message };
}

/**
 * Once-per-outage logging for one component (a queue's loop, a background job): while the database
 * is down, a loop that polls every second would otherwise log every failed poll with its stack.
 * `failed(err)` logs the first failure of an outage at warn ("<component>: database unavailable…"),
 * `ok()` the recovery at info ("<component> resumed after <n> ms"). `now` is real time (the
 * outage's length is measured, not the test clock).
 */
export function createOutageLog(log: () => LoopLog, component: string, now: () => number = Date.now): OutageLog {
  let since: number | null = null;
  let failures = 0;
  return {
    failed(err: unknown): boolean {
      if (!isDatabaseUnavailable(err)) return false;
      failures++;
      if (since === null) {
        since = now();
        log().warn({ component, err: errorGist(err) }, `${component}: database unavailable; retrying quietly until it is back`);
      }
      return true;
    },
    ok(): void {
      if (since === null) return;
      const ms = now() - since;
      log().info({ component, outage_ms: ms, failures }, `${component} resumed after ${ms} ms of database outage`);
      since = null;
      failures = 0;
    },
    get down() {
      return since !== null;
    },
  };
}
