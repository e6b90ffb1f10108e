import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { DIALECTS } from '../helpers/databases.js';
import { approvedTeam, createEvent, registrationBody, startTestApp, type TestApp } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';
import { seedProjects } from '../helpers/seed-projects.js';

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

  async function showcase(projectId: string, v: { tagline: string | null; tags: string[]; screenshots: unknown[] }) {
    await t.ctx.db
      .updateTable('projects')
      .set({ tagline: v.tagline, tags: JSON.stringify(v.tags), screenshots: JSON.stringify(v.screenshots) })
      .where('id', '=', projectId)
      .execute();
  }

  /** Every page of a gallery list, following Link rel="next": the pages' project ids. */
  async function allPages(path: string, key?: string): Promise<string[][]> {
    const pages: string[][] = [];
    let next: string | null = `/api/v1${path}`;
    while (next) {
      const res: Awaited<ReturnType<typeof t.request<any[]>>> = await t.request<any[]>('GET', next, key ? { key } : {});
      expect(res.status).toBe(200);
      pages.push(res.body.map((p) => p.project_id));
      const link = res.headers.get('link');
      next = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1]!.replace(t.config.publicUrl, '') : null;
      expect(pages.length).toBeLessThan(50);
    }
    return pages;
  }

  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { REVIEW_WORKERS: 'false' } });
    org = await quickUser(t, 'organizer');
    const { id, made } = await populated();
    eventId = id;
    for (const [name, m] of Object.entries(made)) projects[name] = m.project;
    // Tagline, tags and screenshots straight into the rows: the submit API takes them in the
    // showcase work, not on this branch yet.
    await showcase(projects['Alpha 100% Tools']!, {
      tagline: 'Finds the slow parts of PlanetPal',
      tags: ['next-js', 'rust'],
      screenshots: [
        { id: 'shot_a1', v: 'abc123', width: 1280, height: 720 },
        { id: 'shot_a2', v: 'def456', width: 800, height: 600 },
      ],
    });
    await showcase(projects['beta bot']!, { tagline: null, tags: ['next'], screenshots: [] });
    await showcase(projects['Gamma Game']!, { tagline: 'A game about 50% luck', tags: ['c++', 'next-js'], screenshots: [] });
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
      tagline: 'Finds the slow parts of PlanetPal',
      tags: ['next-js', 'rust'],
      cover: {
        url: `${t.config.publicUrl}/api/v1/events/${eventId}/projects/${projects['Alpha 100% Tools']}/screenshots/shot_a1?v=abc123`,
        width: 1280,
        height: 720,
      },
      description_text: 'Alpha A fast tool: https://example.com/alpha',
      // The card's excerpt rendered like the project page: the heading, the bold word and the link survive.
      description_excerpt_html:
        '<h3>Alpha</h3>\n<p>A <strong>fast</strong> tool: <a href="https://example.com/alpha" rel="noopener nofollow ugc">https://example.com/alpha</a></p>',
      github_url: 'https://github.com/example/repo',
      project_website: null,
      demo_video_url: null,
      submitted_at: expect.any(String),
      result: null,
    });
    expect(all.body[1]).toMatchObject({ project_name: 'beta bot', tagline: null, tags: ['next'], cover: null, result: null });
    expect(all.headers.get('gallery-order')).toBe('submission');

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

    // One tag, normalised like the stored ones, matching a whole tag ("next" is not "next-js").
    const names = async (query: string) => (await t.api<any[]>('GET', `/events/${eventId}/gallery?${query}`)).body.map((p) => p.project_name);
    await expect(names(`tag=${encodeURIComponent('#Next JS')}`)).resolves.toEqual(['Alpha 100% Tools', 'Gamma Game']);
    await expect(names('tag=next')).resolves.toEqual(['beta bot']);
    await expect(names('tag=C%2B%2B')).resolves.toEqual(['Gamma Game']);
    await expect(names('tag=next-js&track_id=fun')).resolves.toEqual(['Gamma Game']);
    await expect(names('tag=python')).resolves.toEqual([]);
    const emptyTag = await t.api<any>('GET', `/events/${eventId}/gallery?tag=${encodeURIComponent('# ')}`);
    expect(emptyTag.status).toBe(422);
    expect(emptyTag.body.code).toBe('validation_failed');
    expect(emptyTag.body.errors[0].field).toBe('tag');
    // The search reads the name, the tagline and the tags, in any case, wildcards literally.
    await expect(names('q=PLANETPAL')).resolves.toEqual(['Alpha 100% Tools']);
    await expect(names('q=rust')).resolves.toEqual(['Alpha 100% Tools']);
    await expect(names('q=next')).resolves.toEqual(['Alpha 100% Tools', 'beta bot', 'Gamma Game']);
    await expect(names('q=50%25')).resolves.toEqual(['Gamma Game']);
    await expect(names('q=c%2B%2B&tag=next-js')).resolves.toEqual(['Gamma Game']);

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
  it('during an open vote: a stable shuffle per visitor, paged without duplicates or gaps', async () => {
    const id = await createEvent(t, org.key, {
      models: [],
      voting: { enabled: true, closes_at: new Date(t.clock.now().getTime() + 10 * 24 * HOUR).toISOString() },
    });
    const ids = await seedProjects(
      t,
      id,
      Array.from({ length: 23 }, (_, i) => ({ track: i % 3 === 0 ? 'fun' : 'tools', score: null })),
    );
    const submissionOrder = [...ids].sort();
    // Before the vote opens (the submission deadline): submission order.
    const before = await t.api<any[]>('GET', `/events/${id}/gallery?limit=100`, { key: org.key });
    expect(before.headers.get('gallery-order')).toBe('submission');
    expect(before.body.map((p) => p.project_id)).toEqual(submissionOrder);
    t.clock.advance(3 * 24 * HOUR);

    const a1 = await allPages(`/events/${id}/gallery?limit=5&seed=visitor-a`);
    expect(a1.map((p) => p.length)).toEqual([5, 5, 5, 5, 3]);
    const orderA = a1.flat();
    expect(new Set(orderA).size).toBe(23);
    expect([...orderA].sort()).toEqual(submissionOrder);
    expect(orderA).not.toEqual(submissionOrder);
    // The same seed: the same pages; another seed: another order (of the same projects).
    await expect(allPages(`/events/${id}/gallery?limit=5&seed=visitor-a`)).resolves.toEqual(a1);
    const orderB = (await allPages(`/events/${id}/gallery?limit=7&seed=visitor-b`)).flat();
    expect([...orderB].sort()).toEqual(submissionOrder);
    expect(orderB).not.toEqual(orderA);
    // A page size does not change the order.
    expect((await t.api<any[]>('GET', `/events/${id}/gallery?limit=100&seed=visitor-a`)).body.map((p) => p.project_id)).toEqual(orderA);
    // Filters keep the shuffle's order.
    const fun = (await allPages(`/events/${id}/gallery?limit=3&seed=visitor-a&track_id=fun`)).flat();
    expect(fun).toEqual(orderA.filter((p) => ids.indexOf(p) % 3 === 0));
    const first = await t.api<any[]>('GET', `/events/${id}/gallery?limit=5&seed=visitor-a`);
    expect(first.headers.get('gallery-order')).toBe('shuffle');
    // A cursor of one seed's order is refused under another seed.
    const cursor = new URL(/^<([^>]+)>/.exec(first.headers.get('link')!)![1]!).searchParams.get('cursor')!;
    const mixed = await t.api<any>('GET', `/events/${id}/gallery?limit=5&seed=visitor-b&cursor=${cursor}`);
    expect(mixed.status).toBe(422);
    expect(mixed.body.errors[0].field).toBe('cursor');
    const badSeed = await t.api<any>('GET', `/events/${id}/gallery?seed=${encodeURIComponent('a b')}`);
    expect(badSeed.status).toBe(422);

    // Without a seed an anonymous visitor gets a random one, carried by the next page's link.
    const drawn = await t.api<any[]>('GET', `/events/${id}/gallery?limit=10`);
    expect(new URL(/^<([^>]+)>/.exec(drawn.headers.get('link')!)![1]!).searchParams.get('seed')).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const unseeded = (await allPages(`/events/${id}/gallery?limit=10`)).flat();
    expect([...unseeded].sort()).toEqual(submissionOrder);

    // A signed-in visitor is shuffled by their account, whatever seed they send.
    const voter = await quickUser(t);
    const mine = (await allPages(`/events/${id}/gallery?limit=6`, voter.key)).flat();
    expect([...mine].sort()).toEqual(submissionOrder);
    await expect(allPages(`/events/${id}/gallery?limit=4&seed=visitor-a`, voter.key).then((p) => p.flat())).resolves.toEqual(mine);
    expect(mine).not.toEqual(orderA);
    const other = await quickUser(t);
    expect((await t.api<any[]>('GET', `/events/${id}/gallery?limit=100`, { key: other.key })).body.map((p) => p.project_id)).not.toEqual(mine);

    // Once the vote closes: submission order again.
    t.clock.advance(10 * 24 * HOUR);
    const after = await t.api<any[]>('GET', `/events/${id}/gallery?limit=100&seed=visitor-a`);
    expect(after.headers.get('gallery-order')).toBe('submission');
    expect(after.body.map((p) => p.project_id)).toEqual(submissionOrder);
  });

  it('after publication: winners first by place (podium and track winners, with badges), then the rest in submission order', async () => {
    const id = await createEvent(t, org.key, { models: [] });
    // Ranks: P1 1, P3 2, P0 3 (the podium), P4 4 but first in "fun", P2 5, P6 6, P5 7; P7 (unscored) last.
    const ids = await seedProjects(t, id, [
      { track: 'tools', score: 5 },
      { track: 'tools', score: 9 },
      { track: 'fun', score: 4 },
      { track: 'tools', score: 8 },
      { track: 'fun', score: 4.5 },
      { track: 'tools', score: 2 },
      { track: 'tools', score: 3 },
      { track: 'fun', score: null },
    ]);
    t.clock.advance(3 * 24 * HOUR);
    // P7 has no score: published anyway (force), it comes last.
    expect((await t.api('POST', `/events/${id}/results/publish`, { key: org.key, body: { force: true } })).status).toBe(200);
    const pages = await allPages(`/events/${id}/gallery?limit=3`);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 2]);
    const rest = [ids[2]!, ids[5]!, ids[6]!, ids[7]!].sort();
    expect(pages.flat()).toEqual([ids[1], ids[3], ids[0], ids[4], ...rest]);
    const all = await t.api<any[]>('GET', `/events/${id}/gallery`);
    expect(all.headers.get('gallery-order')).toBe('result');
    const byId = new Map(all.body.map((p) => [p.project_id, p.result]));
    expect(byId.get(ids[1]!)).toEqual({ rank: 1, track_rank: 1, prize: '$1000' });
    expect(byId.get(ids[0]!)).toEqual({ rank: 3, track_rank: 3, prize: null });
    expect(byId.get(ids[4]!)).toEqual({ rank: 4, track_rank: 1, prize: 'glory' });
    expect(byId.get(ids[5]!)).toEqual({ rank: 7, track_rank: 5, prize: null });
    expect(byId.get(ids[7]!)).toEqual({ rank: 8, track_rank: 3, prize: null });
    // Filtered, the same order.
    expect((await t.api<any[]>('GET', `/events/${id}/gallery?track_id=fun`)).body.map((p) => p.project_id)).toEqual([ids[4], ...[ids[2]!, ids[7]!].sort()]);
  });
});
