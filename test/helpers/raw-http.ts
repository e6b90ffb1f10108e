import { connect, type Socket } from 'node:net';

/** A raw TCP client, for what fetch will not send: half requests, trickled bodies, bad request lines. */
export interface RawConnection {
  socket: Socket;
  /** Resolves when the server has closed the connection, with everything it sent. */
  closed: Promise<string>;
  /** Everything received so far. */
  received(): string;
}

export async function openRaw(url: string, opts: { localAddress?: string } = {}): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), ...(opts.localAddress ? { localAddress: opts.localAddress } : {}) });
  let data = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (data += chunk));
  // A reset after the server's answer is still a close; the assertions look at what arrived.
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(data)));
  socket.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, closed, received: () => data };
}

/** Sends `text` and resolves once the server's answer is complete (by Content-Length). */
export function rawExchange(conn: RawConnection, text: string): Promise<RawResponse> {
  const start = conn.received().length;
  conn.socket.write(text);
  return new Promise((resolve, reject) => {
    const check = () => {
      const parsed = parseRawResponse(conn.received().slice(start));
      if (parsed) {
        conn.socket.off('data', check);
        conn.socket.off('close', onClose);
        resolve(parsed);
      }
    };
    const onClose = () => {
      const parsed = parseRawResponse(conn.received().slice(start));
      if (parsed) resolve(parsed);
      else reject(new Error(`connection closed without a complete answer: ${JSON.stringify(conn.received().slice(start))}`));
    };
    conn.socket.on('data', check);
    conn.socket.on('close', onClose);
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** One complete HTTP/1.1 response at the start of `text`, or null while incomplete. */
export function parseRawResponse(text: string): RawResponse | null {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const bodyText = Buffer.from(text.slice(end + 4), 'latin1').subarray(0, length);
  if (bodyText.length < length) return null;
  const raw = bodyText.toString('utf8');
  let body: unknown = raw;
  try {
    body = raw ? JSON.parse(raw) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
}
