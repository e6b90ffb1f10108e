import { useFormat } from '../../lib/format';

/**
 * Date and time in the viewer's zone, without the zone's name: Intl refuses `timeZoneName` beside
 * `dateStyle`/`timeStyle` (RangeError "Invalid option"), so the page names the zone once instead.
 */
export function dateTimeText(locale: string, iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '–';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso));
}

export function useDetailFormat() {
  const fmt = useFormat();
  return { ...fmt, dateTime: (iso: string | null | undefined, timeZone?: string) => dateTimeText(fmt.locale, iso, timeZone) };
}
