import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isLoopbackAddress, isPrivateAddress, publicOnlyLookup, publicOrLoopbackLookup } from '../core/http/private-address.js';
import { retryDelayMs, type RetryPolicy } from '../core/job-queue.js';

/** A new signing secret, `whsec_<base64 of 32 random bytes>` (Standard Webhooks). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the secret's decoded bytes. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

const LOOPBACK_NAMES = new Set(['localhost']);

/**
 * Why a target URL is refused, or null when it may be used. HTTPS is required; plain HTTP only to
 * a loopback host when the operator allows loopback (WEBHOOKS_ALLOW_LOOPBACK). No credentials in
 * the URL. An address literal must be public (or loopback, when allowed). Other names are resolved
 * at each delivery by the guarded lookup, never at registration (a name's answer can change, and
 * registering must not make the server query arbitrary names).
 */
export function urlProblem(raw: string, allowLoopback: boolean): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'is not an absolute URL';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'must be an https URL';
  if (u.username || u.password) return 'must not carry a user name or password';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const loopbackHost = LOOPBACK_NAMES.has(host.toLowerCase()) || isLoopbackAddress(host);
  if (u.protocol === 'http:' && !(allowLoopback && loopbackHost)) {
    return allowLoopback ? 'must be an https URL (plain http only on a loopback host)' : 'must be an https URL';
  }
  if (isIP(host) !== 0 && isPrivateAddress(host) && !(allowLoopback && isLoopbackAddress(host))) {
    return 'points to a private, loopback or otherwise non-public address';
  }
  if (!allowLoopback && loopbackHost) return 'points to a private, loopback or otherwise non-public address';
  return null;
}

export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  /** Null on a 2xx; otherwise what went wrong. */
  error: string | null;
}

const MAX_ERROR_BODY = 200;

/**
 * One POST of a signed message. Redirects are not followed (a 3xx is a failure), the request has a
 * hard timeout, and the socket's DNS lookup refuses non-public addresses (loopback too unless
 * allowed): the address connected to is the address checked, so rebinding cannot slip past.
 * Address literals skip the lookup, so they are checked here.
 */
export async function sendWebhook(o: {
  url: string;
  id: string;
  body: string;
  secret: string;
  timestampSeconds: number;
  timeoutMs: number;
  allowLoopback: boolean;
  userAgent: string;
}): Promise<SendResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const refused = urlProblem(o.url, o.allowLoopback);
  if (refused) return { statusCode: null, durationMs: 0, error: `refused: the URL ${refused}` };
  const u = new URL(o.url);
  const headers = {
    'content-type': 'application/json',
    'user-agent': o.userAgent,
    'webhook-id': o.id,
    'webhook-timestamp': String(o.timestampSeconds),
    'webhook-signature': signWebhook(o.secret, o.id, o.timestampSeconds, o.body),
    'content-length': String(Buffer.byteLength(o.body)),
  };
  const lookup = o.allowLoopback ? publicOrLoopbackLookup() : publicOnlyLookup();
  const mod = u.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (r: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = mod.request(u, { method: 'POST', headers, lookup, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (text.length < MAX_ERROR_BODY) text += chunk;
      });
      res.on('end', () => {
        if (status >= 200 && status < 300) return finish({ statusCode: status, durationMs: took(), error: null });
        const why = status >= 300 && status < 400 ? `redirect (${status}) not followed` : `HTTP ${status}`;
        finish({ statusCode: status, durationMs: took(), error: text ? `${why}: ${text.slice(0, MAX_ERROR_BODY)}` : why });
      });
      res.on('error', (err) => finish({ statusCode: status, durationMs: took(), error: err.message }));
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${o.timeoutMs} ms`));
    }, o.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      const msg = err.code === 'EADDRNOTPUBLIC' ? `refused: ${err.message}` : err.message;
      finish({ statusCode: null, durationMs: took(), error: msg.slice(0, 500) });
    });
    req.end(o.body);
  });
}

/**
 * Wait before attempt n+1 (n = attempts so far), after Standard Webhooks' suggested schedule:
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (about 27.6 h in all), each lengthened by up to 20 % of
 * jitter (never shortened, so the schedule always spans more than 24 h) so many deliveries failing
 * together do not retry in lockstep. Null when the schedule is spent: the
 * delivery has failed for good.
 */
export const RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** The schedule as the core job queue's retry policy: up to 20% jitter, given up when it runs out. */
export const WEBHOOK_RETRY_POLICY: RetryPolicy = { backoff: { kind: 'schedule', delaysMs: RETRY_SCHEDULE_MS }, jitter: { up: 0.2 } };

export function nextRetryDelayMs(attempts: number, random: () => number = Math.random): number | null {
  return retryDelayMs(WEBHOOK_RETRY_POLICY, attempts, { random });
}
