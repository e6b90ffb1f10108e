/**
 * Waiting for an observable condition in a test: `check` is polled until it holds, for at most a
 * bound, and a wait that runs out fails loudly, naming what it waited for (and, where the caller
 * gives them, details such as a server's log). No test sleeps for a fixed time instead.
 */

export interface UntilOptions {
  /** The bound, in milliseconds (10 s unless said). */
  ms?: number;
  /** How long to wait between two checks (10 ms unless said). */
  every?: number;
  /** Added to the failure's message: the state that explains it (a log, the rows seen). */
  details?: () => string;
}

const DEFAULTS = { ms: 10_000, every: 10 };

/** Resolves once `check` holds; throws `timed out after <ms> ms waiting for <what>` past the bound. */
export async function until(what: string, check: () => boolean | Promise<boolean>, options: UntilOptions | number = {}): Promise<void> {
  const { ms, every, details } = { ...DEFAULTS, ...(typeof options === 'number' ? { ms: options } : options) };
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) {
      const more = details?.() ?? '';
      throw new Error(`timed out after ${ms} ms waiting for ${what}${more ? `\n${more}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}

/**
 * An `until` with a file's own defaults (a longer bound where processes start, their logs as the
 * details): `const waitFor = untilWith({ ms: 30_000, details: logs })`. A call can still pass its own bound.
 */
export function untilWith(defaults: UntilOptions) {
  return (what: string, check: () => boolean | Promise<boolean>, options: UntilOptions | number = {}) =>
    until(what, check, { ...defaults, ...(typeof options === 'number' ? { ms: options } : options) });
}
