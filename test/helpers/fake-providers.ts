import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * Fake model providers and a fake GitHub API for tests and the benchmark, on 127.0.0.1 (port 0).
 * Nothing here talks to the internet.
 *
 * Both model fakes are scriptable per model (`script('gpt-x', [...])`: one behaviour per call, in
 * order; after the script runs out, the model's default, then the server's default) and record every
 * request they got, so tests can assert what was sent (the json_schema response format, the fenced
 * untrusted content) and count calls.
 *
 * Injection screening's classification requests (INJECTION_CLASSIFIER) are recognised by their reply
 * format (OpenAI json_schema `injection_screening`, Anthropic tool `report_injections`), recorded with
 * `purpose: 'screening'` and the numbered passages they carried, and answered from their own scripts
 * (`scriptScreening`, `setScreeningDefault`; by default `{"injections": []}`), never from a model's
 * review script.
 */
export type Behaviour =
  /** A valid reply: every requested dimension scored (`scores` per dimension or one number; default 7); `after` holds it until the promise settles. */
  | { kind: 'ok'; scores?: Record<string, number> | number; summary?: string; delayMs?: number; after?: Promise<unknown> }
  /** Text that is not JSON at all. */
  | { kind: 'garbage' }
  /** A valid-looking reply without the named (default: the last) dimension. */
  | { kind: 'omit'; dimension?: string }
  /** Every score 11 (or `value`). */
  | { kind: 'out-of-range'; value?: number }
  /** The reply content verbatim (OpenAI: message content; Anthropic: tool input, parsed if JSON). */
  | { kind: 'raw'; content: string }
  /** Never answers; the request is held until the client gives up or the fake closes. */
  | { kind: 'hang' }
  /** An HTTP error, e.g. 429 with `retryAfter: '2'`, or 500. */
  | { kind: 'status'; status: number; retryAfter?: string; message?: string }
  /** Picks the behaviour from the prompt (e.g. per project name), for exact per-project scores. */
  | { kind: 'by-prompt'; choose: (prompt: string) => Behaviour }
  /** A screening answer: the numbers of the passages containing any of `containing` (case-insensitive), plus `numbers`. */
  | { kind: 'injections'; containing?: string[]; numbers?: number[] };

export interface RecordedCall {
  /** The path prefix before the API path (e.g. '/a' for `<url>/a/v1/chat/completions`): tells callers apart. */
  prefix: string;
  path: string;
  model: string;
  headers: IncomingMessage['headers'];
  body: any;
  /** The dimensions requested by the schema sent. */
  dimensions: string[];
  /** All prompt text sent (system + user), for content assertions. */
  prompt: string;
  behaviour: Behaviour['kind'];
  /** A review (scores) or an injection screening's classification. */
  purpose: 'review' | 'screening';
  /** Screening requests: the numbered passages sent (`[n] text` lines of the fenced block), by number − 1. */
  passages: string[];
}

interface FakeBase {
  url: string;
  calls: RecordedCall[];
  callsFor(model: string): RecordedCall[];
  script(model: string, behaviours: Behaviour[]): void;
  setDefault(behaviour: Behaviour, model?: string): void;
  /** Like script/setDefault, for the screening requests of a model. */
  scriptScreening(model: string, behaviours: Behaviour[]): void;
  setScreeningDefault(behaviour: Behaviour, model?: string): void;
  /** Latency added to every answer (the benchmark's 200 ms). */
  latencyMs: number;
  /** Requests currently held by `hang`. */
  held(): RecordedCall[];
  /** Resolves when at least `n` requests are held. */
  waitForHeld(n?: number, timeoutMs?: number): Promise<RecordedCall[]>;
  /** Ends every held request by destroying its socket (what a dead upstream looks like). */
  releaseHeld(): void;
  /** Model requests being answered right now (held or gated ones included), in all or under one path prefix. */
  inFlight(prefix?: string): number;
  /** The most model requests that were being answered at once since the start (or reset), in all or under one prefix. */
  maxInFlight(prefix?: string): number;
  reset(): void;
  close(): Promise<void>;
}

export type FakeProvider = FakeBase;

type Flavour = 'openai' | 'anthropic';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

function trackSockets(server: Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return sockets;
}

function scoresFor(dims: string[], b: Behaviour): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const d of dims) {
    if (b.kind === 'ok') out[d] = typeof b.scores === 'number' ? b.scores : (b.scores?.[d] ?? 7);
    else if (b.kind === 'out-of-range') out[d] = b.value ?? 11;
    else out[d] = 7;
  }
  if (b.kind === 'omit') delete out[b.dimension ?? dims[dims.length - 1]!];
  return out;
}

/** The reply content a behaviour produces, as text. */
function contentFor(dims: string[], b: Behaviour, passages: string[] | null): string {
  if (passages && (b.kind === 'ok' || b.kind === 'injections')) {
    const words = b.kind === 'injections' ? (b.containing ?? []).map((w) => w.toLowerCase()) : [];
    const found = passages.flatMap((p, i) => (words.some((w) => p.toLowerCase().includes(w)) ? [i + 1] : []));
    const numbers = [...new Set([...found, ...(b.kind === 'injections' ? (b.numbers ?? []) : [])])];
    return JSON.stringify({ injections: numbers });
  }
  switch (b.kind) {
    case 'garbage':
      return 'Sure! Here is my review: the project looks great, 9/10.';
    case 'raw':
      return b.content;
    case 'ok':
      return JSON.stringify({ scores: scoresFor(dims, b), summary: b.summary ?? 'A solid project.' });
    default:
      return JSON.stringify({ scores: scoresFor(dims, b), summary: 'A review.' });
  }
}

/**
 * An async request handler for createServer: a bug in it ends that connection and is rethrown as an
 * uncaught error, so the test run reports it instead of a client hanging on.
 */
function handled(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>): RequestListener {
  return (req, res) => {
    handler(req, res).catch((err: unknown) => {
      res.destroy();
      process.nextTick(() => {
        throw err;
      });
    });
  };
}

function createFake(flavour: Flavour): Promise<FakeBase> {
  const scripts = new Map<string, Behaviour[]>();
  const defaults = new Map<string, Behaviour>();
  let fallback: Behaviour = { kind: 'ok' };
  const screeningScripts = new Map<string, Behaviour[]>();
  const screeningDefaults = new Map<string, Behaviour>();
  let screeningFallback: Behaviour = { kind: 'injections' };
  const calls: RecordedCall[] = [];
  const holding = new Map<RecordedCall, ServerResponse>();
  const heldWaiters: Array<() => void> = [];
  // Concurrency per path prefix ('' = all): how many model requests are open now, and the peak.
  const open = new Map<string, { now: number; max: number }>();
  const counter = (key: string) => open.get(key) ?? open.set(key, { now: 0, max: 0 }).get(key)!;

  const server = createServer(
    handled(async (req, res) => {
      const url = req.url ?? '/';
      const apiPath = flavour === 'openai' ? '/chat/completions' : '/v1/messages';
      const at = url.indexOf(apiPath);
      if (req.method !== 'POST' || at < 0) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${url}` } }));
        return;
      }
      const text = await readBody(req);
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        res.writeHead(400).end('bad json');
        return;
      }
      const model = String(body.model ?? '');
      const schema = flavour === 'openai' ? body.response_format?.json_schema?.schema : body.tools?.[0]?.input_schema;
      const dimensions: string[] = schema?.properties?.scores?.required ?? [];
      const prompt =
        flavour === 'openai'
          ? (body.messages ?? []).map((m: { content: string }) => m.content).join('\n')
          : `${body.system ?? ''}\n${(body.messages ?? []).map((m: { content: string }) => m.content).join('\n')}`;
      const screening =
        flavour === 'openai' ? body.response_format?.json_schema?.name === 'injection_screening' : body.tools?.[0]?.name === 'report_injections';
      const passages: string[] = [];
      if (screening) for (const m of prompt.matchAll(/^\[(\d+)\] (.*)$/gm)) passages[Number(m[1]) - 1] = m[2]!;
      const script = (screening ? screeningScripts : scripts).get(model);
      let b: Behaviour =
        script && script.length ? script.shift()! : screening ? (screeningDefaults.get(model) ?? screeningFallback) : (defaults.get(model) ?? fallback);
      while (b.kind === 'by-prompt') b = b.choose(prompt);
      const call: RecordedCall = {
        prefix: url.slice(0, at).replace(/\/v1$/, ''),
        path: url,
        model,
        headers: req.headers,
        body,
        dimensions,
        prompt,
        behaviour: b.kind,
        purpose: screening ? 'screening' : 'review',
        passages,
      };
      calls.push(call);
      const counters = [...new Set([counter(''), counter(call.prefix)])];
      for (const c of counters) c.max = Math.max(c.max, ++c.now);
      res.once('close', () => {
        for (const c of counters) c.now--;
      });

      if (b.kind === 'hang') {
        holding.set(call, res);
        res.on('close', () => holding.delete(call));
        for (const w of heldWaiters.splice(0)) w();
        return;
      }
      // A gated answer: the test decides when it arrives (no timing involved).
      if (b.kind === 'ok' && b.after) await b.after;
      const delay = fake.latencyMs + (b.kind === 'ok' ? (b.delayMs ?? 0) : 0);
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      if (res.destroyed) return;

      if (b.kind === 'status') {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (b.retryAfter !== undefined) headers['retry-after'] = b.retryAfter;
        const err =
          flavour === 'openai'
            ? { error: { message: b.message ?? `fake error ${b.status}`, type: 'fake_error', code: null } }
            : { type: 'error', error: { type: 'fake_error', message: b.message ?? `fake error ${b.status}` } };
        res.writeHead(b.status, headers).end(JSON.stringify(err));
        return;
      }
      const content = contentFor(dimensions, b, screening ? passages : null);
      const usage = { in: 100 + Math.floor(prompt.length / 4), out: 20 + Math.floor(content.length / 4) };
      let payload: unknown;
      if (flavour === 'openai') {
        payload = {
          id: `chatcmpl-${calls.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content, refusal: null } }],
          usage: { prompt_tokens: usage.in, completion_tokens: usage.out, total_tokens: usage.in + usage.out },
        };
      } else {
        let input: unknown = content;
        try {
          input = JSON.parse(content);
        } catch {
          /* garbage: the model answered with text instead of the tool */
        }
        const block =
          typeof input === 'object' && input !== null
            ? { type: 'tool_use', id: `toolu_${calls.length}`, name: body.tools?.[0]?.name ?? 'submit_review', input }
            : { type: 'text', text: content };
        payload = {
          id: `msg_${calls.length}`,
          type: 'message',
          role: 'assistant',
          model,
          content: [block],
          stop_reason: block.type === 'tool_use' ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: usage.in, output_tokens: usage.out },
        };
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    }),
  );
  const sockets = trackSockets(server);

  const fake: FakeBase = {
    url: '',
    calls,
    latencyMs: 0,
    callsFor: (model) => calls.filter((c) => c.model === model),
    script: (model, behaviours) => void scripts.set(model, [...behaviours]),
    setDefault: (behaviour, model) => (model ? void defaults.set(model, behaviour) : void (fallback = behaviour)),
    scriptScreening: (model, behaviours) => void screeningScripts.set(model, [...behaviours]),
    setScreeningDefault: (behaviour, model) => (model ? void screeningDefaults.set(model, behaviour) : void (screeningFallback = behaviour)),
    held: () => [...holding.keys()],
    async waitForHeld(n = 1, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (holding.size < n) {
        if (Date.now() > deadline) throw new Error(`waitForHeld: ${holding.size} of ${n} requests held after ${timeoutMs} ms`);
        await new Promise<void>((r) => {
          heldWaiters.push(r);
          setTimeout(r, 50);
        });
      }
      return [...holding.keys()];
    },
    inFlight: (prefix = '') => open.get(prefix)?.now ?? 0,
    maxInFlight: (prefix = '') => open.get(prefix)?.max ?? 0,
    releaseHeld() {
      for (const res of holding.values()) res.socket?.destroy();
      holding.clear();
    },
    reset() {
      calls.length = 0;
      for (const c of open.values()) c.max = c.now;
      scripts.clear();
      defaults.clear();
      fallback = { kind: 'ok' };
      screeningScripts.clear();
      screeningDefaults.clear();
      screeningFallback = { kind: 'injections' };
      fake.latencyMs = 0;
    },
    async close() {
      fake.releaseHeld();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  return listen(server).then((url) => {
    fake.url = url;
    return fake;
  });
}

/** An OpenAI-compatible server: `POST {url}[/prefix]/v1/chat/completions`. Use `${url}/v1` as base URL. */
export function startFakeOpenAI(): Promise<FakeProvider> {
  return createFake('openai');
}

/** An Anthropic Messages API server: `POST {url}/v1/messages`. Use `url` as base URL. */
export function startFakeAnthropic(): Promise<FakeProvider> {
  return createFake('anthropic');
}

export interface FakeRepo {
  readme?: string | null;
  entries?: Array<{ name: string; type: 'file' | 'dir' }>;
  /** Answer every request for this repository with this status (e.g. 403, 500). */
  status?: number;
  /** Answer with a redirect to this location (must never be followed). */
  redirectTo?: string;
  /** Delay before answering, to test the time limit. */
  delayMs?: number;
  /** `GET /repos/{o}/{r}`: without it that path is 404 (the README and contents still answer). */
  meta?: { created_at: string; fork?: boolean; parent?: string };
  /** The default branch's commits, newest first (`GET …/commits`, paginated with Link; `…/commits/{sha}` with stats). */
  commits?: FakeCommit[];
  /** Headers added to every answer for this repository (e.g. X-RateLimit-Remaining, Retry-After). */
  headers?: Record<string, string>;
}

export interface FakeCommit {
  sha: string;
  /** Author date; the committer date too unless `committed` is given. */
  date: string;
  committed?: string;
  additions: number;
  deletions: number;
}

/** A 40-hex sha from a short label (`sha('a1')`), for fake commits. */
export function fakeSha(label: string): string {
  return Buffer.from(label).toString('hex').padEnd(40, '0').slice(0, 40);
}

/** `n` commits, newest first, one an hour back from `newest`, each with `lines(i)` added lines (i = 0 is the oldest). */
export function fakeCommits(n: number, newest: string, lines: (i: number) => number = () => 10, stepMs = 3_600_000): FakeCommit[] {
  const out: FakeCommit[] = [];
  for (let k = 0; k < n; k++) {
    const i = n - 1 - k;
    out.push({
      sha: fakeSha(`c${i}-${n}`),
      date: new Date(Date.parse(newest) - k * stepMs).toISOString().replace('.000Z', 'Z'),
      additions: lines(i),
      deletions: 0,
    });
  }
  return out;
}

export interface FakeGithub {
  url: string;
  repos: Map<string, FakeRepo>;
  requests: Array<{ path: string; query: string; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

/**
 * A fake GitHub REST API: `GET /repos/{o}/{r}/readme` (raw README text),
 * `GET /repos/{o}/{r}` (metadata: created_at, fork, parent; 404 without `meta`), `GET /repos/{o}/{r}/commits`
 * (paginated with `Link: rel="next"`/`rel="last"`; 409 when empty), `GET /repos/{o}/{r}/commits/{sha}` (stats) and
 * `GET /repos/{o}/{r}/contents` (top-level listing, GitHub's JSON shape). Unknown repositories 404.
 */
export async function startFakeGithub(): Promise<FakeGithub> {
  const repos = new Map<string, FakeRepo>();
  const requests: FakeGithub['requests'] = [];
  let url = '';
  const server = createServer(
    handled(async (req, res) => {
      const [path, query = ''] = (req.url ?? '/').split('?') as [string, string?];
      requests.push({ path, query, headers: req.headers });
      const m = /^\/repos\/([^/]+)\/([^/]+)(?:\/(readme|contents|commits)(?:\/([0-9a-f]{40}))?)?$/.exec(path);
      const repo = m ? repos.get(`${decodeURIComponent(m[1]!)}/${decodeURIComponent(m[2]!)}`.toLowerCase()) : undefined;
      if (repo?.headers) for (const [k, v] of Object.entries(repo.headers)) res.setHeader(k, v);
      if (!m || !repo || (m[3] !== 'commits' && m[4]) || (!m[3] && !repo.meta && !repo.status) || (m[3] === 'commits' && !repo.commits && !repo.status)) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Not Found' }));
        return;
      }
      if (repo.delayMs) await new Promise((r) => setTimeout(r, repo.delayMs));
      if (res.destroyed) return;
      if (repo.redirectTo) {
        res.writeHead(301, { location: repo.redirectTo }).end();
        return;
      }
      if (repo.status) {
        res.writeHead(repo.status, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'fake failure' }));
        return;
      }
      const json = (body: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
      const full = `${m[1]}/${m[2]}`;
      if (!m[3]) {
        const meta = repo.meta!;
        json({
          id: 1,
          name: m[2],
          full_name: full,
          private: false,
          fork: meta.fork ?? false,
          created_at: meta.created_at,
          default_branch: 'main',
          ...(meta.parent ? { parent: { full_name: meta.parent }, source: { full_name: meta.parent } } : {}),
        });
        return;
      }
      if (m[3] === 'commits') {
        const all = repo.commits!;
        const item = (c: FakeCommit) => ({
          sha: c.sha,
          commit: { author: { name: 'dev', date: c.date }, committer: { name: 'dev', date: c.committed ?? c.date }, message: 'work' },
          parents: [],
        });
        if (m[4]) {
          const c = all.find((x) => x.sha === m[4]);
          if (!c) return void res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'No commit found' }));
          json({
            ...item(c),
            stats: { total: c.additions + c.deletions, additions: c.additions, deletions: c.deletions },
            files: [{ filename: 'src/main.ts', additions: c.additions, deletions: c.deletions, patch: '+x\n'.repeat(Math.min(c.additions, 5000)) }],
          });
          return;
        }
        if (all.length === 0)
          return void res.writeHead(409, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Git Repository is empty.' }));
        const params = new URLSearchParams(query);
        const per = Math.min(100, Number(params.get('per_page') ?? 30));
        const page = Math.max(1, Number(params.get('page') ?? 1));
        const pages = Math.max(1, Math.ceil(all.length / per));
        const link = (n: number, rel: string) => `<${url}/repos/${full}/commits?per_page=${per}&page=${n}>; rel="${rel}"`;
        const links = page < pages ? [link(page + 1, 'next'), link(pages, 'last')] : [];
        json(all.slice((page - 1) * per, page * per).map(item), links.length ? { link: links.join(', ') } : {});
        return;
      }
      if (m[3] === 'readme') {
        if (repo.readme === null || repo.readme === undefined) {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Not Found' }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/vnd.github.raw+json; charset=utf-8' }).end(repo.readme);
        return;
      }
      const listing = (repo.entries ?? []).map((e) => ({
        name: e.name,
        path: e.name,
        sha: '0'.repeat(40),
        size: e.type === 'dir' ? 0 : 123,
        url: `https://api.github.com/repos/${m[1]}/${m[2]}/contents/${e.name}?ref=main`,
        html_url: `https://github.com/${m[1]}/${m[2]}/blob/main/${e.name}`,
        git_url: `https://api.github.com/repos/${m[1]}/${m[2]}/git/blobs/${'0'.repeat(40)}`,
        download_url: e.type === 'dir' ? null : `https://raw.githubusercontent.com/${m[1]}/${m[2]}/main/${e.name}`,
        type: e.type,
        _links: { self: 'x', git: 'y', html: 'z' },
      }));
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(listing));
    }),
  );
  const sockets = trackSockets(server);
  url = await listen(server);
  return {
    url,
    repos,
    requests,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
