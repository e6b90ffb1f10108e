/** One field's problem in a problem+json answer (`errors[]`): the field's path and the server's sentence. */
export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * The server writes its problems in English: a stable `code` and a sentence (`detail`), and for
 * invalid input a sentence per field. A page in English shows those sentences (they are the most
 * precise); a page in another language shows its own words for the code, and for the field
 * problems it recognises, and the server's sentence only where it has none.
 */
type Translate = (key: string, vars?: Record<string, unknown>) => string;
type Exists = (key: string) => boolean;

export const isEnglish = (language: string) => language === 'en' || language.startsWith('en-');

/** The page's sentence for a problem code, in `language`; the server's own when there is none. */
export function codeText(code: string, detail: string, language: string, t: Translate, exists: Exists): string {
  const key = `problems.codes.${code}`;
  if (isEnglish(language) && detail) return detail;
  return exists(key) ? t(key) : detail || t('problems.fallback');
}

/**
 * Field problems the pages can meet, by the server's sentence (src/**: validation and the domain
 * rules) -> a key of `problems.fields` and the sentence's parts it keeps (numbers, names, e-mails).
 */
const FIELD_PATTERNS: Array<[RegExp, string, string[]]> = [
  [/^is required\b/, 'required', []],
  [/^must not be blank$/, 'blank', []],
  [/^must be an e-mail address$/, 'email', []],
  [/^must match format "email"$/, 'email', []],
  [/^must be one plain e-mail address/, 'email', []],
  [/^must be an absolute http\(s\) URL$/, 'url', []],
  [/^must match format "uri"$/, 'url', []],
  [/^must be at least (\d+) characters$/, 'minLength', ['min']],
  [/^must NOT have fewer than (\d+) characters$/, 'minLength', ['min']],
  [/^must be at most (\d+) characters$/, 'maxLength', ['max']],
  [/^must NOT have more than (\d+) characters$/, 'maxLength', ['max']],
  [/^must be between (-?[\d.]+) and (-?[\d.]+)$/, 'between', ['min', 'max']],
  [/^must be a number/, 'number', []],
  [/^no user with e-mail (.+)$/, 'noUser', ['email']],
  [/^must be in the future when the event is published/, 'futureWhenPublished', []],
  [/^must be in the future/, 'future', []],
  [/^must not be before registration_deadline$/, 'notBeforeRegistration', []],
  [/^must be an ISO 8601 date-time/, 'dateTime', []],
  [/^must be an IANA time zone name/, 'timeZone', []],
  [/^duplicate [a-z ]*"(.+)"$/, 'duplicate', ['name']],
  [/^track "(.+)" has registrations and cannot be removed$/, 'trackInUse', ['track']],
  [/^is not your current password$/, 'wrongPassword', []],
  [/^is not a known property$/, 'unknownProperty', []],
  [/^this invitation is for (.+)$/, 'invitationFor', ['email']],
  [/^you cannot demote or disable yourself$/, 'notYourself', []],
];

/** A field problem's sentence in `language`: the page's own words when it knows the sentence, else the server's. */
export function fieldText(problem: FieldProblem, language: string, t: Translate): string {
  if (isEnglish(language)) return problem.message;
  for (const [re, key, names] of FIELD_PATTERNS) {
    const m = re.exec(problem.message);
    if (m) return t(`problems.fields.${key}`, Object.fromEntries(names.map((n, i) => [n, m[i + 1]])));
  }
  return problem.message;
}
