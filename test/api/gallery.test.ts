import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { DIALECTS } from '../helpers/databases.js';
import { approvedTeam, createEvent, registrationBody, startTestApp, type TestApp } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

const HOUR = 3_600_000;

describe.each(DIALECTS)('project gallery (%s)', (dialect) => {
  let t: TestApp;
  let org: Awaited<ReturnType<typeof quickUser>>;
  let eventId: string;
  const projects: Record<string, string> = {};
  let rejectedProject: string;

  async function submit(key: string, body: Record<string, unknown>, event = eventId): Promise<string> {
    const res = await t.api<any>('POST', `/events/${event}/submit`, { key, body: { github_url: 'https://github.com/example/repo', ...body } });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  /** An event with teams in two tracks, one rejected after submitting, one still pending (no project). */
  async function populated(overrides: Record<string, unknown> = {}) {
    const id = await createEvent(t, org.key, { models: [], ...overrides });
    const made: Record<string, { key: string; project: string; registrationId: string }> = {};
    for (const [name, track, description] of [
      ['Alpha 100% Tools', 'tools', '# Alpha\n\nA **fast** tool: https://example.com/alpha'],
      ['beta bot', 'tools', 'Bots.'],
      ['Gamma Game', 'fun', ''],
    ] as const) {
      const { team, registrationId } = await approvedTeam(t, id, org.key, { team_name: `${name} team`, track_id: track });
      made[name] = { key: team.key, registrationId, project: await submit(team.key, { project_name: name, description }, id) };
    }
    return { id, made };
  }

  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { REVIEW_WORKERS: 'false' } });
    org = await quickUser(t, 'organizer');
    const { id, made } = await populated();
    eventId = id;
    for (const [name, m] of Object.entries(made)) projects[name] = m.project;
    // A team approved, submitting, then rejected: it takes no part and is not shown.
    const { team, registrationId } = await approvedTeam(t, eventId, org.key, { team_name: 'Dropped team' });
    rejectedProject = await submit(team.key, { project_name: 'Dropped' });
    expect((await t.api('POST', `/events/${eventId}/registrations/${registrationId}/reject`, { key: org.key, body: { reason: 'rules' } })).status).toBe(200);
    // A pending team (no project).
    const pending = await t.user();
    expect((await t.api('POST', `/events/${eventId}/register`, { key: pending.key, body: registrationBody() })).status).toBe(201);
  });
  afterAll(async () => t?.close());

  it('is closed to the public before the submission deadline (409 with when it opens) but open to the organizer', async () => {
    const res = await t.api<any>('GET', `/events/${eventId}/gallery`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('gallery_not_open');
    const event = await t.api<any>('GET', `/events/${eventId}`);
    expect(event.body.gallery_visibility).toBe('after_deadline');
    expect(res.body.opens_at).toBe(event.body.submission_deadline);
    const team = await t.api<any>('GET', `/events/${eventId}/gallery/${projects['beta bot']}`);
    expect(team.status).toBe(409);
    const preview = await t.api<any[]>('GET', `/events/${eventId}/gallery`, { key: org.key });
    expect(preview.status).toBe(200);
    expect(preview.body.map((p) => p.project_name)).toEqual(['Alpha 100% Tools', 'beta bot', 'Gamma Game']);
  });

  it('opens after the deadline: approved teams only, in submission order, filtered by track and by name, paged', async () => {
    t.clock.advance(3 * 24 * HOUR);
    const all = await t.api<any[]>('GET', `/events/${eventId}/gallery`);
    expect(all.status).toBe(200);
    expect(all.body.map((p) => p.project_name)).toEqual(['Alpha 100% Tools', 'beta bot', 'Gamma Game']);
    expect(all.body.map((p) => p.project_id)).not.toContain(rejectedProject);
    expect(all.body[0]).toEqual({
      project_id: projects['Alpha 100% Tools'],
      project_name: 'Alpha 100% Tools',
      team_name: 'Alpha 100% Tools team',
      track_id: 'tools',
      track_name: 'Developer tools',
      description_text: 'Alpha A fast tool: https://example.com/alpha',
      github_url: 'https://github.com/example/repo',
      project_website: null,
      demo_video_url: null,
      submitted_at: expect.any(String),
    });

    const fun = await t.api<any[]>('GET', `/events/${eventId}/gallery?track_id=fun`);
    expect(fun.body.map((p) => p.project_name)).toEqual(['Gamma Game']);
    const named = await t.api<any[]>('GET', `/events/${eventId}/gallery?q=BOT`);
    expect(named.body.map((p) => p.project_name)).toEqual(['beta bot']);
    // LIKE's wildcards are taken literally.
    expect((await t.api<any[]>('GET', `/events/${eventId}/gallery?q=100%25`)).body.map((p) => p.project_name)).toEqual(['Alpha 100% Tools']);
    expect((await t.api<any[]>('GET', `/events/${eventId}/gallery?q=a_p`)).body).toEqual([]);

    const first = await t.api<any[]>('GET', `/events/${eventId}/gallery?limit=2&track_id=tools`);
    expect(first.body.map((p) => p.project_name)).toEqual(['Alpha 100% Tools', 'beta bot']);
    expect(first.headers.get('link')).toBeNull();
    const page1 = await t.api<any[]>('GET', `/events/${eventId}/gallery?limit=2`);
    const next = /^<([^>]+)>; rel="next"$/.exec(page1.headers.get('link')!)![1]!;
    const page2 = await t.request<any[]>('GET', next.replace(t.config.publicUrl, ''));
    expect(page2.body.map((p) => p.project_name)).toEqual(['Gamma Game']);
    expect(page2.headers.get('link')).toBeNull();

    const unknownTrack = await t.api<any>('GET', `/events/${eventId}/gallery?track_id=nope`);
    expect(unknownTrack.status).toBe(422);
    expect(unknownTrack.body.errors[0].field).toBe('track_id');
  });

  it('serves a project page with the description rendered and the team by name, never a dropped project', async () => {
    const res = await t.api<any>('GET', `/events/${eventId}/gallery/${projects['Alpha 100% Tools']}`);
    expect(res.status).toBe(200);
    expect(res.body.description_html).toBe(
      '<h3>Alpha</h3>\n<p>A <strong>fast</strong> tool: <a href="https://example.com/alpha" rel="noopener nofollow ugc">https://example.com/alpha</a></p>',
    );
    expect(res.body.event_name).toBe('Agents Hack');
    expect(res.body.track_name).toBe('Developer tools');
    expect(res.body.result).toBeNull();
    expect(JSON.stringify(res.body)).not.toContain('@');
    const dropped = await t.api<any>('GET', `/events/${eventId}/gallery/${rejectedProject}`);
    expect(dropped.status).toBe(404);
    expect(dropped.body.code).toBe('project_not_found');
    const elsewhere = await t.api<any>('GET', `/events/${eventId}/gallery/prj_unknown`);
    expect(elsewhere.status).toBe(404);
  });

  it('keeps drafts hidden (404) and honours "never" and "after_results"', async () => {
    const draft = await createEvent(t, org.key, { status: 'draft' });
    expect((await t.api<any>('GET', `/events/${draft}/gallery`)).body.code).toBe('event_not_found');

    const never = await createEvent(t, org.key, { gallery_visibility: 'never' });
    t.clock.advance(3 * 24 * HOUR);
    const closed = await t.api<any>('GET', `/events/${never}/gallery`);
    expect(closed.status).toBe(409);
    expect(closed.body).toMatchObject({ code: 'gallery_not_open', opens_at: null, gallery_visibility: 'never' });
    expect((await t.api('GET', `/events/${never}/gallery`, { key: org.key })).status).toBe(200);

    const bad = await t.api<any>('PATCH', `/events/${never}`, { key: org.key, body: { gallery_visibility: 'sometimes' } });
    expect(bad.status).toBe(422);
  });

  it('after_results: opens at publication, and each project page shows its rank, score and its track prize', async () => {
    const { id, made } = await populated({ gallery_visibility: 'after_results' });
    t.clock.advance(3 * 24 * HOUR);
    expect((await t.api<any>('GET', `/events/${id}/gallery`)).body.code).toBe('gallery_not_open');
    const now = t.clock.now().toISOString();
    const scores: Record<string, number> = { 'Alpha 100% Tools': 6, 'beta bot': 9, 'Gamma Game': 5 };
    for (const [name, m] of Object.entries(made)) {
      await t.ctx.db
        .insertInto('reviews')
        .values({
          id: newId('rev'),
          event_id: id,
          project_id: m.project,
          reviewer_kind: 'human',
          reviewer: 'usr_judge',
          group_key: 'human',
          status: 'succeeded',
          scores: JSON.stringify({ impact: scores[name], craft: scores[name] }),
          attempts: 1,
          created_at: now,
          updated_at: now,
          completed_at: now,
        })
        .execute();
    }
    expect((await t.api('POST', `/events/${id}/results/publish`, { key: org.key })).status).toBe(200);
    const list = await t.api<any[]>('GET', `/events/${id}/gallery`);
    expect(list.status).toBe(200);
    const beta = await t.api<any>('GET', `/events/${id}/gallery/${made['beta bot']!.project}`);
    expect(beta.body.result).toEqual({ rank: 1, track_rank: 1, score: 9, prize: '$1000' });
    const alpha = await t.api<any>('GET', `/events/${id}/gallery/${made['Alpha 100% Tools']!.project}`);
    expect(alpha.body.result).toEqual({ rank: 2, track_rank: 2, score: 6, prize: null });
    const gamma = await t.api<any>('GET', `/events/${id}/gallery/${made['Gamma Game']!.project}`);
    expect(gamma.body.result).toEqual({ rank: 3, track_rank: 1, score: 5, prize: 'glory' });
  });
});
