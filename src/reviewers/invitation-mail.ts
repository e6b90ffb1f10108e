import type { MailMessage } from '../core/mailer.js';
import { escapeHtml } from '../core/html.js';
import { markdownText, renderMarkdownCached } from '../core/markdown.js';
import { formatInZone } from '../notifications/notification-mail.js';

export interface InvitationMailInput {
  to: string;
  eventName: string;
  /** The event's description (Markdown), so the invited person knows what they would judge. */
  eventDescription?: string | null;
  /** The inviting organizer's display name; null: none set (the mail then says "the organizers"). Never their address. */
  inviterName: string | null;
  link: string;
  expiresAt: string;
  /** The event's time zone (the expiry is shown in it); null: UTC. */
  timeZone: string | null;
}

/** The invitation e-mail: plain text first, a simple HTML alternative with every value escaped. */
export function invitationMail(input: InvitationMailInput): MailMessage {
  const { to, eventName, link } = input;
  const name = (input.inviterName ?? '')
    .replace(/[\r\n]+/g, ' ')
    .trim()
    .slice(0, 100);
  const inviter = name ? name : `The organizers of "${eventName}"`;
  const expiresAt = formatInZone(input.expiresAt, input.timeZone ?? 'UTC', 'en');
  const description = (input.eventDescription ?? '').trim();
  // A subject is one header line: no line breaks from an event name may reach it.
  const subject = `You are invited to review "${eventName.replace(/[\r\n]+/g, ' ').slice(0, 150)}"`;
  const text = [
    'Hello,',
    '',
    `${inviter} ${name ? 'invites' : 'invite'} you to review the projects of the hackathon "${eventName}".`,
    '',
    'Open this link to accept: sign in with your account for this address, or create one.',
    '',
    link,
    '',
    `The link works once and expires ${expiresAt}.`,
    'If you did not expect this invitation, ignore this e-mail.',
    '',
    ...(description ? [`About "${eventName}":`, '', markdownText(description, 800), ''] : []),
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    '<p>Hello,</p>',
    `<p>${escapeHtml(inviter)} ${name ? 'invites' : 'invite'} you to review the projects of the hackathon <strong>${escapeHtml(eventName)}</strong>.</p>`,
    `<p><a href="${escapeHtml(link)}">Accept the invitation</a></p>`,
    `<p>Or copy this link into your browser:<br>${escapeHtml(link)}</p>`,
    `<p>The link works once and expires ${escapeHtml(expiresAt)}. If you did not expect this invitation, ignore this e-mail.</p>`,
    ...(description ? [`<h2 style="font-size:1.1em">About ${escapeHtml(eventName)}</h2>`, `<div>${renderMarkdownCached(description)}</div>`] : []),
    '</body></html>',
  ].join('\n');
  return { to, subject, text, html, brand: true };
}
