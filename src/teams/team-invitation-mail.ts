import { escapeHtml } from '../core/html.js';
import type { MailMessage } from '../core/mailer.js';

export interface TeamInvitationMailInput {
  to: string;
  eventName: string;
  teamName: string;
  inviterName: string;
  link: string;
  expiresAt: string;
}

/** The join-link e-mail a leader sends with `email`: plain text first, a simple HTML alternative with every value escaped. */
export function teamInvitationMail(input: TeamInvitationMailInput): MailMessage {
  const { to, eventName, teamName, inviterName, link, expiresAt } = input;
  const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').slice(0, 120);
  const subject = `Join the team "${oneLine(teamName)}" in "${oneLine(eventName)}"`;
  const text = [
    'Hello,',
    '',
    `${inviterName} invites you to join the team "${teamName}" in the hackathon "${eventName}".`,
    '',
    'Open this link while signed in (or sign up first) to join:',
    '',
    link,
    '',
    `The link expires at ${expiresAt}. If you did not expect this invitation, ignore this e-mail.`,
    '',
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    '<p>Hello,</p>',
    `<p>${escapeHtml(inviterName)} invites you to join the team <strong>${escapeHtml(teamName)}</strong> in the hackathon <strong>${escapeHtml(eventName)}</strong>.</p>`,
    `<p><a href="${escapeHtml(link)}">Join the team</a></p>`,
    `<p>Or copy this link into your browser:<br>${escapeHtml(link)}</p>`,
    `<p>The link expires at ${escapeHtml(expiresAt)}. If you did not expect this invitation, ignore this e-mail.</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject, text, html, brand: true };
}
