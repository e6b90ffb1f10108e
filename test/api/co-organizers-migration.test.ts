import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/db/index.js';
import { migrateTo } from '../../src/core/db/migrations.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';

/** Co-organizers stored by account before migration 0213 are kept, by the e-mail address of their account. */
describe.each(DIALECTS)('co-organizers named before migration 0213 (%s)', (dialect) => {
  let db: TestDatabase;
  let t: TestApp;
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    const handle = openDatabase(db.config);
    await migrateTo(handle.db, '0212_signup_requests');
    const now = '2030-01-01T12:00:00.000Z';
    for (const [id, email, role] of [
      ['usr_o', 'o@example.com', 'organizer'],
      ['usr_co', 'co@example.com', 'user'],
    ] as const) {
      await handle.db.insertInto('users').values({ id, email, password_hash: null, role, created_at: now, updated_at: now }).execute();
    }
    await handle.db
      .insertInto('events')
      .values({
        id: 'evt_old',
        name: 'Old',
        description: '',
        status: 'open',
        registration_deadline: '2030-02-01T12:00:00.000Z',
        submission_deadline: '2030-02-02T12:00:00.000Z',
        result_announced_at: null,
        tracks: '[]',
        dimensions: JSON.stringify([{ name: 'impact', weight: 1 }]),
        models: '[]',
        registration_open: 1,
        auto_approve: 1,
        form_fields: '[]',
        created_by: 'usr_o',
        created_at: now,
        updated_at: now,
      })
      .execute();
    await handle.db
      .insertInto('event_organizers')
      .values([
        { event_id: 'evt_old', user_id: 'usr_o', created_at: now },
        { event_id: 'evt_old', user_id: 'usr_co', created_at: now },
      ])
      .execute();
    await handle.close();
    t = await startTestApp(dialect, { database: db });
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('keeps the co-organizer, now by address: the event shows it and the account still organizes the event', async () => {
    const owner = (await t.ctx.accounts.createKey('usr_o')).key;
    const co = (await t.ctx.accounts.createKey('usr_co')).key;
    const asOwner = await t.api('GET', '/events/evt_old', { key: owner });
    expect(asOwner.body.co_organizers).toEqual(['co@example.com']);
    const edit = await t.api('PATCH', '/events/evt_old', { key: co, body: { description: 'by the co-organizer' } });
    expect(edit.status).toBe(200);
    const mine = await t.api('GET', '/events?mine=true', { key: co });
    expect(mine.body.map((e: { id: string }) => e.id)).toEqual(['evt_old']);
    const rows = await t.ctx.db.selectFrom('event_organizers').select('user_id').where('event_id', '=', 'evt_old').execute();
    expect(rows).toEqual([{ user_id: 'usr_o' }]);
  });
});
