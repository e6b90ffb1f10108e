import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Config } from '../core/config.js';
import { isPrivateAddress, publicOnlyLookup, type LookupFn } from '../core/http/private-address.js';
import type { RepoContext } from './review-prompt.js';

export { isPrivateAddress, publicOnlyLookup };

/**
 * Repository context for the prompt, read through the GitHub REST API only.
 *
 * SSRF rules (a submitted URL is never fetched):
 * - the submitted github_url is only *parsed* for `owner/repo` (host github.com or www.github.com);
 *   every request goes to the configured GITHUB_API_URL host, to two fixed paths
 *   (`/repos/{o}/{r}/readme`, `/repos/{o}/{r}/contents`), with owner and repo strictly validated;
 * - redirects are never followed (node:http does not follow them; a 3xx is reported as a note);
 * - when GITHUB_API_URL is the default (api.github.com), the name must resolve to public addresses
 *   only: the check runs inside the socket's DNS lookup, so the address connected to is the address
 *   checked (no rebinding window). An operator who sets GITHUB_API_URL explicitly (GitHub Enterprise
 *   on a private network, a local fake in tests) has chosen that host: it is trusted as configured;
 * - hard limits: GITHUB_TIMEOUT_MS for the whole context (both requests in parallel), and
 *   GITHUB_MAX_BYTES for each piece put into the prompt (README text; tree listing). The contents
 *   listing is JSON with ~1 KB of metadata per entry, so its download may use up to 4× that; whatever
 *   is cut off is marked truncated.
 * A failure to read the repository is not a review failure: the prompt says what is missing.
 */
export const DEFAULT_GITHUB_API_URL = 'https://api.github.com';
const MAX_ENTRIES = 200;
const CACHE_TTL_MS = 10 * 60_000;
const CACHE_MAX = 2000;

// GitHub's own rules: a login is 1-39 letters, digits and single inner hyphens; a repository name
// is 1-100 letters, digits, '.', '_' and '-', and never '.' or '..'.
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
const REPO = /^[A-Za-z0-9._-]{1,100}$/;
const GITHUB_HOSTS = new Set(['github.com', 'www.github.com']);

/**
 * `owner/repo` of a GitHub repository URL, or null for anything else (nothing is fetched then).
 * The rule, exactly: an absolute http(s) URL as the WHATWG URL parser reads it (so `\`, case and
 * default ports are normalised the way a browser would), no user name or password, no port other
 * than the scheme's default, host exactly `github.com` or `www.github.com` (no trailing dot, no
 * look-alikes such as `evilgithub.com` or `github.com.evil.test`), and a path that starts with
 * `/<owner>/<repo>` (an optional `.git` suffix is dropped; deeper paths, query and fragment are
 * ignored) with owner and repo valid GitHub names as above.
 */
export function parseGithubRepo(raw: string): { owner: string; repo: string } | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
  if (u.username || u.password || u.port) return null;
  if (!GITHUB_HOSTS.has(u.hostname)) return null;
  const [owner, repoRaw] = u.pathname.split('/').filter(Boolean);
  if (!owner || !repoRaw) return null;
  const repo = repoRaw.replace(/\.git$/i, '');
  if (!OWNER.test(owner) || !REPO.test(repo) || repo === '.' || repo === '..') return null;
  return { owner, repo };
}

interface Fetched {
  status: number;
  body: Buffer;
  truncated: boolean;
}

function getLimited(
  url: URL,
  headers: Record<string, string>,
  maxBytes: number,
  signal: AbortSignal,
  lookup: LookupFn | undefined,
  agent: http.Agent,
): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, { method: 'GET', headers, signal, agent, ...(lookup ? { lookup } : {}) }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        res.resume();
        req.destroy();
        return resolve({ status, body: Buffer.alloc(0), truncated: false });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = maxBytes - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          size = maxBytes;
          truncated = true;
          resolve({ status, body: Buffer.concat(chunks), truncated });
          req.destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () => resolve({ status, body: Buffer.concat(chunks), truncated }));
      res.on('error', (err) => (truncated ? undefined : reject(err)));
    });
    req.on('error', reject);
    req.end();
  });
}

function describeError(err: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `timed out after ${timeoutMs} ms`;
  const e = err as { code?: string; message?: string };
  return e?.message ?? e?.code ?? String(err);
}

/** Cuts UTF-8 text to at most `maxBytes` bytes without splitting a character. */
function cutUtf8(buf: Buffer, maxBytes: number): { text: string; cut: boolean } {
  if (buf.length <= maxBytes) return { text: buf.toString('utf8'), cut: false };
  let end = maxBytes;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return { text: buf.subarray(0, end).toString('utf8'), cut: true };
}

/** Entry names from the contents listing; from a truncated listing, as many complete entries as can be read. */
export function parseContentsListing(text: string): string[] {
  try {
    const arr = JSON.parse(text) as unknown;
    if (Array.isArray(arr)) {
      return arr
        .filter((e): e is { name: string; type?: string } => typeof e === 'object' && e !== null && typeof (e as { name?: unknown }).name === 'string')
        .map((e) => (e.type === 'dir' ? `${e.name}/` : e.name));
    }
    return [];
  } catch {
    const out: string[] = [];
    const re = /"name"\s*:\s*"((?:[^"\\]|\\.)*)"[^{}]*?"type"\s*:\s*"(\w+)"/g;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      let name: string;
      try {
        name = JSON.parse(`"${m[1]}"`) as string;
      } catch {
        continue;
      }
      out.push(m[2] === 'dir' ? `${name}/` : name);
    }
    return out;
  }
}

export interface GithubContextFetcher {
  /** Context for a github.com repository URL; null when the URL is not one (then nothing is fetched). */
  fetch(githubUrl: string, signal?: AbortSignal): Promise<RepoContext | null>;
  /** Closes idle kept-alive connections. */
  close(): void;
}

export function createGithubContextFetcher(cfg: Config['github'], opts: { lookup?: LookupFn; now?: () => number } = {}): GithubContextFetcher {
  const api = new URL(cfg.apiUrl);
  const explicit = cfg.apiUrl.replace(/\/+$/, '') !== DEFAULT_GITHUB_API_URL;
  const lookup = explicit ? undefined : publicOnlyLookup(opts.lookup);
  const now = opts.now ?? Date.now;
  const cache = new Map<string, { expires: number; value: Promise<RepoContext> }>();
  const basePath = api.pathname.replace(/\/+$/, '');
  // Connections to the one API host are kept alive and reused (a socket is checked by the lookup
  // when it is opened, so reuse keeps the address check).
  const agent = api.protocol === 'https:' ? new https.Agent({ keepAlive: true, maxSockets: 32 }) : new http.Agent({ keepAlive: true, maxSockets: 32 });
  const headers: Record<string, string> = {
    'user-agent': 'hackathon-platform-reviews',
    'x-github-api-version': '2022-11-28',
    ...(cfg.token ? { authorization: `Bearer ${cfg.token}` } : {}),
  };

  function apiUrl(owner: string, repo: string, tail: string): URL {
    const u = new URL(api.origin);
    u.pathname = `${basePath}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}${tail}`;
    // Belt and braces: the request can only ever go to the configured origin.
    if (u.origin !== api.origin) throw new Error('refusing a request outside the configured GitHub API');
    return u;
  }

  async function load(owner: string, repo: string, outer: AbortSignal | undefined): Promise<{ ctx: RepoContext; cacheable: boolean }> {
    const deadline = AbortSignal.timeout(cfg.timeoutMs);
    const signal = outer ? AbortSignal.any([deadline, outer]) : deadline;
    const ctx: RepoContext = { repo: `${owner}/${repo}`, readme: null, readmeTruncated: false, entries: null, entriesTruncated: false, notes: [] };
    let cacheable = true;

    if (!explicit && isIP(api.hostname) && isPrivateAddress(api.hostname)) {
      ctx.notes.push('repository context unavailable: the GitHub API address is not public');
      return { ctx, cacheable: false };
    }

    const [readme, contents] = await Promise.allSettled([
      getLimited(apiUrl(owner, repo, '/readme'), { ...headers, accept: 'application/vnd.github.raw+json' }, cfg.maxBytes + 4, signal, lookup, agent),
      getLimited(apiUrl(owner, repo, '/contents'), { ...headers, accept: 'application/vnd.github+json' }, cfg.maxBytes * 4, signal, lookup, agent),
    ]);

    if (readme.status === 'fulfilled') {
      const r = readme.value;
      if (r.status === 200) {
        const { text, cut } = cutUtf8(r.body, cfg.maxBytes);
        ctx.readme = text;
        ctx.readmeTruncated = cut || r.truncated;
      } else if (r.status === 404) ctx.notes.push('the repository has no README (or it is private or does not exist)');
      else if (r.status >= 300 && r.status < 400)
        ctx.notes.push(`README not read: the GitHub API answered a redirect (HTTP ${r.status}), which is not followed`);
      else {
        ctx.notes.push(`README not read: the GitHub API answered HTTP ${r.status}`);
        cacheable = false;
      }
    } else {
      ctx.notes.push(`README not read: ${describeError(readme.reason, deadline.aborted, cfg.timeoutMs)}`);
      cacheable = false;
    }

    if (contents.status === 'fulfilled') {
      const r = contents.value;
      if (r.status === 200) {
        const names = parseContentsListing(r.body.toString('utf8'));
        let kept = names.slice(0, MAX_ENTRIES);
        let size = 0;
        kept = kept.filter((n) => (size += Buffer.byteLength(n) + 1) <= cfg.maxBytes);
        ctx.entries = kept;
        ctx.entriesTruncated = r.truncated || kept.length < names.length;
      } else if (r.status === 404) ctx.notes.push('the repository was not found through the GitHub API (it may be private or deleted)');
      else if (r.status >= 300 && r.status < 400)
        ctx.notes.push(`file list not read: the GitHub API answered a redirect (HTTP ${r.status}), which is not followed`);
      else {
        ctx.notes.push(`file list not read: the GitHub API answered HTTP ${r.status}`);
        cacheable = false;
      }
    } else {
      ctx.notes.push(`file list not read: ${describeError(contents.reason, deadline.aborted, cfg.timeoutMs)}`);
      cacheable = false;
    }
    return { ctx, cacheable };
  }

  return {
    async fetch(githubUrl, signal) {
      const parsed = parseGithubRepo(githubUrl);
      if (!parsed) return null;
      const key = `${parsed.owner}/${parsed.repo}`.toLowerCase();
      const t = now();
      const hit = cache.get(key);
      if (hit && hit.expires > t) return hit.value;
      // Several models review the same project at about the same time: share one fetch. Results
      // with a transport error or an unexpected status are not kept, so the next review tries again.
      const entry = { expires: t + CACHE_TTL_MS, value: null as unknown as Promise<RepoContext> };
      entry.value = load(parsed.owner, parsed.repo, signal).then(({ ctx, cacheable }) => {
        if (!cacheable && cache.get(key) === entry) cache.delete(key);
        return ctx;
      });
      cache.delete(key);
      cache.set(key, entry);
      if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
      return entry.value;
    },
    close: () => agent.destroy(),
  };
}
