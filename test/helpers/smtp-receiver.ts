import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP receiver on 127.0.0.1 (no auth, no STARTTLS), keeping every message it gets. */
/** `listenPort` 0 = any free port; `delayMs`: how long each message waits before it is accepted (a slow server). */
export async function startSmtpReceiver(listenPort = 0, delayMs = 0) {
  const mails: ReceivedMail[] = [];
  const waiters: Array<{ to: string; after: number; resolve: (m: ReceivedMail) => void }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mail = { to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') };
        mails.push(mail);
        for (const w of [...waiters]) {
          if (mail.to.includes(w.to) && mails.length > w.after) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(mail);
          }
        }
        if (delayMs > 0) setTimeout(() => callback(), delayMs);
        else callback();
      });
    },
  });
  // A sender killed mid-session (the fault tests kill servers with -9) resets its connection; the
  // receiver reports it as an 'error', which without a listener would end the test process.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    /** How many mails have arrived so far: pass it to nextTo to wait for a newer one. */
    count: () => mails.length,
    /** The first mail to `to` arriving after the first `after` mails (waits for it). */
    nextTo(to: string, after: number): Promise<ReceivedMail> {
      const found = mails.slice(after).find((m) => m.to.includes(to));
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ to, after, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Undoes quoted-printable soft line breaks (and =3D) so a long link reads in one piece. */
export function unfoldMail(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}

/** The decoded text of a quoted-printable UTF-8 mail (both parts, headers as sent). */
export function decodeMail(raw: string): string {
  const unfolded = raw.replace(/=\r?\n/g, '');
  return unfolded.replace(/(?:=[0-9A-F]{2})+/g, (run) => Buffer.from(run.replace(/=/g, ''), 'hex').toString('utf8'));
}

/** A mail's Subject header, unfolded and with its encoded words (RFC 2047, Q or B) decoded. */
export function mailSubject(raw: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = /^Subject: (.*)$/im.exec(head);
  if (!line) throw new Error('the mail has no Subject header');
  return line[1]!
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_m, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    )
    .trim();
}
