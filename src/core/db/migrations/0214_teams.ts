import { sql, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // A registration belongs to a team: its members, one of whom (registrations.user_id) leads.
    // A person is in at most one team per event (team_members_event_user_uq); member_count is kept
    // by the same transaction as every member insert/delete, so the maximum holds under concurrency.
    await db.schema
      .createTable('team_members')
      .addColumn('registration_id', 'text', (c) => c.notNull().references('registrations.id').onDelete('cascade'))
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('joined_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('team_members_pkey', ['registration_id', 'user_id'])
      .addUniqueConstraint('team_members_event_user_uq', ['event_id', 'user_id'])
      .execute();
    await db.schema.createIndex('team_members_user_idx').on('team_members').columns(['user_id', 'event_id']).execute();
    await db.schema
      .alterTable('registrations')
      .addColumn('member_count', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await sql`insert into team_members (registration_id, event_id, user_id, role, joined_at)
      select id, event_id, user_id, 'leader', created_at from registrations`.execute(db);
    // Join codes: random, stored as sha256, shown once; expiring and revocable.
    await db.schema
      .createTable('team_invitations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('registration_id', 'text', (c) => c.notNull().references('registrations.id').onDelete('cascade'))
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .addUniqueConstraint('team_invitations_code_hash_uq', ['code_hash'])
      .execute();
    await db.schema.createIndex('team_invitations_registration_idx').on('team_invitations').columns(['registration_id', 'id']).execute();
    // Who last wrote the project (null for rows written before teams).
    await db.schema.alterTable('projects').addColumn('updated_by_user_id', 'text').execute();
    // The organizer's team-size limits (null: no limit).
    await db.schema.alterTable('events').addColumn('max_team_size', 'integer').execute();
    await db.schema.alterTable('events').addColumn('min_team_size', 'integer').execute();
  },
};
