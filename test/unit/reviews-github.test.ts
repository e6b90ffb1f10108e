import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGithubContextFetcher,
  DEFAULT_GITHUB_API_URL,
  isPrivateAddress,
  parseContentsListing,
  parseGithubRepo,
} from '../../src/reviews/github-context.js';
import { startFakeGithub, type FakeGithub } from '../helpers/fake-providers.js';

describe('parseGithubRepo', () => {
  it.each([
    ['https://github.com/acme/rocket', 'acme/rocket'],
    ['https://github.com/acme/rocket.git', 'acme/rocket'],
    ['http://www.github.com/acme/rocket/tree/main/src?x=1#y', 'acme/rocket'],
    ['https://GitHub.com/Acme/Rocket.js', 'Acme/Rocket.js'],
  ])('%s -> %s', (url, repo) => {
    const r = parseGithubRepo(url);
    expect(r && `${r.owner}/${r.repo}`).toBe(repo);
  });

  it.each([
    'https://gitlab.com/acme/rocket',
    'https://github.com.evil.example/acme/rocket',
    'https://evil.example/github.com/acme/rocket',
    'https://user:pw@github.com/acme/rocket',
    'https://github.com:8443/acme/rocket',
    'https://github.com/acme',
    'https://github.com/acme/..',
    'https://github.com/-bad/rocket',
    'https://github.com/acme/rock%2Fet',
    'ftp://github.com/acme/rocket',
    'not a url',
  ])('refuses %s', (url) => expect(parseGithubRepo(url)).toBeNull());
});

describe('isPrivateAddress', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:a9fe:a9fe', '64:ff9b::10.0.0.1', 'nonsense'])(
    '%s is not public',
    (ip) => expect(isPrivateAddress(ip)).toBe(true),
  );
  it.each(['140.82.112.6', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is public', (ip) => expect(isPrivateAddress(ip)).toBe(false));
});

describe('parseContentsListing', () => {
  it('reads complete and truncated listings', () => {
    const full = JSON.stringify([
      { name: 'src', path: 'src', type: 'dir', _links: { self: 'x' } },
      { name: 'README.md', path: 'README.md', type: 'file', _links: { self: 'y' } },
    ]);
    expect(parseContentsListing(full)).toEqual(['src/', 'README.md']);
    expect(parseContentsListing(full.slice(0, full.indexOf('README.md') + 40))).toEqual(['src/']);
  });
});

describe('GitHub context fetcher', () => {
  let gh: FakeGithub;
  beforeAll(async () => {
    gh = await startFakeGithub();
    gh.repos.set('acme/rocket', { readme: '# Rocket\nIt flies.', entries: [{ name: 'src', type: 'dir' }, { name: 'package.json', type: 'file' }] });
    gh.repos.set('acme/big', { readme: 'é'.repeat(3000), entries: Array.from({ length: 300 }, (_, i) => ({ name: `file-${i}.txt`, type: 'file' as const })) });
    gh.repos.set('acme/moved', { redirectTo: 'http://169.254.169.254/latest/meta-data' });
    gh.repos.set('acme/slow', { readme: 'late', delayMs: 1500 });
    gh.repos.set('acme/limited', { status: 403 });
  });
  afterAll(async () => gh?.close());

  const cfg = (over: Partial<{ apiUrl: string; token: string; timeoutMs: number; maxBytes: number }> = {}) => ({
    apiUrl: gh.url,
    token: undefined as string | undefined,
    timeoutMs: 1000,
    maxBytes: 2000,
    ...over,
  });

  it('reads the README and the top-level tree through the configured API only, with the token', async () => {
    const f = createGithubContextFetcher(cfg({ token: 'ghp_secret' }));
    const before = gh.requests.length;
    const ctx = await f.fetch('https://github.com/acme/rocket');
    expect(ctx).toEqual({
      repo: 'acme/rocket',
      readme: '# Rocket\nIt flies.',
      readmeTruncated: false,
      entries: ['src/', 'package.json'],
      entriesTruncated: false,
      notes: [],
    });
    const reqs = gh.requests.slice(before);
    expect(reqs.map((r) => r.path).sort()).toEqual(['/repos/acme/rocket/contents', '/repos/acme/rocket/readme']);
    expect(reqs.find((r) => r.path.endsWith('/readme'))!.headers.accept).toBe('application/vnd.github.raw+json');
    expect(reqs.every((r) => r.headers.authorization === 'Bearer ghp_secret')).toBe(true);
  });

  it('never fetches anything for a URL that is not a github.com repository', async () => {
    const f = createGithubContextFetcher(cfg());
    const before = gh.requests.length;
    expect(await f.fetch('http://127.0.0.1:1/steal')).toBeNull();
    expect(await f.fetch(`${gh.url}/repos/acme/rocket/readme`)).toBeNull();
    expect(gh.requests.length).toBe(before);
  });

  it('cuts the README and the listing at the size limit, on a character boundary', async () => {
    const ctx = (await createGithubContextFetcher(cfg({ maxBytes: 1001 })).fetch('https://github.com/acme/big'))!;
    expect(Buffer.byteLength(ctx.readme!)).toBeLessThanOrEqual(1001);
    expect(ctx.readme!).toBe('é'.repeat(500));
    expect(ctx.readmeTruncated).toBe(true);
    expect(ctx.entries!.length).toBeGreaterThan(0);
    expect(ctx.entries!.join('\n').length).toBeLessThanOrEqual(1001);
    expect(ctx.entriesTruncated).toBe(true);
  });

  it('does not follow redirects', async () => {
    const ctx = (await createGithubContextFetcher(cfg()).fetch('https://github.com/acme/moved'))!;
    expect(ctx.readme).toBeNull();
    expect(ctx.notes.join(' ')).toMatch(/redirect \(HTTP 301\), which is not followed/);
  });

  it('gives up at the time limit and says so', async () => {
    const t0 = Date.now();
    const ctx = (await createGithubContextFetcher(cfg({ timeoutMs: 200 })).fetch('https://github.com/acme/slow'))!;
    expect(Date.now() - t0).toBeLessThan(1200);
    expect(ctx.notes.join(' ')).toMatch(/timed out after 200 ms/);
  });

  it('reports missing repositories and API errors as notes', async () => {
    const f = createGithubContextFetcher(cfg());
    expect((await f.fetch('https://github.com/acme/nope'))!.notes.join(' ')).toMatch(/no README.*not found through the GitHub API/);
    expect((await f.fetch('https://github.com/acme/limited'))!.notes.join(' ')).toMatch(/HTTP 403/);
  });

  it('refuses the default API host when it resolves to a private address (DNS rebinding)', async () => {
    const resolved: string[] = [];
    const evilLookup = ((host: string, _opts: unknown, cb: (e: null, a: LookupAddress[]) => void) => {
      resolved.push(host);
      cb(null, [{ address: '10.0.0.7', family: 4 }]);
    }) as never;
    const f = createGithubContextFetcher({ apiUrl: DEFAULT_GITHUB_API_URL, token: undefined, timeoutMs: 1000, maxBytes: 2000 }, { lookup: evilLookup });
    const ctx = (await f.fetch('https://github.com/acme/rocket'))!;
    expect(resolved).toContain('api.github.com');
    expect(ctx.readme).toBeNull();
    expect(ctx.notes.join(' ')).toMatch(/non-public address \(10\.0\.0\.7\); refused/);
  });
});
