import { useTranslation } from 'react-i18next';

/** The viewer's IANA time zone (what the browser says), e.g. "Asia/Shanghai". */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export interface Formatters {
  locale: string;
  dateTime(iso: string | null | undefined, timeZone?: string): string;
  date(iso: string | null | undefined, timeZone?: string): string;
  number(n: number | null | undefined, digits?: number): string;
  percent(fraction: number, digits?: number): string;
  /** "in 3 days" / "2 hours ago" relative to `now`. */
  relative(iso: string, now?: number): string;
}

export function formatters(locale: string): Formatters {
  const dash = '–';
  return {
    locale,
    dateTime(iso, timeZone) {
      if (!iso) return dash;
      // dateStyle/timeStyle cannot be combined with timeZoneName (a RangeError): spell the parts out.
      return new Intl.DateTimeFormat(locale, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        timeZone,
        timeZoneName: 'short',
      }).format(new Date(iso));
    },
    date(iso, timeZone) {
      if (!iso) return dash;
      return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone }).format(new Date(iso));
    },
    number(n, digits = 2) {
      if (n === null || n === undefined || Number.isNaN(n)) return dash;
      return new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(n);
    },
    percent(fraction, digits = 0) {
      return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: digits }).format(fraction);
    },
    relative(iso, now = Date.now()) {
      const diff = new Date(iso).getTime() - now;
      const abs = Math.abs(diff);
      const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
      const units: [Intl.RelativeTimeFormatUnit, number][] = [
        ['day', 86_400_000],
        ['hour', 3_600_000],
        ['minute', 60_000],
      ];
      for (const [unit, ms] of units) if (abs >= ms) return rtf.format(Math.round(diff / ms), unit);
      return rtf.format(Math.round(diff / 1000), 'second');
    },
  };
}

/** Formatters for the current language; they change when the language does. */
export function useFormat(): Formatters {
  const { i18n } = useTranslation();
  return formatters(i18n.language || 'en');
}
