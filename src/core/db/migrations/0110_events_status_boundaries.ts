import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // GET /events remembers a filtered page until the next deadline at which some event's
    // effective status changes: the earliest future deadline per stored status, one index seek each.
    await db.schema.createIndex('events_status_registration_deadline_idx').on('events').columns(['status', 'registration_deadline']).execute();
    await db.schema.createIndex('events_status_submission_deadline_idx').on('events').columns(['status', 'submission_deadline']).execute();
  },
};
