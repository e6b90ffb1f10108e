import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMailer, smtpOptionsFromUrl } from '../../src/core/mailer.js';

describe('smtpOptionsFromUrl', () => {
  it('treats plain smtp:// on loopback as a local receiver: no TLS at all', () => {
    expect(smtpOptionsFromUrl('smtp://127.0.0.1:2525')).toMatchObject({ host: '127.0.0.1', port: 2525, secure: false, ignoreTLS: true, requireTLS: false });
    expect(smtpOptionsFromUrl('smtp://localhost:1025').ignoreTLS).toBe(true);
    expect(smtpOptionsFromUrl('smtp://[::1]:1025')).toMatchObject({ host: '::1', ignoreTLS: true });
  });

  it('upgrades with STARTTLS elsewhere, and smtps:// is TLS from the start', () => {
    expect(smtpOptionsFromUrl('smtp://mail.example.com')).toMatchObject({ port: 587, secure: false, ignoreTLS: false });
    expect(smtpOptionsFromUrl('smtps://mail.example.com')).toMatchObject({ port: 465, secure: true, ignoreTLS: false });
  });

  it('decodes credentials and takes overrides from the query', () => {
    const o = smtpOptionsFromUrl('smtp://us%40er:p%3Ass@mail.example.com:25?ignoreTLS=true&rejectUnauthorized=false');
    expect(o.auth).toEqual({ user: 'us@er', pass: 'p:ss' });
    expect(o.ignoreTLS).toBe(true);
    expect(o.tls).toEqual({ rejectUnauthorized: false });
    expect(smtpOptionsFromUrl('smtp://127.0.0.1:25?requireTLS=true')).toMatchObject({ requireTLS: true, ignoreTLS: false });
  });

  it('refuses what is not an SMTP URL, naming the variable', () => {
    expect(() => smtpOptionsFromUrl('http://mail.example.com')).toThrow(/SMTP_URL must start with smtp:\/\//);
    expect(() => smtpOptionsFromUrl('mail.example.com:25')).toThrow(/SMTP_URL/);
    expect(() => smtpOptionsFromUrl('smtp://h?ignoreTLS=maybe')).toThrow(/ignoreTLS/);
  });
});

describe('outbox mailer', () => {
  it('writes each message as an .eml file (owner-only) in OUTBOX_DIR, creating it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hk-mailer-'));
    const dir = join(root, 'nested', 'outbox');
    try {
      const mailer = createMailer({ smtpUrl: undefined, from: 'Test <t@example.com>', outboxDir: dir, invitationTtlHours: 1 });
      expect(mailer.mode).toBe('outbox');
      const a = await mailer.send({ to: 'a@example.com', subject: 'One', text: 'plain body', html: '<p>html body</p>' });
      const b = await mailer.send({ to: 'b@example.com', subject: 'Two', text: 'second', html: '<p>second</p>' });
      expect(a.mode).toBe('outbox');
      const files = readdirSync(dir).sort();
      expect(files).toHaveLength(2);
      expect(files.every((f) => f.endsWith('.eml'))).toBe(true);
      if (a.mode !== 'outbox' || b.mode !== 'outbox') throw new Error('unreachable');
      const eml = readFileSync(a.file, 'utf8');
      expect(eml).toMatch(/^From: Test <t@example\.com>\r$/m);
      expect(eml).toMatch(/^To: a@example\.com\r$/m);
      expect(eml).toMatch(/^Subject: One\r$/m);
      expect(eml).toContain('plain body');
      expect(eml).toContain('<p>html body</p>');
      expect(statSync(a.file).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('uses SMTP when SMTP_URL is set', () => {
    expect(createMailer({ smtpUrl: 'smtp://127.0.0.1:2525', from: 'x@example.com', outboxDir: '/nonexistent', invitationTtlHours: 1 }).mode).toBe('smtp');
  });
});
