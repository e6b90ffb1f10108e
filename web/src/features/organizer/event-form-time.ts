import { TZDate, tzOffset } from '@date-fns/tz';

/**
 * Deadlines are typed as a wall-clock date and time in a time zone the organizer picks and stored as
 * UTC instants. These functions convert both ways, DST-correct: a time that does not exist (the hour
 * skipped when clocks go forward) moves forward by the gap, and a time that happens twice (the hour
 * repeated when clocks go back) is the earlier of the two — the usual "compatible" reading.
 */

export interface WallTime {
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM (24 h) */
  time: string;
}

/** How a wall time mapped to an instant: exactly, skipped by a DST gap, or one of two instants. */
export type WallKind = 'exact' | 'gap' | 'ambiguous';

export interface Resolved {
  /** The instant as an ISO 8601 UTC string, e.g. 2026-12-01T09:00:00.000Z. */
  iso: string;
  kind: WallKind;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})$/;

function parts(wall: WallTime): [number, number, number, number, number] | null {
  const d = DATE.exec(wall.date);
  const t = TIME.exec(wall.time);
  if (!d || !t) return null;
  const [y, mo, day, h, mi] = [Number(d[1]), Number(d[2]), Number(d[3]), Number(t[1]), Number(t[2])];
  if (mo < 1 || mo > 12 || day < 1 || h > 23 || mi > 59) return null;
  // 2026-02-30 is not a date (Date.UTC would roll it into March).
  if (new Date(Date.UTC(y, mo - 1, day)).getUTCDate() !== day) return null;
  return [y, mo, day, h, mi];
}

/** True when `zone` is an IANA zone this browser knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The wall-clock date and time of `instant` in `zone`. */
export function utcToWall(iso: string, zone: string): WallTime | null {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms) || !isTimeZone(zone)) return null;
  const d = new TZDate(ms, zone);
  return { date: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`, time: `${pad(d.getHours())}:${pad(d.getMinutes())}` };
}

/** The UTC instant of a wall-clock date and time in `zone`, or null when the input is not a date/time. */
export function wallToUtc(wall: WallTime, zone: string): Resolved | null {
  const p = parts(wall);
  if (!p || !isTimeZone(zone)) return null;
  const [y, mo, day, h, mi] = p;
  const ms = +new TZDate(y, mo - 1, day, h, mi, zone);
  if (Number.isNaN(ms)) return null;
  const back = utcToWall(new Date(ms).toISOString(), zone);
  if (!back || back.date !== wall.date || back.time !== wall.time) return { iso: new Date(ms).toISOString(), kind: 'gap' };
  // The same wall time under the other offset of a nearby transition: a second, later instant?
  const naive = Date.UTC(y, mo - 1, day, h, mi);
  for (const probe of [ms - 86_400_000, ms + 86_400_000]) {
    const other = naive - tzOffset(zone, new Date(probe)) * 60_000;
    if (other === ms) continue;
    const again = utcToWall(new Date(other).toISOString(), zone);
    if (again && again.date === wall.date && again.time === wall.time) {
      return { iso: new Date(Math.min(ms, other)).toISOString(), kind: 'ambiguous' };
    }
  }
  return { iso: new Date(ms).toISOString(), kind: 'exact' };
}

/** "2026-12-01 09:00 UTC": the stored instant, as the form shows it back. */
export function formatUtc(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** "UTC+05:30" for `zone` at `iso` (offsets change with DST, so an instant is needed). */
export function offsetLabel(zone: string, iso: string = new Date().toISOString()): string {
  if (!isTimeZone(zone)) return '';
  const minutes = tzOffset(zone, new Date(iso));
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * Every IANA zone the browser knows, UTC first (Chromium's list omits it), plus `also` (the browser's
 * own zone may be spelled differently from the list, Asia/Kolkata vs Asia/Calcutta).
 */
export function timeZones(also: string[] = []): string[] {
  let zones: string[] = [];
  try {
    zones = (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  const extra = also.filter((z) => z !== 'UTC' && !zones.includes(z) && isTimeZone(z));
  return ['UTC', ...[...zones, ...extra].filter((z) => z !== 'UTC').sort()];
}

/**
 * "Dec 3, 2026, 6:00 PM GMT+3:30" in `locale` and `zone`. Spelled out part by part: Intl refuses
 * `timeZoneName` beside `dateStyle`/`timeStyle`.
 */
export function formatDateTime(locale: string, iso: string | null | undefined, zone?: string): string {
  if (!iso || Number.isNaN(Date.parse(iso))) return '–';
  const opts: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' };
  try {
    return new Intl.DateTimeFormat(locale, { ...opts, ...(zone && isTimeZone(zone) ? { timeZone: zone } : {}) }).format(new Date(iso));
  } catch {
    return new Date(iso).toISOString();
  }
}
