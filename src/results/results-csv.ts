import type { ResultEntry } from './ranking.js';

/**
 * The leaderboard as CSV (RFC 4180: comma-separated, CRLF line ends, fields quoted when they hold a
 * comma, quote or line break, quotes doubled). Columns: rank, project_id, project_name, team_name,
 * track_id, score, (the live leaderboard: score_raw, score_normalized,) then `scores_by_model.<group>` per group and `scores_by_dimension.<name>` per
 * dimension (named after the JSON fields they mirror, so a model and a dimension never collide),
 * then, for an event with people's choice voting, `peoples_choice.rank` and `peoples_choice.votes`,
 * then (given `trackPlaces`) `track_rank` (the rank within the entry's track; empty without a track)
 * and `prize` (the track's prize when the entry won its track: first in it and scored).
 * A cell a project has no score for is empty.
 *
 * Team-supplied text is untrusted: a cell that a spreadsheet would run as a formula (starting with
 * =, +, -, @, tab or carriage return) is prefixed with an apostrophe (OWASP "CSV injection").
 */
export function leaderboardCsv(entries: readonly CsvEntry[], columns: CsvColumns): string {
  return csvRows([], columns, true) + csvRows(entries, columns, false);
}

export interface CsvColumns {
  groups: readonly string[];
  dimensions: readonly string[];
  /**
   * When the event runs a people's choice vote: each project's place and votes in it (published
   * with the results; empty cells before, and for a project with no votes or excluded from the vote).
   */
  peoplesChoice?: ReadonlyMap<string, { rank: number; votes: number }>;
  /** The live leaderboard's `score_raw` and `score_normalized` columns, after `score`. */
  scoreVariants?: boolean;
  /** The `track_rank` and `prize` columns, last. */
  trackPlaces?: boolean;
}

/** An entry of the CSV: the result's, with the leaderboard's two scores when `scoreVariants`. */
export type CsvEntry = ResultEntry & { score_raw?: number; score_normalized?: number | null; track_rank?: number | null; track_prize?: string | null };

/**
 * CSV lines (each ending in CRLF) for some entries, optionally preceded by the header: the unit a
 * streamed export writes, one chunk of rows at a time.
 */
export function csvRows(entries: readonly CsvEntry[], columns: CsvColumns, header: boolean): string {
  const lines: string[] = [];
  if (header) {
    lines.push(
      [
        'rank',
        'project_id',
        'project_name',
        'team_name',
        'track_id',
        'score',
        ...(columns.scoreVariants ? ['score_raw', 'score_normalized'] : []),
        ...columns.groups.map((g) => `scores_by_model.${g}`),
        ...columns.dimensions.map((d) => `scores_by_dimension.${d}`),
        ...(columns.peoplesChoice ? ['peoples_choice.rank', 'peoples_choice.votes'] : []),
        ...(columns.trackPlaces ? ['track_rank', 'prize'] : []),
      ]
        .map(csvCell)
        .join(','),
    );
  }
  for (const e of entries) {
    const row: Array<string | number | null | undefined> = [e.rank, e.project_id, e.project_name, e.team_name, e.track_id, e.score];
    if (columns.scoreVariants) row.push(e.score_raw, e.score_normalized);
    for (const g of columns.groups) row.push(e.scores_by_model[g]);
    for (const d of columns.dimensions) row.push(e.scores_by_dimension[d]);
    if (columns.peoplesChoice) {
      const pc = columns.peoplesChoice.get(e.project_id);
      row.push(pc?.rank, pc?.votes);
    }
    if (columns.trackPlaces) row.push(e.track_rank, e.track_prize);
    lines.push(row.map(csvCell).join(','));
  }
  return lines.length ? lines.join('\r\n') + '\r\n' : '';
}

/** One CSV field: numbers as written, text neutralised against formulas and quoted when needed. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  let text = value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
