import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // A person's language ('en' | 'zh', null = en) and IANA time zone (null = UTC) for mails, and
    // one switch per kind of notification mail (1 = send).
    await db.schema.alterTable('users').addColumn('language', 'text').execute();
    await db.schema.alterTable('users').addColumn('time_zone', 'text').execute();
    for (const column of ['notify_registration', 'notify_team', 'notify_results'])
      await db.schema
        .alterTable('users')
        .addColumn(column, 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
    // The language asked for at sign-up, kept until the link makes the account.
    await db.schema.alterTable('signup_requests').addColumn('language', 'text').execute();
  },
};
