import { sql, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // Co-organizers are named by e-mail address, whether or not it has an account yet (naming one
    // must not tell whether the address has an account); event_organizers keeps the creators.
    await db.schema
      .createTable('event_co_organizers')
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('event_co_organizers_pkey', ['event_id', 'email'])
      .execute();
    await db.schema.createIndex('event_co_organizers_email_idx').on('event_co_organizers').column('email').execute();
    await sql`insert into event_co_organizers (event_id, email, created_at)
      select o.event_id, u.email, o.created_at from event_organizers o
      join users u on u.id = o.user_id join events e on e.id = o.event_id
      where o.user_id <> e.created_by`.execute(db);
    await sql`delete from event_organizers where user_id <> (select e.created_by from events e where e.id = event_organizers.event_id)`.execute(db);
  },
};
