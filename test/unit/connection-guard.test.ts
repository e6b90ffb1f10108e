import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
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
