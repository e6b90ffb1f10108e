import { sql, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // A person "looking for a team" in an event: one entry per person per event.
    await db.schema
      .createTable('team_seekers')
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('line', 'text', (c) => c.notNull())
      .addColumn('skills', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('team_seekers_pk', ['event_id', 'user_id'])
      .execute();
    // What a team is looking for: the skills it needs and a line; one row per registration.
    await db.schema
      .createTable('team_needs')
      .addColumn('registration_id', 'text', (c) => c.primaryKey().references('registrations.id').onDelete('cascade'))
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('line', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('skills', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await sql`create index team_needs_event_idx on team_needs (event_id)`.execute(db);
    // A person's request to join a team; the leader accepts or declines, the person may withdraw.
    await db.schema
      .createTable('team_join_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('registration_id', 'text', (c) => c.notNull().references('registrations.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('decided_at', 'text')
      .addColumn('decided_by', 'text')
      .execute();
    // At most one pending request per person per team.
    await sql`create unique index team_join_requests_pending_uq on team_join_requests (registration_id, user_id) where status = 'pending'`.execute(db);
    await sql`create index team_join_requests_event_user_idx on team_join_requests (event_id, user_id)`.execute(db);
  },
};
