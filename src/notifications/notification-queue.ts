import type { Executor } from '../core/db/index.js';
import { newId } from '../core/ids.js';
import { iso } from '../core/time.js';
import { canonicalTimeZone } from '../events/event-config.js';
import { renderNotification, switchFor, type MailLanguage, type NotificationKind } from './notification-mail.js';
import { eventForMail, insertMails, peopleByEmails, peopleByIds } from './notification-queue-repo.js';

export type { NotificationKind } from './notification-mail.js';

/** Published (after the commit) by whoever queued mail, so the worker sends at once instead of at its next poll. */
export const MAIL_QUEUED = 'mail:queued';

/** The next_attempt_at of a fresh mail: before every instant. */
export const DUE_AT_ONCE = '1970-01-01T00:00:00.000Z';

export type NotificationRecipient = { userId: string } | { email: string };

export function mailLanguage(raw: string | null | undefined): MailLanguage {
  return raw === 'zh' ? 'zh' : 'en';
}

export function mailTimeZone(raw: string | null | undefined): string {
  return (raw && canonicalTimeZone(raw)) || 'UTC';
}

interface Person {
  id: string | null;
  email: string;
  language: string | null;
  time_zone: string | null;
  notify_registration: number;
  notify_team: number;
  notify_results: number;
  disabled_at: string | null;
}

type MailEvent = NonNullable<Awaited<ReturnType<typeof eventForMail>>>;

/** Whether a person gets this kind: an active account (or a bare address) that has not turned it off. */
function wants(p: Person, kind: NotificationKind): boolean {
  if (p.disabled_at) return false;
  const which = switchFor(kind);
  if (which === 'registration') return Boolean(p.notify_registration);
  if (which === 'team') return Boolean(p.notify_team);
  if (which === 'results') return Boolean(p.notify_results);
  return true;
}

/** One queued mail, rendered now in the person's language and time zone. */
function mailRow(p: Person, kind: NotificationKind, event: MailEvent, data: Record<string, unknown>, now: Date) {
  const language = mailLanguage(p.language);
  const mail = renderNotification({
    kind,
    language,
    timeZone: mailTimeZone(p.time_zone),
    event,
    organizerName: event.organizer_name?.trim() || null,
    data,
  });
  const stamp = iso(now);
  return {
    id: newId('mql', now.getTime()),
    kind,
    event_id: event.id,
    user_id: p.id,
    to_address: p.email,
    language,
    subject: mail.subject,
    text_body: mail.text,
    html_body: mail.html,
    status: 'queued' as const,
    // Due at once whatever the worker's clock says.
    next_attempt_at: DUE_AT_ONCE,
    give_up_at: null,
    lease_owner: null,
    lease_expires_at: null,
    last_error: null,
    created_at: stamp,
    updated_at: stamp,
    sent_at: null,
  };
}

/** One mail per address of `people` that wants this kind (a person named twice gets one). */
function rowsFor(people: Person[], kind: NotificationKind, event: MailEvent, data: Record<string, unknown>, now: Date) {
  const seen = new Set<string>();
  const rows: Array<ReturnType<typeof mailRow>> = [];
  for (const p of people) {
    const address = p.email.toLowerCase();
    if (seen.has(address)) continue;
    seen.add(address);
    if (wants(p, kind)) rows.push(mailRow(p, kind, event, data, now));
  }
  return rows;
}

/**
 * Queues one notification mail per recipient, rendered now in each recipient's language and time
 * zone, inside the caller's transaction (so the mail exists exactly when the change does, and a
 * crash never drops it). Skips people who turned this kind off, disabled accounts, and a recipient
 * named twice. The event's name, its organizer's display name and deadlines are read here. Returns
 * the number of mails queued. `data` per kind: see notification-mail.ts.
 */
export async function queueNotification(
  tx: Executor,
  n: { kind: NotificationKind; eventId: string; recipients: NotificationRecipient[]; data: Record<string, unknown>; now?: Date },
): Promise<number> {
  if (n.recipients.length === 0) return 0;
  const event = await eventForMail(tx, n.eventId);
  if (!event) return 0;
  const userIds = [...new Set(n.recipients.flatMap((r) => ('userId' in r ? [r.userId] : [])))];
  const emails = [...new Set(n.recipients.flatMap((r) => ('email' in r ? [r.email.trim().toLowerCase()] : [])))].filter(Boolean);
  const people: Person[] = [];
  if (userIds.length) people.push(...(await peopleByIds(tx, userIds)));
  if (emails.length) {
    const known = await peopleByEmails(tx, emails);
    for (const email of emails) {
      const user = known.find((u) => u.email.toLowerCase() === email);
      people.push(user ?? { id: null, email, language: null, time_zone: null, notify_registration: 1, notify_team: 1, notify_results: 1, disabled_at: null });
    }
  }
  return insertMails(tx, rowsFor(people, n.kind, event, n.data, n.now ?? new Date()));
}

/** Users read per query when a batch names many (bound parameters stay far below every limit). */
const BATCH_USERS = 500;

/**
 * Queues one kind of notification for many groups at once, each with its own data (e.g. every
 * member of every ranked team, each team's rank): the same rules as queueNotification (language,
 * zone, opt-outs, disabled accounts, one mail per address within a group), but one read of the
 * event, the users a few hundred at a time, and inserts in chunks, so thousands of groups cost a
 * few dozen queries instead of several per group. Users only (no bare addresses). Returns the
 * number of mails queued.
 */
export async function queueNotificationBatch(
  tx: Executor,
  n: { kind: NotificationKind; eventId: string; groups: Array<{ userIds: string[]; data: Record<string, unknown> }>; now?: Date },
): Promise<number> {
  const wanted = [...new Set(n.groups.flatMap((g) => g.userIds))];
  if (wanted.length === 0) return 0;
  const event = await eventForMail(tx, n.eventId);
  if (!event) return 0;
  const people = new Map<string, Person>();
  for (let i = 0; i < wanted.length; i += BATCH_USERS) {
    const rows = await peopleByIds(tx, wanted.slice(i, i + BATCH_USERS));
    for (const p of rows) people.set(p.id, p);
  }
  const now = n.now ?? new Date();
  const rows = n.groups.flatMap((g) =>
    rowsFor(
      g.userIds.flatMap((id) => people.get(id) ?? []),
      n.kind,
      event,
      g.data,
      now,
    ),
  );
  return insertMails(tx, rows);
}
