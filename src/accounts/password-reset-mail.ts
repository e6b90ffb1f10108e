import type { MailMessage } from '../core/mailer.js';
import { escapeHtml } from '../core/html.js';

/** The password-reset e-mail: plain text first, a simple HTML alternative with every value escaped. */
export function passwordResetMail(input: { to: string; siteName: string; link: string; expiresAt: string }): MailMessage {
  const { to, siteName, link, expiresAt } = input;
  const subject = `Reset your password for ${siteName.replace(/[\r\n]+/g, ' ').slice(0, 100)}`;
  const text = [
    'Hello,',
    '',
    `Someone (hopefully you) asked to reset the password of your account at ${siteName}.`,
    '',
    'Open this link to choose a new password:',
    '',
    link,
    '',
    `The link works once and expires at ${expiresAt}.`,
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
    '',
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    '<p>Hello,</p>',
    `<p>Someone (hopefully you) asked to reset the password of your account at ${escapeHtml(siteName)}.</p>`,
    `<p><a href="${escapeHtml(link)}">Choose a new password</a></p>`,
    `<p>Or copy this link into your browser:<br>${escapeHtml(link)}</p>`,
    `<p>The link works once and expires at ${escapeHtml(expiresAt)}. If you did not ask for this, ignore this e-mail.</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject, text, html };
}
