/** Canonical timestamp text: ISO-8601 UTC with milliseconds, fixed width so text order = time order. */
export function iso(d: Date | number | string): string {
  return new Date(d).toISOString();
}

/** Parses a client-supplied timestamp; null when it is not a real date-time with a zone. */
export function parseTimestamp(raw: string): Date | null {
  // Require a date, a time and a zone so "2026-01-01" never silently means local midnight.
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i.exec(raw);
  if (!m) return null;
  // Date rolls impossible values over (Feb 30 -> Mar 2, 24:00 -> next day); refuse them instead.
  const [y, mo, day, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[7] ?? '0'].map(Number) as [number, number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (mo < 1 || mo > 12 || day < 1 || day > daysInMonth || h > 23 || mi > 59 || s > 59) return null;
  const d = new Date(raw);
  return Number.isNaN(d.getTime()) ? null : d;
}
