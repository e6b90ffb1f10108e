import proxyAddr from '@fastify/proxy-addr';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseTrustProxy } from '../../src/core/config.js';
import { addressMatcher, clientErrorToAppError, fastifyTrustProxy, rawProblem } from '../../src/core/http/connection-guard.js';
import { AppError } from '../../src/core/errors.js';

const limits = loadConfig({}).http;

describe('addressMatcher', () => {
  const trusted = addressMatcher(['10.0.0.1', '192.168.0.0/16', 'fd00::/8', 'loopback']);

  it.each([
    ['10.0.0.1', true],
    ['10.0.0.2', false],
    ['192.168.44.5', true],
    ['::ffff:192.168.1.1', true],
    ['fd12::1', true],
    ['fe80::1', false],
    ['127.0.0.9', true],
    ['::1', true],
    ['203.0.113.1', false],
    ['not an address', false],
  ])('%s -> %s', (address, expected) => {
    expect(trusted(address)).toBe(expected);
  });
});

/**
 * The range names of TRUST_PROXY, computed only (no connection to any of these addresses). Each
 * range is probed at its first and last address and just outside both ends.
 */
const PRESET_CASES: Record<'uniquelocal' | 'linklocal' | 'loopback', Array<[string, boolean]>> = {
  uniquelocal: [
    // 10.0.0.0/8
    ['10.0.0.0', true],
    ['10.255.255.255', true],
    ['9.255.255.255', false],
    ['11.0.0.0', false],
    // 172.16.0.0/12 is 172.16.0.0 – 172.31.255.255, not just 172.16.x
    ['172.16.0.0', true],
    ['172.16.5.4', true],
    ['172.20.1.1', true],
    ['172.31.0.1', true],
    ['172.31.255.255', true],
    ['172.15.255.255', false],
    ['172.32.0.0', false],
    ['172.32.0.1', false],
    // 192.168.0.0/16
    ['192.168.0.0', true],
    ['192.168.255.255', true],
    ['192.167.255.255', false],
    ['192.169.0.0', false],
    // fc00::/7 is fc00:: – fdff:ffff:…
    ['fc00::', true],
    ['fc00::1', true],
    ['fd12:3456:789a::1', true],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', false],
    ['fe00::', false],
    // IPv4 clients on a dual-stack socket
    ['::ffff:172.31.9.9', true],
    ['::ffff:172.32.9.9', false],
    ['::ffff:10.1.2.3', true],
    // other ranges are not unique-local
    ['127.0.0.1', false],
    ['::1', false],
    ['169.254.1.1', false],
    ['fe80::1', false],
    ['100.64.0.1', false],
    ['203.0.113.7', false],
    ['2001:db8::1', false],
  ],
  linklocal: [
    // 169.254.0.0/16
    ['169.254.0.0', true],
    ['169.254.169.254', true],
    ['169.254.255.255', true],
    ['169.253.255.255', false],
    ['169.255.0.0', false],
    // fe80::/10 is fe80:: – febf:ffff:…
    ['fe80::', true],
    ['fe80::1', true],
    ['fe9a::1', true],
    ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', false],
    ['fec0::', false],
    ['::ffff:169.254.3.3', true],
    ['::ffff:169.255.3.3', false],
    // other ranges are not link-local
    ['10.0.0.1', false],
    ['172.16.0.1', false],
    ['192.168.1.1', false],
    ['fd00::1', false],
    ['127.0.0.1', false],
    ['::1', false],
  ],
  loopback: [
    ['127.0.0.0', true],
    ['127.0.0.1', true],
    ['127.255.255.255', true],
    ['126.255.255.255', false],
    ['128.0.0.0', false],
    ['::1', true],
    ['::2', false],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.1', false],
    ['fe80::1', false],
  ],
};

describe.each(Object.entries(PRESET_CASES))('addressMatcher preset %s', (preset, cases) => {
  const matcher = addressMatcher(parseTrustProxy(preset) as string[]);

  it.each(cases)('%s -> %s', (address, expected) => {
    expect(matcher(address)).toBe(expected);
  });

  // The same TRUST_PROXY list goes to Fastify (whose proxy-addr decides whose X-Forwarded-For is
  // believed) and to the connection cap (which exempts trusted proxies): both must agree on it.
  it('agrees with Fastify’s proxy-addr on every case', () => {
    const fastify = proxyAddr.compile([preset]);
    expect(cases.map(([address]) => matcher(address))).toEqual(cases.map(([address]) => fastify(address, 0)));
  });

  it('works inside a list with other entries', () => {
    const listed = addressMatcher(parseTrustProxy(`203.0.113.9, ${preset}`) as string[]);
    for (const [address, expected] of cases) expect(listed(address), address).toBe(expected || address === '203.0.113.9');
    expect(listed('203.0.113.9')).toBe(true);
  });
});

describe('fastifyTrustProxy', () => {
  it('turns a hop count into "trust the N nearest addresses"', () => {
    const trust = fastifyTrustProxy(2);
    expect(typeof trust).toBe('function');
    const fn = trust as (a: string, i: number) => boolean;
    expect([0, 1, 2, 3].map((i) => fn('203.0.113.1', i))).toEqual([true, true, false, false]);
  });

  it('passes off and address lists through', () => {
    expect(fastifyTrustProxy(false)).toBe(false);
    expect(fastifyTrustProxy(0)).toBe(false);
    expect(fastifyTrustProxy(['10.0.0.1'])).toEqual(['10.0.0.1']);
  });
});

describe('clientErrorToAppError', () => {
  const err = (code: string, rawPacket?: Buffer) => Object.assign(new Error(code), { code, rawPacket });

  it.each([
    ['ERR_HTTP_REQUEST_TIMEOUT', undefined, 'request_timeout'],
    ['HPE_HEADER_OVERFLOW', Buffer.from(`GET /${'a'.repeat(9000)} HTTP/1.1\r\nHost: x\r\n\r\n`), 'uri_too_long'],
    ['HPE_HEADER_OVERFLOW', Buffer.from(`GET / HTTP/1.1\r\nX: ${'a'.repeat(9000)}`), 'headers_too_large'],
    ['HPE_HEADER_OVERFLOW', Buffer.from('a'.repeat(9000)), 'headers_too_large'],
    ['HPE_INVALID_METHOD', undefined, 'method_not_allowed'],
    ['HPE_INVALID_HEADER_TOKEN', undefined, 'bad_request'],
  ])('%s -> %s', (code, raw, expected) => {
    expect(clientErrorToAppError(err(code, raw), limits).code).toBe(expected);
  });
});

describe('rawProblem', () => {
  it('is a complete HTTP/1.1 answer with a problem document and an exact Content-Length', () => {
    const text = rawProblem(new AppError('request_timeout', 'Zu langsam – bitte erneut.'), 'https://hack.example', { 'Retry-After': 1 });
    const [head, body] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(head).toContain('Content-Type: application/problem+json');
    expect(head).toContain('Connection: close');
    expect(head).toContain('X-Content-Type-Options: nosniff');
    expect(head).toContain('Retry-After: 1');
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(body!)}`);
    expect(JSON.parse(body!)).toMatchObject({ status: 408, code: 'request_timeout', type: 'https://hack.example/problems/request_timeout' });
  });
});
