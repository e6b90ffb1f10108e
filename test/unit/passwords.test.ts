import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, OWASP_SCRYPT, SCRYPT_MIN_N, verifyPassword } from '../../src/accounts/passwords.js';
import { ConfigError, loadConfig } from '../../src/core/config.js';

describe('password hashing', () => {
  it('defaults to the OWASP scrypt parameters (N=2^17, r=8, p=1), in the code and in the config', async () => {
    expect(OWASP_SCRYPT).toEqual({ N: 131072, r: 8, p: 1 });
    expect(loadConfig({}).passwordScrypt).toEqual({ N: 131072, r: 8, p: 1 });
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
  });

  it('PASSWORD_SCRYPT_N takes a power of two from the floor 2^14 to 2^20', () => {
    expect(loadConfig({ PASSWORD_SCRYPT_N: '32768' }).passwordScrypt).toEqual({ N: 32768, r: 8, p: 1 });
    expect(loadConfig({ PASSWORD_SCRYPT_N: String(SCRYPT_MIN_N) }).passwordScrypt.N).toBe(16384);
    for (const bad of ['8192', '1024', '20000', '2097152', 'lots', '0x8000']) {
      expect(() => loadConfig({ PASSWORD_SCRYPT_N: bad }), bad).toThrow(ConfigError);
    }
  });

  it('keeps the scrypt$N$r$p$salt$hash format, so older hashes still verify', async () => {
    const old = await hashPassword('hunter22hunter22', { N: 16384, r: 8, p: 1 });
    expect(old.startsWith('scrypt$16384$8$1$')).toBe(true);
    expect(await verifyPassword('hunter22hunter22', old)).toBe(true);
  });

  it('refuses malformed or absurd stored hashes instead of computing them', async () => {
    const good = await hashPassword('pw-pw-pw-pw', { N: 16384, r: 8, p: 1 });
    const [, , , , salt, hash] = good.split('$');
    for (const bad of [
      '',
      'bcrypt$x',
      `scrypt$16384$8$1$${salt}`,
      `scrypt$16384$8$1$${salt}$${hash}$extra`,
      `scrypt$16383$8$1$${salt}$${hash}`,
      `scrypt$${2 ** 24}$8$1$${salt}$${hash}`,
      `scrypt$16384$0$1$${salt}$${hash}`,
      `scrypt$16384$8$99$${salt}$${hash}`,
    ]) {
      expect(await verifyPassword('pw-pw-pw-pw', bad), bad).toBe(false);
    }
    expect(await verifyPassword('pw-pw-pw-pw', null)).toBe(false);
  });

  it('needsRehash is true only for less work than the target', () => {
    const target = { N: 131072, r: 8, p: 1 };
    const fake = (N: number, r: number, p: number) => `scrypt$${N}$${r}$${p}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
    expect(needsRehash(fake(16384, 8, 1), target)).toBe(true);
    expect(needsRehash(fake(65536, 8, 1), target)).toBe(true);
    expect(needsRehash(fake(131072, 8, 1), target)).toBe(false);
    expect(needsRehash(fake(262144, 8, 1), target)).toBe(false);
    expect(needsRehash(fake(131072, 8, 1), { N: 131072, r: 8, p: 2 })).toBe(true);
    expect(needsRehash('garbage', target)).toBe(true);
  });
});
