import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import ipaddr from 'ipaddr.js';
import type { HttpLimits, TrustProxy } from '../config.js';
import { ERROR_CATALOG } from '../error-catalog.js';
import { AppError, toProblem } from '../errors.js';
import { newId } from '../ids.js';

/**
 * Defences below Fastify's request handling: time limits on receiving requests, a cap on open
 * connections per socket address, and problem+json for what Node's HTTP parser rejects itself.
 */

/**
 * A whole HTTP/1.1 problem+json answer, for sockets that have no Fastify reply to write it. It has a
 * request id of its own like every answer (no Fastify request, so nothing else is logged under it).
 */
export function rawProblem(err: AppError, siteUrl: string, extraHeaders: Record<string, string | number> = {}): string {
  const requestId = newId('req');
  const body = JSON.stringify({ ...toProblem(err, siteUrl), action: ERROR_CATALOG[err.code].action, request_id: requestId });
  const lines = [
    `HTTP/1.1 ${err.status} ${STATUS_CODES[err.status] ?? ''}`,
    'Content-Type: application/problem+json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'X-Content-Type-Options: nosniff',
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    ...Object.entries(extraHeaders).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** What Node's parser (or its request timer) reports on a socket, as one of our error codes. */
export function clientErrorToAppError(err: Error & { code?: string; rawPacket?: unknown }, limits: HttpLimits): AppError {
  const raw = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : undefined;
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError(
        'request_timeout',
        `The request was not received completely within ${limits.requestTimeoutMs} ms (headers within ${limits.headersTimeoutMs} ms).`,
      );
    case 'HPE_HEADER_OVERFLOW':
      // The parser counts the request line with the headers; a packet that starts a request whose
      // first line runs past 8 KB means the URL itself is what is too long.
      if (raw && /^[A-Z]+ \//.test(raw.toString('latin1', 0, 16)) && !/\r\n/.test(raw.toString('latin1', 0, 8192))) {
        return new AppError('uri_too_long', 'The URL is longer than the server accepts.');
      }
      return new AppError('headers_too_large', 'The request headers are larger than the server accepts.');
    case 'HPE_INVALID_METHOD':
      return new AppError('method_not_allowed', 'The request method is not one this API knows.');
    default:
      return new AppError('bad_request', `Malformed HTTP request${err.code ? ` (${err.code})` : ''}.`);
  }
}

/** Closes a socket gracefully after writing `answer`, but never waits on the client for long. */
function answerAndClose(socket: Socket, answer: string, lingerMs: number): void {
  // Read and drop what the client sends meanwhile: closing with unread data would reset the
  // connection, and the client might lose the answer.
  socket.on('error', () => {});
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  socket.end(answer);
}

/** Fastify's clientErrorHandler: problem+json instead of its own JSON, then the socket is closed. */
export function createClientErrorHandler(siteUrl: string, limits: HttpLimits) {
  return function clientErrorHandler(err: ConnectionError, socket: Socket): void {
    if ((err as { code?: string }).code === 'ECONNRESET' || socket.destroyed) return;
    // A response already under way cannot be replaced by another one: just close.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    answerAndClose(socket, rawProblem(clientErrorToAppError(err, limits), siteUrl), 1000);
  };
}

const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** Whether a socket address lies in a TRUST_PROXY list (addresses, CIDRs, proxy-addr's range names). */
export function addressMatcher(entries: string[]): (address: string) => boolean {
  const ranges = entries.flatMap((e) => NAMED_RANGES[e] ?? [e.includes('/') ? e : `${e}/${e.includes(':') ? 128 : 32}`]).map((c) => ipaddr.parseCIDR(c));
  return (address) => {
    let addr: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      // ::ffff:10.0.0.1 (an IPv4 client on a dual-stack socket) is matched as 10.0.0.1.
      addr = ipaddr.process(address);
    } catch {
      return false;
    }
    return ranges.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits));
  };
}

/**
 * Caps the open connections of one socket address. The cap sees only the socket's peer: behind
 * proxies that is the proxy, so connections from a trusted proxy (TRUST_PROXY list) are not
 * capped, and with a hop count (every peer is taken for a proxy) there is no cap at all.
 * Connections past the cap get a 429 problem+json and are closed before any request is parsed.
 */
export function installConnectionCap(server: Server, opts: { limits: HttpLimits; trustProxy: TrustProxy; siteUrl: string }): void {
  const max = opts.limits.maxConnectionsPerIp;
  if (max <= 0 || typeof opts.trustProxy === 'number') return;
  const exempt = Array.isArray(opts.trustProxy) ? addressMatcher(opts.trustProxy) : () => false;
  const open = new Map<string, number>();
  // Node's own listener attaches the HTTP parser; it only runs for connections within the cap.
  const httpListeners = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const ip = socket.remoteAddress;
    if (ip && !exempt(ip)) {
      const count = (open.get(ip) ?? 0) + 1;
      if (count > max) {
        const err = new AppError('rate_limited', `Too many open connections from your address (at most ${max}); close some and retry.`);
        answerAndClose(socket, rawProblem(err, opts.siteUrl, { 'Retry-After': 1 }), 1000);
        return;
      }
      open.set(ip, count);
      socket.once('close', () => {
        const left = open.get(ip)! - 1;
        if (left > 0) open.set(ip, left);
        else open.delete(ip);
      });
    }
    for (const listener of httpListeners) listener.call(server, socket);
  });
}

/**
 * TRUST_PROXY as Fastify's trustProxy. A hop count becomes a function: Fastify itself now trusts
 * nobody for a bare number, and proxy-addr numbers its addresses from the socket peer (0) leftwards
 * through X-Forwarded-For, so trusting indexes below N takes the Nth entry from the right.
 */
export function fastifyTrustProxy(trust: TrustProxy): false | string[] | ((address: string, index: number) => boolean) {
  if (typeof trust === 'number') return trust === 0 ? false : (_address, index) => index < trust;
  return trust;
}

/**
 * RFC 9112 wants a 400 for an HTTP/1.1 request without Host. Node answers that itself with an empty
 * body; with its check off (applyTimeouts), this onRequest hook answers it as problem+json instead.
 */
export function requireHostHeader(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
    done(new AppError('bad_request', 'An HTTP/1.1 request needs a Host header.'));
    return;
  }
  done();
}

/**
 * Cuts, at shutdown, the connections that have no request being answered. Node's own
 * closeIdleConnections (Fastify's close) leaves a connection that has sent nothing yet, or only
 * part of a request (a client's spare pooled connection, a browser's preconnect, a client that left
 * while its connection pool was opening another): Node counts such a connection as busy until its
 * headers time limit, and a graceful close would wait that long for a request it will not answer.
 * Connections answering a request are left to finish (they answer with Connection: close), and a
 * connection arriving while closing is cut at once.
 */
export function trackConnectionsForShutdown(server: Server): { cutQuiet(): void } {
  const open = new Set<Socket>();
  /** Requests received on a socket and not answered yet (more than one when pipelined). */
  const answering = new Map<Socket, number>();
  let closing = false;
  server.on('connection', (socket: Socket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      answering.delete(socket);
    });
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    answering.set(socket, (answering.get(socket) ?? 0) + 1);
    response.once('close', () => {
      const left = (answering.get(socket) ?? 1) - 1;
      if (left > 0) answering.set(socket, left);
      else answering.delete(socket);
    });
  });
  return {
    cutQuiet() {
      closing = true;
      for (const socket of open) if (!answering.has(socket)) socket.destroy();
    },
  };
}

/** Time limits on receiving a request; answering it (a long-poll) is not limited. */
export function applyTimeouts(server: Server, limits: HttpLimits): void {
  server.requestTimeout = limits.requestTimeoutMs;
  server.headersTimeout = limits.headersTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // Node looks for expired requests on this interval (30 s by default), read when it starts listening.
  const options = server as Server & { connectionsCheckingInterval: number; requireHostHeader: boolean };
  options.connectionsCheckingInterval = limits.timeoutCheckIntervalMs;
  // See requireHostHeader.
  options.requireHostHeader = false;
}
