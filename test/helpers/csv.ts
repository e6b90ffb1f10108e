/** A strict RFC 4180 reader (CRLF records, quoted fields): what a spreadsheet would see. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i++;
      } else {
        cell += c;
        i++;
      }
    } else if (c === '"' && cell === '') {
      quoted = true;
      i++;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 2;
    } else if (c === '\r' || c === '\n' || c === '"') {
      throw new Error(`bare ${JSON.stringify(c)} outside quotes at ${i}`);
    } else {
      cell += c;
      i++;
    }
  }
  if (cell !== '' || row.length) throw new Error('the last record does not end with CRLF');
  return rows;
}
