import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';

/**
 * The most of an over-limit body read and dropped before answering 413. Up to this much the client
 * gets to finish sending and reads the problem; beyond it the answer goes out at once and the
 * connection closes (a client still sending may then see a reset instead).
 */
export const DRAIN_CAP_BYTES = 64 * 1024 * 1024;

/**
 * A content-type parser for uploads sent as the raw body, whatever their Content-Type (the service
 * checks the type), up to `limitOf(request)` bytes. A body over the limit, by its Content-Length or
 * as it grows, is refused with `tooLarge` — but only once the rest of it has been read and dropped
 * (up to DRAIN_CAP_BYTES), so the client, still writing, reads the 413 instead of a reset.
 */
export function rawBodyParser(limitOf: (request: FastifyRequest) => { max: number; tooLarge: () => Error }) {
  return (request: FastifyRequest, payload: IncomingMessage, done: (err: Error | null, body?: Buffer) => void) => {
    const { max, tooLarge } = limitOf(request);
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number(request.headers['content-length']) > max;
    let finished = false;
    const finish = (err: Error | null, body?: Buffer) => {
      if (finished) return;
      finished = true;
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onError);
      done(err, body);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (!over && size > max) {
        over = true;
        chunks.length = 0;
      }
      if (!over) chunks.push(chunk);
      else if (size > DRAIN_CAP_BYTES) finish(tooLarge());
    };
    const onEnd = () => finish(over ? tooLarge() : null, over ? undefined : Buffer.concat(chunks, size));
    const onError = (err: Error) => finish(over ? tooLarge() : err);
    if (over && Number(request.headers['content-length']) > DRAIN_CAP_BYTES) return finish(tooLarge());
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
  };
}
