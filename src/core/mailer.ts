import { randomBytes } from 'node:crypto';
import { chmod, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createTransport } from 'nodemailer';
import type { Config } from './config.js';
import { escapeHtml } from './html.js';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from './private-files.js';

/** One outgoing e-mail: a plain-text body and a simple HTML alternative. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * Add the site's footer ("sent by SITE_NAME", PUBLIC_URL) and its logo atop the HTML: for mails
   * whose own text does not name the site (a reviewer's or a team's invitation, a disabled webhook).
   */
  brand?: true;
}

/** Who a mail says sent it. */
export interface MailBrand {
  siteName: string;
  publicUrl: string;
  /** Absolute URL of the site's logo (SITE_LOGO_URL / SITE_LOGO_FILE), or null. */
  siteLogo: string | null;
}

/** The message with the site's name in its subject, its footer (text and HTML) and logo (HTML); unchanged without `brand`. */
export function withSiteBrand(message: MailMessage, brand: MailBrand | undefined): Omit<MailMessage, 'brand'> {
  const { brand: wanted, ...mail } = message;
  if (!wanted || !brand) return mail;
  const footer = `This mail was sent by ${brand.siteName} (${brand.publicUrl}).`;
  const logo = brand.siteLogo
    ? `<p><img src="${escapeHtml(brand.siteLogo)}" alt="${escapeHtml(brand.siteName)}" style="max-height:48px;max-width:240px"></p>`
    : '';
  const footHtml = `<hr><p style="color:#555;font-size:smaller">${escapeHtml(footer)}</p>`;
  let html = mail.html;
  html = /<body[^>]*>/.test(html) ? html.replace(/<body[^>]*>/, (m) => `${m}\n${logo}`) : `${logo}${html}`;
  html = html.includes('</body>') ? html.replace('</body>', `${footHtml}\n</body>`) : `${html}\n${footHtml}`;
  // The subject names the site too (one header line, whatever SITE_NAME holds).
  const site = brand.siteName
    .replace(/[\r\n]+/g, ' ')
    .trim()
    .slice(0, 100);
  const subject = site && !mail.subject.includes(site) ? `[${site}] ${mail.subject}` : mail.subject;
  return { ...mail, subject, text: `${mail.text.replace(/\n*$/, '')}\n\n--\n${footer}\n`, html };
}

export type Delivery = { mode: 'smtp'; messageId: string } | { mode: 'outbox'; messageId: string; file: string };

/**
 * Sends mail through SMTP when SMTP_URL is configured; otherwise writes every message as an .eml
 * file into OUTBOX_DIR, so a local installation without a mail server still gets its mail (the caller
 * decides what to log about it: the mailer never logs message content).
 */
export interface Mailer {
  readonly mode: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<Delivery>;
}

export interface SmtpOptions {
  host: string;
  port: number;
  secure: boolean;
  ignoreTLS: boolean;
  requireTLS: boolean;
  auth?: { user: string; pass: string };
  tls?: { rejectUnauthorized: boolean };
  connectionTimeout: number;
  greetingTimeout: number;
  socketTimeout: number;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * SMTP_URL → nodemailer options. `smtps://` is TLS from the first byte (port 465 by default);
 * `smtp://` is plain (port 587 by default) and upgrades with STARTTLS when the server offers it,
 * except on loopback hosts, where local test receivers often offer STARTTLS with no usable
 * certificate, so TLS is skipped there. Query parameters override: `?ignoreTLS=true`,
 * `?requireTLS=true`, `?rejectUnauthorized=false`.
 */
export function smtpOptionsFromUrl(raw: string): SmtpOptions {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`SMTP_URL ${JSON.stringify(raw)} is not a URL; write smtp://host:port or smtps://user:pass@host:465`);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, not ${url.protocol}//`);
  }
  if (!url.hostname) throw new Error('SMTP_URL needs a host, e.g. smtp://127.0.0.1:1025');
  const secure = url.protocol === 'smtps:';
  const flag = (name: string): boolean | undefined => {
    const v = url.searchParams.get(name);
    if (v === null) return undefined;
    if (/^(1|true|yes|on)$/i.test(v)) return true;
    if (/^(0|false|no|off)$/i.test(v)) return false;
    throw new Error(`SMTP_URL parameter ${name}=${JSON.stringify(v)} must be true or false`);
  };
  const requireTLS = flag('requireTLS') ?? false;
  const options: SmtpOptions = {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ignoreTLS: secure || requireTLS ? false : (flag('ignoreTLS') ?? LOOPBACK.has(url.hostname)),
    requireTLS,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  };
  if (url.username || url.password) {
    options.auth = { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) };
  }
  const rejectUnauthorized = flag('rejectUnauthorized');
  if (rejectUnauthorized !== undefined) options.tls = { rejectUnauthorized };
  return options;
}

export function createMailer(mail: Config['mail'], brand?: MailBrand): Mailer {
  const common = { from: mail.from, textEncoding: 'quoted-printable' as const };

  if (mail.smtpUrl) {
    const transport = createTransport(smtpOptionsFromUrl(mail.smtpUrl));
    return {
      mode: 'smtp',
      async send(message) {
        const info = await transport.sendMail({ ...common, ...withSiteBrand(message, brand) });
        return { mode: 'smtp', messageId: info.messageId };
      },
    };
  }

  const dir = resolve(mail.outboxDir);
  const composer = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    mode: 'outbox',
    async send(message) {
      const info = await composer.sendMail({ ...common, ...withSiteBrand(message, brand) });
      ensurePrivateDir(dir);
      // Time first so a directory listing is in sending order; the mail may hold a secret link, so
      // the file is the owner's alone whatever the umask ('wx': never through someone's symlink).
      const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`);
      await writeFile(file, info.message as Buffer, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
      await chmod(file, PRIVATE_FILE_MODE);
      return { mode: 'outbox', messageId: info.messageId, file };
    },
  };
}
