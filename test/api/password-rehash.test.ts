import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserByEmail } from '../../src/accounts/accounts-repo.js';
import { createAccountsService } from '../../src/accounts/accounts-service.js';
import { DIALECTS } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';

describe.each(DIALECTS)('password re-hashing on verification (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    // The app hashes at 2^15; an account made at the floor (2^14) stands for one made before the raise.
    t = await startTestApp(dialect, { env: { PASSWORD_SCRYPT_N: '32768' } });
  });
  afterAll(() => t.close());

  async function legacyUser(email: string) {
    const old = createAccountsService({ db: t.ctx.db, clock: t.clock, scrypt: { N: 16384, r: 8, p: 1 } });
    await old.createUser({ email, password: 'old but gold password' });
    return (await findUserByEmail(t.ctx.db, email))!.password_hash!;
  }

  it('a successful check replaces a weaker hash with one at the configured work factor', async () => {
    const before = await legacyUser('legacy@rehash.test');
    expect(before.startsWith('scrypt$16384$8$1$')).toBe(true);

    const user = await t.ctx.accounts.checkPassword('legacy@rehash.test', 'old but gold password');
    expect(user?.email).toBe('legacy@rehash.test');
    const after = (await findUserByEmail(t.ctx.db, 'legacy@rehash.test'))!.password_hash!;
    expect(after.startsWith('scrypt$32768$8$1$')).toBe(true);
    expect(after).not.toBe(before);
    // The new hash is the same password, and a second check leaves it alone.
    expect(await t.ctx.accounts.checkPassword('legacy@rehash.test', 'old but gold password')).not.toBeNull();
    expect((await findUserByEmail(t.ctx.db, 'legacy@rehash.test'))!.password_hash).toBe(after);
  });

  it('a wrong password changes nothing', async () => {
    const before = await legacyUser('wrong@rehash.test');
    expect(await t.ctx.accounts.checkPassword('wrong@rehash.test', 'not the password')).toBeNull();
    expect((await findUserByEmail(t.ctx.db, 'wrong@rehash.test'))!.password_hash).toBe(before);
  });

  it('an unknown address is refused', async () => {
    expect(await t.ctx.accounts.checkPassword('nobody@rehash.test', 'whatever123')).toBeNull();
  });

  it('new accounts are hashed at the configured work factor', async () => {
    await t.ctx.accounts.createUser({ email: 'fresh@rehash.test', password: 'a fresh password' });
    expect((await findUserByEmail(t.ctx.db, 'fresh@rehash.test'))!.password_hash!.startsWith('scrypt$32768$8$1$')).toBe(true);
  });
});
