import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPT_NAMES } from '../../src/agents/shell-scripts.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

const DASH = '/usr/bin/dash';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface Running {
  /** Resolves once stderr contains `text` (the script announcing what it does next). */
  stderrSays(text: string): Promise<void>;
  done: Promise<Run>;
}

function start(file: string, args: string[], env: Record<string, string>): Running {
  const child = spawn(DASH, [file, ...args], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env } });
  let stdout = '';
  let stderr = '';
  const watchers: Array<{ text: string; resolve: () => void }> = [];
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    for (const w of watchers.splice(0)) {
      if (stderr.includes(w.text)) w.resolve();
      else watchers.push(w);
    }
  });
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return {
    stderrSays: (text) => (stderr.includes(text) ? Promise.resolve() : new Promise((resolve) => watchers.push({ text, resolve }))),
    done,
  };
}

describe('the served scripts are POSIX sh', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(async () => t?.close());

  it.each(SCRIPT_NAMES)('%s.sh parses under dash -n and uses no bash-isms', async (name) => {
    const res = await t.request('GET', `/scripts/${name}.sh`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/x-shellscript; charset=utf-8');
    const dir = mkdtempSync(join(tmpdir(), 'hk-sh-'));
    try {
      writeFileSync(join(dir, 'x.sh'), res.text);
      const check = spawnSync(DASH, ['-n', join(dir, 'x.sh')], { encoding: 'utf8' });
      expect(check.stderr).toBe('');
      expect(check.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(res.text.startsWith('#!/bin/sh\n')).toBe(true);
    // What checkbashisms looks for most often (it is not installed here): none may appear.
    const code = res.text.split('\n').filter((l) => !l.trimStart().startsWith('#'));
    const bashisms = [
      /\[\[/,
      /^\s*function\s+\w+\s*(\(\))?\s*\{/,
      /\blocal\s/,
      /^\s*source\s/,
      /<<</,
      /\$'/,
      /\$\{\w+\/\//,
      /\$RANDOM/,
      /\bdeclare\b/,
      /\[ [^\]]*==/,
      /&>/,
      /\bjq\b/,
      /\bpython/,
    ];
    expect(code.filter((line) => bashisms.some((re) => re.test(line)))).toEqual([]);
    // The base URL is baked in from PUBLIC_URL and overridable.
    expect(res.text).toContain(`DEFAULT_BASE_URL='${t.config.publicUrl}/api/v1'\nBASE_URL="\${HACKATHON_BASE_URL:-$DEFAULT_BASE_URL}"`);
  });
});

describe.each(DIALECTS)('the scripts under dash against a live server (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let dir: string;
  let env: Record<string, string>;
  const script = (name: string) => join(dir, `${name}.sh`);
  const run = (name: string, args: string[], extra: Record<string, string> = {}) => start(script(name), args, { ...env, ...extra }).done;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
    dir = mkdtempSync(join(tmpdir(), 'hk-scripts-'));
    for (const name of SCRIPT_NAMES) {
      const res = await t.request('GET', `/scripts/${name}.sh`);
      writeFileSync(join(dir, `${name}.sh`), res.text);
    }
    env = { HACKATHON_BASE_URL: `${t.url}/api/v1`, HACKATHON_RETRIES: '1', HACKATHON_RETRY_DELAY: '0' };
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('runs the whole flow: list, form, register, pending, approved, submit, update, result before and after publication', async () => {
    // An event with tracks and a required custom field (repo, a URL); no models: humans judge.
    const eventId = await createEvent(t, org.key, { name: 'Shell Hack', models: [] });
    const team = await quickUser(t);
    const key = { HACKATHON_API_KEY: team.key };

    const list = await run('events', []);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toBe('id\tstatus\tregistration_deadline\tsubmission_deadline\tname');
    const row = list.stdout.split('\n').find((l) => l.startsWith(`${eventId}\t`));
    expect(row?.split('\t')).toEqual([eventId, 'open', expect.stringMatching(/^20\d\d-/), expect.stringMatching(/^20\d\d-/), 'Shell Hack']);
    // One event a page: the script follows Link rel="next" to the end, so the list is the same.
    const paged = await run('events', ['--limit', '1']);
    expect(paged.code).toBe(0);
    expect(paged.stdout).toBe(list.stdout);

    const form = await run('events', [eventId]);
    expect(form.code).toBe(0);
    expect(form.stdout).toContain('  tools  Developer tools');
    expect(form.stdout).toContain('  repo  (url, required)  Repository');

    const reg = await run(
      'register',
      ['--event', eventId, '--team', 'Shell Rockets', '--track', 'tools', '--field', 'repo=https://github.com/acme/rockets', '--field', 'why=we "love" \\ it'],
      key,
    );
    expect(reg.stderr).toBe('');
    expect(reg.code).toBe(0);
    expect(reg.stdout).toMatch(/^registered: id=reg_\S+ status=pending team=Shell Rockets track=tools$/m);
    const mine = await t.api('GET', `/events/${eventId}/my-registration`, { key: team.key });
    expect(mine.body.fields).toEqual({ repo: 'https://github.com/acme/rockets', why: 'we "love" \\ it' });

    const pending = await run('status', ['--event', eventId], { ...key, HACKATHON_WAIT: '0', HACKATHON_WAIT_BUDGET: '0' });
    expect(pending.code).toBe(4);
    expect(pending.stdout).toMatch(/^still pending after \d+ s/m);

    // The script long-polls; the organizer's approval wakes its ?wait= request.
    const waiting = start(script('status'), ['--event', eventId], { ...env, ...key, HACKATHON_WAIT: '30', HACKATHON_WAIT_BUDGET: '120' });
    await waiting.stderrSays('waiting for a decision');
    const approve = await t.api('POST', `/events/${eventId}/registrations/${mine.body.id}/approve`, { key: org.key });
    expect(approve.status).toBe(200);
    const approved = await waiting.done;
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`approved: registration ${mine.body.id}, team Shell Rockets`);

    const submit = await run(
      'submit',
      ['--event', eventId, '--name', 'Rocket CLI', '--github', 'https://github.com/acme/rockets', '--team-size', '3', '--description', 'line one\nline "two"'],
      key,
    );
    expect(submit.code).toBe(0);
    expect(submit.stdout).toMatch(/^submitted: project prj_\S+ "Rocket CLI" \(created\)$/m);
    const update = await run('submit', ['--event', eventId, '--github', 'https://github.com/acme/rockets2'], {
      ...key,
      HACKATHON_PROJECT_NAME: 'Rocket CLI 2',
    });
    expect(update.code).toBe(0);
    expect(update.stdout).toMatch(/\(updated\)$/m);
    const project = (await t.api('GET', `/events/${eventId}/my-registration`, { key: team.key })).body.project;
    expect(project).toMatchObject({ project_name: 'Rocket CLI 2', github_url: 'https://github.com/acme/rockets2', team_size: null, description: null });

    const early = await run('result', ['--event', eventId]);
    expect(early.code).toBe(4);
    expect(early.stdout).toMatch(/^results not published yet: /);

    expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'judging' } })).status).toBe(200);
    // No AI review ran (no provider in this test): publishing an unscored project needs `force`.
    expect((await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key, body: { force: true } })).status).toBe(200);
    const result = await run('result', ['--event', eventId]);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').slice(0, 2)).toEqual(['rank\tscore\tteam\tproject\ttrack', '1\t0\tShell Rockets\tRocket CLI 2\ttools']);
  });

  it('stops at once on a bad key (exit 5, the problem printed, no polling)', async () => {
    const eventId = await createEvent(t, org.key);
    const res = await run('status', ['--event', eventId], { HACKATHON_API_KEY: 'hk_not-a-real-key', HACKATHON_WAIT_BUDGET: '3600' });
    expect(res.code).toBe(5);
    expect(res.stderr).toContain(
      'error: HTTP 401 unauthorized: The API key is unknown, revoked or expired; get a new one: an agent gets an account and a key with POST /api/v1/agents/signup',
    );
    expect(res.stderr.match(/waiting for a decision/g)).toHaveLength(1);
  });

  it('stops at once on an unknown event (404 event_not_found, exit 5)', async () => {
    const team = await quickUser(t);
    const res = await run('status', ['--event', 'evt_doesnotexist'], { HACKATHON_API_KEY: team.key, HACKATHON_WAIT_BUDGET: '3600' });
    expect(res.code).toBe(5);
    expect(res.stderr).toMatch(/error: HTTP 404 event_not_found: /);
    expect(res.stderr.match(/waiting for a decision/g)).toHaveLength(1);
    const reg = await run('register', ['--event', 'evt_doesnotexist', '--team', 'X'], { HACKATHON_API_KEY: team.key });
    expect(reg.code).toBe(5);
    expect(reg.stderr).toMatch(/error: HTTP 404 event_not_found: /);
  });

  it('reports a rejection with its reason (exit 3)', async () => {
    const eventId = await createEvent(t, org.key);
    const team = await quickUser(t);
    // Every input from the environment this time, form answers as key=value lines.
    const registered = await run('register', [], {
      HACKATHON_API_KEY: team.key,
      HACKATHON_EVENT_ID: eventId,
      HACKATHON_TEAM_NAME: 'Nope',
      HACKATHON_TRACK_ID: 'fun',
      HACKATHON_CONTACT_EMAIL: 'nope@example.test',
      HACKATHON_FIELDS: 'repo=https://x.test/r\nwhy=a=b',
    });
    expect(registered.code).toBe(0);
    const reg = await t.api('GET', `/events/${eventId}/my-registration`, { key: team.key });
    expect(reg.body).toMatchObject({
      team_name: 'Nope',
      track_id: 'fun',
      contact_email: 'nope@example.test',
      fields: { repo: 'https://x.test/r', why: 'a=b' },
    });
    expect(
      (await t.api('POST', `/events/${eventId}/registrations/${reg.body.id}/reject`, { key: org.key, body: { reason: 'Team is full: "sorry"' } })).status,
    ).toBe(200);
    const res = await run('status', ['--event', eventId], { HACKATHON_API_KEY: team.key });
    expect(res.code).toBe(3);
    expect(res.stdout).toBe(
      `rejected: Team is full: "sorry"\nRejected: you may re-apply with changed answers (POST register again) until ${new Date(t.clock.now().getTime() + 86_400_000).toISOString()}.\n`,
    );
  });

  it('sends values with control characters (CR, tab, \\001) as valid JSON that round-trips', async () => {
    const eventId = await createEvent(t, org.key, { registration_config: { auto_approve: true, fields: [] } });
    const team = await quickUser(t);
    const key = { HACKATHON_API_KEY: team.key };
    const name = 'Ctl\rTeam\u0001';
    expect((await run('register', ['--event', eventId, '--team', 'Ctl Team', '--track', 'tools'], key)).code).toBe(0);
    const description = 'carriage\rreturn, tab\tand \u0001\u001f "quoted" back\\slash\nnext line';
    const res = await run('submit', ['--event', eventId, '--name', name, '--github', 'https://github.com/acme/ctl', '--description', description], key);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const mine = await t.api('GET', `/events/${eventId}/my-registration`, { key: team.key });
    expect(mine.body.project).toMatchObject({ project_name: name, description });
  });

  it('prints validation errors field by field (exit 5) and usage errors (exit 2)', async () => {
    const eventId = await createEvent(t, org.key);
    const team = await quickUser(t);
    const bad = await run('register', ['--event', eventId, '--team', 'Incomplete', '--track', 'tools'], { HACKATHON_API_KEY: team.key });
    expect(bad.code).toBe(5);
    expect(bad.stderr).toMatch(/^error: HTTP 422 validation_failed: /);
    expect(bad.stderr).toContain('  fields.repo: is required');
    // Once: the problem's detail repeats the field errors, so it is not printed as well.
    expect(bad.stderr.match(/fields\.repo/g)).toHaveLength(1);
    const noKey = await run('register', ['--event', eventId, '--team', 'X']);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('HACKATHON_API_KEY');
    const noEvent = await run('submit', ['--name', 'X', '--github', 'https://github.com/x/test'], { HACKATHON_API_KEY: team.key });
    expect(noEvent.code).toBe(2);
    const notRegistered = await run('submit', ['--event', eventId, '--name', 'X', '--github', 'https://github.com/x/r'], { HACKATHON_API_KEY: team.key });
    expect(notRegistered.code).toBe(5);
    expect(notRegistered.stderr).toMatch(/error: HTTP 404 not_registered: /);
  });
});

describe('script retries', () => {
  let dir: string;
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
    dir = mkdtempSync(join(tmpdir(), 'hk-retry-'));
    writeFileSync(join(dir, 'register.sh'), (await t.request('GET', '/scripts/register.sh')).text);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('retries a network failure and a 429 with the same Idempotency-Key', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      // The first attempt dies mid-request (a network failure), the second is rate limited; the third gets an answer.
      if (seen.length === 1) return void req.socket.destroy();
      if (seen.length === 2) {
        res.writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '0' });
        return void res.end(JSON.stringify({ type: 'x', title: 'Too many requests', status: 429, detail: 'slow down', code: 'rate_limited' }));
      }
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'reg_1', event_id: 'evt_1', status: 'pending', team_name: 'T', track_id: null, required_fields: [], created_at: 'x' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const res = await start(join(dir, 'register.sh'), ['--event', 'evt_1', '--team', 'T'], {
        HACKATHON_BASE_URL: `http://127.0.0.1:${port}/api/v1`,
        HACKATHON_API_KEY: 'hk_x',
        HACKATHON_RETRIES: '3',
        HACKATHON_RETRY_DELAY: '0',
      }).done;
      expect(res.code).toBe(0);
      expect(res.stdout).toContain('registered: id=reg_1 status=pending');
      expect(seen).toHaveLength(3);
      expect(seen[0]!['idempotency-key']).toMatch(/^[\x21-\x7e]{1,255}$/);
      expect(seen.map((h) => h['idempotency-key'])).toEqual([seen[0]!['idempotency-key'], seen[0]!['idempotency-key'], seen[0]!['idempotency-key']]);
      expect(res.stderr).toContain('HTTP 429 from POST /events/evt_1/register (attempt 2 of 3)');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('status.sh asks again while pending (each time with ?wait=) until a decision', async () => {
    writeFileSync(join(dir, 'status.sh'), (await t.request('GET', '/scripts/status.sh')).text);
    const urls: string[] = [];
    const server = createServer((req, res) => {
      urls.push(req.url!);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'reg_1', event_id: 'evt_1', status: urls.length < 3 ? 'pending' : 'approved', team_name: 'T', reason: null }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const res = await start(join(dir, 'status.sh'), ['--event', 'evt_1'], {
        HACKATHON_BASE_URL: `http://127.0.0.1:${port}/api/v1`,
        HACKATHON_API_KEY: 'hk_x',
        HACKATHON_WAIT: '7',
        HACKATHON_POLL_MIN: '0',
        HACKATHON_POLL_MAX: '0',
        HACKATHON_WAIT_BUDGET: '600',
      }).done;
      expect(res.code).toBe(0);
      expect(res.stdout).toContain('approved: registration reg_1, team T');
      expect(urls).toEqual(Array(3).fill('/api/v1/events/evt_1/my-registration?wait=7'));
      expect(res.stderr.match(/still pending; asking again in 0 s/g)).toHaveLength(2);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('gives each request its own time limit: a hung server times out every attempt (HACKATHON_TIMEOUT)', async () => {
    const seen: string[] = [];
    // Reads the request and never answers.
    const server = createServer((req) => void seen.push(req.url!));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const res = await start(join(dir, 'register.sh'), ['--event', 'evt_1', '--team', 'T'], {
        HACKATHON_BASE_URL: `http://127.0.0.1:${port}/api/v1`,
        HACKATHON_API_KEY: 'hk_x',
        HACKATHON_RETRIES: '2',
        HACKATHON_RETRY_DELAY: '0',
        HACKATHON_TIMEOUT: '1',
      }).done;
      expect(res.code).toBe(6);
      expect(seen).toEqual(['/api/v1/events/evt_1/register', '/api/v1/events/evt_1/register']);
      expect(res.stderr.match(/timeout: no answer within 1 s on POST \/events\/evt_1\/register/g)).toHaveLength(2);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('backs off exponentially between retries: each pause longer than the one before', async () => {
    const at: bigint[] = [];
    const server = createServer((_req, res) => {
      at.push(process.hrtime.bigint());
      res.writeHead(503, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ type: 'x', title: 'Unavailable', status: 503, detail: 'busy', code: 'service_unavailable' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const res = await start(join(dir, 'register.sh'), ['--event', 'evt_1', '--team', 'T'], {
        HACKATHON_BASE_URL: `http://127.0.0.1:${port}/api/v1`,
        HACKATHON_API_KEY: 'hk_x',
        HACKATHON_RETRIES: '3',
        HACKATHON_RETRY_DELAY: '1',
      }).done;
      expect(res.code).toBe(5);
      expect(at).toHaveLength(3);
      const gaps = [at[1]! - at[0]!, at[2]! - at[1]!];
      expect(gaps[1]! > gaps[0]!).toBe(true);
      expect(res.stderr.match(/retrying in \d+ s/g)).toEqual(['retrying in 1 s', 'retrying in 2 s']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('exits 6 when the server cannot be reached', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const res = await start(join(dir, 'register.sh'), ['--event', 'evt_1', '--team', 'T'], {
      HACKATHON_BASE_URL: `http://127.0.0.1:${port}/api/v1`,
      HACKATHON_API_KEY: 'hk_x',
      HACKATHON_RETRIES: '2',
      HACKATHON_RETRY_DELAY: '0',
    }).done;
    expect(res.code).toBe(6);
    expect(res.stderr).toContain(`error: could not reach http://127.0.0.1:${port}/api/v1`);
    expect(res.stderr.match(/network failure/g)).toHaveLength(2);
  });
});

describe('a hostile but valid PUBLIC_URL stays inert in the scripts and skill.md', () => {
  let t: TestApp;
  let dir: string;
  let mark: string;
  let publicUrl: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hk-inert-'));
    mark = join(dir, 'pwned');
    // A quote to leave single quotes, `$(` and `;` to run a command: all valid in a URL path. Port 1
    // on the loopback address: the scripts' requests fail at once (nothing leaves the machine).
    t = await startTestApp('sqlite', { env: { PUBLIC_URL: `http://127.0.0.1:1/x'$(touch$IFS${mark})';touch$IFS${mark};'"$(touch$IFS${mark})"` } });
    publicUrl = t.config.publicUrl;
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('keeps the quote and $( in the parsed URL (the test is not vacuous)', () => {
    expect(publicUrl).toBe(`http://127.0.0.1:1/x'$(touch$IFS${mark})';touch$IFS${mark};'%22$(touch$IFS${mark})%22`);
  });

  it.each(SCRIPT_NAMES)('%s.sh holds the URL as one inert word and runs under dash without executing it', async (name) => {
    const res = await t.request('GET', `/scripts/${name}.sh`);
    expect(res.status).toBe(200);
    const file = join(dir, `${name}.sh`);
    writeFileSync(file, res.text);
    expect(spawnSync(DASH, ['-n', file], { encoding: 'utf8' }).status).toBe(0);
    // The default base URL, evaluated by dash, is exactly the configured one.
    const line = res.text.split('\n').find((l) => l.startsWith('DEFAULT_BASE_URL='))!;
    const value = spawnSync(DASH, ['-c', `${line}\nprintf '%s' "$DEFAULT_BASE_URL"`], { encoding: 'utf8' });
    expect(value.stdout).toBe(`${publicUrl}/api/v1`);
    // Run for real (without HACKATHON_BASE_URL, so the baked-in URL is used): a network failure, nothing executed.
    const args: Record<string, string[]> = {
      events: [],
      register: ['--event', 'evt_1', '--team', 'T'],
      submit: ['--event', 'evt_1', '--name', 'P', '--github', 'https://github.com/a/b'],
    };
    const run = await start(file, args[name] ?? ['--event', 'evt_1'], {
      HACKATHON_API_KEY: 'hk_x',
      HACKATHON_RETRIES: '1',
      HACKATHON_RETRY_DELAY: '0',
      HACKATHON_TIMEOUT: '5',
    }).done;
    expect(run.code, run.stderr).toBe(6);
    expect(existsSync(mark)).toBe(false);
  });

  it('skill.md names the parsed URL and gains no lines from it', async () => {
    const hostile = await t.request('GET', '/api/v1/skill.md');
    expect(hostile.status).toBe(200);
    expect(hostile.text).toContain(`${publicUrl}/api/v1`);
    const plain = await startTestApp('sqlite');
    try {
      const normal = await plain.request('GET', '/api/v1/skill.md');
      expect(hostile.text.split('\n')).toHaveLength(normal.text.split('\n').length);
    } finally {
      await plain.close();
    }
  });
});
