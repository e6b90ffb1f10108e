import type { MailMessage } from '../core/mailer.js';
import { escapeHtml } from '../core/html.js';
import { formatInZone, linkMail, type MailLanguage } from '../core/mail-format.js';
import { markdownText, renderMarkdownCached } from '../core/markdown.js';

export interface InvitationMailInput {
  to: string;
  eventName: string;
  /** The event's description (Markdown), so the invited person knows what they would judge. */
  eventDescription?: string | null;
  /** The inviting organizer's display name; null: none set (the mail then says "the organizers"). Never their address. */
  inviterName: string | null;
  /** The reviewer's name as the organizer gave it (the greeting); null: a plain greeting. */
  inviteeName?: string | null;
  /** The invitation's language (the invited person has no settings yet): the organizer's choice. */
  language?: MailLanguage;
  link: string;
  expiresAt: string;
  /** The event's time zone (the expiry is shown in it); null: UTC. */
  timeZone: string | null;
}

const line = (s: string | null | undefined, max: number) =>
  (s ?? '')
    .replace(/[\r\n]+/g, ' ')
    .trim()
    .slice(0, max);

/** The invitation e-mail, in the organizer's chosen language: plain text first, a simple HTML alternative with every value escaped. */
export function invitationMail(input: InvitationMailInput): MailMessage {
  const { to, eventName, link } = input;
  const zh = input.language === 'zh';
  const inviter = line(input.inviterName, 100);
  const invitee = line(input.inviteeName, 100);
  const expiresAt = formatInZone(input.expiresAt, input.timeZone ?? 'UTC', zh ? 'zh' : 'en');
  const description = (input.eventDescription ?? '').trim();
  const about = description ? markdownText(description, 800) : '';
  // A subject is one header line: no line breaks from an event name may reach it.
  const subjectName = line(eventName, 150);
  const who = zh ? inviter || `“${eventName}”的组织者` : inviter || `The organizers of "${eventName}"`;
  const first = zh
    ? `${who}邀请你担任黑客松“${eventName}”的评审，为参赛项目打分。`
    : `${who} ${inviter ? 'invites' : 'invite'} you to review the projects of the hackathon "${eventName}".`;
  const second = zh
    ? '打开下面的链接接受邀请：用这个邮箱地址的账号登录，或者新建一个账号。'
    : 'Open this link to accept: sign in with your account for this address, or create one.';
  const mail = linkMail({
    to,
    subject: zh ? `邀请你评审“${subjectName}”` : `You are invited to review "${subjectName}"`,
    greeting: zh ? (invitee ? `${invitee}，你好：` : '你好：') : invitee ? `Hello ${invitee},` : 'Hello,',
    before: [first, second],
    htmlBefore: [
      zh
        ? `${escapeHtml(who)}邀请你担任黑客松<strong>${escapeHtml(eventName)}</strong>的评审，为参赛项目打分。`
        : `${escapeHtml(who)} ${inviter ? 'invites' : 'invite'} you to review the projects of the hackathon <strong>${escapeHtml(eventName)}</strong>.`,
      escapeHtml(second),
    ],
    link: {
      label: zh ? '接受邀请' : 'Accept the invitation',
      url: link,
      copyHint: zh ? '或将此链接复制到浏览器中打开：' : 'Or copy this link into your browser:',
    },
    after: [
      zh ? `链接只能使用一次，${expiresAt} 失效。` : `The link works once and expires ${expiresAt}.`,
      zh ? '如果你没有预料到这份邀请，请忽略这封邮件。' : 'If you did not expect this invitation, ignore this e-mail.',
    ],
    brand: true,
  });
  if (!about) return mail;
  const heading = zh ? `关于“${eventName}”：` : `About "${eventName}":`;
  return {
    ...mail,
    text: `${mail.text}\n${heading}\n\n${about}\n`,
    html: mail.html.replace(
      '</body></html>',
      `<h2 style="font-size:1.1em">${escapeHtml(zh ? `关于“${eventName}”` : `About ${eventName}`)}</h2>\n<div>${renderMarkdownCached(description)}</div>\n</body></html>`,
    ),
  };
}
