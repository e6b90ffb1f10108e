import { defineMessages } from '../../i18n/messages';

/** The words of the keys pages, English and Simplified Chinese (the same keys: the compiler checks). */
export const messages = defineMessages({
  en: {},
  'zh-CN': {},
});
