import { sql, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // Who left a team (or was removed from it): they may not vote for its project, and votes they
    // cast for it while or after being a member do not count in the people's choice.
    await db.schema
      .createTable('team_former_members')
      .addColumn('registration_id', 'text', (c) => c.notNull().references('registrations.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('left_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('team_former_members_pk', ['registration_id', 'user_id'])
      .execute();
    await sql`create index team_former_members_user_idx on team_former_members (user_id)`.execute(db);
  },
};
