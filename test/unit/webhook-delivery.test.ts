import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { publicOnlyLookup, publicOrLoopbackLookup } from '../../src/core/http/private-address.js';
import { nextRetryDelayMs, RETRY_SCHEDULE_MS, signWebhook, urlProblem } from '../../src/webhooks/webhook-delivery.js';

/** A resolver that answers `addresses` for any name, never touching the network. */
const fakeResolver = (addresses: string[]) =>
  ((_host: string, _opts: unknown, cb: (err: NodeJS.ErrnoException | null, a: LookupAddress[]) => void) =>
    cb(
      null,
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    )) as never;

const resolve = (lookup: ReturnType<typeof publicOnlyLookup>) =>
  new Promise<string>((done) =>
    (lookup as unknown as (h: string, o: object, cb: (err: NodeJS.ErrnoException | null) => void) => void)('hooks.example', { all: true }, (err) =>
      done(err ? String(err.code) : 'ok'),
    ),
  );

describe('webhook delivery rules', () => {
  it('signs like the Standard Webhooks reference vector', () => {
    expect(signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('the delivery-time lookup refuses a name that resolves to a private address (DNS rebinding), loopback only when allowed', async () => {
    expect(await resolve(publicOnlyLookup(fakeResolver(['93.184.216.34'])))).toBe('ok');
    expect(await resolve(publicOnlyLookup(fakeResolver(['93.184.216.34', '10.0.0.5'])))).toBe('EADDRNOTPUBLIC');
    expect(await resolve(publicOnlyLookup(fakeResolver(['127.0.0.1'])))).toBe('EADDRNOTPUBLIC');
    expect(await resolve(publicOrLoopbackLookup(fakeResolver(['127.0.0.1'])))).toBe('ok');
    expect(await resolve(publicOrLoopbackLookup(fakeResolver(['192.168.0.10'])))).toBe('EADDRNOTPUBLIC');
    expect(await resolve(publicOrLoopbackLookup(fakeResolver(['::ffff:10.0.0.1'])))).toBe('EADDRNOTPUBLIC');
  });

  it('accepts public https only; http and loopback only with WEBHOOKS_ALLOW_LOOPBACK', () => {
    expect(urlProblem('https://hooks.example/x', false)).toBeNull();
    expect(urlProblem('http://hooks.example/x', false)).toMatch(/https/);
    expect(urlProblem('https://127.0.0.1/x', false)).toMatch(/non-public/);
    expect(urlProblem('http://127.0.0.1:8080/x', true)).toBeNull();
    expect(urlProblem('http://localhost:8080/x', true)).toBeNull();
    expect(urlProblem('http://hooks.example/x', true)).toMatch(/https/);
    expect(urlProblem('https://10.1.1.1/x', true)).toMatch(/non-public/);
  });

  it('retries for more than 24 hours in all, never shortened by jitter, then gives up', () => {
    const total = (r: number) => RETRY_SCHEDULE_MS.reduce((s, _ms, i) => s + nextRetryDelayMs(i + 1, () => r)!, 0);
    expect(total(0)).toBeGreaterThan(24 * 3_600_000);
    expect(total(0.999)).toBeLessThan(34 * 3_600_000);
    expect(nextRetryDelayMs(1, () => 0)).toBe(5000);
    expect(nextRetryDelayMs(RETRY_SCHEDULE_MS.length + 1)).toBeNull();
  });
});
