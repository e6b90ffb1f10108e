import { sql } from 'kysely';
import { openDatabase } from '../../src/core/db/index.js';
import { migrateToLatest } from '../../src/core/db/migrations.js';
import { statusPredicate } from '../../src/events/events-repo.js';
import { createTestDatabase } from '../../test/helpers/databases.js';
for (const dialect of ['sqlite', 'postgres'] as const) {
  const t = await createTestDatabase(dialect);
  const h = openDatabase(t.config);
  const db = h.db;
  await migrateToLatest(db);
  const now = '2030-01-01T00:00:00.000Z';
  await db.insertInto('users').values({ id: 'u1', email: 'a@b', password_hash: null, role: 'organizer', created_at: now, updated_at: now } as any).execute();
  const st = ['open', 'active', 'judging', 'ended', 'cancelled', 'draft'];
  for (let b = 0; b < 20; b++) {
    const rows = [];
    for (let i = 0; i < 1000; i++) {
      const n = b * 1000 + i;
      rows.push({ id: `evt_${String(n).padStart(8, '0')}`, name: 'x', description: 'd'.repeat(1500), status: n % 50 === 0 ? 'open' : n % 50 === 1 ? 'active' : n % 50 === 2 ? 'judging' : 'ended', registration_deadline: n % 2 ? '2029-01-01T00:00:00.000Z' : '2031-01-01T00:00:00.000Z', submission_deadline: '2032-01-01T00:00:00.000Z', result_announced_at: null, tracks: '[]', dimensions: '[]', models: '[]', registration_open: 1, auto_approve: 0, form_fields: '[]', created_by: 'u1', created_at: now, updated_at: now });
    }
    await db.insertInto('events').values(rows as any).execute();
  }
  if (dialect === 'postgres') await sql`ANALYZE events`.execute(db); else await sql`ANALYZE`.execute(db);
  const cases: Array<[string, string[] | null]> = [['open', ['open']], ['active', ['active']], ['judging', ['judging']], ['ended', ['ended']]];
  for (const [s, statuses] of cases) {
    let q = db.selectFrom('events').select('id').where('status', '=', s as any);
    if (statuses && (s === 'open' || s === 'active')) q = q.where((eb) => eb.or(statuses.map((e) => statusPredicate(eb, e as any, now))));
    q = q.where('id', '<', 'evt_00015000').orderBy('id', 'desc').limit(51);
    const c = q.compile();
    const pre = dialect === 'postgres' ? 'EXPLAIN ' : 'EXPLAIN QUERY PLAN ';
    const r = await db.executeQuery({ ...c, sql: pre + c.sql } as any);
    console.log(dialect, s, c.sql);
    console.log(r.rows.map((x: any) => x['QUERY PLAN'] ?? x.detail).join('\n'));
  }
  await h.close(); await t.drop();
}
