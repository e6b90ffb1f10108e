import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, any> };
}

/**
 * A webhook endpoint on 127.0.0.1 that records every POST. `respond` picks the status per request
 * (default 200). `until(pred)` resolves once the recorded requests satisfy `pred`: no sleeping.
 */
export async function startReceiver(respond: (r: Received, index: number) => number = () => 200) {
  const received: Received[] = [];
  const waiters: Array<{ pred: (all: Received[]) => boolean; resolve: () => void }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const r: Received = { path: req.url ?? '/', headers: req.headers, body, json: JSON.parse(body) as Received['json'] };
      received.push(r);
      res.statusCode = respond(r, received.length - 1);
      res.end('ok');
      for (const w of [...waiters]) {
        if (w.pred(received)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    until(pred: (all: Received[]) => boolean): Promise<void> {
      if (pred(received)) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ pred, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Verifies a Standard Webhooks signature independently of the server's code. */
export function verifySignature(secret: string, r: Received): boolean {
  const id = String(r.headers['webhook-id']);
  const ts = String(r.headers['webhook-timestamp']);
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.${r.body}`).digest();
  return String(r.headers['webhook-signature'])
    .split(' ')
    .some((sig) => {
      const [v, b64] = sig.split(',');
      const got = Buffer.from(b64 ?? '', 'base64');
      return v === 'v1' && got.length === expected.length && timingSafeEqual(got, expected);
    });
}
