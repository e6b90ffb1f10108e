import { SqliteAdapter, sql, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // Organizer lists page by keyset: each (filter, order) pair gets an index whose range is the
    // page, so a page costs the same at 100 rows as at 100,000.
    const idx = (name: string, table: string, columns: string[]) => db.schema.createIndex(name).on(table).columns(columns).execute();
    await idx('registrations_event_id_idx', 'registrations', ['event_id', 'id']);
    await idx('registrations_event_status_id_idx', 'registrations', ['event_id', 'status', 'id']);
    await idx('registrations_event_track_id_idx', 'registrations', ['event_id', 'track_id', 'id']);
    await idx('projects_event_submitted_idx', 'projects', ['event_id', 'first_submitted_at', 'id']);
    await idx('reviews_event_project_reviewer_idx', 'reviews', ['event_id', 'project_id', 'reviewer']);
    await idx('reviews_event_status_project_idx', 'reviews', ['event_id', 'status', 'project_id', 'reviewer']);
    // Counts a human reviewer's reviews in the reviewers list.
    await idx('reviews_event_kind_reviewer_idx', 'reviews', ['event_id', 'reviewer_kind', 'reviewer']);
    await idx('event_reviewers_event_created_idx', 'event_reviewers', ['event_id', 'created_at', 'user_id']);
    await db.schema
      .createIndex('reviewer_invitations_unused_idx')
      .on('reviewer_invitations')
      .columns(['event_id', 'id'])
      .where(sql.ref('accepted_at'), 'is', null)
      .execute();
    // The team-name search is a prefix range in code point order. SQLite's unique
    // (event_id, team_name_key) index already compares that way (BINARY); PostgreSQL's follows the
    // database collation, so it gets one in the "C" collation that the query asks for.
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
      await sql`create index registrations_event_team_c_idx on registrations (event_id, team_name_key collate "C")`.execute(db);
    }
  },
};
