import { sql, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // The refresh walks an event's stale standings in project-id order, a chunk at a time: the
    // index gives each chunk as a range instead of reading (and sorting) every stale row at once.
    await sql`drop index standings_stale_idx`.execute(db);
    await sql`create index standings_stale_idx on standings (event_id, stale, project_id)`.execute(db);
  },
};
