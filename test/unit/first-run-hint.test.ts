import { describe, expect, it } from 'vitest';
import { dataEnvPrefix, firstRunHint, printableDatabaseUrl, shellQuote } from '../../src/first-run-hint.js';

describe('first-run hint', () => {
  it('prints bare commands when the data is where the defaults put it', () => {
    expect(firstRunHint({}, '/app')).toContain('\n  npx hackathon users create --email you@example.com');
    expect(dataEnvPrefix({ DATA_DIR: './data' }, '/app').prefix).toBe('');
  });

  it('creates an administrator and points at the sign-up and admin pages of this site', () => {
    const hint = firstRunHint({ DATA_DIR: '/srv/hk' }, '/app', 'https://hack.example.org');
    expect(hint).toContain("\n  DATA_DIR=/srv/hk npx hackathon users create --email you@example.com --password 'a long password' --role admin\n");
    expect(hint).toContain('at https://hack.example.org/admin)');
    expect(hint).toContain(
      'or sign up at https://hack.example.org/signup and run: DATA_DIR=/srv/hk npx hackathon users set-role --email you@example.com --role admin\n',
    );
  });

  it('prefixes DATABASE_URL and DATA_DIR, made absolute and shell-quoted', () => {
    expect(dataEnvPrefix({ DATABASE_URL: 'sqlite:./db/x.db' }, '/app').prefix).toBe('DATABASE_URL=sqlite:/app/db/x.db ');
    expect(dataEnvPrefix({ DATABASE_URL: "sqlite:/tmp/it's here/x.db" }, '/app').prefix).toBe(`DATABASE_URL='sqlite:/tmp/it'\\''s here/x.db' `);
    expect(dataEnvPrefix({ DATA_DIR: 'var' }, '/app').prefix).toBe('DATA_DIR=/app/var ');
    expect(firstRunHint({ DATABASE_URL: 'postgres://app@db:5432/hk' }, '/app')).toContain('  DATABASE_URL=postgres://app@db:5432/hk npx hackathon keys create');
  });

  it('never prints a database password, and says what to put back', () => {
    const hint = firstRunHint({ DATABASE_URL: 'postgres://app:s3cr%40t@db:5432/hk?password=other&sslmode=require' }, '/app');
    expect(hint).not.toMatch(/s3cr|other/);
    expect(hint).toContain(`DATABASE_URL='postgres://app:<password>@db:5432/hk?password=<password>&sslmode=require'`);
    expect(hint).toMatch(/replace <password>/);
    expect(printableDatabaseUrl('postgres://app@db/hk')).toEqual({ url: 'postgres://app@db/hk', masked: false });
  });

  it('quotes what the shell would otherwise interpret', () => {
    expect(shellQuote('plain/path-1.db')).toBe('plain/path-1.db');
    expect(shellQuote('a b$c`d')).toBe(`'a b$c\`d'`);
  });
});
