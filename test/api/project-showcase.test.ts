import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickApprovedTeam, quickUser } from '../helpers/quick-users.js';
import { statedSizePng, tinyJpeg, tinyPng } from '../helpers/images.js';
import { callTool, connectMcp, toolOk, toolProblem } from '../helpers/mcp-client.js';
import { openRaw, parseRawResponse } from '../helpers/raw-http.js';

const DAY = 86_400_000;

const project = (over: Record<string, unknown> = {}) => ({ project_name: 'PlanetPal', github_url: 'https://github.com/team/planetpal', ...over });

describe.each(DIALECTS)('project showcase (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let eventId: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
    eventId = await createEvent(t, org.key);
  });
  afterAll(async () => t?.close());

  const submit = (key: string, body: unknown, id = eventId) => t.api('POST', `/events/${id}/submit`, { key, body });

  describe('tagline and tags on submit', () => {
    it('stores a tagline and normalised tags, shows them everywhere the project appears, keeps them when left out', async () => {
      const { team } = await quickApprovedTeam(t, eventId, org.key);
      const first = await submit(
        team.key,
        project({ tagline: '  Your planet, your pal  ', tags: ['#Next JS', 'next_js', 'Rust', 'TypeScript'], description: '# PlanetPal\n\n**agent**' }),
      );
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({
        tagline: 'Your planet, your pal',
        tags: ['next-js', 'rust', 'typescript'],
        screenshots: [],
        video: null,
        description_html: expect.stringContaining('<strong>agent</strong>'),
      });
      expect(first.body.description_html).toContain('<h3>PlanetPal</h3>');

      // Left out: kept (a client of the old contract sends its fields whole and knows nothing of these).
      const again = await submit(
        team.key,
        project({ project_name: 'PlanetPal 2', demo_video_url: 'https://youtu.be/dQw4w9WgXcQ', description: '# PlanetPal\n\n**agent**' }),
      );
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({
        project_name: 'PlanetPal 2',
        tagline: 'Your planet, your pal',
        tags: ['next-js', 'rust', 'typescript'],
        video: { provider: 'youtube', url: 'https://youtu.be/dQw4w9WgXcQ', embed_url: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ' },
      });

      const mine = await t.api('GET', `/events/${eventId}/my-registration`, { key: team.key });
      expect(mine.status).toBe(200);
      expect(mine.body.project).toMatchObject({ tagline: 'Your planet, your pal', tags: ['next-js', 'rust', 'typescript'], video: { provider: 'youtube' } });
      expect(mine.body.project.description_html).toContain('<strong>agent</strong>');
      const teamPage = await t.api('GET', `/events/${eventId}/team`, { key: team.key });
      expect(teamPage.status).toBe(200);
      expect(teamPage.body.project).toMatchObject({ tagline: 'Your planet, your pal', tags: ['next-js', 'rust', 'typescript'] });
      const list = await t.api('GET', `/events/${eventId}/projects`, { key: org.key });
      expect(list.body.find((p: { id: string }) => p.id === first.body.id)).toMatchObject({
        tagline: 'Your planet, your pal',
        tags: ['next-js', 'rust', 'typescript'],
        description_html: expect.stringContaining('<strong>agent</strong>'),
      });
      const organizerPage = await t.api('GET', `/events/${eventId}/projects/${first.body.id}/reviews`, { key: org.key });
      expect(organizerPage.status).toBe(200);
      expect(organizerPage.body.project.description_html).toContain('<strong>agent</strong>');

      // Sent: replaced; "" and [] clear.
      const cleared = await submit(team.key, project({ tagline: '', tags: [] }));
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ tagline: null, tags: [] });
    });

    it('refuses a tagline over 140 characters or of two lines, more than 10 tags, a tag over 32 characters or empty', async () => {
      const { team } = await quickApprovedTeam(t, eventId, org.key);
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ tagline: 'x'.repeat(141) }, 'tagline'],
        [{ tagline: 'one\ntwo' }, 'tagline'],
        [{ tags: Array.from({ length: 11 }, (_, i) => `tag${i}`) }, 'tags'],
        [{ tags: ['a'.repeat(33)] }, 'tags'],
        [{ tags: ['###'] }, 'tags'],
      ];
      for (const [over, field] of cases) {
        const res = await submit(team.key, project(over));
        expect(res.status, JSON.stringify(over)).toBe(422);
        expect(res.body.code).toBe('validation_failed');
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
      // Eleven given, ten once equal ones are merged: accepted.
      const merged = await submit(team.key, project({ tags: [...Array.from({ length: 10 }, (_, i) => `tag${i}`), 'TAG0'] }));
      expect(merged.status).toBe(201);
      expect(merged.body.tags).toHaveLength(10);
    });
  });

  /** POST raw bytes (fetch directly: the harness sends strings). */
  async function upload(key: string, bytes: Buffer, contentType = 'image/png', id = eventId) {
    const res = await fetch(`${t.url}/api/v1/events/${id}/project/screenshots`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
      body: new Uint8Array(bytes),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }
  async function image(url: string, key?: string, headers: Record<string, string> = {}) {
    const res = await fetch(url.replace(t.config.publicUrl, t.url), { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }
  /** A fresh event (deadlines from now) with one approved team that has submitted. */
  async function submittedTeam(over: Record<string, unknown> = {}) {
    const id = await createEvent(t, org.key, over);
    const { team, registrationId } = await quickApprovedTeam(t, id, org.key);
    const sub = await submit(team.key, project(), id);
    if (sub.status !== 201) throw new Error(`submit: ${sub.status} ${JSON.stringify(sub.body)}`);
    return { id, team, registrationId, projectId: sub.body.id as string };
  }

  describe('screenshots', () => {
    it('the team adds screenshots that every representation of its project lists; the image is its team’s and organizers’ until the gallery opens, then public', async () => {
      const { id, team, projectId } = await submittedTeam();
      const png = tinyPng(40, 30);
      const up = await upload(team.key, png, 'image/png', id);
      expect(up.status).toBe(201);
      expect(up.body.screenshot).toEqual({
        id: expect.stringMatching(/^shot_/),
        url: expect.stringMatching(new RegExp(`^${t.config.publicUrl}/api/v1/events/${id}/projects/${projectId}/screenshots/shot_[^?]+\\?v=[0-9a-f]{16}$`)),
        width: 40,
        height: 30,
      });
      expect(up.body.screenshots).toEqual([up.body.screenshot]);
      const jpeg = await upload(team.key, tinyJpeg(8, 6), 'image/jpeg', id);
      expect(jpeg.status).toBe(201);
      expect(jpeg.body.screenshots.map((s: { id: string }) => s.id)).toEqual([up.body.screenshot.id, jpeg.body.screenshot.id]);

      const mine = await t.api('GET', `/events/${id}/my-registration`, { key: team.key });
      expect(mine.body.project.screenshots).toEqual(jpeg.body.screenshots);
      const teamView = await t.api('GET', `/events/${id}/team`, { key: team.key });
      expect(teamView.body.project.screenshots).toEqual(jpeg.body.screenshots);

      const url = up.body.screenshot.url as string;
      const own = await image(url, team.key);
      expect(own.status).toBe(200);
      expect(own.bytes.equals(png)).toBe(true);
      expect(own.headers.get('content-type')).toBe('image/png');
      expect(own.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      expect(own.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await image(url, org.key)).status).toBe(200);
      // Strangers: as if there were no project (the gallery is not open before the deadline).
      const stranger = await quickUser(t);
      const hidden = await image(url, stranger.key);
      expect(hidden.status).toBe(404);
      expect(JSON.parse(hidden.bytes.toString()).code).toBe('project_not_found');
      expect((await image(url)).status).toBe(404);

      // After the submission deadline the gallery opens (the default): public, cacheable for good.
      t.clock.advance(2 * DAY + 60_000);
      const open = await image(url);
      expect(open.status).toBe(200);
      expect(open.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const etag = open.headers.get('etag')!;
      expect((await image(url, undefined, { 'if-none-match': etag })).status).toBe(304);
      const gallery = await t.api('GET', `/events/${id}/gallery/${projectId}`);
      expect(gallery.status).toBe(200);
      expect(gallery.body).toMatchObject({ screenshots: jpeg.body.screenshots, tags: [], tagline: null, video: null });
      // The team cannot change them after the deadline, like the project itself.
      const late = await upload(team.key, png, 'image/png', id);
      expect(late.status).toBe(409);
      expect(late.body.code).toBe('submission_closed');
    });

    it('a sixth screenshot is refused with screenshot_limit_reached, also when uploads race; removing one makes room; the order can change', async () => {
      const { id, team } = await submittedTeam();
      for (let i = 0; i < 3; i++) expect((await upload(team.key, tinyPng(4 + i, 4), 'image/png', id)).status).toBe(201);
      const racing = await Promise.all(Array.from({ length: 4 }, (_, i) => upload(team.key, tinyPng(10 + i, 4), 'image/png', id)));
      expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 409, 409]);
      const refused = racing.find((r) => r.status === 409)!;
      expect(refused.body).toMatchObject({ code: 'screenshot_limit_reached', max_screenshots: 5 });
      const sixth = await upload(team.key, tinyPng(30, 4), 'image/png', id);
      expect(sixth.status).toBe(409);
      expect(sixth.body.code).toBe('screenshot_limit_reached');

      const mine = await t.api('GET', `/events/${id}/my-registration`, { key: team.key });
      const ids = mine.body.project.screenshots.map((s: { id: string }) => s.id) as string[];
      expect(ids).toHaveLength(5);
      expect(await t.ctx.db.selectFrom('project_screenshots').select('id').where('project_id', '=', mine.body.project.id).execute()).toHaveLength(5);

      const reversed = [...ids].reverse();
      const order = await t.api('PUT', `/events/${id}/project/screenshot-order`, { key: team.key, body: { ids: reversed } });
      expect(order.status).toBe(200);
      expect(order.body.screenshots.map((s: { id: string }) => s.id)).toEqual(reversed);
      const badOrder = await t.api('PUT', `/events/${id}/project/screenshot-order`, { key: team.key, body: { ids: reversed.slice(1) } });
      expect(badOrder.status).toBe(422);
      expect(badOrder.body.code).toBe('validation_failed');

      const del = await t.api('DELETE', `/events/${id}/project/screenshots/${ids[0]}`, { key: team.key });
      expect(del.status).toBe(200);
      expect(del.body.screenshots.map((s: { id: string }) => s.id)).toEqual(reversed.slice(0, 4));
      expect(await t.ctx.db.selectFrom('project_screenshots').select('id').where('id', '=', ids[0]!).execute()).toEqual([]);
      const again = await t.api('DELETE', `/events/${id}/project/screenshots/${ids[0]}`, { key: team.key });
      expect(again.status).toBe(404);
      expect(again.body.code).toBe('media_not_found');
      expect((await upload(team.key, tinyPng(31, 4), 'image/png', id)).status).toBe(201);
    });

    it('another team can neither remove nor see the screenshots of your project before the gallery opens; its uploads go to its own project', async () => {
      const { id, team, projectId } = await submittedTeam();
      const ours = await upload(team.key, tinyPng(5, 5), 'image/png', id);
      const { team: rival } = await quickApprovedTeam(t, id, org.key);
      expect((await submit(rival.key, project({ project_name: 'Rival' }), id)).status).toBe(201);
      const del = await t.api('DELETE', `/events/${id}/project/screenshots/${ours.body.screenshot.id}`, { key: rival.key });
      expect(del.status).toBe(404);
      expect(del.body.code).toBe('media_not_found');
      expect((await image(ours.body.screenshot.url, rival.key)).status).toBe(404);
      const theirs = await upload(rival.key, tinyPng(6, 6), 'image/png', id);
      expect(theirs.status).toBe(201);
      expect(theirs.body.screenshot.url).not.toContain(projectId);
      const mine = await t.api('GET', `/events/${id}/my-registration`, { key: team.key });
      expect(mine.body.project.screenshots.map((s: { id: string }) => s.id)).toEqual([ours.body.screenshot.id]);
      // Someone not in any team; a team with no project yet.
      const stranger = await quickUser(t);
      const none = await upload(stranger.key, tinyPng(), 'image/png', id);
      expect(none.status).toBe(404);
      expect(none.body.code).toBe('not_registered');
      const { team: fresh } = await quickApprovedTeam(t, id, org.key);
      const noProject = await upload(fresh.key, tinyPng(), 'image/png', id);
      expect(noProject.status).toBe(404);
      expect(noProject.body.code).toBe('project_not_found');
    });

    it('refuses an 8192×8192 image with a problem naming the pixel limit, and a file that is not an image', async () => {
      const { id, team } = await submittedTeam();
      const bomb = await upload(team.key, statedSizePng(8192, 8192), 'image/png', id);
      expect(bomb.status).toBe(413);
      expect(bomb.body).toMatchObject({ code: 'media_too_large', max_pixels: 16_777_216 });
      expect(bomb.body.detail).toContain('16777216');
      const svg = await upload(team.key, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/png', id);
      expect(svg.status).toBe(415);
      expect(svg.body.code).toBe('media_type_unsupported');
    });

    it('a 20 MB upload: the client, still sending, reads the 413 problem (the body is drained, not cut)', async () => {
      const { id, team } = await submittedTeam();
      const size = 20 * 1024 * 1024;
      const conn = await openRaw(t.url);
      const answered = new Promise<ReturnType<typeof parseRawResponse>>((resolve) => {
        const check = () => {
          const parsed = parseRawResponse(conn.received());
          if (parsed) resolve(parsed);
        };
        conn.socket.on('data', check);
        conn.socket.on('close', () => resolve(parseRawResponse(conn.received())));
      });
      conn.socket.write(
        `POST /api/v1/events/${id}/project/screenshots HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${team.key}\r\nContent-Type: image/png\r\nContent-Length: ${size}\r\n\r\n`,
      );
      const chunk = Buffer.alloc(1024 * 1024, 7);
      let writeError: Error | null = null;
      conn.socket.on('error', (err) => (writeError = err));
      for (let i = 0; i < 20 && !writeError; i++) {
        if (!conn.socket.write(chunk)) await new Promise((resolve) => conn.socket.once('drain', resolve));
      }
      const res = await answered;
      expect(writeError).toBeNull();
      expect(res).not.toBeNull();
      expect(res!.status).toBe(413);
      expect(res!.body).toMatchObject({ code: 'media_too_large', max_bytes: 2 * 1024 * 1024 });
      conn.socket.destroy();
    });

    it('over MCP: a participant adds and removes a screenshot', async () => {
      const { id, team } = await submittedTeam();
      const mcp = await connectMcp(t, team.key);
      const png = tinyPng(12, 9);
      const added = toolOk(
        await callTool(mcp, 'upload_project_screenshot', { event_id: id, content_type: 'image/png', data_base64: png.toString('base64') }),
      ) as {
        screenshot: { id: string; width: number };
      };
      expect(added.screenshot).toMatchObject({ id: expect.stringMatching(/^shot_/), width: 12, height: 9 });
      const wrong = toolProblem(
        await callTool(mcp, 'upload_project_screenshot', { event_id: id, content_type: 'image/jpeg', data_base64: png.toString('base64') }),
      );
      expect(wrong).toMatchObject({ code: 'media_type_mismatch', status: 415 });
      expect(toolOk(await callTool(mcp, 'remove_project_screenshot', { event_id: id, shot_id: added.screenshot.id }))).toEqual({ screenshots: [] });
    });
  });

  describe('project tags', () => {
    it('suggests the tags of the event’s projects with counts, to its teams and organizers, and to everyone once the gallery opens', async () => {
      const id = await createEvent(t, org.key);
      const a = await quickApprovedTeam(t, id, org.key);
      const b = await quickApprovedTeam(t, id, org.key);
      expect((await submit(a.team.key, project({ tags: ['Rust', 'WASM'] }), id)).status).toBe(201);
      expect((await submit(b.team.key, project({ tags: ['rust', 'Next.js'] }), id)).status).toBe(201);
      const want = [
        { tag: 'rust', count: 2 },
        { tag: 'next.js', count: 1 },
        { tag: 'wasm', count: 1 },
      ];
      const byTeam = await t.api('GET', `/events/${id}/project-tags`, { key: a.team.key });
      expect(byTeam.status).toBe(200);
      expect(byTeam.body).toEqual(want);
      expect((await t.api('GET', `/events/${id}/project-tags`, { key: org.key })).body).toEqual(want);
      const anon = await t.api('GET', `/events/${id}/project-tags`);
      expect(anon.status).toBe(409);
      expect(anon.body.code).toBe('gallery_not_open');
      t.clock.advance(2 * DAY + 60_000);
      const open = await t.api('GET', `/events/${id}/project-tags`);
      expect(open.status).toBe(200);
      expect(open.body).toEqual(want);
    });
  });

  describe('Markdown', () => {
    it('previews Markdown as the pages render it, to a signed-in caller only', async () => {
      const team = await quickUser(t);
      const res = await t.api('POST', '/markdown/preview', {
        key: team.key,
        body: { markdown: '# PlanetPal\n\n**agent** <script>alert(1)</script>\n\n```js\nx()\n```' },
      });
      expect(res.status).toBe(200);
      expect(res.body.html).toContain('<strong>agent</strong>');
      expect(res.body.html).toContain('<code');
      expect(res.body.html).not.toContain('<script');
      const anon = await t.api('POST', '/markdown/preview', { body: { markdown: 'x' } });
      expect(anon.status).toBe(401);
      const long = await t.api('POST', '/markdown/preview', { key: team.key, body: { markdown: 'x'.repeat(10_001) } });
      expect(long.status).toBe(422);
    });

    it("renders the description on the reviewer's queue", async () => {
      const id = await createEvent(t, org.key);
      const { team } = await quickApprovedTeam(t, id, org.key);
      const sub = await submit(team.key, project({ description: '# PlanetPal\n\n- **agent**\n- planner' }), id);
      expect(sub.status).toBe(201);
      const reviewer = await quickUser(t);
      await t.database.db.insertInto('event_reviewers').values({ event_id: id, user_id: reviewer.id, created_at: t.clock.now().toISOString() }).execute();
      t.clock.advance(2 * DAY + 60_000);
      const queue = await t.api('GET', `/events/${id}/review-assignments`, { key: reviewer.key });
      expect(queue.status).toBe(200);
      const mine = queue.body.projects.find((p: { project_id: string }) => p.project_id === sub.body.id);
      expect(mine.description).toBe('# PlanetPal\n\n- **agent**\n- planner');
      expect(mine.description_html).toContain('<li><strong>agent</strong></li>');
    });
  });
});
