import { describe, expect, it } from 'vitest';
import { detectLanguage } from './index';
import type { MessageBundle, Messages } from './messages';

/**
 * Every bundle of words: each `*messages.ts` module's exported bundles (a feature's page loads its own
 * with its chunk). The test gathers them itself, so the runtime code has no module that imports every
 * feature, and a new messages file is checked without being listed anywhere.
 */
const modules = import.meta.glob<Record<string, unknown>>(['./common.ts', '../features/**/*messages.ts'], { eager: true });
const isBundle = (v: unknown): v is MessageBundle => typeof v === 'object' && v !== null && 'en' in v && 'zh-CN' in v;
const ALL_MESSAGES: Record<string, MessageBundle> = Object.fromEntries(
  Object.entries(modules).flatMap(([file, exports]) =>
    Object.entries(exports)
      .filter(([, value]) => isBundle(value))
      .map(([name, value]) => [`${file.replace(/^\.\.?\//, '').replace(/\.ts$/, '')}#${name}`, value as MessageBundle]),
  ),
);

function leaves(tree: Messages, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out.set(prefix + k, v);
    else for (const [kk, vv] of leaves(v, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}

/** Words that are the same in both languages (names, codes, formats). */
const SAME_IN_BOTH = /^(API|CSV|JSON|URL|ID|MCP|GitHub|E-mail|OK|README|skill\.md|llms\.txt|English|简体中文|[\s\d{}.:/%()–-]*|\{\{[a-z_]+\}\}.*)$/i;

describe('translations', () => {
  it('finds the bundles (common and every feature folder)', () => {
    const files = new Set(Object.keys(ALL_MESSAGES).map((k) => k.split('#')[0]));
    expect(files).toContain('common');
    expect(files).toContain('features/shared/audit-messages');
    expect(files.size).toBeGreaterThanOrEqual(14);
  });
  for (const [ns, bundle] of Object.entries(ALL_MESSAGES)) {
    it(`${ns}: Chinese has exactly the English keys, none empty, none left in English`, () => {
      const en = leaves(bundle.en);
      const zh = leaves(bundle['zh-CN']);
      expect([...zh.keys()].sort()).toEqual([...en.keys()].sort());
      for (const [key, text] of zh) {
        expect(text.trim(), `${ns}:${key} is empty`).not.toBe('');
        const english = en.get(key)!;
        // An untranslated string is the English text copied over (short names and codes aside).
        if (text === english) expect(english, `${ns}:${key} is not translated`).toMatch(SAME_IN_BOTH);
      }
    });
    it(`${ns}: both languages use the same {{placeholders}}`, () => {
      const en = leaves(bundle.en);
      const zh = leaves(bundle['zh-CN']);
      const names = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
      for (const [key, text] of en) expect(names(zh.get(key) ?? ''), `${ns}:${key}`).toEqual(names(text));
    });
  }
});

describe('language detection', () => {
  it('takes a stored choice first, then the first Chinese or English browser preference', () => {
    expect(detectLanguage(['en-US'], 'zh-CN')).toBe('zh-CN');
    expect(detectLanguage(['zh-TW', 'en'], null)).toBe('zh-CN');
    expect(detectLanguage(['fr-FR', 'en-GB'], null)).toBe('en');
    expect(detectLanguage(['fr-FR'], null)).toBe('en');
    expect(detectLanguage(['de', 'zh-Hans-CN'], 'xx')).toBe('zh-CN');
  });
});
