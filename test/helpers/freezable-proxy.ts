import { createConnection, createServer, type Socket } from 'node:net';

export interface FreezableProxy {
  port: number;
  /** Stops forwarding in both directions and holds new connections: what a network partition or a frozen server looks like. */
  freeze(): void;
  /** Forwards everything held, in order, and goes on forwarding. */
  thaw(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 in front of `targetPort` that can be frozen. While frozen, connections
 * stay open and nothing passes (bytes, ends): clients see a server that never answers, not an
 * error. Bytes are held here rather than by pausing the sockets, so nothing slips through.
 */
export async function startFreezableProxy(targetPort: number): Promise<FreezableProxy> {
  let frozen = false;
  const held: Array<() => void> = [];
  const sockets = new Set<Socket>();
  const forward = (action: () => void) => (frozen ? held.push(action) : action());

  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    const link = (from: Socket, to: Socket) => {
      from.on('data', (chunk) => forward(() => to.write(chunk)));
      from.on('end', () => forward(() => to.end()));
      from.on('close', () => forward(() => to.destroy()));
    };
    link(client, upstream);
    link(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  return {
    port,
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      for (const action of held.splice(0)) action();
    },
    async close() {
      frozen = false;
      held.length = 0;
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
