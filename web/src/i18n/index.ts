import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { common } from './common';
import { codeText, fieldText, type FieldProblem } from './problem-text';

export type { FieldProblem };

export const LANGUAGES = ['en', 'zh-CN'] as const;
export type Language = (typeof LANGUAGES)[number];

export { defineMessages, type MessageBundle, type Messages, type SameKeys } from './messages';
import type { MessageBundle } from './messages';

const STORAGE_KEY = 'hk.lang';

/** The stored choice, else the browser's first Chinese or English preference, else English. */
export function detectLanguage(preferred: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages, stored?: string | null): Language {
  if (stored === 'en' || stored === 'zh-CN') return stored;
  for (const tag of preferred) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('zh')) return 'zh-CN';
    if (lower.startsWith('en')) return 'en';
  }
  return 'en';
}

function storedLanguage(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export const i18n = i18next.createInstance();

export function initI18n(): typeof i18n {
  const lng = detectLanguage(undefined, storedLanguage());
  void i18n.use(initReactI18next).init({
    lng,
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    ns: ['common'],
    defaultNS: 'common',
    resources: { en: { common: common.en }, 'zh-CN': { common: common['zh-CN'] } },
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  document.documentElement.lang = lng;
  return i18n;
}

/** Adds a feature's messages when its code loads (pages are split into chunks, and so are their words). */
export function registerMessages(ns: string, bundle: MessageBundle): void {
  for (const lng of LANGUAGES) {
    if (!i18n.hasResourceBundle(lng, ns)) i18n.addResourceBundle(lng, ns, bundle[lng], true, false);
  }
}

export function setLanguage(lng: Language): void {
  try {
    localStorage.setItem(STORAGE_KEY, lng);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
  document.documentElement.lang = lng;
  void i18n.changeLanguage(lng);
}

export function currentLanguage(): Language {
  return (i18n.language as Language) ?? 'en';
}

/** `const { t } = useT('organizer', bundle)`: registers the namespace on first use and translates in it. */
export function useT(ns: string = 'common', bundle?: MessageBundle) {
  if (bundle) registerMessages(ns, bundle);
  return useTranslation(ns);
}

/** A problem code's sentence in the page's language (the server's `detail` on an English page, or where no translation exists). */
export function problemCodeText(code: string, detail: string): string {
  return codeText(
    code,
    detail,
    i18n.language ?? 'en',
    (k, v) => i18n.t(k, { ns: 'common', ...v }),
    (k) => i18n.exists(k, { ns: 'common' }),
  );
}

/** A field problem's sentence in the page's language (the server's own where the page has no words for it). */
export function problemFieldText(problem: FieldProblem): string {
  return fieldText(problem, i18n.language ?? 'en', (k, v) => i18n.t(k, { ns: 'common', ...v }));
}
