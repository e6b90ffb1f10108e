/** Canonical timestamp text: ISO-8601 UTC with milliseconds, fixed width so text order = time order. */
export function iso(d: Date | number | string): string {
  return new Date(d).toISOString();
}

/** Parses a client-supplied timestamp; null when it is not a real date-time with a zone. */
export function parseTimestamp(raw: string): Date | null {
  // Require a date, a time and a zone so "2026-01-01" never silently means local midnight.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i.test(raw)) return null;
  const d = new Date(raw);
  return Number.isNaN(d.getTime()) ? null : d;
}
