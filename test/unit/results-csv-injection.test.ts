import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResultEntry } from '../../src/results/ranking.js';
import { csvCell, leaderboardCsv } from '../../src/results/results-csv.js';
import { parseCsv } from '../helpers/csv.js';

/**
 * Team-supplied text in the leaderboard CSV: whatever a team calls itself or its project, a strict
 * RFC 4180 reader gets one row per project with the same columns, the text back intact, and no
 * cell a spreadsheet would run as a formula.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

function entry(team_name: string, project_name: string, rank = 1): ResultEntry {
  return {
    rank,
    project_id: `prj_${rank}`,
    project_name,
    team_name,
    track_id: 'tools',
    score: 5,
    scores_by_model: { human: 5 },
    scores_by_dimension: { impact: 5 },
  };
}
const columns = { groups: ['human'], dimensions: ['impact'] };

/** Text biased towards what breaks CSV: quotes, commas, every line break, formula characters. */
const nastyText = fc.string({
  unit: fc.oneof(fc.constantFrom('"', ',', '\r', '\n', '\r\n', '=', '+', '-', '@', '\t', ' ', "'", ';'), fc.string({ minLength: 1, maxLength: 1 })),
  maxLength: 30,
});

describe('leaderboard CSV against injected text', () => {
  it.each([
    ['a lone carriage return', 'Team\rName'],
    ['a leading carriage return', '\r=1+1'],
    ['a line feed', 'Team\nName'],
    ['CRLF', 'Team\r\nName'],
    ['quotes and commas', 'Say "hi", world'],
    ['a formula', '=HYPERLINK("http://evil","x")'],
    ['a DDE payload', "+cmd|' /C calc'!A0"],
    ['a minus formula', '-2+3'],
    ['an at formula', '@SUM(A1:A9)'],
    ['a leading tab', '\t=1'],
  ])('%s cannot split a row or start a formula', (_label, text) => {
    const rows = parseCsv(leaderboardCsv([entry(text, text)], columns));
    expect(rows).toHaveLength(2);
    expect(rows[1]).toHaveLength(rows[0]!.length);
    const team = rows[1]![rows[0]!.indexOf('team_name')]!;
    expect(team).toBe(FORMULA_START.test(text) ? `'${text}` : text);
    expect(team).not.toMatch(FORMULA_START);
  });

  it('holds for any text (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(nastyText, nastyText), { minLength: 1, maxLength: 5 }), (pairs) => {
        const rows = parseCsv(
          leaderboardCsv(
            pairs.map(([team, project], i) => entry(team, project, i + 1)),
            columns,
          ),
        );
        expect(rows).toHaveLength(pairs.length + 1);
        pairs.forEach(([team, project], i) => {
          const row = rows[i + 1]!;
          expect(row).toHaveLength(rows[0]!.length);
          expect(row[2]).toBe(FORMULA_START.test(project) ? `'${project}` : project);
          expect(row[3]).toBe(FORMULA_START.test(team) ? `'${team}` : team);
          expect(row[2]).not.toMatch(FORMULA_START);
          expect(row[3]).not.toMatch(FORMULA_START);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('writes numbers as numbers and empty cells for missing scores', () => {
    expect(csvCell(-1)).toBe('-1');
    expect(csvCell(undefined)).toBe('');
  });
});
