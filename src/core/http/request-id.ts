import { IncomingMessage } from 'node:http';
import type { TrustProxy } from '../config.js';
import { newId } from '../ids.js';
import { addressMatcher } from './connection-guard.js';

/**
 * Request ids: every answer carries one in `X-Request-Id`, every problem document as `request_id`,
 * and every log line of the request as `reqId`, so a client quoting it finds the server's lines.
 */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What an incoming `X-Request-Id` may look like to be kept: 1 to 128 characters, letters and digits
 * first, then letters, digits and `. _ : = + / @ -` (UUIDs, ULIDs, base64, `Root=1-…` trace ids).
 * Nothing that could break a header, a log line or a JSON string.
 */
const WELL_FORMED = /^[A-Za-z0-9][A-Za-z0-9._:=+/@-]{0,127}$/;

export function isWellFormedRequestId(value: unknown): value is string {
  return typeof value === 'string' && WELL_FORMED.test(value);
}

/** A new id (`req_` + time + 60 random bits, as core/ids.ts makes them): sortable, unique across processes. */
export function newRequestId(): string {
  return newId('req');
}

/**
 * Fastify's `genReqId`. The proxy's `X-Request-Id` is kept only when the request came through a
 * trusted proxy (the socket's peer is in the TRUST_PROXY list, or TRUST_PROXY is a hop count, which
 * says every peer is a proxy) and the id is well formed; otherwise the id is new. A client talking
 * to the server directly cannot choose the id its requests are logged under.
 *
 * An in-process request (`app.inject`, which the MCP tools use for their REST calls) is not a
 * socket's: it keeps the id its caller gave, so a tool's REST call logs under the MCP request's id.
 */
export function requestIdGenerator(
  trust: TrustProxy,
): (req: { headers: Record<string, string | string[] | undefined>; socket?: { remoteAddress?: string } }) => string {
  const fromTrustedPeer: (address: string | undefined) => boolean =
    trust === false ? () => false : typeof trust === 'number' ? () => trust > 0 : matcherOf(trust);
  return (req) => {
    const given = req.headers[REQUEST_ID_HEADER];
    if (!isWellFormedRequestId(given)) return newRequestId();
    const inProcess = !(req instanceof IncomingMessage);
    return inProcess || fromTrustedPeer(req.socket?.remoteAddress) ? given : newRequestId();
  };
}

function matcherOf(entries: string[]): (address: string | undefined) => boolean {
  const matches = addressMatcher(entries);
  return (address) => address !== undefined && matches(address);
}
