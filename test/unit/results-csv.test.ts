import { describe, expect, it } from 'vitest';
import type { ResultEntry } from '../../src/results/ranking.js';
import { csvCell, leaderboardCsv } from '../../src/results/results-csv.js';
import { ifNoneMatch } from '../../src/core/http/etag.js';

describe('leaderboard CSV', () => {
  it('escapes per RFC 4180 and leaves cells without a score empty', () => {
    const entries: ResultEntry[] = [
      {
        rank: 1,
        project_id: 'prj_1',
        project_name: 'Say "hi", world',
        team_name: 'Line\nbreak',
        track_id: 'tools',
        score: 7.5,
        scores_by_model: { 'openai/gpt-4o-mini': 7.3333, human: 8 },
        scores_by_dimension: { impact: 7.25, craft: 8 },
      },
      {
        rank: 2,
        project_id: 'prj_2',
        project_name: 'Plain',
        team_name: 'Team, Two',
        track_id: null,
        score: 0,
        scores_by_model: {},
        scores_by_dimension: {},
      },
    ];
    const csv = leaderboardCsv(entries, { groups: ['openai/gpt-4o-mini', 'human'], dimensions: ['impact', 'craft'] });
    expect(csv).toBe(
      [
        'rank,project_id,project_name,team_name,track_id,score,scores_by_model.openai/gpt-4o-mini,scores_by_model.human,scores_by_dimension.impact,scores_by_dimension.craft',
        '1,prj_1,"Say ""hi"", world","Line\nbreak",tools,7.5,7.3333,8,7.25,8',
        '2,prj_2,Plain,"Team, Two",,0,,,,',
        '',
      ].join('\r\n'),
    );
  });

  it('neutralises cells a spreadsheet would run as formulas', () => {
    expect(csvCell('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('safe - text')).toBe('safe - text');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(null)).toBe('');
  });
});

describe('If-None-Match', () => {
  it('matches a listed tag, weak or strong, or *', () => {
    expect(ifNoneMatch('"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatch('W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatch('"x", "abc"', '"abc"')).toBe(true);
    expect(ifNoneMatch('*', '"abc"')).toBe(true);
    expect(ifNoneMatch('"abd"', '"abc"')).toBe(false);
    expect(ifNoneMatch(undefined, '"abc"')).toBe(false);
  });
});
