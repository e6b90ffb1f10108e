/** How many password hashes run now and how many wait for their turn. */
export interface PasswordGateState {
  running: number;
  waiting: number;
}

/**
 * A counting semaphore around scrypt: each hash holds 128 MiB and a thread of Node's small pool for
 * a noticeable time, so a burst of password checks (a guessing attack, a wave of sign-ins) queues
 * here, first come first served, instead of all running at once and slowing every one of them (and
 * everything else that needs the thread pool) down together.
 */
export function createPasswordGate(maxAtOnce: number) {
  let running = 0;
  const queue: Array<() => void> = [];
  const listeners = new Set<(s: PasswordGateState) => void>();
  const state = (): PasswordGateState => ({ running, waiting: queue.length });
  const changed = () => {
    for (const l of listeners) l(state());
  };

  async function run<T>(work: () => Promise<T>): Promise<T> {
    if (running >= maxAtOnce) {
      await new Promise<void>((resolve) => {
        queue.push(resolve);
        changed();
      });
      // The releasing run handed its slot over: `running` was not decremented for us.
    } else {
      running++;
      changed();
    }
    try {
      return await work();
    } finally {
      const next = queue.shift();
      if (next) next();
      else running--;
      changed();
    }
  }

  return {
    run,
    state,
    maxAtOnce,
    /** Called on every change of the state (tests observe the queue with it); returns the unsubscribe. */
    observe(listener: (s: PasswordGateState) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type PasswordGate = ReturnType<typeof createPasswordGate>;
