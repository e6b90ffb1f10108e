import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // GET /events pages are keyset queries per stored status (events-repo listPublicEventIds):
    // status = ? AND id < ? ORDER BY id DESC, plus a deadline test for open and active events
    // (their effective status depends on the clock). Carrying both deadlines in the index lets
    // that test run on index entries alone; it supersedes (status, id).
    await db.schema
      .createIndex('events_status_id_deadlines_idx')
      .on('events')
      .columns(['status', 'id', 'registration_deadline', 'submission_deadline'])
      .execute();
    await db.schema.dropIndex('events_status_idx').execute();
  },
};
