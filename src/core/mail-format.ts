import { escapeHtml } from './html.js';
import type { MailMessage } from './mailer.js';

/** The languages mails are written in. */
export type MailLanguage = 'en' | 'zh';

/** A stored or sent language as a mail language: anything but 'zh' reads as English. */
export const mailLanguage = (raw: string | null | undefined): MailLanguage => (raw === 'zh' ? 'zh' : 'en');

/** Whether `zone` is an IANA time zone this runtime knows (what sign-up and the settings accept). */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** `instant` in `timeZone`, the zone named: "1 Dec 2026, 18:00 (Europe/Berlin)" / "2026年12月1日 18:00（Asia/Shanghai）". */
export function formatInZone(instant: string, timeZone: string, language: MailLanguage): string {
  const d = new Date(instant);
  if (Number.isNaN(d.getTime())) return instant.slice(0, 40);
  const zone = isTimeZone(timeZone) ? timeZone : 'UTC';
  const text = new Intl.DateTimeFormat(language === 'zh' ? 'zh-CN' : 'en-GB', {
    timeZone: zone,
    dateStyle: 'medium',
    timeStyle: 'short',
    hourCycle: 'h23',
  }).format(d);
  return language === 'zh' ? `${text}（${zone}）` : `${text} (${zone})`;
}

/** A site or event name fit for a subject line: one line, at most 100 characters. */
export const subjectPart = (name: string) => name.replace(/[\r\n]+/g, ' ').slice(0, 100);

/**
 * The shape of every mail that carries one link (sign-up, password reset, invitations): a greeting,
 * paragraphs, the link as a button and in full, closing paragraphs. Plain text first; the HTML
 * alternative escapes every value. Paragraphs are plain text; `htmlBefore` may replace a paragraph's
 * HTML when it needs markup of its own (already escaped by the caller).
 */
export function linkMail(input: {
  to: string;
  subject: string;
  greeting: string;
  before: string[];
  /** The HTML of `before`, when some paragraph needs markup (each already escaped); default: `before` escaped. */
  htmlBefore?: string[];
  link: { label: string; url: string; copyHint: string };
  after: string[];
  brand?: boolean;
}): MailMessage {
  const { to, subject, greeting, before, link, after } = input;
  const text = [greeting, '', ...before.flatMap((p) => [p, '']), link.url, '', ...after, ''].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    `<p>${escapeHtml(greeting)}</p>`,
    ...(input.htmlBefore ?? before.map(escapeHtml)).map((p) => `<p>${p}</p>`),
    `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
    `<p>${escapeHtml(link.copyHint)}<br>${escapeHtml(link.url)}</p>`,
    ...after.map((p) => `<p>${escapeHtml(p)}</p>`),
    '</body></html>',
  ].join('\n');
  return { to, subject, text, html, ...(input.brand ? { brand: true } : {}) };
}
