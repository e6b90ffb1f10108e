import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';

/**
 * Tells waiting requests that something changed (a registration was decided). In one process an
 * EventEmitter is enough; with Redis the news crosses processes. Waiters also re-check on a timer,
 * so a lost message only delays an answer, never loses it.
 */
export interface Notifier {
  publish(channel: string): void;
  /** Resolves true when `channel` is published, false on timeout or abort. */
  wait(channel: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  /** Calls `fn` on every publish of `channel` until the returned function is called. */
  subscribe(channel: string, fn: () => void): () => void;
  close(): Promise<void>;
}

function waitOn(emitter: EventEmitter, channel: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const done = (v: boolean) => {
      clearTimeout(timer);
      emitter.off(channel, onMsg);
      signal?.removeEventListener('abort', onAbort);
      resolve(v);
    };
    const onMsg = () => done(true);
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(false), timeoutMs);
    emitter.on(channel, onMsg);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function subscribeOn(emitter: EventEmitter, channel: string, fn: () => void): () => void {
  emitter.on(channel, fn);
  return () => void emitter.off(channel, fn);
}

export function memoryNotifier(): Notifier {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (channel) => void emitter.emit(channel),
    wait: (channel, ms, signal) => waitOn(emitter, channel, ms, signal),
    subscribe: (channel, fn) => subscribeOn(emitter, channel, fn),
    async close() {
      emitter.removeAllListeners();
    },
  };
}

export function redisNotifier(publisher: Redis, subscriber: Redis, prefix = 'hk:n:'): Notifier {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const pattern = `${prefix}*`;
  subscriber.psubscribe(pattern).catch(() => {});
  subscriber.on('pmessage', (_p: string, channel: string) => emitter.emit(channel.slice(prefix.length)));
  return {
    publish: (channel) => {
      publisher.publish(prefix + channel, '1').catch(() => emitter.emit(channel));
    },
    wait: (channel, ms, signal) => waitOn(emitter, channel, ms, signal),
    subscribe: (channel, fn) => subscribeOn(emitter, channel, fn),
    async close() {
      emitter.removeAllListeners();
      await subscriber.punsubscribe(pattern).catch(() => {});
    },
  };
}
