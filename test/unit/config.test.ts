import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseDatabaseUrl } from '../../src/core/config.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).problems;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has the documented defaults with an empty environment', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.database).toEqual({ dialect: 'sqlite', path: './data/hackathon.db', url: 'sqlite:./data/hackathon.db' });
    expect(c.redisUrl).toBeUndefined();
    expect(c.bodyLimitBytes).toBe(100 * 1024);
    expect(c.rateLimit).toEqual({ enabled: true, perKey: 120, perIp: 60, windowMs: 60_000 });
    expect(c.maxWaitSeconds).toBe(45);
    expect(c.logLevel).toBe('info');
    expect(c.trustProxy).toBe(false);
    expect(c.http).toEqual({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      requestDeadlineMs: 25_000,
      keepAliveTimeoutMs: 72_000,
      timeoutCheckIntervalMs: 1000,
      maxConnectionsPerIp: 100,
    });
    expect(c.dataDir).toBe('./data');
    expect(c.mail.outboxDir).toBe('./data/outbox');
    expect(c.databaseLimits).toEqual({ connectTimeoutMs: 5000, statementTimeoutMs: 15_000, queryTimeoutMs: 20_000 });
  });

  it('takes a site logo as an http(s) URL or a path on the site, or as a file, not both', () => {
    expect(loadConfig({}).siteLogo).toEqual({ url: null, file: null });
    expect(loadConfig({ SITE_LOGO_URL: 'https://cdn.example.org/logo.png' }).siteLogo).toEqual({ url: 'https://cdn.example.org/logo.png', file: null });
    expect(loadConfig({ SITE_LOGO_URL: '/brand/logo.png' }).siteLogo).toEqual({ url: '/brand/logo.png', file: null });
    expect(loadConfig({ SITE_LOGO_FILE: './logo.png' }).siteLogo).toEqual({ url: null, file: './logo.png' });
    for (const bad of ['javascript:alert(1)', '//evil.example/x.png', 'logo.png', 'https://x.example/a"b.png', 'https://x.example/a b.png']) {
      expect(problemsOf({ SITE_LOGO_URL: bad })[0]).toMatch(/^SITE_LOGO_URL=/);
    }
    expect(problemsOf({ SITE_LOGO_URL: '/a.png', SITE_LOGO_FILE: './b.png' })).toEqual(['SITE_LOGO_URL and SITE_LOGO_FILE: set one of them, not both']);
    expect(loadConfig({}).media).toEqual({ coverMaxBytes: 2 * 1024 * 1024, logoMaxBytes: 512 * 1024, maxDimension: 8192, maxPixels: 16_777_216 });
  });

  it('keeps the default database and the outbox together under DATA_DIR', () => {
    const c = loadConfig({ DATA_DIR: '/srv/hackathon/' });
    expect(c.dataDir).toBe('/srv/hackathon/');
    expect(c.database).toEqual({ dialect: 'sqlite', path: '/srv/hackathon/hackathon.db', url: 'sqlite:/srv/hackathon/hackathon.db' });
    expect(c.mail.outboxDir).toBe('/srv/hackathon/outbox');
  });

  it('puts the outbox beside an explicit SQLite database when DATA_DIR is unset', () => {
    const c = loadConfig({ DATABASE_URL: 'sqlite:/var/lib/hk/main.db' });
    expect(c.dataDir).toBe('/var/lib/hk');
    expect(c.mail.outboxDir).toBe('/var/lib/hk/outbox');
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).mail.outboxDir).toBe('./data/outbox');
  });

  it('lets explicit DATABASE_URL and OUTBOX_DIR win over DATA_DIR', () => {
    const c = loadConfig({ DATA_DIR: '/srv/hk', DATABASE_URL: 'sqlite:/elsewhere/x.db', OUTBOX_DIR: '/mail' });
    expect(c.dataDir).toBe('/srv/hk');
    expect(c.database).toMatchObject({ path: '/elsewhere/x.db' });
    expect(c.mail.outboxDir).toBe('/mail');
    expect(loadConfig({ DATA_DIR: '/srv/hk', DATABASE_URL: 'sqlite:/elsewhere/x.db' }).mail.outboxDir).toBe('/srv/hk/outbox');
  });

  it('derives the public URL from PORT and strips a trailing slash from PUBLIC_URL', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://hack.example.org/' }).publicUrl).toBe('https://hack.example.org');
  });

  it('uses PUBLIC_URL in its parsed form: host lowercased, default port dropped, path percent-encoded', () => {
    expect(loadConfig({ PUBLIC_URL: 'HTTPS://Hack.Example.ORG:443/Hack/' }).publicUrl).toBe('https://hack.example.org/Hack');
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080//' }).publicUrl).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://hack.example.org/a"b<c>`{d}' }).publicUrl).toBe('https://hack.example.org/a%22b%3Cc%3E%60%7Bd%7D');
    // Valid, if odd: the quote and `$(` stay (the scripts single-quote the value, so they are inert there).
    expect(loadConfig({ PUBLIC_URL: "https://hack.example.org/x'$(id)" }).publicUrl).toBe("https://hack.example.org/x'$(id)");
  });

  it('reads the database from DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'sqlite:/tmp/x.db' }).database).toMatchObject({ dialect: 'sqlite', path: '/tmp/x.db' });
    expect(loadConfig({ DATABASE_URL: 'sqlite:///tmp/x.db' }).database).toMatchObject({ dialect: 'sqlite', path: '/tmp/x.db' });
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }).database).toEqual({ dialect: 'postgres', url: 'postgres://u@h:5432/db' });
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@h/db' }).database.dialect).toBe('postgres');
  });

  it('parses booleans in the usual spellings', () => {
    expect(loadConfig({ RATE_LIMIT_ENABLED: 'off' }).rateLimit.enabled).toBe(false);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['PORT', '0x50'],
    ['PORT', '1e3'],
    ['PORT', ' '],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['DATABASE_URL', 'sqlite:'],
    ['DATABASE_URL', './data/x.db'],
    ['DATABASE_URL', 'postgres://exa mple/db'],
    ['PUBLIC_URL', 'ftp://example.org'],
    ['PUBLIC_URL', 'localhost:3000'],
    ['PUBLIC_URL', 'https://hack.example.org/\n$(id)'],
    ['PUBLIC_URL', 'https://hack.example.org\r\nX: y'],
    ['PUBLIC_URL', 'https://hack.example.org/a\tb'],
    ['PUBLIC_URL', 'https://hack.example.org/a b'],
    ['PUBLIC_URL', 'https://hack.example.org/\u0000'],
    ['PUBLIC_URL', 'https://hack.example.org/\u0085'],
    ['PUBLIC_URL', 'https://user:secret@hack.example.org'],
    ['PUBLIC_URL', 'https://user@hack.example.org'],
    ['PUBLIC_URL', 'https://hack.example.org/?x=1'],
    ['PUBLIC_URL', 'https://hack.example.org/?'],
    ['PUBLIC_URL', 'https://hack.example.org/#top'],
    ['PUBLIC_URL', 'javascript:alert(1)'],
    ['PUBLIC_URL', 'http://'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['LOG_LEVEL', 'loud'],
    ['TRUST_PROXY', 'maybe'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY', '11'],
    ['TRUST_PROXY', '-1'],
    ['TRUST_PROXY', '10.0.0.1,proxy.example.org'],
    ['TRUST_PROXY', '10.1'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '::1/129'],
    ['TRUST_PROXY', ','],
    ['REQUEST_TIMEOUT_MS', '0'],
    ['HEADERS_TIMEOUT_MS', 'soon'],
    ['KEEP_ALIVE_TIMEOUT_MS', '-1'],
    ['TIMEOUT_CHECK_INTERVAL_MS', '5'],
    ['MAX_CONNECTIONS_PER_IP', '-1'],
    ['RATE_LIMIT_PER_KEY', '0'],
    ['RATE_LIMIT_PER_IP', 'many'],
    ['BODY_LIMIT_BYTES', '10'],
    ['MAX_WAIT_SECONDS', '-5'],
    ['MAX_WAIT_SECONDS', '60'],
    ['OPENAI_BASE_URL', 'not a url'],
  ])('refuses %s=%j with a ConfigError naming the variable', (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(name);
  });

  it('reads INJECTION_CLASSIFIER as off (the default), on, or a model id, and refuses anything else', () => {
    expect(loadConfig({}).ai.classifier).toEqual({ enabled: false });
    expect(loadConfig({ INJECTION_CLASSIFIER: 'off' }).ai.classifier).toEqual({ enabled: false });
    expect(loadConfig({ INJECTION_CLASSIFIER: 'OFF' }).ai.classifier).toEqual({ enabled: false });
    expect(loadConfig({ INJECTION_CLASSIFIER: 'on' }).ai.classifier).toEqual({ enabled: true, model: null });
    expect(loadConfig({ INJECTION_CLASSIFIER: 'openai/gpt-4o-mini' }).ai.classifier).toEqual({ enabled: true, model: 'openai/gpt-4o-mini' });
    expect(loadConfig({ INJECTION_CLASSIFIER: 'local/org/llama3:8b' }).ai.classifier).toEqual({ enabled: true, model: 'local/org/llama3:8b' });
    for (const bad of ['yes', 'true', '1', 'gpt-4o-mini', '/gpt', 'openai/', 'openai/gpt 4']) {
      expect(problemsOf({ INJECTION_CLASSIFIER: bad })).toEqual([
        `INJECTION_CLASSIFIER=${JSON.stringify(bad)} must be off, on, or a model id such as openai/gpt-4o-mini`,
      ]);
    }
  });

  it('reads TRUST_PROXY as off, a hop count or a list of proxy addresses/CIDRs', () => {
    for (const off of ['', '0', 'false', 'off', 'no']) expect(loadConfig({ TRUST_PROXY: off }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses TRUST_PROXY=true with a message saying what to set instead', () => {
    const [problem] = problemsOf({ TRUST_PROXY: 'true' });
    expect(problem).toMatch(/TRUST_PROXY="true" no longer accepts true: set the number of proxies .*\(e\.g\. 1\) or their addresses/);
  });

  it('reads the HTTP time limits and the connection cap', () => {
    const c = loadConfig({
      REQUEST_TIMEOUT_MS: '5000',
      HEADERS_TIMEOUT_MS: '2000',
      KEEP_ALIVE_TIMEOUT_MS: '6000',
      TIMEOUT_CHECK_INTERVAL_MS: '250',
      MAX_CONNECTIONS_PER_IP: '0',
      REQUEST_DEADLINE_MS: '1500',
    });
    expect(c.http).toEqual({
      requestTimeoutMs: 5000,
      headersTimeoutMs: 2000,
      requestDeadlineMs: 1500,
      keepAliveTimeoutMs: 6000,
      timeoutCheckIntervalMs: 250,
      maxConnectionsPerIp: 0,
    });
  });

  it('reads the database time limits; the query limit must stay above the statement limit unless that is off', () => {
    const c = loadConfig({ DB_CONNECT_TIMEOUT_MS: '1000', DB_STATEMENT_TIMEOUT_MS: '2000', DB_QUERY_TIMEOUT_MS: '3000' });
    expect(c.databaseLimits).toEqual({ connectTimeoutMs: 1000, statementTimeoutMs: 2000, queryTimeoutMs: 3000 });
    expect(loadConfig({ DB_STATEMENT_TIMEOUT_MS: '0', DB_QUERY_TIMEOUT_MS: '500' }).databaseLimits).toMatchObject({
      statementTimeoutMs: 0,
      queryTimeoutMs: 500,
    });
    expect(problemsOf({ DB_STATEMENT_TIMEOUT_MS: '20000' })).toEqual(['DB_QUERY_TIMEOUT_MS=20000 must be above DB_STATEMENT_TIMEOUT_MS=20000']);
    expect(problemsOf({ DB_CONNECT_TIMEOUT_MS: '0' })).toEqual(['DB_CONNECT_TIMEOUT_MS="0" must be a whole number from 100 to 600000']);
  });

  it('refuses a headers time limit above the whole-request one', () => {
    const problems = problemsOf({ REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '2000' });
    expect(problems).toEqual(['HEADERS_TIMEOUT_MS=2000 must not exceed REQUEST_TIMEOUT_MS=1000']);
  });

  it('reports every bad value at once, in the message too', () => {
    const env = { PORT: 'x', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' };
    const problems = problemsOf(env);
    expect(problems).toHaveLength(3);
    let message = '';
    try {
      loadConfig(env);
    } catch (e) {
      message = (e as Error).message;
    }
    for (const name of Object.keys(env)) expect(message).toContain(name);
  });
});

describe('parseDatabaseUrl', () => {
  it('explains what a good value looks like', () => {
    expect(() => parseDatabaseUrl('mysql://x')).toThrow(/sqlite: or postgres:\/\//);
    expect(() => parseDatabaseUrl('sqlite:')).toThrow(/path/);
  });
});
