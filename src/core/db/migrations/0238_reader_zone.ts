import type { Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // The time zone a browser sent at sign-up, kept with the pending sign-up so that the account it
    // makes reads its mails in local time (users.time_zone exists since 0216).
    await db.schema.alterTable('signup_requests').addColumn('time_zone', 'text').execute();
    // The reviewer's name as the organizer gave it, and the language of the invitation mail: an
    // invited person has no settings yet, so the organizer's choice decides (the invitee's account
    // takes the name when it has none).
    await db.schema.alterTable('reviewer_invitations').addColumn('name', 'text').execute();
    await db.schema.alterTable('reviewer_invitations').addColumn('language', 'text').execute();
  },
};
