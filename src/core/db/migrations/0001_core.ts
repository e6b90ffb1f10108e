import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('users_email_uq', ['email'])
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('prefix', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text')
      .addColumn('revoked_at', 'text')
      .addColumn('last_used_at', 'text')
      .addUniqueConstraint('api_keys_hash_uq', ['key_hash'])
      .execute();
    await db.schema.createIndex('api_keys_user_idx').on('api_keys').column('user_id').execute();

    await db.schema
      .createTable('events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('registration_deadline', 'text', (c) => c.notNull())
      .addColumn('submission_deadline', 'text', (c) => c.notNull())
      .addColumn('result_announced_at', 'text')
      .addColumn('tracks', 'text', (c) => c.notNull())
      .addColumn('dimensions', 'text', (c) => c.notNull())
      .addColumn('models', 'text', (c) => c.notNull())
      .addColumn('registration_open', 'integer', (c) => c.notNull())
      .addColumn('auto_approve', 'integer', (c) => c.notNull())
      .addColumn('form_fields', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('events_status_idx').on('events').columns(['status', 'id']).execute();

    await db.schema
      .createTable('event_organizers')
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('event_organizers_pk', ['event_id', 'user_id'])
      .execute();
    await db.schema.createIndex('event_organizers_user_idx').on('event_organizers').column('user_id').execute();

    await db.schema
      .createTable('registrations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('team_name', 'text', (c) => c.notNull())
      .addColumn('team_name_key', 'text', (c) => c.notNull())
      .addColumn('track_id', 'text')
      .addColumn('contact_email', 'text', (c) => c.notNull())
      .addColumn('github_url', 'text')
      .addColumn('fields', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('registrations_event_user_uq', ['event_id', 'user_id'])
      .addUniqueConstraint('registrations_event_team_uq', ['event_id', 'team_name_key'])
      .execute();
    await db.schema.createIndex('registrations_event_status_idx').on('registrations').columns(['event_id', 'status']).execute();

    await db.schema
      .createTable('projects')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('registration_id', 'text', (c) => c.notNull().references('registrations.id').onDelete('cascade'))
      .addColumn('project_name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('github_url', 'text', (c) => c.notNull())
      .addColumn('project_website', 'text')
      .addColumn('demo_video_url', 'text')
      .addColumn('team_size', 'integer')
      .addColumn('track_id', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('review_status', 'text', (c) => c.notNull())
      .addColumn('first_submitted_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('projects_registration_uq', ['registration_id'])
      .execute();
    await db.schema.createIndex('projects_event_idx').on('projects').columns(['event_id', 'id']).execute();
  },
};
