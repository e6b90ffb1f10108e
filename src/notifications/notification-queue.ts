import type { Executor } from '../core/db/index.js';
import { newId } from '../core/ids.js';
import { iso } from '../core/time.js';
import { canonicalTimeZone } from '../events/event-config.js';
import { renderNotification, switchFor, type MailLanguage, type NotificationKind } from './notification-mail.js';

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
  const event = await tx
    .selectFrom('events')
    .leftJoin('users as o', 'o.id', 'events.created_by')
    .select(['events.id', 'events.name', 'events.submission_deadline', 'events.registration_deadline', 'o.name as organizer_name'])
    .where('events.id', '=', n.eventId)
    .executeTakeFirst();
  if (!event) return 0;
  const columns = ['id', 'email', 'language', 'time_zone', 'notify_registration', 'notify_team', 'notify_results', 'disabled_at'] as const;
  const userIds = [...new Set(n.recipients.flatMap((r) => ('userId' in r ? [r.userId] : [])))];
  const emails = [...new Set(n.recipients.flatMap((r) => ('email' in r ? [r.email.trim().toLowerCase()] : [])))].filter(Boolean);
  const people: Person[] = [];
  if (userIds.length) people.push(...(await tx.selectFrom('users').select(columns).where('id', 'in', userIds).execute()));
  if (emails.length) {
    const known = await tx.selectFrom('users').select(columns).where('email', 'in', emails).execute();
    for (const email of emails) {
      const user = known.find((u) => u.email.toLowerCase() === email);
      people.push(user ?? { id: null, email, language: null, time_zone: null, notify_registration: 1, notify_team: 1, notify_results: 1, disabled_at: null });
    }
  }
  const which = switchFor(n.kind);
  const seen = new Set<string>();
  const now = n.now ?? new Date();
  const stamp = iso(now);
  const rows = [];
  for (const p of people) {
    const address = p.email.toLowerCase();
    if (seen.has(address)) continue;
    seen.add(address);
    if (p.disabled_at) continue;
    if (which === 'registration' && !p.notify_registration) continue;
    if (which === 'team' && !p.notify_team) continue;
    if (which === 'results' && !p.notify_results) continue;
    const language = mailLanguage(p.language);
    const mail = renderNotification({
      kind: n.kind,
      language,
      timeZone: mailTimeZone(p.time_zone),
      event,
      organizerName: event.organizer_name?.trim() || null,
      data: n.data,
    });
    rows.push({
      id: newId('mql', now.getTime()),
      kind: n.kind,
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
    });
  }
  // In chunks: SQLite limits the bound parameters of one statement.
  for (let i = 0; i < rows.length; i += 50)
    await tx
      .insertInto('mail_queue')
      .values(rows.slice(i, i + 50))
      .execute();
  return rows.length;
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
  const event = await tx
    .selectFrom('events')
    .leftJoin('users as o', 'o.id', 'events.created_by')
    .select(['events.id', 'events.name', 'events.submission_deadline', 'events.registration_deadline', 'o.name as organizer_name'])
    .where('events.id', '=', n.eventId)
    .executeTakeFirst();
  if (!event) return 0;
  const columns = ['id', 'email', 'language', 'time_zone', 'notify_registration', 'notify_team', 'notify_results', 'disabled_at'] as const;
  const people = new Map<string, Person>();
  for (let i = 0; i < wanted.length; i += BATCH_USERS) {
    const rows = await tx
      .selectFrom('users')
      .select(columns)
      .where('id', 'in', wanted.slice(i, i + BATCH_USERS))
      .execute();
    for (const p of rows) people.set(p.id, p);
  }
  const which = switchFor(n.kind);
  const now = n.now ?? new Date();
  const stamp = iso(now);
  const organizerName = event.organizer_name?.trim() || null;
  const rows = [];
  for (const g of n.groups) {
    const seen = new Set<string>();
    for (const id of g.userIds) {
      const p = people.get(id);
      if (!p || p.disabled_at) continue;
      const address = p.email.toLowerCase();
      if (seen.has(address)) continue;
      seen.add(address);
      if (which === 'registration' && !p.notify_registration) continue;
      if (which === 'team' && !p.notify_team) continue;
      if (which === 'results' && !p.notify_results) continue;
      const language = mailLanguage(p.language);
      const mail = renderNotification({ kind: n.kind, language, timeZone: mailTimeZone(p.time_zone), event, organizerName, data: g.data });
      rows.push({
        id: newId('mql', now.getTime()),
        kind: n.kind,
        event_id: event.id,
        user_id: p.id,
        to_address: p.email,
        language,
        subject: mail.subject,
        text_body: mail.text,
        html_body: mail.html,
        status: 'queued' as const,
        next_attempt_at: DUE_AT_ONCE,
        give_up_at: null,
        lease_owner: null,
        lease_expires_at: null,
        last_error: null,
        created_at: stamp,
        updated_at: stamp,
        sent_at: null,
      });
    }
  }
  for (let i = 0; i < rows.length; i += 50)
    await tx
      .insertInto('mail_queue')
      .values(rows.slice(i, i + 50))
      .execute();
  return rows.length;
}
