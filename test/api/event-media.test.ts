import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { approvedTeam, createEvent, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { statedSizePng, tinyJpeg, tinyPng, tinyWebp } from '../helpers/images.js';
import { callTool, connectMcp, toolOk, toolProblem } from '../helpers/mcp-client.js';
import { quickUser } from '../helpers/quick-users.js';

/** The contents of every <meta> tag of a page, by name or property. */
function metas(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<meta (?:name|property)="([^"]+)" content="([^"]*)" \/>/g)) out[m[1]!] = m[2]!;
  return out;
}

describe.each(DIALECTS)('event cover images and logos (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let other: TestUser;
  let eventId: string;
  let draftId: string;

  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { REVIEW_WORKERS: 'false', MEDIA_LOGO_MAX_BYTES: '2048' } });
    org = await quickUser(t, 'organizer');
    other = await quickUser(t, 'organizer');
    eventId = await createEvent(t, org.key, { name: 'Pictures' });
    draftId = await createEvent(t, org.key, { name: 'Hidden', status: 'draft' });
  });
  afterAll(async () => t?.close());

  /** PUT raw bytes (fetch directly: the harness sends strings). */
  async function upload(id: string, kind: string, bytes: Buffer, contentType: string | null, opts: { key?: string; query?: string } = {}) {
    const headers: Record<string, string> = { authorization: `Bearer ${opts.key ?? org.key}` };
    if (contentType) headers['content-type'] = contentType;
    const res = await fetch(`${t.url}/api/v1/events/${id}/media/${kind}${opts.query ?? ''}`, { method: 'PUT', headers, body: new Uint8Array(bytes) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  async function download(id: string, kind: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${t.url}/api/v1/events/${id}/media/${kind}`, { headers });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  it('has no cover or logo until one is uploaded', async () => {
    const ev = await t.api('GET', `/events/${eventId}`);
    expect(ev.body.cover_url).toBeNull();
    expect(ev.body.logo_url).toBeNull();
    const res = await t.api('GET', `/events/${eventId}/media/cover`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('media_not_found');
  });

  it.each([
    ['png', 'image/png', tinyPng(3, 2), 3, 2],
    ['jpeg', 'image/jpeg', tinyJpeg(4, 3), 4, 3],
    ['webp', 'image/webp', tinyWebp(5, 7), 5, 7],
  ])('takes a %s cover and serves it back byte for byte with fixed headers', async (_name, type, bytes, width, height) => {
    const sha = createHash('sha256').update(bytes).digest('hex');
    const put = await upload(eventId, 'cover', bytes, type, { query: `?filename=cover.${_name === 'jpeg' ? 'jpg' : _name}` });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ kind: 'cover', content_type: type, size: bytes.length, width, height, sha256: sha });
    const ev = await t.api('GET', `/events/${eventId}`);
    expect(ev.body.cover_url).toBe(`${t.config.publicUrl}/api/v1/events/${eventId}/media/cover?v=${sha.slice(0, 16)}`);
    expect(put.body.url).toBe(ev.body.cover_url);
    const list = await t.api<any[]>('GET', '/events');
    expect(list.body.find((e) => e.id === eventId).cover_url).toBe(ev.body.cover_url);

    const got = await download(eventId, 'cover');
    expect(got.status).toBe(200);
    expect(got.bytes.equals(bytes)).toBe(true);
    expect(got.headers.get('content-type')).toBe(type);
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('etag')).toBe(`"${sha}"`);
    expect(got.headers.get('cache-control')).toBe('public, max-age=300');
    expect(got.headers.get('content-disposition')).toBe(`inline; filename="cover.${_name === 'jpeg' ? 'jpg' : _name}"`);
    const versioned = await fetch(ev.body.cover_url.replace(t.config.publicUrl, t.url));
    expect(versioned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const again = await download(eventId, 'cover', { 'if-none-match': `"${sha}"` });
    expect(again.status).toBe(304);
  });

  it('keeps cover and logo apart, and removes each on DELETE', async () => {
    const logo = tinyPng(1, 1, [0, 0, 0]);
    expect((await upload(eventId, 'logo', logo, 'image/png')).status).toBe(200);
    const ev = await t.api('GET', `/events/${eventId}`);
    expect(ev.body.logo_url).toContain('/media/logo?v=');
    expect(ev.body.cover_url).toContain('/media/cover?v=');
    expect((await download(eventId, 'logo')).bytes.equals(logo)).toBe(true);

    const del = await t.api('DELETE', `/events/${eventId}/media/logo`, { key: org.key });
    expect(del.status).toBe(204);
    expect((await t.api('GET', `/events/${eventId}`)).body.logo_url).toBeNull();
    expect((await download(eventId, 'logo')).status).toBe(404);
    // Removing what is not there is no error.
    expect((await t.api('DELETE', `/events/${eventId}/media/logo`, { key: org.key })).status).toBe(204);
  });

  it('refuses an image over the kind’s size limit with 413 media_too_large', async () => {
    const big = tinyPng(40, 40);
    const padded = Buffer.concat([big, Buffer.alloc(3000)]);
    const res = await upload(eventId, 'logo', padded, 'image/png');
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('media_too_large');
    expect(res.body.max_bytes).toBe(2048);
    // Chunked (no Content-Length): cut while reading.
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new Uint8Array(padded));
        c.close();
      },
    });
    const chunked = await fetch(`${t.url}/api/v1/events/${eventId}/media/logo`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${org.key}`, 'content-type': 'image/png' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(((await chunked.json()) as { code: string }).code).toBe('media_too_large');
    // The same bytes are a fine cover (2 MB by default).
    expect((await upload(eventId, 'cover', padded, 'image/png')).status).toBe(200);
  });

  it('refuses what is not a PNG, JPEG or WebP, whatever it is called, with 415 media_type_unsupported', async () => {
    const cases: Array<[Buffer, string | null, string]> = [
      [Buffer.from('just some text'), 'image/png', '?filename=notes.png'],
      [Buffer.from('<html><script>alert(1)</script></html>'), 'image/png', '?filename=page.png'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 'image/png', '?filename=logo.png'],
      [Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), 'image/gif', ''],
      [tinyPng(), 'image/svg+xml', ''],
      [tinyPng(), 'text/plain', ''],
      [tinyPng(), null, ''],
      [Buffer.alloc(0), 'image/png', ''],
      [tinyPng().subarray(0, 20), 'image/png', ''],
    ];
    for (const [bytes, type, query] of cases) {
      const res = await upload(eventId, 'cover', bytes, type, { query });
      expect(res.status, `${type} ${query}`).toBe(415);
      expect(res.body.code).toBe('media_type_unsupported');
    }
  });

  it('refuses an image whose Content-Type or file name says another type with 415 media_type_mismatch', async () => {
    const wrongType = await upload(eventId, 'cover', tinyJpeg(), 'image/png');
    expect(wrongType.status).toBe(415);
    expect(wrongType.body).toMatchObject({ code: 'media_type_mismatch', detected: 'image/jpeg', declared: 'image/png' });
    const wrongName = await upload(eventId, 'cover', tinyPng(), 'image/png', { query: '?filename=cover.jpg' });
    expect(wrongName.status).toBe(415);
    expect(wrongName.body).toMatchObject({ code: 'media_type_mismatch', detected: 'image/png', declared: 'image/jpeg' });
    const htmlName = await upload(eventId, 'cover', tinyWebp(), 'image/webp', { query: '?filename=cover.html' });
    expect(htmlName.status).toBe(415);
    expect(htmlName.body.code).toBe('media_type_mismatch');
  });

  it('refuses an image wider than MEDIA_MAX_DIMENSION', async () => {
    const res = await upload(eventId, 'cover', tinyJpeg(9000, 10), 'image/jpeg');
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'media_too_large', max_dimension: 8192 });
  });

  it('refuses a tiny file that states a huge image (8192 × 8192: 64 megapixels over MEDIA_MAX_PIXELS), as a cover and as a logo', async () => {
    for (const kind of ['cover', 'logo'] as const) {
      const res = await upload(eventId, kind, statedSizePng(8192, 8192), 'image/png');
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ code: 'media_too_large', max_pixels: 16_777_216 });
    }
    expect((await upload(eventId, 'logo', statedSizePng(4096, 4096), 'image/png')).status).toBe(200);
  });

  it('lets only the event’s organizers upload or remove: 401 without a key, 403 for another organizer', async () => {
    const anon = await fetch(`${t.url}/api/v1/events/${eventId}/media/cover`, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: new Uint8Array(tinyPng()),
    });
    expect(anon.status).toBe(401);
    const foreign = await upload(eventId, 'cover', tinyPng(), 'image/png', { key: other.key });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('forbidden');
    const foreignDelete = await t.api('DELETE', `/events/${eventId}/media/cover`, { key: other.key });
    expect(foreignDelete.status).toBe(403);
    expect(foreignDelete.body.code).toBe('forbidden');
    expect((await download(eventId, 'cover')).status).toBe(200);
    // A co-organizer named by e-mail may.
    const co = await quickUser(t, 'user');
    const shared = await createEvent(t, org.key, { co_organizers: [co.email] });
    expect((await upload(shared, 'logo', tinyPng(), 'image/png', { key: co.key })).status).toBe(200);
    expect((await t.api('DELETE', `/events/${shared}/media/logo`, { key: co.key })).status).toBe(204);
    const unknown = await upload('evt_nope', 'cover', tinyPng(), 'image/png');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('event_not_found');
    const badKind = await upload(eventId, 'banner', tinyPng(), 'image/png');
    expect(badKind.status).toBe(422);
    expect(badKind.body.code).toBe('validation_failed');
  });

  it('hides a draft’s images like the draft: 404 to others, served privately to its organizers', async () => {
    const foreign = await upload(draftId, 'cover', tinyPng(), 'image/png', { key: other.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('event_not_found');
    expect((await upload(draftId, 'cover', tinyPng(), 'image/png')).status).toBe(200);
    const anon = await t.api('GET', `/events/${draftId}/media/cover`);
    expect(anon.status).toBe(404);
    expect(anon.body.code).toBe('event_not_found');
    expect((await t.api('GET', `/events/${draftId}/media/cover`, { key: other.key })).status).toBe(404);
    const own = await download(draftId, 'cover', { authorization: `Bearer ${org.key}` });
    expect(own.status).toBe(200);
    expect(own.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('puts the cover in the event page’s link preview (og:image, absolute)', async () => {
    const cover = (await t.api('GET', `/events/${eventId}`)).body.cover_url as string;
    const page = await t.request('GET', `/hackathons/${eventId}`);
    expect(page.status).toBe(200);
    const m = metas(page.text);
    expect(m['og:image']).toBe(cover.replaceAll('&', '&amp;'));
    expect(m['twitter:card']).toBe('summary_large_image');
    expect(m['twitter:image']).toBe(m['og:image']);
    const result = await t.request('GET', `/hackathons/${eventId}/result`);
    expect(metas(result.text)['og:image']).toBe(m['og:image']);
    // The draft's cover never reaches a page head.
    const draft = await t.request('GET', `/hackathons/${draftId}`);
    expect(metas(draft.text)['og:image']).toBeUndefined();
  });

  it('takes an image over MCP in base64 (upload_event_media) and removes it (remove_event_media)', async () => {
    const mcp = await connectMcp(t, org.key);
    const logo = tinyWebp(16, 16);
    const up = toolOk(
      await callTool(mcp, 'upload_event_media', {
        event_id: eventId,
        kind: 'logo',
        content_type: 'image/webp',
        data_base64: logo.toString('base64'),
        filename: 'logo.webp',
      }),
    );
    expect(up).toMatchObject({ kind: 'logo', content_type: 'image/webp', width: 16, height: 16, size: logo.length });
    expect((await download(eventId, 'logo')).bytes.equals(logo)).toBe(true);
    const wrong = toolProblem(
      await callTool(mcp, 'upload_event_media', { event_id: eventId, kind: 'logo', content_type: 'image/png', data_base64: logo.toString('base64') }),
    );
    expect(wrong).toMatchObject({ code: 'media_type_mismatch', status: 415 });
    const notImage = toolProblem(
      await callTool(mcp, 'upload_event_media', {
        event_id: eventId,
        kind: 'logo',
        content_type: 'image/png',
        data_base64: Buffer.from('<svg/>').toString('base64'),
      }),
    );
    expect(notImage).toMatchObject({ code: 'media_type_unsupported', status: 415 });
    expect(toolOk(await callTool(mcp, 'remove_event_media', { event_id: eventId, kind: 'logo' }))).toEqual({
      event_id: eventId,
      kind: 'logo',
      deleted: true,
    });
    expect((await t.api('GET', `/events/${eventId}`)).body.logo_url).toBeNull();
    await mcp.close();
  });

  it('previews a gallery project page with the event cover and the project’s own title', async () => {
    const id = await createEvent(t, org.key, { name: 'Showcase', models: [] });
    const { team } = await approvedTeam(t, id, org.key, { team_name: 'Owls', track_id: 'tools' });
    const sub = await t.api('POST', `/events/${id}/submit`, {
      key: team.key,
      body: { project_name: 'Owl CLI', description: 'A **fast** tool', github_url: 'https://github.com/owls/cli' },
    });
    expect(sub.status).toBe(201);
    expect((await upload(id, 'cover', tinyPng(12, 6), 'image/png')).status).toBe(200);
    const cover = (await t.api('GET', `/events/${id}`)).body.cover_url as string;
    t.clock.advance(3 * 86_400_000);
    const project = metas((await t.request('GET', `/hackathons/${id}/projects/${sub.body.id}`)).text);
    expect(project['og:title']).toBe('Owl CLI · Showcase · Hackathon platform');
    expect(project['og:description']).toBe('A fast tool');
    expect(project['og:image']).toBe(cover.replaceAll('&', '&amp;'));
    const gallery = metas((await t.request('GET', `/hackathons/${id}/gallery`)).text);
    expect(gallery['og:title']).toBe('Projects: Showcase · Hackathon platform');
    expect(gallery['og:image']).toBe(project['og:image']);
  });

  it('keeps the event row and the stored image in step under concurrent uploads', async () => {
    const images = Array.from({ length: 12 }, (_, i) => tinyPng(i + 1, 1));
    const answers = await Promise.all(images.map((img) => upload(eventId, 'cover', img, 'image/png')));
    expect(answers.map((a) => a.status)).toEqual(images.map(() => 200));
    const ev = await t.api('GET', `/events/${eventId}`);
    const got = await download(eventId, 'cover');
    const sha = createHash('sha256').update(got.bytes).digest('hex');
    expect(ev.body.cover_url).toBe(`${t.config.publicUrl}/api/v1/events/${eventId}/media/cover?v=${sha.slice(0, 16)}`);
    expect(images.some((img) => img.equals(got.bytes))).toBe(true);
    const rows = await t.ctx.db.selectFrom('event_media').select('kind').where('event_id', '=', eventId).execute();
    expect(rows.map((r) => r.kind).sort()).toEqual(['cover']);
  });

  it('leaves the JSON body limit of other routes as it was', async () => {
    const huge = JSON.stringify({ name: 'x'.repeat(200_000) });
    const res = await t.api('PATCH', `/events/${eventId}`, { key: org.key, raw: huge, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
  });
});

describe.each(DIALECTS)('the site logo (%s)', (dialect) => {
  let t: TestApp;
  let external: TestApp;
  let dir: string;
  const logo = tinyPng(8, 8, [10, 120, 200]);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hk-logo-'));
    writeFileSync(join(dir, 'logo.png'), logo);
    t = await startTestApp(dialect, {
      env: { REVIEW_WORKERS: 'false', SITE_NAME: 'Open Hack Days', SITE_LOGO_FILE: join(dir, 'logo.png'), OUTBOX_DIR: join(dir, 'outbox') },
    });
    external = await startTestApp(dialect, { env: { REVIEW_WORKERS: 'false', SITE_LOGO_URL: 'https://cdn.example.org/brand/logo.png' } });
  });
  afterAll(async () => {
    await t?.close();
    await external?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves SITE_LOGO_FILE at /site-logo with its checked type and names it in every page head', async () => {
    const sha = createHash('sha256').update(logo).digest('hex');
    const res = await fetch(`${t.url}/site-logo`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('etag')).toBe(`"${sha}"`);
    expect(Buffer.from(await res.arrayBuffer()).equals(logo)).toBe(true);
    const url = `${t.config.publicUrl}/site-logo?v=${sha.slice(0, 16)}`;
    const home = metas((await t.request('GET', '/')).text);
    expect(home['site-logo']).toBe(url);
    // Pages without an event cover preview with the site's logo.
    expect(home['og:image']).toBe(url);
    const org = await quickUser(t, 'organizer');
    const eventId = await createEvent(t, org.key);
    expect(metas((await t.request('GET', `/hackathons/${eventId}`)).text)['og:image']).toBe(url);
  });

  it('puts SITE_NAME (and the logo) into mails whose text does not name the site: a reviewer invitation', async () => {
    const org = await quickUser(t, 'organizer');
    const eventId = await createEvent(t, org.key);
    const invite = await t.api('POST', `/events/${eventId}/reviewers`, { key: org.key, body: { email: 'judge@example.com' } });
    expect(invite.status).toBe(201);
    const files = readdirSync(join(dir, 'outbox'));
    const mail = files.map((f) => readFileSync(join(dir, 'outbox', f), 'utf8')).find((m) => m.includes('judge@example.com'))!;
    expect(mail).toContain('This mail was sent by Open Hack Days');
    expect(mail).toContain('site-logo?v=');
  });

  it('lets the pages load an outside SITE_LOGO_URL: its origin joins img-src, nothing else changes', async () => {
    const page = await external.request('GET', '/');
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https://cdn.example.org; font-src 'self'; connect-src 'self'; frame-src https://www.youtube-nocookie.com https://player.vimeo.com https://www.loom.com https://player.bilibili.com; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(metas(page.text)['site-logo']).toBe('https://cdn.example.org/brand/logo.png');
    expect((await fetch(`${external.url}/site-logo`)).status).toBe(404);
  });
});
