import { memoryNotifier, type Notifier } from '../../src/core/notifier.js';

export interface RecordedWait {
  channel: string;
  timeoutMs: number;
  /** true when a publish woke the waiter, false when its timeout (or an abort) ended the wait. */
  outcome: Promise<boolean>;
}

export interface RecordingNotifier extends Notifier {
  waits: RecordedWait[];
  /** Resolves once at least `n` waits have started: the long-poll is parked, no sleeping needed. */
  waitStarted(n?: number): Promise<RecordedWait[]>;
}

/**
 * Wraps a notifier and records every wait a request parks on, so tests can await the parking
 * itself and tell whether the notification or the re-read timer woke the request, without
 * measuring wall-clock time.
 */
export function recordingNotifier(inner: Notifier = memoryNotifier()): RecordingNotifier {
  const waits: RecordedWait[] = [];
  const watchers: Array<() => void> = [];
  return {
    waits,
    publish: (channel) => inner.publish(channel),
    subscribe: (channel, fn) => inner.subscribe(channel, fn),
    close: () => inner.close(),
    wait(channel, timeoutMs, signal) {
      const outcome = inner.wait(channel, timeoutMs, signal);
      waits.push({ channel, timeoutMs, outcome });
      for (const w of watchers.splice(0)) w();
      return outcome;
    },
    async waitStarted(n = 1) {
      while (waits.length < n) await new Promise<void>((r) => watchers.push(r));
      return waits.slice(0, n);
    },
  };
}
