import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { DatabaseLimits } from './config.js';
import type { RedisLink } from './redis.js';

/**
 * Tells waiting requests and caches that something changed (a registration was decided, an event
 * was edited). In one process an EventEmitter is enough; with Redis or PostgreSQL LISTEN/NOTIFY the
 * news crosses processes. A message may carry a short payload (e.g. the id of the event that
 * changed). Cross-process notifiers deliver a publish back to the publishing process too.
 */
export interface Notifier {
  /** Whether a publish reaches other processes (Redis, PostgreSQL) or only this one (memory). */
  readonly crossProcess: boolean;
  /**
   * False while a cross-process notifier is cut off (Redis or the LISTEN connection is down, or not
   * up yet): other processes' news does not arrive, so a cache that only a message could invalidate
   * must not be trusted meanwhile. Always true for the in-process notifier.
   */
  connected(): boolean;
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
    connected: () => true,
    publish: (channel, message = '') => void emitter.emit(channel, message),
    wait: (channel, ms, signal) => waitOn(emitter, channel, ms, signal),
    subscribe: (channel, fn) => subscribeOn(emitter, channel, fn),
    async close() {
      emitter.removeAllListeners();
    },
  };
}

/**
 * Through Redis pub/sub (one pattern subscription on the link's subscriber). While the link is down
 * a publish is delivered in this process only; when it comes back, NOTIFIER_RESYNC is published
 * locally (what others published meanwhile is lost).
 */
export function redisNotifier(link: Pick<RedisLink, 'publisher' | 'subscriber' | 'up' | 'onRestored' | 'commandFailed'>, prefix = 'hk:n:'): Notifier {
  const emitter = newEmitter();
  const { publisher, subscriber } = link;
  const pattern = `${prefix}*`;
  subscriber.psubscribe(pattern).catch(() => {});
  const onMessage = (p: string, channel: string, message: string) => {
    if (p === pattern) emitter.emit(channel.slice(prefix.length), message);
  };
  subscriber.on('pmessage', onMessage);
  const offRestored = link.onRestored(() => emitter.emit(NOTIFIER_RESYNC, ''));
  return {
    crossProcess: true,
    connected: () => link.up(),
    publish: (channel, message = '') => {
      // Up means subscribed too, so the message comes back to this process through Redis.
      if (!link.up()) return void emitter.emit(channel, message);
      publisher.publish(prefix + channel, message).catch((err: unknown) => {
        link.commandFailed(err);
        emitter.emit(channel, message);
      });
    },
    wait: (channel, ms, signal) => waitOn(emitter, channel, ms, signal),
    subscribe: (channel, fn) => subscribeOn(emitter, channel, fn),
    async close() {
      offRestored();
      subscriber.off('pmessage', onMessage);
      emitter.removeAllListeners();
      // Not while disconnected: the subscriber queues commands until it reconnects.
      if (subscriber.status === 'ready') await subscriber.punsubscribe(pattern).catch(() => {});
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
    connected: () => ready,
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
export function notifierFor(opts: { redis?: RedisLink; postgres?: { url: string; limits?: DatabaseLimits } }): Notifier {
  if (opts.redis) return redisNotifier(opts.redis);
  if (opts.postgres) return pgNotifier(opts.postgres.url, opts.postgres.limits ? { limits: opts.postgres.limits } : {});
  return memoryNotifier();
}
