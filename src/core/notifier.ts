import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import pg from 'pg';
import type { DatabaseLimits } from './config.js';

/**
 * Tells waiting requests and caches that something changed (a registration was decided, an event
 * was edited). In one process an EventEmitter is enough; with Redis or PostgreSQL LISTEN/NOTIFY the
 * news crosses processes. A message may carry a short payload (e.g. the id of the event that
 * changed). Cross-process notifiers deliver a publish back to the publishing process too.
 */
export interface Notifier {
  /** Whether a publish reaches other processes (Redis, PostgreSQL) or only this one (memory). */
  readonly crossProcess: boolean;
  publish(channel: string, message?: string): void;
  /** Resolves true when `channel` is published, false on timeout or abort. */
  wait(channel: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  /** Calls `fn` on every publish of `channel` until the returned function is called. */
  subscribe(channel: string, fn: (message: string) => void): () => void;
  close(): Promise<void>;
}

/**
 * Published locally when a cross-process notifier (re)connects: messages sent while it was away are
 * lost, so caches drop what they hold and waiters re-check once.
 */
export const NOTIFIER_RESYNC = 'notifier:resync';

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

function subscribeOn(emitter: EventEmitter, channel: string, fn: (message: string) => void): () => void {
  emitter.on(channel, fn);
  return () => void emitter.off(channel, fn);
}

function newEmitter(): EventEmitter {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return emitter;
}

export function memoryNotifier(): Notifier {
  const emitter = newEmitter();
  return {
    crossProcess: false,
    publish: (channel, message = '') => void emitter.emit(channel, message),
    wait: (channel, ms, signal) => waitOn(emitter, channel, ms, signal),
    subscribe: (channel, fn) => subscribeOn(emitter, channel, fn),
    async close() {
      emitter.removeAllListeners();
    },
  };
}

export function redisNotifier(publisher: Redis, subscriber: Redis, prefix = 'hk:n:'): Notifier {
  const emitter = newEmitter();
  const pattern = `${prefix}*`;
  subscriber.psubscribe(pattern).catch(() => {});
  subscriber.on('pmessage', (_p: string, channel: string, message: string) => emitter.emit(channel.slice(prefix.length), message));
  // ioredis re-subscribes on reconnect; what was published meanwhile is gone.
  let connectedOnce = false;
  subscriber.on('ready', () => {
    if (connectedOnce) emitter.emit(NOTIFIER_RESYNC, '');
    connectedOnce = true;
  });
  return {
    crossProcess: true,
    publish: (channel, message = '') => {
      publisher.publish(prefix + channel, message).catch(() => emitter.emit(channel, message));
    },
    wait: (channel, ms, signal) => waitOn(emitter, channel, ms, signal),
    subscribe: (channel, fn) => subscribeOn(emitter, channel, fn),
    async close() {
      emitter.removeAllListeners();
      await subscriber.punsubscribe(pattern).catch(() => {});
    },
  };
}

/**
 * PostgreSQL's own LISTEN/NOTIFY over one dedicated connection (not from the pool: a listening
 * session must stay open). Every message goes through one database channel with the payload
 * `<channel>\n<message>`; NOTIFY is scoped to the database, so processes sharing a database hear
 * each other and nobody else. When the connection drops, it reconnects with backoff and announces
 * NOTIFIER_RESYNC; while it is down a publish is delivered in this process only.
 */
export interface PgNotifier extends Notifier {
  /** Resolves once the first LISTEN is in place (or the first attempt failed and a retry is due). */
  listening(): Promise<void>;
}

export function pgNotifier(
  connectionString: string,
  opts: { pgChannel?: string; maxBackoffMs?: number; limits?: Pick<DatabaseLimits, 'connectTimeoutMs' | 'queryTimeoutMs'> } = {},
): PgNotifier {
  const emitter = newEmitter();
  const pgChannel = opts.pgChannel ?? 'hk_notify';
  const maxBackoff = opts.maxBackoffMs ?? 5000;
  let client: pg.Client | null = null;
  let ready = false;
  let closed = false;
  let backoff = 100;
  let retry: NodeJS.Timeout | null = null;
  let connectedOnce = false;

  const deliver = (payload: string) => {
    const nl = payload.indexOf('\n');
    if (nl < 0) emitter.emit(payload, '');
    else emitter.emit(payload.slice(0, nl), payload.slice(nl + 1));
  };

  function scheduleReconnect() {
    ready = false;
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, backoff);
    retry.unref();
    backoff = Math.min(backoff * 2, maxBackoff);
  }

  async function connect(): Promise<void> {
    if (closed) return;
    const c = new pg.Client({
      connectionString,
      application_name: 'hackathon-notify',
      keepAlive: true,
      // A frozen server must not hold the connect, nor a publish: past the limit the connection is
      // dropped (below) and opened again.
      ...(opts.limits?.connectTimeoutMs ? { connectionTimeoutMillis: opts.limits.connectTimeoutMs } : {}),
      ...(opts.limits?.queryTimeoutMs ? { query_timeout: opts.limits.queryTimeoutMs } : {}),
    });
    client = c;
    c.on('error', () => {
      if (client === c) scheduleReconnect();
    });
    c.on('end', () => {
      if (client === c) scheduleReconnect();
    });
    c.on('notification', (msg) => {
      if (msg.channel === pgChannel) deliver(msg.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${pgChannel}`);
    } catch {
      c.end().catch(() => {});
      if (client === c) scheduleReconnect();
      return;
    }
    if (closed) return void c.end().catch(() => {});
    ready = true;
    backoff = 100;
    if (connectedOnce) emitter.emit(NOTIFIER_RESYNC, '');
    connectedOnce = true;
  }

  const started = connect();

  return {
    crossProcess: true,
    publish(channel, message = '') {
      const c = client;
      if (!ready || !c) return void emitter.emit(channel, message);
      c.query('SELECT pg_notify($1, $2)', [pgChannel, `${channel}\n${message}`]).catch(() => {
        emitter.emit(channel, message);
        // No answer in time: the connection is stuck (pg leaves the query on it); start afresh.
        if (client === c && ready) {
          ready = false;
          c.end().catch(() => {});
        }
      });
    },
    wait: (channel, ms, signal) => waitOn(emitter, channel, ms, signal),
    subscribe: (channel, fn) => subscribeOn(emitter, channel, fn),
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await started;
      emitter.removeAllListeners();
      await client?.end().catch(() => {});
    },
    listening: () => started,
  };
}

/** Redis wins when configured (it also carries the rate limits); else PostgreSQL's LISTEN/NOTIFY; else memory. */
export function notifierFor(opts: { redis?: { publisher: Redis; subscriber: Redis }; postgres?: { url: string; limits?: DatabaseLimits } }): Notifier {
  if (opts.redis) return redisNotifier(opts.redis.publisher, opts.redis.subscriber);
  if (opts.postgres) return pgNotifier(opts.postgres.url, opts.postgres.limits ? { limits: opts.postgres.limits } : {});
  return memoryNotifier();
}
