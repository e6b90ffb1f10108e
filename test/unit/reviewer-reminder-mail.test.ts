import { describe, expect, it } from 'vitest';
import { fillMarks, fillSubject, renderNotification, switchFor, type MailContext } from '../../src/notifications/notification-mail.js';

const event = { id: 'evt_1', name: 'Spring <Hack>', submission_deadline: '2030-01-03T12:00:00.000Z', registration_deadline: '2030-01-02T12:00:00.000Z' };
const ctx = (over: Partial<MailContext>): MailContext => ({
  kind: 'reviewer_reminder',
  language: 'en',
  timeZone: 'UTC',
  event,
  organizerName: 'Grace',
  data: { open_reviews: 3 },
  ...over,
});

describe('the reviewer reminder mail', () => {
  it('says how many projects are left and links the reviewer’s queue (en, plural and singular)', () => {
    const many = renderNotification(ctx({}));
    expect(fillSubject(many.subject, 'Owl\nHacks')).toBe('[Owl Hacks] Spring <Hack>: 3 projects are waiting for your review');
    expect(many.text).toContain('Grace reminds you: 3 projects in Spring <Hack> still wait for your review.');
    expect(fillMarks(many.text, 'https://hack.example', 'Hack', false)).toContain('Open your review queue: https://hack.example/reviews/evt_1');
    expect(many.html).toContain('Spring &lt;Hack&gt;');
    const one = renderNotification(ctx({ data: { open_reviews: 1 }, organizerName: null }));
    expect(fillSubject(one.subject, 'Owl Hacks')).toBe('[Owl Hacks] Spring <Hack>: 1 project is waiting for your review');
    expect(one.text).toContain('The organizers remind you: 1 project in Spring <Hack> still waits for your review.');
  });

  it('in Chinese', () => {
    const zh = renderNotification(ctx({ language: 'zh' }));
    expect(fillSubject(zh.subject, 'Owl Hacks')).toBe('【Owl Hacks】Spring <Hack>：还有 3 个作品等你评审');
    expect(zh.text).toContain('Grace 提醒你：在 Spring <Hack> 中还有 3 个作品等你评审。');
    expect(zh.html).toContain('<html lang="zh-CN">');
  });

  it('is not behind a person’s switch (an organizer sends it at most once a day)', () => {
    expect(switchFor('reviewer_reminder')).toBeNull();
  });
});
