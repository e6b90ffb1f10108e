import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';

export interface TcpProxy {
  /** 127.0.0.1 port the proxy listens on. */
  port: number;
  /**
   * The network between the app and its server fails: every open connection is reset and new ones
   * are reset as soon as they are accepted (what a database going away looks like to the client).
   */
  cut(): void;
  /** Connections pass again. */
  restore(): void;
  /** Connections accepted and reset while cut. */
  refused: number;
  close(): Promise<void>;
}

/** A TCP proxy on 127.0.0.1 to `target` (host:port), to break the connection on purpose in fault tests. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let down = false;
  const server = createServer((client) => {
    if (down) {
      proxy.refused++;
      client.resetAndDestroy();
      return;
    }
    const upstream = createConnection(target);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy: TcpProxy = {
    port: (server.address() as AddressInfo).port,
    refused: 0,
    cut() {
      down = true;
      for (const [client, upstream] of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    restore() {
      down = false;
    },
    async close() {
      proxy.cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
