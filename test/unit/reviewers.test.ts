import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/core/html.js';
import { invitationMail } from '../../src/reviewers/invitation-mail.js';
import { hashInvitationToken, looksLikeInvitationToken, newInvitationToken } from '../../src/reviewers/invitation-token.js';
import { validateScores } from '../../src/reviewers/review-input.js';
import { invitationStatus } from '../../src/reviewers/reviewers-model.js';

const DIMS = [
  { name: 'impact', weight: 2 },
  { name: 'craft', weight: 1 },
];

describe('validateScores', () => {
  it('accepts every dimension from 0 to 10, decimals included, in the event order', () => {
    const { value, errors } = validateScores({ craft: 10, impact: 0.5 }, DIMS);
    expect(errors).toEqual([]);
    expect(Object.keys(value)).toEqual(['impact', 'craft']);
    expect(value).toEqual({ impact: 0.5, craft: 10 });
    expect(validateScores({ impact: 0, craft: 0 }, DIMS).errors).toEqual([]);
  });

  it('reports each missing, out-of-range, non-numeric and unknown name as scores.<name>', () => {
    const { errors } = validateScores({ impact: 10.01, bogus: 1, 'x y': 2 }, DIMS);
    expect(errors).toEqual([
      { field: 'scores.impact', message: 'must be from 0 to 10' },
      { field: 'scores.craft', message: 'is required' },
      { field: 'scores.bogus', message: 'is not a dimension of this event (impact, craft)' },
      { field: 'scores.x y', message: 'is not a dimension of this event (impact, craft)' },
    ]);
    expect(validateScores({ impact: -0.1, craft: '5' }, DIMS).errors).toEqual([
      { field: 'scores.impact', message: 'must be from 0 to 10' },
      { field: 'scores.craft', message: 'must be a number' },
    ]);
    expect(validateScores({ impact: Number.NaN, craft: null }, DIMS).errors.map((e) => e.message)).toEqual(['must be a number', 'must be a number']);
  });

  it('does not let inherited names count as present', () => {
    expect(validateScores({}, [{ name: 'toString', weight: 1 }]).errors).toEqual([{ field: 'scores.toString', message: 'is required' }]);
    const parsed = JSON.parse('{"__proto__": 5, "impact": 1, "craft": 1}') as Record<string, unknown>;
    expect(validateScores(parsed, DIMS).errors).toEqual([{ field: 'scores.__proto__', message: expect.stringContaining('not a dimension') }]);
  });
});

describe('invitation tokens', () => {
  it('carry 256 random bits in base64url and are stored as SHA-256 hex', () => {
    const { token, hash } = newInvitationToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(hash).toBe(hashInvitationToken(token));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(newInvitationToken().token).not.toBe(token);
  });

  it('are shape-checked before any lookup', () => {
    expect(looksLikeInvitationToken('A'.repeat(43))).toBe(true);
    expect(looksLikeInvitationToken('A'.repeat(42))).toBe(false);
    expect(looksLikeInvitationToken(`${'A'.repeat(42)}=`)).toBe(false);
    expect(looksLikeInvitationToken("' or 1=1 --")).toBe(false);
  });
});

describe('invitationStatus', () => {
  const exp = '2030-01-08T12:00:00.000Z';
  it('is pending until expires_at, expired from that instant, accepted once used', () => {
    expect(invitationStatus({ accepted_at: null, expires_at: exp }, new Date(Date.parse(exp) - 1))).toBe('pending');
    expect(invitationStatus({ accepted_at: null, expires_at: exp }, new Date(exp))).toBe('expired');
    expect(invitationStatus({ accepted_at: '2030-01-02T00:00:00.000Z', expires_at: exp }, new Date(Date.parse(exp) + 1))).toBe('accepted');
  });
});

describe('invitation e-mail', () => {
  const hostile = 'Hack <script>alert(1)</script> & "co" \'x\'\r\nBcc: victim@example.com';

  it('escapes HTML', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  });

  it('mails the link in both parts, escapes the HTML one, and keeps the subject on one line', () => {
    const link = `http://hackathon.test/invitations/${'A'.repeat(43)}`;
    const mail = invitationMail({ to: 'r@example.com', eventName: hostile, inviterName: null, link, expiresAt: '2030-01-08T12:00:00.000Z', timeZone: null });
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
  });

  it("names the organizer by display name, never by address, and shows the expiry in the event's time zone", () => {
    const link = 'http://hackathon.test/invitations/x';
    const named = invitationMail({
      to: 'r@example.com',
      eventName: 'Hack',
      inviterName: 'Olga',
      link,
      expiresAt: '2030-01-08T12:00:00.000Z',
      timeZone: 'Asia/Shanghai',
    });
    expect(named.text).toContain('Olga invites you to review the projects of the hackathon "Hack".');
    expect(named.text).toContain('expires 8 Jan 2030, 20:00 (Asia/Shanghai).');
    const unnamed = invitationMail({ to: 'r@example.com', eventName: 'Hack', inviterName: null, link, expiresAt: '2030-01-08T12:00:00.000Z', timeZone: null });
    expect(unnamed.text).toContain('The organizers of "Hack" invite you to review');
    expect(unnamed.text).toContain('expires 8 Jan 2030, 12:00 (UTC).');
    expect(unnamed.text + unnamed.html).not.toContain('@example.com');
  });
});
