import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGithubContextFetcher,
  DEFAULT_GITHUB_API_URL,
  isPrivateAddress,
  parseContentsListing,
  parseGithubRepo,
  publicOnlyLookup,
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
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    'nonsense',
  ])('%s is not public', (ip) => expect(isPrivateAddress(ip)).toBe(true));
  it.each(['140.82.112.6', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is public', (ip) => expect(isPrivateAddress(ip)).toBe(false));
});

describe('parseGithubRepo: look-alike hosts are not GitHub', () => {
  it.each([
    'https://evilgithub.com/acme/rocket',
    'https://github.com.evil.test/acme/rocket',
    'https://github.com./acme/rocket',
    'https://GITHUB.COM./acme/rocket',
    'https://api.github.com@evil.test/acme/rocket',
    'https://github.com:443@evil.test/acme/rocket',
    'https://github.com@evil.test/acme/rocket',
    'https://acme@github.com/acme/rocket',
    'https://:pw@github.com/acme/rocket',
    'https://gist.github.com/acme/rocket',
    'https://api.github.com/repos/acme/rocket',
    'https://xn--gthub-zsa.com/acme/rocket',
    'https://github.com\\@evil.test/acme/rocket',
    'https://github.com/acme--x/rocket',
    'https://github.com/acme-/rocket',
    'https://github.com/a/.',
    'https://github.com/%61cme/rocket',
    'https://github.com/acme/rocket%00',
    'javascript://github.com/acme/rocket',
    'https://github.com/' + 'a'.repeat(40) + '/rocket',
  ])('refuses %s', (url) => expect(parseGithubRepo(url)).toBeNull());

  it.each([
    ['HTTPS://GITHUB.COM/acme/rocket', 'acme/rocket'],
    ['https://github.com:443/acme/rocket', 'acme/rocket'],
    ['https://www.github.com/acme/rocket/', 'acme/rocket'],
    ['https://github.com/a-b-c/r_o.c-k', 'a-b-c/r_o.c-k'],
    ['https://github.com/' + 'a'.repeat(39) + '/x', 'a'.repeat(39) + '/x'],
  ])('accepts %s as %s', (url, repo) => {
    const r = parseGithubRepo(url);
    expect(r && `${r.owner}/${r.repo}`).toBe(repo);
  });
});

describe('isPrivateAddress: every special range is refused, through every IPv6 embedding', () => {
  it.each([
    ['loopback', '127.0.0.1'],
    ['loopback', '127.255.255.254'],
    ['private 10/8', '10.0.0.1'],
    ['private 172.16/12', '172.20.1.1'],
    ['private 192.168/16', '192.168.0.1'],
    ['link-local', '169.254.169.254'],
    ['CGNAT 100.64/10', '100.64.0.1'],
    ['CGNAT 100.64/10', '100.127.255.254'],
    ['multicast', '239.1.2.3'],
    ['broadcast', '255.255.255.255'],
    ['this network 0/8', '0.1.2.3'],
    ['unspecified', '0.0.0.0'],
    ['reserved 240/4', '240.0.0.1'],
    ['IETF protocol 192.0.0/24', '192.0.0.8'],
    ['benchmarking 198.18/15', '198.19.1.1'],
    ['documentation TEST-NET-1', '192.0.2.1'],
    ['documentation TEST-NET-2', '198.51.100.7'],
    ['documentation TEST-NET-3', '203.0.113.9'],
    ['6to4 relay anycast', '192.88.99.1'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unspecified', '::'],
    ['ULA fc00::/7', 'fc00::1'],
    ['ULA fd00::/8', 'fd12:3456::1'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 site-local', 'fec0::1'],
    ['IPv6 multicast', 'ff02::1'],
    ['IPv6 documentation', '2001:db8::1'],
    ['IPv6 benchmarking', '2001:2::1'],
    ['IPv6 discard', '100::1'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['NAT64 local-use', '64:ff9b:1::a00:1'],
    ['mapped loopback', '::ffff:127.0.0.1'],
    ['mapped private (hex)', '::ffff:a00:1'],
    ['mapped link-local (hex)', '::ffff:a9fe:a9fe'],
    ['mapped CGNAT', '::ffff:100.64.0.1'],
    ['translated private', '::ffff:0:10.0.0.1'],
    ['IPv4-compatible private', '::10.0.0.1'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['IPv4-compatible (hex) metadata', '::a9fe:a9fe'],
    ['IPv4-compatible this-network', '::0.0.0.2'],
    ['NAT64 private', '64:ff9b::10.0.0.1'],
    ['NAT64 loopback (hex)', '64:ff9b::7f00:1'],
    ['NAT64 metadata', '64:ff9b::169.254.169.254'],
    ['6to4 private', '2002:a00:1::1'],
    ['6to4 loopback', '2002:7f00:1::'],
    ['6to4 CGNAT', '2002:6440:1::1'],
    ['not an address', 'nonsense'],
    ['legacy IPv4 form', '0x7f.1'],
    ['integer IPv4 form', '2130706433'],
    ['empty', ''],
  ])('%s: %s is refused', (_what, ip) => expect(isPrivateAddress(ip)).toBe(true));

  it.each([
    '140.82.112.6',
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
    '::8.8.8.8',
  ])('%s is public', (ip) => expect(isPrivateAddress(ip)).toBe(false));
});

describe('publicOnlyLookup: checks every resolved address and hands the socket only what it checked', () => {
  type Cb = (err: NodeJS.ErrnoException | null, address?: unknown, family?: number) => void;
  /** A resolver that counts its calls and answers `answers`. */
  const resolver = (answers: LookupAddress[]) => {
    const calls: string[] = [];
    const fn = ((host: string, _opts: unknown, cb: Cb) => {
      calls.push(host);
      cb(null, answers);
    }) as never;
    return { fn, calls };
  };
  const run = (lookup: ReturnType<typeof publicOnlyLookup>, opts: object) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address?: unknown; family?: number }>((resolve) =>
      (lookup as unknown as (h: string, o: object, cb: Cb) => void)('api.github.com', opts, (err, address, family) => resolve({ err, address, family })),
    );

  it.each([
    [
      [
        { address: '140.82.112.6', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ],
    ],
    [
      [
        { address: '10.0.0.7', family: 4 },
        { address: '140.82.112.6', family: 4 },
      ],
    ],
    [
      [
        { address: '2606:4700::1111', family: 6 },
        { address: '::ffff:127.0.0.1', family: 6 },
      ],
    ],
    [
      [
        { address: '140.82.112.6', family: 4 },
        { address: '64:ff9b::a9fe:a9fe', family: 6 },
      ],
    ],
  ])('refuses a DNS answer mixing public and private addresses: %j', async (answers) => {
    const r = resolver(answers);
    for (const opts of [{}, { all: true }, { family: 4 }]) {
      const got = await run(publicOnlyLookup(r.fn), opts);
      expect(got.err?.code).toBe('EADDRNOTPUBLIC');
      expect(got.address).toBeUndefined();
    }
    expect(r.calls).toEqual(['api.github.com', 'api.github.com', 'api.github.com']);
  });

  it('refuses an empty answer', async () => {
    const got = await run(publicOnlyLookup(resolver([]).fn), { all: true });
    expect(got.err?.code).toBe('EADDRNOTPUBLIC');
  });

  it('resolves once and gives the socket exactly the addresses it checked', async () => {
    const answers = [
      { address: '140.82.112.6', family: 4 },
      { address: '2606:4700::1111', family: 6 },
    ];
    const r = resolver(answers);
    expect(await run(publicOnlyLookup(r.fn), { all: true })).toEqual({ err: null, address: answers, family: undefined });
    expect(await run(publicOnlyLookup(r.fn), {})).toEqual({ err: null, address: '140.82.112.6', family: 4 });
    expect(r.calls).toEqual(['api.github.com', 'api.github.com']);
  });

  it('the fetcher resolves the default API host only inside the socket lookup: a mixed answer means no connection', async () => {
    const resolved: string[] = [];
    const mixed = ((host: string, _opts: unknown, cb: Cb) => {
      resolved.push(host);
      cb(null, [
        { address: '140.82.112.6', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ]);
    }) as never;
    const f = createGithubContextFetcher({ apiUrl: DEFAULT_GITHUB_API_URL, token: undefined, timeoutMs: 1000, maxBytes: 2000 }, { lookup: mixed });
    const ctx = (await f.fetch('https://github.com/acme/rocket'))!;
    f.close();
    expect(ctx.readme).toBeNull();
    expect(ctx.entries).toBeNull();
    expect(ctx.notes).toEqual([
      'README not read: api.github.com resolves to a non-public address (127.0.0.1); refused',
      'file list not read: api.github.com resolves to a non-public address (127.0.0.1); refused',
    ]);
    // One resolution per connection (README and listing), none beforehand.
    expect(resolved).toEqual(['api.github.com', 'api.github.com']);
  });
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
    gh.repos.set('acme/rocket', {
      readme: '# Rocket\nIt flies.',
      entries: [
        { name: 'src', type: 'dir' },
        { name: 'package.json', type: 'file' },
      ],
    });
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

  it('sends nothing to the GitHub API for look-alike hosts, userinfo tricks or invalid owners', async () => {
    gh.repos.set('evil/rocket', { readme: 'should never be read' });
    const f = createGithubContextFetcher(cfg());
    const before = gh.requests.length;
    for (const url of [
      'https://evilgithub.com/evil/rocket',
      'https://github.com.evil.test/evil/rocket',
      'https://github.com./evil/rocket',
      'https://api.github.com@evil.test/evil/rocket',
      'https://github.com:443@evil.test/evil/rocket',
      'https://evil@github.com/evil/rocket',
      'https://github.com/evil-/rocket',
    ]) {
      expect(await f.fetch(url), url).toBeNull();
    }
    expect(gh.requests.length).toBe(before);
    // The same repository through a real GitHub URL is read (so the fake would have answered).
    expect((await f.fetch('HTTPS://GITHUB.COM/evil/rocket'))!.readme).toBe('should never be read');
    expect(gh.requests.length).toBe(before + 2);
    f.close();
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
    // The fake answers /acme/slow long after the limit: only the limit can produce this note.
    const ctx = (await createGithubContextFetcher(cfg({ timeoutMs: 200 })).fetch('https://github.com/acme/slow'))!;
    expect(ctx.readme).toBeNull();
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
