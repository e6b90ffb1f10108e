import { describe, expect, it } from 'vitest';
import {
  chartBars,
  dimensionColumns,
  judgeColumns,
  excerpt,
  isStatusFilter,
  paragraphs,
  registerCurl,
  registrationExample,
  shellQuote,
  weightShares,
  type ResultEntry,
} from './logic';

describe('description text', () => {
  it('splits paragraphs on blank lines and keeps single line breaks', () => {
    expect(paragraphs('One\ntwo\n\n\nThree\r\n\r\nFour  ')).toEqual([['One', 'two'], ['Three'], ['Four']]);
    expect(paragraphs('')).toEqual([]);
    expect(paragraphs(null)).toEqual([]);
    expect(paragraphs('\n\n  \n\n')).toEqual([]);
  });
  it('keeps markup as text (the page renders text nodes)', () => {
    expect(paragraphs('<script>alert(1)</script>')).toEqual([['<script>alert(1)</script>']]);
  });
  it('cuts an excerpt at a word with an ellipsis', () => {
    expect(excerpt('short  text\n here', 50)).toBe('short text here');
    expect(excerpt('alpha beta gamma delta epsilon', 20)).toBe('alpha beta gamma…');
    expect(excerpt(undefined)).toBe('');
  });
});

describe('weights', () => {
  it('gives each dimension its share of the total weight', () => {
    expect(
      weightShares([
        { name: 'impact', weight: 2 },
        { name: 'craft', weight: 1 },
        { name: 'fun', weight: 1 },
      ]).map((d) => d.share),
    ).toEqual([0.5, 0.25, 0.25]);
    expect(weightShares([])).toEqual([]);
  });
});

describe('registration command', () => {
  const tracks = [{ id: 'tools', name: 'Tools' }];
  const fields = [
    { key: 'repo', name: 'repo', label: 'Repository', type: 'url', required: true },
    { key: 'why', name: 'why', label: 'Why', type: 'text', required: false },
    { key: 'size', name: 'size', label: 'Team size', type: 'number', required: true },
  ];
  it('fills the first track and the required fields only', () => {
    expect(registrationExample(tracks, fields)).toEqual({ team_name: 'My team', track_id: 'tools', fields: { repo: 'https://example.com', size: 1 } });
    expect(registrationExample([], [])).toEqual({ team_name: 'My team' });
  });
  it('prints a curl command against the site URL with the key from the environment', () => {
    const cmd = registerCurl('https://hack.example.org/', 'evt_1', tracks, fields);
    expect(cmd).toContain("'https://hack.example.org/api/v1/events/evt_1/register'");
    expect(cmd).toContain('Authorization: Bearer $HACKATHON_API_KEY');
    expect(cmd).toContain(`-d '{"team_name":"My team","track_id":"tools","fields":{"repo":"https://example.com","size":1}}'`);
  });
  it('quotes single quotes for the shell', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

describe('result table', () => {
  const entry = (over: Partial<ResultEntry>): ResultEntry => ({
    rank: 1,
    project_id: 'p',
    project_name: 'P',
    team_name: 'T',
    track_id: null,
    score: 1,
    track_rank: null,
    track_prize: null,
    scores_by_model: {},
    scores_by_dimension: {},
    ...over,
  });
  it('orders dimension columns as the event does, then any others', () => {
    const entries = [entry({ scores_by_dimension: { craft: 1, extra: 2 } }), entry({ scores_by_dimension: { impact: 3 } })];
    expect(
      dimensionColumns(entries, [
        { name: 'impact', weight: 2 },
        { name: 'craft', weight: 1 },
        { name: 'unused', weight: 1 },
      ]),
    ).toEqual(['impact', 'craft', 'extra']);
  });
  it('lists the judge groups, models first and humans last', () => {
    const entries = [entry({ scores_by_model: { human: 7, 'openai/gpt-4o-mini': 8 } }), entry({ scores_by_model: { 'anthropic/claude': 6 } })];
    expect(judgeColumns(entries)).toEqual(['anthropic/claude', 'openai/gpt-4o-mini', 'human']);
    expect(judgeColumns([])).toEqual([]);
  });
  it('takes the first entries as chart bars', () => {
    expect(chartBars([entry({ project_name: 'A', score: 9 }), entry({ project_name: 'B', score: 8, rank: 2 })], 1)).toEqual([
      { label: 'A', score: 9, rank: 1 },
    ]);
  });
  it('knows the status filters', () => {
    expect(isStatusFilter('open')).toBe(true);
    expect(isStatusFilter('draft')).toBe(false);
    expect(isStatusFilter('toString')).toBe(false);
    expect(isStatusFilter(null)).toBe(false);
  });
});
