/**
 * One CSV field: numbers as written, text neutralised against spreadsheet formulas and quoted when
 * needed. (The same rule as src/results/results-csv.ts's csvCell, here for the domains below results.)
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  let text = value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: Array<string | number | null | undefined>): string {
  return values.map(csvField).join(',') + '\r\n';
}
