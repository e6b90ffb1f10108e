/** Pure helpers of the account pages (no DOM, no React): tested in logic.test.ts. */

export interface DeviceSummary {
  /** A browser name, e.g. "Chrome 120"; null when unknown. */
  browser: string | null;
  /** An operating system, e.g. "macOS"; null when unknown. */
  os: string | null;
  /** The request came from a command-line client or a library (curl, an agent). */
  tool: string | null;
}

/** A readable summary of a User-Agent header. Order matters: Edge and Opera also say "Chrome". */
export function summarizeUserAgent(ua: string | null | undefined): DeviceSummary {
  const s = ua ?? '';
  const tool = /^(curl|Wget|python-requests|node-fetch|undici|axios|Go-http-client|okhttp|PostmanRuntime|HTTPie)\/?([\d.]*)/i.exec(s);
  if (tool) return { browser: null, os: null, tool: tool[1]! };
  const major = (re: RegExp) => {
    const m = re.exec(s);
    return m ? m[1]!.split('.')[0]! : null;
  };
  let browser: string | null = null;
  const pairs: Array<[string, RegExp]> = [
    ['Edge', /Edg(?:e|A|iOS)?\/([\d.]+)/],
    ['Opera', /(?:OPR|Opera)\/([\d.]+)/],
    ['Samsung Internet', /SamsungBrowser\/([\d.]+)/],
    ['Firefox', /(?:Firefox|FxiOS)\/([\d.]+)/],
    ['Chrome', /(?:Chrome|CriOS|Chromium)\/([\d.]+)/],
    ['Safari', /Version\/([\d.]+).*Safari\//],
  ];
  for (const [name, re] of pairs) {
    const v = major(re);
    if (v) {
      browser = `${name} ${v}`;
      break;
    }
  }
  if (/HeadlessChrome\//.test(s)) browser = `Headless Chrome ${major(/HeadlessChrome\/([\d.]+)/)}`;
  let os: string | null = null;
  if (/Windows NT/.test(s)) os = 'Windows';
  else if (/iPhone|iPad|iPod/.test(s)) os = /iPad/.test(s) ? 'iPadOS' : 'iOS';
  else if (/Mac OS X|Macintosh/.test(s)) os = 'macOS';
  else if (/Android/.test(s)) os = 'Android';
  else if (/CrOS/.test(s)) os = 'ChromeOS';
  else if (/Linux/.test(s)) os = 'Linux';
  return { browser, os, tool: null };
}

export type PasswordProblem = 'tooShort' | 'mismatch' | null;

/** What is wrong with a new password before it is sent: too short, or the two entries differ. */
export function passwordProblem(password: string, minLength: number, confirmation?: string): PasswordProblem {
  if ([...password].length < minLength) return 'tooShort';
  if (confirmation !== undefined && confirmation !== password) return 'mismatch';
  return null;
}

/** Where a person lands after signing in when no `next` was asked for. */
export function homeFor(role: string): string {
  return role === 'organizer' || role === 'admin' ? '/events' : '/';
}

/** The return path after signing in: the asked-for `next` if it is a path of this site, else the role's home. */
export function afterSignIn(next: string | null | undefined, role: string, safe: (n: string | null | undefined) => string): string {
  if (!next) return homeFor(role);
  const path = safe(next);
  // Going back to a sign-in or sign-up page after signing in would loop.
  return /^\/(signin|signup)(\?|$)/.test(path) ? homeFor(role) : path;
}

/** Seconds left until `until` (ms since epoch), never negative, rounded up. */
export function secondsLeft(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/** A wait as people read it: "45 s" under a minute, else minutes and seconds "14:59". */
export function formatWait(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

const SIGNUP_NEXT_KEY = 'hk.signup-next';

/**
 * A sign-up confirmed by an e-mailed link opens a new page that no longer has `next`: the sign-up
 * page remembers it in this browser, and the confirm page takes it back (once).
 */
export function rememberSignupNext(next: string | null): void {
  try {
    if (next) localStorage.setItem(SIGNUP_NEXT_KEY, next);
    else localStorage.removeItem(SIGNUP_NEXT_KEY);
  } catch {
    /* private mode: the person lands on the home page instead */
  }
}

export function takeSignupNext(): string | null {
  try {
    const next = localStorage.getItem(SIGNUP_NEXT_KEY);
    localStorage.removeItem(SIGNUP_NEXT_KEY);
    return next;
  } catch {
    return null;
  }
}

/** The mail language for the browser's languages: zh for any Chinese first preference, else en. */
export function browserMailLanguage(preferred: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages): 'en' | 'zh' {
  for (const lang of preferred) {
    const l = lang.toLowerCase();
    if (l.startsWith('zh')) return 'zh';
    if (l.startsWith('en')) return 'en';
  }
  return 'en';
}

/** The browser's IANA time zone, or UTC when it does not say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
