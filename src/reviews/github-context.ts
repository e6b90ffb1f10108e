import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Config } from '../core/config.js';
import { isPrivateAddress, publicOnlyLookup, type LookupFn } from '../core/http/private-address.js';
import type { RepoContext } from './review-prompt.js';
import { MAX_COMMIT_DETAILS, retryAtFromHeaders, type CommitSize, type RepoFacts } from './build-window.js';

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
  headers: http.IncomingHttpHeaders;
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
        return resolve({ status, body: Buffer.alloc(0), truncated: false, headers: res.headers });
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
          resolve({ status, body: Buffer.concat(chunks), truncated, headers: res.headers });
          req.destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () => resolve({ status, body: Buffer.concat(chunks), truncated, headers: res.headers }));
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

/** The answer of a build-window facts read: the facts, or why not and when GitHub may be asked again. */
export type RepoFactsResult =
  | { ok: true; facts: RepoFacts }
  | {
      ok: false;
      /** true: GitHub refused for its rate limit (403/429 with Retry-After or X-RateLimit-Remaining 0). */
      rateLimited: boolean;
      reason: string;
      /** When to try again (epoch ms) if GitHub said; null: the caller's default. */
      retryAt: number | null;
    };

/** Largest download accepted for one page of the commit list (100 commits) and for the other reads. */
const COMMIT_PAGE_MAX_BYTES = 2 * 1024 * 1024;
const REPO_MAX_BYTES = 256 * 1024;
/** A commit's details carry its files' patches after its stats: only the start is read. */
const COMMIT_DETAIL_MAX_BYTES = 64 * 1024;
const COMMITS_PER_PAGE = 100;
const DETAIL_PARALLEL = 4;
const SHA = /^[0-9a-f]{40}$/;

/** The page number of a Link header's rel="last" (only the number is used: the link itself is never fetched). */
export function lastPage(link: string | string[] | undefined): number | null {
  const text = Array.isArray(link) ? link.join(',') : (link ?? '');
  for (const part of text.split(',')) {
    const m = /<([^>]*)>\s*;\s*rel="?last"?/.exec(part);
    if (!m) continue;
    const page = /[?&]page=(\d{1,7})(?:&|$)/.exec(m[1]!);
    if (page) return Number(page[1]);
  }
  return null;
}

/** `stats.additions + stats.deletions` of a commit's details, also from a cut-off body (stats come before the files). */
export function commitLines(text: string): number | null {
  const m = /"stats"\s*:\s*\{([^{}]*)\}/.exec(text);
  if (!m) return null;
  const num = (k: string) => {
    const v = new RegExp(`"${k}"\\s*:\\s*(\\d+)`).exec(m[1]!);
    return v ? Number(v[1]) : null;
  };
  const add = num('additions');
  const del = num('deletions');
  if (add !== null && del !== null) return add + del;
  return num('total');
}

export interface GithubContextFetcher {
  /** Context for a github.com repository URL; null when the URL is not one (then nothing is fetched). */
  fetch(githubUrl: string, signal?: AbortSignal): Promise<RepoContext | null>;
  /**
   * Build-window facts of a repository (metadata, oldest commit, commit sizes): at most
   * 3 + MAX_COMMIT_DETAILS requests, each within GITHUB_TIMEOUT_MS. Not cached here (the caller
   * keeps them in the database).
   */
  repoFacts(owner: string, repo: string, opts?: { signal?: AbortSignal | undefined; now?: (() => number) | undefined }): Promise<RepoFactsResult>;
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

  type Refusal = Extract<RepoFactsResult, { ok: false }>;
  class Refused extends Error {
    constructor(readonly refusal: Refusal) {
      super(refusal.reason);
    }
  }

  /** One JSON read for the facts; a refusal (rate limit, error status) is thrown as Refused. */
  interface FactsRun {
    signal: AbortSignal | undefined;
    /** The caller's clock: a Retry-After is counted from it. */
    now: () => number;
  }

  async function getJson(owner: string, repo: string, tail: string, query: Record<string, string>, maxBytes: number, run: FactsRun) {
    const outer = run.signal;
    const url = apiUrl(owner, repo, tail);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const deadline = AbortSignal.timeout(cfg.timeoutMs);
    const signal = outer ? AbortSignal.any([deadline, outer]) : deadline;
    let r: Fetched;
    try {
      r = await getLimited(url, { ...headers, accept: 'application/vnd.github+json' }, maxBytes, signal, lookup, agent);
    } catch (err) {
      throw new Refused({ ok: false, rateLimited: false, reason: `GitHub not reached: ${describeError(err, deadline.aborted, cfg.timeoutMs)}`, retryAt: null });
    }
    if (r.status === 403 || r.status === 429) {
      const retryAt = retryAtFromHeaders(r.headers, run.now());
      const limited = r.status === 429 || retryAt !== null;
      throw new Refused({ ok: false, rateLimited: limited, reason: `the GitHub API answered HTTP ${r.status}${limited ? ' (rate limit)' : ''}`, retryAt });
    }
    return r;
  }

  /** After a read that left no quota, the next read would be refused: stop here. */
  function checkQuota(r: Fetched, run: FactsRun) {
    if (r.headers['x-ratelimit-remaining'] === '0') {
      throw new Refused({ ok: false, rateLimited: true, reason: 'the GitHub API rate limit is used up', retryAt: retryAtFromHeaders(r.headers, run.now()) });
    }
  }

  function parseJson(r: Fetched, what: string): unknown {
    if (r.status !== 200 || r.truncated) {
      const why = r.truncated ? 'too large' : `HTTP ${r.status}`;
      throw new Refused({ ok: false, rateLimited: false, reason: `${what} not read: ${why}`, retryAt: null });
    }
    try {
      return JSON.parse(r.body.toString('utf8'));
    } catch {
      throw new Refused({ ok: false, rateLimited: false, reason: `${what} not read: not JSON`, retryAt: null });
    }
  }

  type CommitItem = { sha?: unknown; commit?: { author?: { date?: unknown }; committer?: { date?: unknown } } };
  const str = (v: unknown) => (typeof v === 'string' ? v : null);

  async function loadFacts(owner: string, repo: string, run: FactsRun): Promise<RepoFacts> {
    const meta = await getJson(owner, repo, '', {}, REPO_MAX_BYTES, run);
    const facts: RepoFacts = {
      repo: `${owner}/${repo}`,
      found: false,
      created_at: null,
      fork: false,
      parent: null,
      commit_count: 0,
      first_commit: null,
      commit_sizes: [],
    };
    if (meta.status === 404) return facts;
    const m = parseJson(meta, 'repository') as { full_name?: unknown; created_at?: unknown; fork?: unknown; parent?: { full_name?: unknown } };
    checkQuota(meta, run);
    facts.found = true;
    facts.repo = str(m.full_name) ?? facts.repo;
    facts.created_at = str(m.created_at);
    facts.fork = m.fork === true;
    facts.parent = str(m.parent?.full_name);

    const first = await getJson(owner, repo, '/commits', { per_page: String(COMMITS_PER_PAGE) }, COMMIT_PAGE_MAX_BYTES, run);
    // 409: the repository is empty (no commits).
    if (first.status === 409) return facts;
    let commits = parseJson(first, 'commit list') as CommitItem[];
    if (!Array.isArray(commits)) throw new Refused({ ok: false, rateLimited: false, reason: 'commit list not read: not a list', retryAt: null });
    const firstPageItems = commits;
    const pages = lastPage(first.headers.link);
    let count = commits.length;
    if (pages !== null && pages > 1) {
      checkQuota(first, run);
      const last = await getJson(owner, repo, '/commits', { per_page: String(COMMITS_PER_PAGE), page: String(pages) }, COMMIT_PAGE_MAX_BYTES, run);
      commits = parseJson(last, 'commit list') as CommitItem[];
      if (!Array.isArray(commits)) throw new Refused({ ok: false, rateLimited: false, reason: 'commit list not read: not a list', retryAt: null });
      count = (pages - 1) * COMMITS_PER_PAGE + commits.length;
    }
    facts.commit_count = count;
    const oldest = commits[commits.length - 1];
    const oldestSha = str(oldest?.sha);
    facts.first_commit =
      oldest && oldestSha ? { sha: oldestSha, author_date: str(oldest.commit?.author?.date), committer_date: str(oldest.commit?.committer?.date) } : null;

    if (count > MAX_COMMIT_DETAILS) {
      facts.commit_sizes = null;
      return facts;
    }
    const shas = firstPageItems.map((c) => str(c.sha)).filter((s): s is string => s !== null && SHA.test(s));
    if (shas.length !== count) {
      facts.commit_sizes = null;
      return facts;
    }
    checkQuota(first, run);
    const sizes: CommitSize[] = [];
    for (let i = 0; i < shas.length; i += DETAIL_PARALLEL) {
      const batch = shas.slice(i, i + DETAIL_PARALLEL);
      const got = await Promise.all(batch.map((sha) => getJson(owner, repo, `/commits/${sha}`, {}, COMMIT_DETAIL_MAX_BYTES, run)));
      for (const [j, r] of got.entries()) {
        const lines = r.status === 200 ? commitLines(r.body.toString('utf8')) : null;
        if (lines === null) throw new Refused({ ok: false, rateLimited: false, reason: `commit ${batch[j]} not read: HTTP ${r.status}`, retryAt: null });
        sizes.push({ sha: batch[j]!, lines });
      }
      const lastRead = got[got.length - 1];
      if (lastRead && i + DETAIL_PARALLEL < shas.length) checkQuota(lastRead, run);
    }
    facts.commit_sizes = sizes;
    return facts;
  }

  return {
    async repoFacts(owner, repo, opts = {}) {
      if (!OWNER.test(owner) || !REPO.test(repo) || repo === '.' || repo === '..') {
        return { ok: false, rateLimited: false, reason: 'not a GitHub repository name', retryAt: null };
      }
      if (!explicit && isIP(api.hostname) && isPrivateAddress(api.hostname)) {
        return { ok: false, rateLimited: false, reason: 'the GitHub API address is not public', retryAt: null };
      }
      try {
        return { ok: true, facts: await loadFacts(owner, repo, { signal: opts.signal, now: opts.now ?? now }) };
      } catch (err) {
        if (err instanceof Refused) return err.refusal;
        return { ok: false, rateLimited: false, reason: err instanceof Error ? err.message : String(err), retryAt: null };
      }
    },
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
