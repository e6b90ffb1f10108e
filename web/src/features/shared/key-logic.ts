/** Pure helpers of the keys and admin pages (no DOM, unit-tested). */

export type KeyStatus = 'active' | 'expired' | 'revoked';

/** A key or code is revoked if it has a revoked_at, else expired once expires_at is past. */
export function keyStatus(k: { revoked_at: string | null; expires_at: string | null }, now: number = Date.now()): KeyStatus {
  if (k.revoked_at) return 'revoked';
  if (k.expires_at && Date.parse(k.expires_at) <= now) return 'expired';
  return 'active';
}

export type CodeStatus = KeyStatus | 'used_up';

export function codeStatus(c: { revoked_at: string | null; expires_at: string | null; uses: number; max_uses: number }, now: number = Date.now()): CodeStatus {
  const s = keyStatus(c, now);
  if (s === 'active' && c.uses >= c.max_uses) return 'used_up';
  return s;
}

/**
 * A date input's value ("2026-12-31") as the instant the chosen day ends in the viewer's time zone
 * (a key "expiring on the 31st" works through that whole day); '' is no expiry (undefined).
 */
export function endOfDayIso(dateValue: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateValue.trim());
  if (!m) return undefined;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59, 999);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** Today's date in the viewer's time zone as a date input's `min` ("2026-11-23"). */
export function todayInputValue(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A ready-to-run shell command that checks a key against this site (single quotes keep it literal). */
export function curlExample(apiBase: string, key: string, path = '/auth/session'): string {
  return `curl -H 'Authorization: Bearer ${key}' '${apiBase.replace(/\/+$/, '')}${path}'`;
}

/** The sign-up link that carries an invitation code. */
export function signupLink(publicUrl: string, code: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/signup?code=${encodeURIComponent(code)}`;
}
