import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { bundleHash, KEYS_PATH, verifyBundle, type PublishedKey } from '../../src/results/result-bundle.js';
import { parseCsv } from '../helpers/csv.js';
import { DIALECTS } from '../helpers/databases.js';
import { approvedTeam, createEvent, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';
import { callTool, connectMcp, toolOk, toolProblem } from '../helpers/mcp-client.js';
import { quickUser } from '../helpers/quick-users.js';
import { decodeMail, mailSubject, startSmtpReceiver } from '../helpers/smtp-receiver.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/**
 * Winners as the event defines them: two tracks with prizes; PlanetPal wins Climate (€500) while
 * placing 2nd overall. Its entry, the winners section, the publish answer, the team's result, the
 * CSV, the bundle (verified, and refused when its winners or ranking are tampered with and
 * re-hashed) and its mails (en and zh) all say 1st in Climate. The people's choice, voted per
 * track, is one list per track.
 */
describe.each(DIALECTS)('track winners (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let eventId: string;
  let zhMember: TestUser;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  const teams: Record<string, { user: TestUser; registrationId: string; projectId?: string }> = {};
  let published: any;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await startTestApp(dialect, { env: { MAIL_WORKERS: 'true', SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_POLL_MS: '50' } });
    org = await t.user('organizer');
    eventId = await createEvent(t, org.key, {
      models: [],
      tracks: [
        { id: 'climate', name: 'Climate', prize: '€500' },
        { id: 'tools', name: 'Developer tools', prize: '$1000' },
      ],
      voting: { enabled: true, closes_at: new Date(T0.getTime() + 4 * DAY).toISOString(), votes_per_person: 1, per_track: true },
    });
    for (const [k, name, track] of [
      ['tooly', 'Tooly', 'tools'],
      ['planet', 'PlanetPal', 'climate'],
      ['green', 'Greenish', 'climate'],
      ['toolish', 'Toolish', 'tools'],
    ] as const) {
      const { team, registrationId } = await approvedTeam(t, eventId, org.key, { team_name: `${name} team`, track_id: track });
      teams[k] = { user: team, registrationId };
    }
    // PlanetPal has a second member who reads Chinese.
    zhMember = await t.user();
    expect((await t.api('PATCH', '/me/settings', { key: zhMember.key, body: { language: 'zh' } })).status).toBe(200);
    const code = await t.api('POST', `/events/${eventId}/team/invitations`, { key: teams.planet!.user.key, body: {} });
    expect((await t.api('POST', `/events/${eventId}/team/join`, { key: zhMember.key, body: { join_code: code.body.join_code } })).status).toBe(200);
    t.clock.set(T0.getTime() + DAY + HOUR);
    for (const [k, name] of [
      ['tooly', 'Tooly'],
      ['planet', 'PlanetPal'],
      ['green', 'Greenish'],
      ['toolish', 'Toolish'],
    ] as const) {
      t.clock.advance(HOUR);
      const res = await t.api('POST', `/events/${eventId}/submit`, {
        key: teams[k]!.user.key,
        body: { project_name: name, github_url: `https://github.com/example/${k}` },
      });
      expect(res.status).toBe(201);
      teams[k]!.projectId = res.body.id;
    }
    t.clock.set(T0.getTime() + 2 * DAY + HOUR); // judging, the vote open
    // Weights impact 2, craft 1: Tooly 9, PlanetPal 7.9167, Greenish 6, Toolish 5.
    await review('tooly', { impact: 9, craft: 9 });
    await review('planet', { impact: 8, craft: 7.75 });
    await review('green', { impact: 6, craft: 6 });
    await review('toolish', { impact: 5, craft: 5 });
    // Per track: Greenish leads Climate's vote (2 to 1), Toolish alone in Tools.
    for (const k of ['green', 'green', 'planet', 'toolish']) {
      const voter = await quickUser(t);
      expect((await t.api('POST', `/events/${eventId}/gallery/${teams[k]!.projectId}/vote`, { key: voter.key })).status).toBe(201);
    }
    t.clock.set(T0.getTime() + 4 * DAY + HOUR);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function review(team: string, scores: Record<string, number>) {
    const now = t.clock.now().toISOString();
    await t.ctx.db
      .insertInto('reviews')
      .values({
        id: newId('rev'),
        event_id: eventId,
        project_id: teams[team]!.projectId!,
        reviewer_kind: 'human',
        reviewer: 'usr_judge',
        group_key: 'human',
        status: 'succeeded',
        scores: JSON.stringify(scores),
        summary: null,
        attempts: 1,
        created_at: now,
        updated_at: now,
        completed_at: now,
      })
      .execute();
  }

  /** The results mail to `user`, waited for (after any earlier mails). */
  async function resultMail(user: TestUser): Promise<{ subject: string; text: string }> {
    let after = 0;
    for (;;) {
      const mail = await smtp.nextTo(user.email, after);
      const subject = mailSubject(mail.raw);
      if (subject.endsWith('results are out') || subject.endsWith('结果已公布')) return { subject, text: decodeMail(mail.raw) };
      after = smtp.mails.indexOf(mail) + 1;
    }
  }

  const winner = (k: string, rank: number, trackRank: number, track: string, score: number) => ({
    rank,
    track_rank: trackRank,
    project_id: teams[k]!.projectId,
    project_name: { tooly: 'Tooly', planet: 'PlanetPal', green: 'Greenish', toolish: 'Toolish' }[k],
    team_name: `${{ tooly: 'Tooly', planet: 'PlanetPal', green: 'Greenish', toolish: 'Toolish' }[k]} team`,
    track_id: track,
    score,
  });

  it('before publication the winners are refused as the result is', async () => {
    const early = await t.api('GET', `/events/${eventId}/result/winners`);
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('results_not_published');
  });

  it('publication answers the winners: 1st in Climate is PlanetPal (2nd overall) with €500', async () => {
    const res = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key });
    expect(res.status).toBe(200);
    published = res.body;
    expect(published.winners).toEqual({
      tracks: [
        { track_id: 'climate', track_name: 'Climate', prize: '€500', projects: [winner('planet', 2, 1, 'climate', 7.9167)] },
        { track_id: 'tools', track_name: 'Developer tools', prize: '$1000', projects: [winner('tooly', 1, 1, 'tools', 9)] },
      ],
      overall: [winner('tooly', 1, 1, 'tools', 9), winner('planet', 2, 1, 'climate', 7.9167), winner('green', 3, 2, 'climate', 6)],
    });
    const planet = published.entries.find((e: any) => e.project_id === teams.planet!.projectId);
    expect(planet).toMatchObject({ rank: 2, track_rank: 1, track_prize: '€500' });
    const green = published.entries.find((e: any) => e.project_id === teams.green!.projectId);
    expect(green).toMatchObject({ rank: 3, track_rank: 2, track_prize: null });
  });

  it('the result entries carry track_rank and track_prize, overall and per track', async () => {
    const all = await t.api('GET', `/events/${eventId}/result`);
    expect(all.status).toBe(200);
    expect(all.body.map((e: any) => [e.project_name, e.rank, e.track_rank, e.track_prize])).toEqual([
      ['Tooly', 1, 1, '$1000'],
      ['PlanetPal', 2, 1, '€500'],
      ['Greenish', 3, 2, null],
      ['Toolish', 4, 2, null],
    ]);
    expect(all.body).toEqual(published.entries);
    const climate = await t.api('GET', `/events/${eventId}/result?track_id=climate`);
    expect(climate.body.map((e: any) => [e.project_name, e.rank, e.track_rank, e.track_prize])).toEqual([
      ['PlanetPal', 1, 1, '€500'],
      ['Greenish', 2, 2, null],
    ]);
  });

  it('GET result/winners: the same winners as the publication, cacheable; over MCP too', async () => {
    const res = await t.request('GET', `/api/v1/events/${eventId}/result/winners`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ event_id: eventId, published_at: published.published_at, ...published.winners });
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await t.request('GET', `/api/v1/events/${eventId}/result/winners`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const client = await connectMcp(t, teams.planet!.user.key);
    try {
      expect(toolOk(await callTool(client, 'get_result_winners', { event_id: eventId }))).toEqual(res.body);
      expect(toolProblem(await callTool(client, 'get_result_winners', { event_id: 'evt_nope' })).code).toBe('event_not_found');
    } finally {
      await client.close();
    }
  });

  it("the team's own result says 1st in its track with the prize", async () => {
    const planet = await t.api('GET', `/events/${eventId}/my-registration`, { key: teams.planet!.user.key });
    expect(planet.body.result).toMatchObject({ rank: 2, track_id: 'climate', track_rank: 1, track_prize: '€500', score: 7.9167 });
    const green = await t.api('GET', `/events/${eventId}/my-registration`, { key: teams.green!.user.key });
    expect(green.body.result).toMatchObject({ rank: 3, track_rank: 2, track_prize: null });
  });

  it('the CSV keeps its columns first and in order, then track_rank and prize', async () => {
    const csv = await t.api('GET', `/events/${eventId}/leaderboard.csv`, { key: org.key });
    expect(csv.status).toBe(200);
    const [header, ...rows] = parseCsv(csv.text);
    expect(header!.slice(0, 8)).toEqual(['rank', 'project_id', 'project_name', 'team_name', 'track_id', 'score', 'score_raw', 'score_normalized']);
    expect(header!.slice(-2)).toEqual(['track_rank', 'prize']);
    expect(rows.map((r) => [r[2], r[0], ...r.slice(-2)])).toEqual([
      ['Tooly', '1', '1', '$1000'],
      ['PlanetPal', '2', '1', '€500'],
      ['Greenish', '3', '2', ''],
      ['Toolish', '4', '2', ''],
    ]);
    const climate = parseCsv((await t.api('GET', `/events/${eventId}/leaderboard.csv?track_id=climate`, { key: org.key })).text);
    expect(climate.slice(1).map((r) => [r[2], r[0], ...r.slice(-2)])).toEqual([
      ['PlanetPal', '1', '1', '€500'],
      ['Greenish', '2', '2', ''],
    ]);
  });

  it('the bundle records the winners; verify recomputes them and refuses tampered winners, prizes and rankings', async () => {
    const res = await t.api('GET', `/events/${eventId}/result/bundle`);
    expect(res.status).toBe(200);
    const bundle = JSON.parse(res.text) as Record<string, any>;
    expect(bundle.winners).toEqual(published.winners);
    expect(bundle.tracks).toEqual([
      { id: 'climate', name: 'Climate', prize: '€500' },
      { id: 'tools', name: 'Developer tools', prize: '$1000' },
    ]);
    const keys = ((await t.request<any>('GET', KEYS_PATH)).body as { keys: PublishedKey[] }).keys;
    const ok = verifyBundle(bundle, { keys });
    expect(ok.reason).toBeNull();
    expect(ok.winners?.ok).toBe(true);

    const refusedAfterRehash = (tamper: (b: Record<string, any>) => void) => {
      const b = clone(bundle);
      tamper(b);
      b.sha256 = bundleHash(b);
      const v = verifyBundle(b, { keys });
      expect(v.sha256.ok).toBe(true);
      expect(v.ok).toBe(false);
      return v;
    };
    // The winners changed: another project first in Climate, or another prize.
    const swapped = refusedAfterRehash((b) => (b.winners.tracks[0].projects[0] = b.winners.overall[2]));
    expect(swapped.reason).toBe('the winners do not follow from the ranking and the tracks');
    expect(swapped.winners?.ok).toBe(false);
    expect(refusedAfterRehash((b) => (b.winners.tracks[0].prize = '€5000')).reason).toBe('the winners do not follow from the ranking and the tracks');
    expect(refusedAfterRehash((b) => (b.tracks[0].prize = '€5000')).reason).toBe('the winners do not follow from the ranking and the tracks');
    expect(refusedAfterRehash((b) => b.winners.overall.pop()).reason).toBe('the winners do not follow from the ranking and the tracks');
    // The ranking lost its last entry, gained one, or had two entries swapped.
    const lost = refusedAfterRehash((b) => b.ranking.pop());
    expect(lost.ranking.firstDifference?.index).toBe(3);
    expect(lost.reason).toBe('the ranking does not follow from the scores (entry 4 differs)');
    const gained = refusedAfterRehash((b) => b.ranking.push({ ...b.ranking[3], project_id: 'prj_ghost' }));
    expect(gained.ranking.firstDifference).toMatchObject({ index: 4, recomputed: null });
    const reordered = refusedAfterRehash((b) => b.ranking.splice(1, 2, b.ranking[2], b.ranking[1]));
    expect(reordered.ranking.firstDifference?.index).toBe(1);
    // Lost from the ranking, the projects and the scores alike: consistent, but no longer what the site signed.
    const dropped = refusedAfterRehash((b) => {
      const gone = b.ranking.pop().project_id;
      b.projects = b.projects.filter((p: any) => p.id !== gone);
      b.scores = b.scores.filter((s: any) => s.project_id !== gone);
    });
    expect(dropped.ranking.ok).toBe(true);
    expect(dropped.signature.status).toBe('invalid');
  });

  it('the results mail says 1st in Climate with the prize and the overall place, in en and zh', async () => {
    const en = await resultMail(teams.planet!.user);
    expect(en.text).toContain('PlanetPal team placed 1st in Climate (prize €500).');
    expect(en.text).toContain('Overall: 2nd.');
    expect(en.text).toContain('Score: 7.92');
    expect(en.text).not.toContain('#2');
    const zh = await resultMail(zhMember);
    expect(zh.text).toContain('「PlanetPal team」获得赛道「Climate」第 1 名（奖品：€500）。');
    expect(zh.text).toContain('总排名：第 2 名。');
    expect(zh.text).toContain('得分：7.92');
    expect(zh.text).not.toContain('获得第 2 名');
    // Not a track winner: the overall place, then the place in the track.
    const green = await resultMail(teams.green!.user);
    expect(green.text).toContain('Greenish team placed #3.');
    expect(green.text).toContain('In the track Climate: #2.');
    expect(green.text).not.toContain('prize');
  });

  it("the people's choice voted per track is one list per track: ranks count within the track, entries carry the scope", async () => {
    const pc = await t.api('GET', `/events/${eventId}/result/peoples-choice`);
    expect(pc.status).toBe(200);
    expect(pc.body.per_track).toBe(true);
    const rows = pc.body.entries.map((e: any) => [e.project_name, e.scope, e.rank, e.votes]);
    expect(rows).toEqual([
      ['Greenish', 'climate', 1, 2],
      ['PlanetPal', 'climate', 2, 1],
      ['Toolish', 'tools', 1, 1],
    ]);
    expect(published.peoples_choice.map((e: any) => [e.project_name, e.scope, e.rank])).toEqual(rows.map((r: any[]) => r.slice(0, 3)));
  });

  it("an event-wide vote is one list, its entries' scope null", async () => {
    t.clock.set(T0.getTime());
    const wide = await createEvent(t, org.key, {
      models: [],
      voting: { enabled: true, closes_at: new Date(T0.getTime() + 4 * DAY).toISOString(), votes_per_person: 2, per_track: false },
    });
    const a = await approvedTeam(t, wide, org.key, { team_name: 'Alpha', track_id: 'tools' });
    const b = await approvedTeam(t, wide, org.key, { team_name: 'Beta', track_id: 'fun' });
    t.clock.set(T0.getTime() + DAY + HOUR);
    const pa = await t.api('POST', `/events/${wide}/submit`, { key: a.team.key, body: { project_name: 'A', github_url: 'https://github.com/example/a' } });
    const pb = await t.api('POST', `/events/${wide}/submit`, { key: b.team.key, body: { project_name: 'B', github_url: 'https://github.com/example/b' } });
    t.clock.set(T0.getTime() + 2 * DAY + HOUR);
    const voter = await quickUser(t);
    expect((await t.api('POST', `/events/${wide}/gallery/${pa.body.id}/vote`, { key: voter.key })).status).toBe(201);
    expect((await t.api('POST', `/events/${wide}/gallery/${pb.body.id}/vote`, { key: voter.key })).status).toBe(201);
    const other = await quickUser(t);
    expect((await t.api('POST', `/events/${wide}/gallery/${pb.body.id}/vote`, { key: other.key })).status).toBe(201);
    expect((await t.api('POST', `/events/${wide}/results/publish`, { key: org.key, body: { force: true } })).status).toBe(200);
    const pc = await t.api('GET', `/events/${wide}/result/peoples-choice`);
    expect(pc.body.per_track).toBe(false);
    expect(pc.body.entries.map((e: any) => [e.project_name, e.scope, e.rank])).toEqual([
      ['B', null, 1],
      ['A', null, 2],
    ]);
  });
});
