import { Redis, ReplyError } from 'ioredis';

export interface RedisLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * The process's two connections to Redis (commands, and the subscriber that carries notifications)
 * and whether Redis is up. Redis is help, not a dependency: without it the API keeps serving with
 * in-process rate limits and notifications, so nothing here ever makes a request wait for Redis.
 * Commands are never queued while disconnected (no offline queue) nor retried after a connection
 * drops (an INCR sent twice would count twice), and a command that gets no answer within
 * `commandTimeoutMs` fails and forces a reconnection, so a stalled Redis or a dropped network is
 * noticed by the next request instead of by every one.
 *
 * "Up" means both connections are ready and the subscriptions are in place again (the subscriber
 * pings after ioredis re-subscribes on its own; the pong comes after the subscriptions took
 * effect). Going down is logged once at warn, coming back once at info; ioredis keeps
 * reconnecting (every 2 s at most) for as long as it takes.
 */
export interface RedisLink {
  readonly publisher: Redis;
  /** Subscribe on it before it first connects (in the same tick as openRedis), so the first "up" covers the subscriptions. */
  readonly subscriber: Redis;
  up(): boolean;
  /** Calls `fn` each time the link comes up again after being down: messages published meanwhile were lost. */
  onRestored(fn: () => void): () => void;
  /** A command on the publisher failed: on a timeout, reconnect (requests stop waiting on it); other errors are logged. */
  commandFailed(err: unknown): void;
  /** Resolves true once up, false if it is not up within `ms` (then the outage is logged). */
  ready(ms: number): Promise<boolean>;
  close(): void;
}

/** At most one log line a minute for command errors Redis answers (not connection losses, logged once each). */
const COMMAND_ERROR_LOG_INTERVAL_MS = 60_000;

export function openRedis(url: string, opts: { commandTimeoutMs: number; log: () => RedisLog | undefined }): RedisLink {
  const publisher = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: opts.commandTimeoutMs,
  });
  // The subscriber serves no request: it may queue its (p)subscribe until the first connection.
  const subscriber = new Redis(url, { maxRetriesPerRequest: null });
  const log = opts.log;

  let subscribed = false;
  /** A command timed out: Redis is stalled or out of reach; down until the publisher is ready again. */
  let stalled = false;
  let state: 'starting' | 'up' | 'down' = 'starting';
  const restored = new Set<() => void>();
  const waiting = new Set<(up: boolean) => void>();
  let lastCommandErrorLog = -Infinity;
  let closed = false;

  const up = () => !closed && !stalled && subscribed && publisher.status === 'ready' && subscriber.status === 'ready';

  function markDown(reason: string): void {
    if (state === 'down') return;
    state = 'down';
    log()?.warn(
      { reason },
      'Redis is unreachable: rate limits count in each process and notifications stay in their process until it is back (the API keeps serving)',
    );
  }

  function update(): void {
    if (closed) return;
    if (up()) {
      if (state === 'up') return;
      const wasDown = state === 'down';
      state = 'up';
      for (const w of [...waiting]) w(true);
      if (wasDown) {
        log()?.info({}, 'Redis is reachable again: rate limits and notifications are shared across processes again');
        for (const fn of [...restored]) fn();
      }
    } else if (state === 'up') markDown('connection lost');
  }

  subscriber.on('ready', () => {
    // ioredis has just re-sent the subscriptions; a pong after them means they are in place.
    subscriber.ping().then(
      () => {
        if (subscriber.status !== 'ready') return;
        subscribed = true;
        update();
      },
      () => {},
    );
  });
  subscriber.on('close', () => {
    subscribed = false;
    update();
  });
  publisher.on('ready', () => {
    stalled = false;
    update();
  });
  publisher.on('close', update);
  // Connection errors arrive as 'close' too; without a listener ioredis prints every attempt to stderr.
  publisher.on('error', () => {});
  subscriber.on('error', () => {});

  return {
    publisher,
    subscriber,
    up,
    onRestored(fn) {
      restored.add(fn);
      return () => void restored.delete(fn);
    },
    commandFailed(err) {
      if (closed || stalled || publisher.status !== 'ready') return;
      const message = err instanceof Error ? err.message : String(err);
      if (/timed out/i.test(message)) {
        stalled = true;
        markDown('command timed out');
        // Not disconnect(): its FIN-and-wait never ends against a frozen peer. ioredis reconnects.
        publisher.stream?.destroy();
        return;
      }
      // Anything but an error answer from Redis is the connection going: its 'close' is logged.
      if (!(err instanceof (ReplyError as new () => Error))) return;
      const now = Date.now();
      if (now - lastCommandErrorLog < COMMAND_ERROR_LOG_INTERVAL_MS) return;
      lastCommandErrorLog = now;
      log()?.warn({ reason: message }, 'a Redis command failed: handled in this process instead (rate limit counted here, notification delivered here)');
    },
    ready(ms) {
      if (up()) return Promise.resolve(true);
      return new Promise((resolve) => {
        const done = (v: boolean) => {
          clearTimeout(timer);
          waiting.delete(done);
          if (!v && !closed && state === 'starting') markDown(`not reachable within ${ms} ms of start`);
          resolve(v);
        };
        const timer = setTimeout(() => done(false), ms);
        waiting.add(done);
      });
    },
    close() {
      closed = true;
      for (const w of [...waiting]) w(false);
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
