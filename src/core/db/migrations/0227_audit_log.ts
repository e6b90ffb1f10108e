import { SqliteAdapter, sql, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // The audit log: one row per organizer or admin action, written in the action's own
    // transaction. No foreign keys: the log outlives what it describes (a deleted user or event
    // keeps its history). Append-only: the code has no update or delete path, and triggers
    // refuse both on either database.
    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('event_id', 'text')
      .addColumn('actor_user_id', 'text')
      .addColumn('actor_label', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target_type', 'text', (c) => c.notNull())
      .addColumn('target_id', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    // Newest first, per event and over everything (admin): the keyset is (created_at, id).
    await sql`create index audit_log_event_idx on audit_log (event_id, created_at desc, id desc)`.execute(db);
    await sql`create index audit_log_created_idx on audit_log (created_at desc, id desc)`.execute(db);
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await sql`create trigger audit_log_no_update before update on audit_log begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
      await sql`create trigger audit_log_no_delete before delete on audit_log begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
    } else {
      await sql`create function audit_log_refuse() returns trigger language plpgsql as $$ begin raise exception 'audit_log is append-only'; end $$`.execute(db);
      await sql`create trigger audit_log_no_change before update or delete on audit_log for each row execute function audit_log_refuse()`.execute(db);
      await sql`create trigger audit_log_no_truncate before truncate on audit_log for each statement execute function audit_log_refuse()`.execute(db);
    }
  },
};
