import { newId } from '../../src/core/ids.js';
import { T0, type TestApp } from './harness.js';

/**
 * Inserts approved registrations and submitted projects straight into the database (fast, for
 * ranking tests), each scored project with one succeeded human review giving `score` to the
 * dimensions impact and craft. First submissions are T0 + i seconds, in seeding order (the
 * ranking's tie-breaker). Returns the project ids in seeding order.
 */
export async function seedProjects(t: TestApp, eventId: string, specs: ReadonlyArray<{ track: string | null; score: number | null }>): Promise<string[]> {
  const db = t.ctx.db;
  const now = t.clock.now().toISOString();
  const ids: string[] = [];
  const chunk = 200;
  for (let start = 0; start < specs.length; start += chunk) {
    const part = specs.slice(start, start + chunk).map((s, j) => ({ ...s, i: start + j, user: newId('usr'), reg: newId('reg'), prj: newId('prj') }));
    await db
      .insertInto('users')
      .values(part.map((p) => ({ id: p.user, email: `${p.user}@example.com`, password_hash: null, role: 'user' as const, created_at: now, updated_at: now })))
      .execute();
    await db
      .insertInto('registrations')
      .values(
        part.map((p) => ({
          id: p.reg,
          event_id: eventId,
          user_id: p.user,
          team_name: `Team ${p.i}`,
          team_name_key: `team ${p.i}`,
          track_id: p.track,
          contact_email: `${p.user}@example.com`,
          github_url: null,
          fields: '{}',
          status: 'approved' as const,
          reason: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    await db
      .insertInto('projects')
      .values(
        part.map((p) => ({
          id: p.prj,
          event_id: eventId,
          registration_id: p.reg,
          project_name: `Project ${p.i}`,
          description: null,
          github_url: 'https://github.com/example/x',
          project_website: null,
          demo_video_url: null,
          team_size: null,
          track_id: p.track,
          status: 'submitted' as const,
          review_status: 'pending' as const,
          // Distinct, in seeding order: the tie-breaker.
          first_submitted_at: new Date(T0.getTime() + p.i * 1000).toISOString(),
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    const reviewed = part.filter((p) => p.score !== null);
    if (reviewed.length) {
      await db
        .insertInto('reviews')
        .values(
          reviewed.map((p) => ({
            id: newId('rev'),
            event_id: eventId,
            project_id: p.prj,
            reviewer_kind: 'human' as const,
            reviewer: 'usr_judge',
            group_key: 'human',
            status: 'succeeded' as const,
            scores: JSON.stringify({ impact: p.score, craft: p.score }),
            attempts: 1,
            created_at: now,
            updated_at: now,
            completed_at: now,
          })),
        )
        .execute();
    }
    ids.push(...part.map((p) => p.prj));
  }
  return ids;
}
