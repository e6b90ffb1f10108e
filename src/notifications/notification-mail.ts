import { escapeHtml } from '../core/html.js';
import { markdownText, renderMarkdownCached } from '../core/markdown.js';
import { formatInZone, type MailLanguage } from '../core/mail-format.js';

/**
 * The notification mails: one template per kind, in English and Chinese, as plain text and simple
 * HTML. Pure: everything a mail says comes in `MailContext` (the caller reads the event, the
 * organizer's display name and the recipient's settings).
 *
 * `data` per kind (what callers of queueNotification pass):
 * - registration_approved / registration_rejected: `{ team_name, reason? }`
 * - team_member_joined / team_member_left: `{ team_name, member_name, removed?: boolean }`
 * - results_published: `{ team_name, rank, score, track_rank?, track_name?, track_prize? }` (rank null when unranked;
 *   track_prize only when the team won its track)
 * - team_invitation: `{ team_name, inviter_name, join_url, expires_at }`
 * - reviewer_reminder: `{ open_reviews }` (the reviewer's queue is linked)
 * - join_request_received (to the team's leader): `{ team_name, requester_name, message, skills: string[] }`
 * - join_request_accepted / join_request_declined (to the requester): `{ team_name }`
 * - announcement: `{ title, body, deadline? }` (body: Markdown, rendered for the HTML part and as text
 *   for the plain one; deadline: true to add the event's submission deadline in the reader's zone)
 */
export type NotificationKind =
  | 'registration_approved'
  | 'registration_rejected'
  | 'team_member_joined'
  | 'team_member_left'
  | 'results_published'
  | 'team_invitation'
  | 'reviewer_reminder'
  | 'join_request_received'
  | 'join_request_accepted'
  | 'join_request_declined'
  | 'announcement';

export const NOTIFICATION_KINDS: readonly NotificationKind[] = [
  'registration_approved',
  'registration_rejected',
  'team_member_joined',
  'team_member_left',
  'results_published',
  'team_invitation',
  'reviewer_reminder',
  'join_request_received',
  'join_request_accepted',
  'join_request_declined',
  'announcement',
];

export type { MailLanguage } from '../core/mail-format.js';

/**
 * Which of a person's switches governs a kind; null: always sent (an invitation to an address, a
 * reviewer's reminder: work the reviewer took on, sent at most once a day by an organizer; an
 * organizer's announcement: operational news such as a moved deadline, which no switch may silence).
 */
export function switchFor(kind: NotificationKind): 'registration' | 'team' | 'results' | null {
  if (kind === 'registration_approved' || kind === 'registration_rejected') return 'registration';
  if (kind === 'team_member_joined' || kind === 'team_member_left') return 'team';
  if (kind === 'join_request_received' || kind === 'join_request_accepted' || kind === 'join_request_declined') return 'team';
  if (kind === 'results_published') return 'results';
  return null;
}

/**
 * Stands for PUBLIC_URL in a stored mail: the worker puts the configured address in at sending, so
 * queueing needs only the transaction. Control characters never survive from user text (clean()).
 */
export const PUBLIC_URL_MARK = '\u0001PUBLIC_URL\u0001';
/** How much of an event's description the plain-text part of an invitation carries. */
const ABOUT_TEXT_LIMIT = 800;

/** Stands for SITE_NAME in a stored mail, likewise. */
export const SITE_NAME_MARK = '\u0001SITE_NAME\u0001';

/** Stands for the site's logo in a stored HTML mail: an <img> of SITE_LOGO_URL / SITE_LOGO_FILE, or nothing. */
export const SITE_LOGO_MARK = '\u0001SITE_LOGO\u0001';

/** Puts the configured address, site name and logo into a stored mail (the worker, at sending). */
export function fillMarks(text: string, publicUrl: string, siteName: string, html: boolean, siteLogo: string | null = null): string {
  const name = html ? escapeHtml(siteName) : siteName;
  const url = html ? escapeHtml(publicUrl) : publicUrl;
  const logo = html && siteLogo ? `<p><img src="${escapeHtml(siteLogo)}" alt="${escapeHtml(siteName)}" style="max-height:48px;max-width:240px"></p>` : '';
  return text.split(PUBLIC_URL_MARK).join(url).split(SITE_NAME_MARK).join(name).split(SITE_LOGO_MARK).join(logo);
}

/** A stored subject with the site's name put in: one header line, whatever SITE_NAME holds. */
export function fillSubject(subject: string, siteName: string): string {
  return subject.split(SITE_NAME_MARK).join(
    siteName
      .replace(/[\r\n]+/g, ' ')
      .trim()
      .slice(0, 100),
  );
}

export interface MailContext {
  kind: NotificationKind;
  language: MailLanguage;
  /** IANA zone the recipient reads times in (UTC when they never chose one). */
  timeZone: string;
  event: { id: string; name: string; submission_deadline: string; registration_deadline: string; description?: string | null };
  /** The organizer's display name, or null when they have none (never their address). */
  organizerName: string | null;
  data: Record<string, unknown>;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

// eslint-disable-next-line no-control-regex -- control characters are what is removed
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

function clean(value: unknown, max = 500): string {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return '';
  return String(value).replace(CONTROL, '').slice(0, max);
}

function oneLine(value: unknown, max = 200): string {
  return clean(value, max).replace(/\s+/g, ' ').trim();
}

interface Parts {
  subject: string;
  /** Paragraphs (plain text; escaped for HTML). */
  lines: string[];
  /** A link line: label and address. */
  link?: { label: string; url: string };
  /** The event's description (Markdown): rendered for the HTML part, its text for the plain one. */
  about?: { heading: string; markdown: string };
  /** The mail's own Markdown (an announcement's body), after the lines: rendered for HTML, as text for the plain part. */
  markdown?: string;
  /** Paragraphs after the Markdown (plain text; escaped for HTML). */
  after?: string[];
}

/** Markdown as plain text that keeps its paragraphs and list items on lines of their own. */
function markdownPlain(source: string): string {
  return source
    .split(/\n\s*\n/)
    .map((block) =>
      block
        .split('\n')
        .map((line) => {
          const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
          return item ? `- ${markdownText(item[1]!, 10_000)}` : markdownText(line, 10_000);
        })
        .filter(Boolean)
        .join('\n'),
    )
    .filter(Boolean)
    .join('\n\n');
}

function eventUrl(eventId: string): string {
  return `${PUBLIC_URL_MARK}/hackathons/${encodeURIComponent(eventId)}`;
}

function parts(c: MailContext): Parts {
  const zh = c.language === 'zh';
  const d = c.data;
  const team = oneLine(d.team_name) || (zh ? '你的团队' : 'your team');
  const ev = oneLine(c.event.name);
  const org = c.organizerName ? oneLine(c.organizerName) : zh ? '主办方' : 'The organizers';
  const at = (iso: string) => formatInZone(iso, c.timeZone, c.language);
  const eventLink = { label: zh ? '活动页面' : 'Event page', url: eventUrl(c.event.id) };
  // The event's own description, for a person who does not know the event yet (an invitation).
  const description = clean(c.event.description ?? '', 20_000).trim();
  const about = (heading: string): Pick<Parts, 'about'> => (description ? { about: { heading, markdown: description } } : {});
  switch (c.kind) {
    case 'registration_approved':
      return zh
        ? {
            subject: `${ev}：「${team}」的报名已通过`,
            lines: [`${org} 已通过「${team}」参加 ${ev} 的报名。`, `作品提交截止时间：${at(c.event.submission_deadline)}。`],
            link: eventLink,
          }
        : {
            subject: `${ev}: ${team} is approved`,
            lines: [`${org} approved the registration of ${team} for ${ev}.`, `Projects are due by ${at(c.event.submission_deadline)}.`],
            link: eventLink,
          };
    case 'registration_rejected': {
      const reason = clean(d.reason, 2000).trim();
      return zh
        ? {
            subject: `${ev}：「${team}」的报名未通过`,
            lines: [`${org} 未通过「${team}」参加 ${ev} 的报名。`, reason ? `原因：${reason}` : '主办方没有说明原因。'],
            link: eventLink,
          }
        : {
            subject: `${ev}: ${team} was not approved`,
            lines: [`${org} did not approve the registration of ${team} for ${ev}.`, reason ? `Reason: ${reason}` : 'The organizers gave no reason.'],
            link: eventLink,
          };
    }
    case 'team_member_joined': {
      const who = oneLine(d.member_name) || (zh ? '一位新成员' : 'A new member');
      return zh
        ? { subject: `${ev}：${who} 加入了「${team}」`, lines: [`${who} 加入了你在 ${ev} 的团队「${team}」。`], link: eventLink }
        : { subject: `${ev}: ${who} joined ${team}`, lines: [`${who} joined your team ${team} in ${ev}.`], link: eventLink };
    }
    case 'team_member_left': {
      const who = oneLine(d.member_name) || (zh ? '一位成员' : 'A member');
      const removed = d.removed === true;
      return zh
        ? {
            subject: `${ev}：${who} ${removed ? '已被移出' : '离开了'}「${team}」`,
            lines: [removed ? `${who} 已被队长移出你在 ${ev} 的团队「${team}」。` : `${who} 离开了你在 ${ev} 的团队「${team}」。`],
            link: eventLink,
          }
        : {
            subject: `${ev}: ${who} ${removed ? 'was removed from' : 'left'} ${team}`,
            lines: [removed ? `The team leader removed ${who} from your team ${team} in ${ev}.` : `${who} left your team ${team} in ${ev}.`],
            link: eventLink,
          };
    }
    case 'results_published': {
      const rank = typeof d.rank === 'number' ? d.rank : null;
      // Shown as the web shows it: at most two decimals (7.9167 reads 7.92, 7.5 stays 7.5).
      const score = typeof d.score === 'number' ? String(Math.round(d.score * 100) / 100) : null;
      const trackRank = typeof d.track_rank === 'number' ? d.track_rank : null;
      const track = oneLine(d.track_name);
      const prize = oneLine(d.track_prize, 500);
      // A track's winner reads as the winner of its track first, the overall place beside it.
      const wonTrack = trackRank === 1 && track !== '' && rank !== null;
      const lines: string[] = [];
      if (zh) {
        if (wonTrack) {
          lines.push(`${ev} 的结果已公布：「${team}」获得赛道「${track}」第 1 名${prize ? `（奖品：${prize}）` : ''}。`);
          lines.push(`总排名：第 ${rank} 名。`);
        } else lines.push(rank === null ? `${ev} 的结果已公布。「${team}」未进入排名。` : `${ev} 的结果已公布：「${team}」获得第 ${rank} 名。`);
        if (score !== null) lines.push(`得分：${score}`);
        if (!wonTrack && trackRank !== null && track) lines.push(`在赛道「${track}」中排名第 ${trackRank}。`);
        return { subject: `${ev}：结果已公布`, lines, link: { label: '查看结果', url: `${eventUrl(c.event.id)}/result` } };
      }
      if (wonTrack) {
        lines.push(`The results of ${ev} are out: ${team} placed 1st in ${track}${prize ? ` (prize ${prize})` : ''}.`);
        lines.push(`Overall: ${ordinal(rank)}.`);
      } else lines.push(rank === null ? `The results of ${ev} are out. ${team} is not ranked.` : `The results of ${ev} are out: ${team} placed #${rank}.`);
      if (score !== null) lines.push(`Score: ${score}`);
      if (!wonTrack && trackRank !== null && track) lines.push(`In the track ${track}: #${trackRank}.`);
      return { subject: `${ev}: results are out`, lines, link: { label: 'See the results', url: `${eventUrl(c.event.id)}/result` } };
    }
    case 'reviewer_reminder': {
      const open = typeof d.open_reviews === 'number' ? d.open_reviews : 0;
      const queue = { label: zh ? '打开评审列表' : 'Open your review queue', url: `${PUBLIC_URL_MARK}/reviews/${encodeURIComponent(c.event.id)}` };
      return zh
        ? {
            subject: `${ev}：还有 ${open} 个作品等你评审`,
            lines: [`${org} 提醒你：在 ${ev} 中还有 ${open} 个作品等你评审。`, '评审在主办方公布结果前开放。'],
            link: queue,
          }
        : {
            subject: `${ev}: ${open} ${open === 1 ? 'project is' : 'projects are'} waiting for your review`,
            lines: [
              `${org} ${c.organizerName ? 'reminds' : 'remind'} you: ${open} ${open === 1 ? 'project' : 'projects'} in ${ev} still ${open === 1 ? 'waits' : 'wait'} for your review.`,
              'Reviews are open until the organizers publish the results.',
            ],
            link: queue,
          };
    }
    case 'join_request_received': {
      const who = oneLine(d.requester_name) || (zh ? '一位参赛者' : 'Someone');
      const message = clean(d.message, 500).trim();
      const skills = Array.isArray(d.skills)
        ? d.skills
            .map((x) => oneLine(x, 32))
            .filter(Boolean)
            .slice(0, 10)
        : [];
      const teamPage = { label: zh ? '查看申请' : 'Review the request', url: `${eventUrl(c.event.id)}/team` };
      return zh
        ? {
            subject: `${ev}：${who} 申请加入「${team}」`,
            lines: [
              `${who} 申请加入你在 ${ev} 的团队「${team}」。`,
              ...(skills.length ? [`技能：${skills.join('、')}`] : []),
              ...(message ? [`留言：${message}`] : []),
              '在团队页面接受或拒绝。',
            ],
            link: teamPage,
          }
        : {
            subject: `${ev}: ${who} asks to join ${team}`,
            lines: [
              `${who} asks to join your team ${team} in ${ev}.`,
              ...(skills.length ? [`Skills: ${skills.join(', ')}`] : []),
              ...(message ? [`Message: ${message}`] : []),
              'Accept or decline it on the team page.',
            ],
            link: teamPage,
          };
    }
    case 'join_request_accepted': {
      const teamPage = { label: zh ? '打开团队页面' : 'Open the team page', url: `${eventUrl(c.event.id)}/team` };
      return zh
        ? { subject: `${ev}：你已加入「${team}」`, lines: [`「${team}」的队长接受了你的申请：你现在是 ${ev} 中该团队的成员。`], link: teamPage }
        : {
            subject: `${ev}: you joined ${team}`,
            lines: [`The leader of ${team} accepted your request: you are now a member of the team in ${ev}.`],
            link: teamPage,
          };
    }
    case 'join_request_declined':
      return zh
        ? { subject: `${ev}：「${team}」未接受你的申请`, lines: [`「${team}」的队长未接受你加入的申请。你仍可在 ${ev} 中寻找其他团队。`], link: eventLink }
        : {
            subject: `${ev}: ${team} declined your request`,
            lines: [`The leader of ${team} declined your request to join. You can still find another team in ${ev}.`],
            link: eventLink,
          };
    case 'announcement': {
      const title = oneLine(d.title, 120) || (zh ? '通知' : 'Update');
      const markdown = clean(d.body, 10_000).trim();
      const due =
        d.deadline === true ? [zh ? `作品提交截止时间：${at(c.event.submission_deadline)}。` : `Projects are due by ${at(c.event.submission_deadline)}.`] : [];
      return zh
        ? { subject: `${ev}：${title}`, lines: [`${org} 发布了 ${ev} 的通知：「${title}」`], markdown, link: eventLink, ...(due.length ? { after: due } : {}) }
        : {
            subject: `${ev}: ${title}`,
            lines: [`${org} posted an update for ${ev}: ${title}`],
            markdown,
            link: eventLink,
            ...(due.length ? { after: due } : {}),
          };
    }
    case 'team_invitation': {
      const inviter = oneLine(d.inviter_name) || (zh ? '一位队长' : 'A team leader');
      const url = clean(d.join_url, 1000).replace(/\s/g, '');
      const expires = typeof d.expires_at === 'string' ? at(d.expires_at) : null;
      return zh
        ? {
            subject: `${inviter} 邀请你加入 ${ev} 的「${team}」`,
            lines: [`${inviter} 邀请你加入 ${ev} 的团队「${team}」。`, ...(expires ? [`邀请在 ${expires} 失效。`] : [])],
            link: { label: '加入团队', url },
            ...about(`关于 ${ev}`),
          }
        : {
            subject: `${inviter} invites you to join ${team} in ${ev}`,
            lines: [`${inviter} invites you to join the team ${team} in ${ev}.`, ...(expires ? [`The invitation expires ${expires}.`] : [])],
            link: { label: 'Join the team', url },
            ...about(`About ${ev}`),
          };
    }
  }
}

/** 1st, 2nd, 3rd, 4th, …, 11th, 12th, 13th, 21st. */
function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

function footer(c: MailContext): string {
  const settings = `${PUBLIC_URL_MARK}/account`;
  if (switchFor(c.kind) === null) return c.language === 'zh' ? `这封邮件由 ${SITE_NAME_MARK} 发送。` : `This mail was sent by ${SITE_NAME_MARK}.`;
  return c.language === 'zh'
    ? `这封邮件由 ${SITE_NAME_MARK} 发送。可在账户设置中关闭此类邮件：${settings}`
    : `This mail was sent by ${SITE_NAME_MARK}. You can turn this kind of mail off in your account settings: ${settings}`;
}

/** Renders one notification mail. */
export function renderNotification(c: MailContext): RenderedMail {
  const p = parts(c);
  const foot = footer(c);
  const aboutText = p.about ? [p.about.heading, markdownText(p.about.markdown, ABOUT_TEXT_LIMIT)] : [];
  const text = [
    ...p.lines,
    ...(p.markdown ? [markdownPlain(p.markdown)] : []),
    ...(p.after ?? []),
    ...(p.link ? [`${p.link.label}: ${p.link.url}`] : []),
    ...aboutText,
    '',
    '--',
    foot,
  ]
    .join('\n\n')
    .replace(/\n\n--\n\n/, '\n--\n');
  const footHtml = escapeHtml(foot).replace(
    escapeHtml(`${PUBLIC_URL_MARK}/account`),
    `<a href="${escapeHtml(`${PUBLIC_URL_MARK}/account`)}">${escapeHtml(`${PUBLIC_URL_MARK}/account`)}</a>`,
  );
  const html = [
    `<!doctype html><html lang="${c.language === 'zh' ? 'zh-CN' : 'en'}"><body style="font-family:sans-serif;line-height:1.5">`,
    SITE_LOGO_MARK,
    ...p.lines.map((l) => `<p>${escapeHtml(l).replace(/\n/g, '<br>')}</p>`),
    ...(p.markdown ? [`<div>${renderMarkdownCached(p.markdown)}</div>`] : []),
    ...(p.after ?? []).map((l) => `<p>${escapeHtml(l)}</p>`),
    ...(p.link ? [`<p><a href="${escapeHtml(p.link.url)}">${escapeHtml(p.link.label)}</a></p>`] : []),
    ...(p.about ? [`<h2 style="font-size:1.1em">${escapeHtml(p.about.heading)}</h2>`, `<div>${renderMarkdownCached(p.about.markdown)}</div>`] : []),
    `<hr><p style="color:#555;font-size:smaller">${footHtml}</p>`,
    '</body></html>',
  ].join('\n');
  // Every subject names the site (SITE_NAME, put in at sending), so a mail is known at a glance.
  const subject = c.language === 'zh' ? `【${SITE_NAME_MARK}】${oneLine(p.subject, 250)}` : `[${SITE_NAME_MARK}] ${oneLine(p.subject, 250)}`;
  return { subject, text, html };
}
