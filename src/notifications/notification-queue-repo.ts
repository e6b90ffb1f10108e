import type { Insertable } from 'kysely';
import type { Executor } from '../core/db/index.js';
import type { MailQueueTable } from '../core/db/schema.js';

/** The columns of a user that decide whether and how a mail reaches them. */
const PERSON_COLUMNS = ['id', 'email', 'language', 'time_zone', 'notify_registration', 'notify_team', 'notify_results', 'disabled_at'] as const;

/** What every mail of an event says about the event: its name, description, deadlines and organizer's display name (never the address). */
export async function eventForMail(db: Executor, eventId: string) {
  return db
    .selectFrom('events')
    .leftJoin('users as o', 'o.id', 'events.created_by')
    .select(['events.id', 'events.name', 'events.description', 'events.submission_deadline', 'events.registration_deadline', 'o.name as organizer_name'])
    .where('events.id', '=', eventId)
    .executeTakeFirst();
}

/** The users with these ids, as the mail rules read them (PERSON_COLUMNS); one query. */
export async function peopleByIds(db: Executor, ids: readonly string[]) {
  return db.selectFrom('users').select(PERSON_COLUMNS).where('id', 'in', ids).execute();
}

/** The users with these addresses (lower-case), as the mail rules read them (PERSON_COLUMNS); one query. */
export async function peopleByEmails(db: Executor, emails: readonly string[]) {
  return db.selectFrom('users').select(PERSON_COLUMNS).where('email', 'in', emails).execute();
}

/** Inserts queued mails in chunks of 50 (SQLite limits the bound parameters of one statement); returns how many. */
export async function insertMails(db: Executor, rows: ReadonlyArray<Insertable<MailQueueTable>>): Promise<number> {
  for (let i = 0; i < rows.length; i += 50)
    await db
      .insertInto('mail_queue')
      .values(rows.slice(i, i + 50))
      .execute();
  return rows.length;
}
