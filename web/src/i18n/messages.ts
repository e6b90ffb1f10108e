/** A message tree: nested objects of strings (i18next interpolation: `{{name}}`, plurals: `_one`/`_other`). */
export interface Messages {
  [key: string]: string | Messages;
}

/** The same keys as `T`, every leaf a string: a translation cannot miss a key (the compiler says so). */
export type SameKeys<T> = { [K in keyof T]: T[K] extends string ? string : SameKeys<T[K]> };

export interface MessageBundle<T extends Messages = Messages> {
  en: T;
  'zh-CN': SameKeys<T>;
}

/** Declares a namespace's messages in both languages; English is the reference. */
export function defineMessages<T extends Messages>(bundle: { en: T; 'zh-CN': SameKeys<T> }): MessageBundle<T> {
  return bundle;
}
