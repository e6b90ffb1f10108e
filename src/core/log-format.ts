import type { Writable } from 'node:stream';
import pinoPretty from 'pino-pretty';

/** LOG_FORMAT: `pretty` (readable lines), `json` (one JSON object a line), or `auto` (the default). */
export const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;
export type LogFormatSetting = (typeof LOG_FORMATS)[number];

/**
 * Readable lines for a person at a terminal, JSON for everything else (a log collector, a file, a
 * pipe): `auto` decides by whether standard output is a TTY; `pretty` and `json` force either.
 */
export function chooseLogFormat(setting: LogFormatSetting, isTTY: boolean): 'pretty' | 'json' {
  if (setting === 'auto') return isTTY ? 'pretty' : 'json';
  return setting;
}

/**
 * The stream readable logs are written through: pino-pretty in this process (the records reach it
 * already redacted and serialized, so it shows what the JSON would, line by line). Colours only on a
 * TTY. `destination` is standard output unless given (tests pass their own).
 */
export function prettyStream(opts: { colorize: boolean; destination?: Writable }): Writable {
  return pinoPretty({
    colorize: opts.colorize,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    // Written as it comes: a person at a terminal reads the lines in order with the server's other output.
    sync: true,
    ...(opts.destination ? { destination: opts.destination } : {}),
  });
}
