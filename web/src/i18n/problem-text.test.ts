import { describe, expect, it } from 'vitest';
import { common } from './common';
import { codeText, fieldText } from './problem-text';

/** i18next's lookup over the common bundle, with {{placeholders}}. */
function translator(language: 'en' | 'zh-CN') {
  const lookup = (key: string): unknown =>
    key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], common[language]);
  const t = (key: string, vars: Record<string, unknown> = {}) => {
    const text = lookup(key);
    return (typeof text === 'string' ? text : key).replace(/\{\{(\w+)\}\}/g, (_, n: string) => String(vars[n]));
  };
  return { t, exists: (key: string) => typeof lookup(key) === 'string' };
}

describe('problem texts in the page language', () => {
  const zh = translator('zh-CN');
  const en = translator('en');

  it('says a problem code in Chinese on a Chinese page, the server sentence on an English one', () => {
    expect(codeText('event_locked', 'dimensions cannot change once judging has started', 'zh-CN', zh.t, zh.exists)).toBe('活动的这部分内容已无法修改。');
    expect(codeText('event_locked', 'dimensions cannot change once judging has started', 'en', en.t, en.exists)).toBe(
      'dimensions cannot change once judging has started',
    );
    // A code the page has no words for: the server's sentence rather than nothing.
    expect(codeText('brand_new_code', 'something new happened', 'zh-CN', zh.t, zh.exists)).toBe('something new happened');
    expect(codeText('brand_new_code', '', 'zh-CN', zh.t, zh.exists)).toBe('请求未能完成。');
  });

  it('has words for every code of the server in both languages', async () => {
    const { ERROR_STATUS } = await import('../../../src/core/errors');
    for (const code of Object.keys(ERROR_STATUS)) {
      expect(zh.exists(`problems.codes.${code}`), code).toBe(true);
      expect(en.exists(`problems.codes.${code}`), code).toBe(true);
    }
  });

  it('translates the field problems it recognises, keeping their names and numbers', () => {
    expect(fieldText({ field: 'co_organizers.0', message: 'no user with e-mail ghost@example.com' }, 'zh-CN', zh.t)).toBe(
      '没有使用邮箱 ghost@example.com 的账户。',
    );
    expect(fieldText({ field: 'password', message: 'must be at least 12 characters' }, 'zh-CN', zh.t)).toBe('至少 12 个字符。');
    expect(fieldText({ field: 'name', message: 'must NOT have more than 200 characters' }, 'zh-CN', zh.t)).toBe('最多 200 个字符。');
    expect(fieldText({ field: 'limit', message: 'must be between 1 and 1000' }, 'zh-CN', zh.t)).toBe('必须介于 1 和 1000 之间。');
    expect(fieldText({ field: 'tracks.1.id', message: 'duplicate track id "tools"' }, 'zh-CN', zh.t)).toBe('“tools”重复了。');
    expect(
      fieldText(
        {
          field: 'registration_deadline',
          message: 'must be in the future when the event is published (it is not after 2030-01-01T00:00:00.000Z); a draft may hold any dates',
        },
        'zh-CN',
        zh.t,
      ),
    ).toBe('发布活动时必须是将来的时间（草稿可以使用任意日期）。');
    // Unknown sentences, and every sentence on an English page, are the server's.
    expect(fieldText({ field: 'x', message: 'is odd in a new way' }, 'zh-CN', zh.t)).toBe('is odd in a new way');
    expect(fieldText({ field: 'co_organizers.0', message: 'no user with e-mail ghost@example.com' }, 'en', en.t)).toBe('no user with e-mail ghost@example.com');
  });
});
