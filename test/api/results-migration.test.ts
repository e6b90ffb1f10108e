import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/db/index.js';
import { migrateTo } from '../../src/core/db/migrations.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';

/**
 * A result published before migration 0106 (stored as one JSON array) is moved into per-entry rows:
 * the same bytes, the same tag, track ranks derived as they were (ties kept), pages available.
 */
const ENTRIES = [
  {
    rank: 1,
    project_id: 'prj_a',
    project_name: 'A "quoted"',
    team_name: 'Team A',
    track_id: 'tools',
    score: 7.5,
    scores_by_model: { 'openai/x': 7.5 },
    scores_by_dimension: { impact: 7.5 },
  },
  {
    rank: 1,
    project_id: 'prj_b',
    project_name: 'B',
    team_name: 'Team B',
    track_id: 'fun',
    score: 7.5,
    scores_by_model: { human: 7.5 },
    scores_by_dimension: { impact: 7.5 },
  },
  { rank: 3, project_id: 'prj_c', project_name: 'C', team_name: 'Team C', track_id: 'tools', score: 0, scores_by_model: {}, scores_by_dimension: {} },
  { rank: 4, project_id: 'prj_d', project_name: 'D', team_name: 'Team D', track_id: null, score: 0.1234, scores_by_model: {}, scores_by_dimension: {} },
];

describe.each(DIALECTS)('results published before migration 0106 (%s)', (dialect) => {
  let db: TestDatabase;
  let t: TestApp;
  const json = JSON.stringify(ENTRIES);
  const tag = createHash('sha256').update(json).digest('base64url');
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    const handle = openDatabase(db.config);
    await migrateTo(handle.db, '0004_results_ranking_index');
    const now = '2030-01-01T12:00:00.000Z';
    await handle.db
      .insertInto('users')
      .values({ id: 'usr_o', email: 'o@example.com', password_hash: null, role: 'organizer', created_at: now, updated_at: now })
      .execute();
    await handle.db
      .insertInto('events')
      .values({
        id: 'evt_old',
        name: 'Old',
        description: '',
        status: 'ended',
        registration_deadline: '2029-12-01T12:00:00.000Z',
        submission_deadline: '2029-12-02T12:00:00.000Z',
        result_announced_at: now,
        tracks: JSON.stringify([
          { id: 'tools', name: 'Tools', prize: '' },
          { id: 'fun', name: 'Fun', prize: '' },
        ]),
        dimensions: JSON.stringify([{ name: 'impact', weight: 1 }]),
        models: '[]',
        registration_open: 1,
        auto_approve: 1,
        form_fields: '[]',
        created_by: 'usr_o',
        created_at: now,
        updated_at: now,
        judging_started_at: now,
      })
      .execute();
    await handle.db.insertInto('results').values({ event_id: 'evt_old', published_at: now, published_by: 'usr_o', entries: json, etag: tag }).execute();
    await handle.close();
    t = await startTestApp(dialect, { database: db });
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('serves the same bytes under the same tag, in pages, with track ranks as before', async () => {
    const res = await t.api('GET', '/events/evt_old/result');
    expect(res.status).toBe(200);
    expect(res.text).toBe(json);
    expect(res.headers.get('etag')).toBe(`"${tag}"`);
    expect((await t.api('GET', '/events/evt_old/result', { headers: { 'if-none-match': `"${tag}"` } })).status).toBe(304);

    const first = await t.api('GET', '/events/evt_old/result?limit=3');
    expect(first.body).toEqual(ENTRIES.slice(0, 3));
    const next = new URL(/^<([^>]+)>/.exec(first.headers.get('link')!)![1]!);
    const second = await t.request('GET', next.pathname + next.search);
    expect(second.body).toEqual(ENTRIES.slice(3));
    expect(second.headers.get('link')).toBeNull();

    const tools = await t.api('GET', '/events/evt_old/result?track_id=tools');
    expect(tools.body).toEqual([
      { ...ENTRIES[0], rank: 1 },
      { ...ENTRIES[2], rank: 2 },
    ]);
    const row = await t.ctx.db.selectFrom('results').select(['entries', 'etag']).where('event_id', '=', 'evt_old').executeTakeFirstOrThrow();
    expect(row).toEqual({ entries: '', etag: tag });
  });
});
