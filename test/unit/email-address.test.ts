import { describe, expect, it } from 'vitest';
import { normaliseEmailAddress, requireEmailAddress } from '../../src/core/email-address.js';
import { AppError } from '../../src/core/errors.js';

describe('normaliseEmailAddress', () => {
  it.each([
    // One thing stored, another delivered: a display name, a list, a comment.
    'x<victim@evil.test>',
    'a,b@x.test',
    'victim(@evil.test)',
    'Ann <ann@x.test>',
    'ann@x.test, victim@evil.test',
    'ann@x.test;victim@evil.test',
    'ann@x.test victim@evil.test',
    '"a,b"@x.test',
    '"victim@evil.test"@x.test',
    'ann(comment)@x.test',
    'ann@x.test\r\nBcc: victim@evil.test',
    'ann@x.test\nvictim@evil.test',
    'ann@x.test\u0000',
    // Not an address at all, or not routable.
    '',
    '   ',
    'ann',
    'ann@',
    '@x.test',
    'ann@@x.test',
    'ann@x',
    'ann@localhost',
    'ann@127.0.0.1',
    'ann@[127.0.0.1]',
    'a..b@x.test',
    '.ann@x.test',
    'ann@x.test.',
    'ann@-x.test',
    // Unicode: local parts and look-alike domains are refused (decision, see README).
    'ünn@x.test',
    'ann@exаmple.test',
    `${'a'.repeat(65)}@x.test`,
    `ann@${'a'.repeat(250)}.test`,
  ])('refuses %j', (raw) => {
    expect(normaliseEmailAddress(raw)).toBeNull();
  });

  it.each([
    ['ann@x.test', 'ann@x.test'],
    ['  Ann.Lee+hack@Example.TEST  ', 'ann.lee+hack@example.test'],
    ["o'brien@sub.domain.example.com", "o'brien@sub.domain.example.com"],
    ['first_last-1@xn--mnchen-3ya.de', 'first_last-1@xn--mnchen-3ya.de'],
  ])('accepts %j as %j', (raw, expected) => {
    expect(normaliseEmailAddress(raw)).toBe(expected);
  });

  it('requireEmailAddress refuses with validation_failed naming the field', () => {
    let caught: unknown;
    try {
      requireEmailAddress('x<victim@evil.test>', 'contact_email');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).code).toBe('validation_failed');
    expect((caught as AppError).errors).toEqual([{ field: 'contact_email', message: 'must be an e-mail address' }]);
  });
});
