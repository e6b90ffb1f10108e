import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    await db.schema.alterTable('events').addColumn('voting', 'text').execute();
    // An organizer can take a project out of the vote (it keeps its place in the judged ranking).
    await db.schema
      .alterTable('projects')
      .addColumn('vote_excluded', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // One row per vote. A person votes for a project once (votes_voter_project_uq), and holds at most
    // votes_per_person votes per track (or per event): each vote takes a numbered slot, and
    // votes_voter_slot_uq lets two votes at once never take the same one.
    await db.schema
      .createTable('votes')
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('slot', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('votes_voter_project_uq', ['event_id', 'user_id', 'project_id'])
      .addUniqueConstraint('votes_voter_slot_uq', ['event_id', 'user_id', 'scope', 'slot'])
      .execute();
    await db.schema.createIndex('votes_project_idx').on('votes').columns(['event_id', 'project_id']).execute();
    // The people's choice frozen at publication, beside the judged ranking.
    await db.schema
      .createTable('peoples_choice')
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('rank', 'integer', (c) => c.notNull())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('project_name', 'text', (c) => c.notNull())
      .addColumn('team_name', 'text', (c) => c.notNull())
      .addColumn('track_id', 'text')
      .addColumn('votes', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('peoples_choice_pk', ['event_id', 'position'])
      .execute();
  },
};
