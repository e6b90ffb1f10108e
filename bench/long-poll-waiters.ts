/**
 * Holds the long-polls of bench/long-poll.ts in a process of their own, so that the process
 * measuring the other reads (autocannon) is the same with and without them: 5,000 open client
 * requests in its own heap and event loop would slow the load generator, not the server.
 * Told over IPC whom to wait as; reports when every socket is connected, then holds them until killed.
 */
import http from 'node:http';

interface Start {
  type: 'start';
  url: string;
  eventId: string;
  keys: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
let answered = 0;

async function onMessage(msg: Start | { type: 'answered' }): Promise<void> {
  if (msg.type === 'answered') {
    process.send?.({ type: 'answered', answered });
    return;
  }
  const { port, hostname } = new URL(msg.url);
  let connected = 0;
  for (let i = 0; i < msg.keys.length; i++) {
    const req = http.get(
      { host: hostname, port, agent, path: `/api/v1/events/${msg.eventId}/my-registration?wait=45`, headers: { authorization: `Bearer ${msg.keys[i]}` } },
      (res) => {
        res.resume();
        res.on('end', () => answered++);
      },
    );
    req.on('error', () => {});
    req.on('socket', (sock) => sock.once('connect', () => connected++));
    // Gently: a burst beyond the listen backlog makes clients retry their SYN seconds later,
    // and their first reads would then fall into the measurement.
    if (i % 100 === 99) await sleep(100);
  }
  while (connected < msg.keys.length) await sleep(100);
  process.send?.({ type: 'connected', connected });
}

// A failed start ends this process: the benchmark sees it exit rather than wait forever.
process.on('message', (msg: Start | { type: 'answered' }) => {
  onMessage(msg).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
});
