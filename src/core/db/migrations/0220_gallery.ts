import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // When an event's projects become public in its gallery: after the submission deadline (the
    // default), after the results are published, or never.
    await db.schema
      .alterTable('events')
      .addColumn('gallery_visibility', 'text', (c) => c.notNull().defaultTo('after_deadline'))
      .execute();
    // The gallery lists an event's projects in creation order, filtered by track.
    await db.schema.createIndex('projects_event_track_idx').on('projects').columns(['event_id', 'track_id', 'id']).execute();
  },
};
