import { describe, expect, it } from 'vitest';
import {
  duplicateFlag,
  duplicateRepository,
  duplicateView,
  giantCommit,
  hackingStart,
  MAX_COMMIT_DETAILS,
  repoFlags,
  retryAtFromHeaders,
  type RepoFacts,
} from '../../src/reviews/build-window.js';
import { commitLines, lastPage } from '../../src/reviews/github-context.js';

const START = '2030-01-02T12:00:00.000Z';
const clean: RepoFacts = {
  repo: 'acme/rocket',
  found: true,
  created_at: '2030-01-03T00:00:00Z',
  fork: false,
  parent: null,
  commit_count: 3,
  first_commit: { sha: 'a'.repeat(40), author_date: '2030-01-03T01:00:00Z', committer_date: '2030-01-03T01:00:00Z' },
  commit_sizes: [
    { sha: 'a'.repeat(40), lines: 10 },
    { sha: 'b'.repeat(40), lines: 10 },
    { sha: 'c'.repeat(40), lines: 10 },
  ],
};

describe('build-window decisions', () => {
  it('the hacking start defaults to the registration deadline', () => {
    expect(hackingStart({ hacking_starts_at: null, registration_deadline: START })).toBe(START);
    expect(hackingStart({ hacking_starts_at: '2030-01-01T00:00:00.000Z', registration_deadline: START })).toBe('2030-01-01T00:00:00.000Z');
  });

  it('a clean repository and a missing one raise nothing', () => {
    expect(repoFlags(clean, START)).toEqual([]);
    expect(repoFlags({ ...clean, found: false, created_at: '2000-01-01T00:00:00Z', fork: true }, START)).toEqual([]);
  });

  it('creation before the start, exactly at it and after it', () => {
    expect(repoFlags({ ...clean, created_at: '2030-01-02T11:59:59Z' }, START).map((f) => f.source)).toEqual(['repo_created_before_start']);
    expect(repoFlags({ ...clean, created_at: '2030-01-02T12:00:00Z' }, START)).toEqual([]);
  });

  it('the first commit: author or committer date before the start, each named', () => {
    const early = { ...clean, first_commit: { sha: 'd'.repeat(40), author_date: '2029-12-01T00:00:00Z', committer_date: '2030-01-03T00:00:00Z' } };
    const [f] = repoFlags(early, START);
    expect(f).toMatchObject({ kind: 'build_window', source: 'first_commit_before_start' });
    expect(f!.evidence).toBe('The first commit of acme/rocket (ddddddd) was authored 2029-12-01T00:00:00Z, before hacking started (2030-01-02T12:00:00Z).');
    expect(repoFlags({ ...clean, first_commit: null }, START)).toEqual([]);
  });

  it('a giant commit is more than 90 % of the changed lines; none when sizes are unknown or nothing changed', () => {
    expect(
      giantCommit([
        { sha: 'a', lines: 91 },
        { sha: 'b', lines: 9 },
      ]),
    ).toMatchObject({ sha: 'a', share: 0.91 });
    expect(
      giantCommit([
        { sha: 'a', lines: 90 },
        { sha: 'b', lines: 10 },
      ]),
    ).toBeNull();
    expect(giantCommit([{ sha: 'a', lines: 5 }])).toMatchObject({ share: 1 });
    expect(giantCommit([{ sha: 'a', lines: 0 }])).toBeNull();
    expect(giantCommit(null)).toBeNull();
    expect(giantCommit([])).toBeNull();
    expect(MAX_COMMIT_DETAILS).toBe(30);
  });

  it('a fork names its parent', () => {
    expect(repoFlags({ ...clean, fork: true, parent: 'up/stream' }, START).map((f) => f.evidence)).toEqual([
      'The repository acme/rocket is a fork of up/stream.',
    ]);
    expect(repoFlags({ ...clean, fork: true }, START).map((f) => f.evidence)).toEqual(['The repository acme/rocket is a fork.']);
  });

  it('duplicates: one stored flag per project and repository; the review page names the count and the first three others', () => {
    const stored = duplicateFlag('a/b');
    expect(stored).toMatchObject({
      kind: 'build_window',
      source: 'duplicate_repository',
      evidence: 'The same repository (a/b) was also submitted by another team of this event.',
    });
    expect(duplicateRepository(stored.detail)).toBe('a/b');
    expect(duplicateRepository('not json')).toBeNull();
    const o = (id: string) => ({ id, project_name: `P ${id}`, team_name: `T ${id}` });
    expect(duplicateView('a/b', [o('2')], 1).evidence).toBe('The same repository (a/b) was also submitted by team "T 2" as "P 2" (2).');
    expect(duplicateView('a/b', [o('2'), o('3')], 2).evidence).toBe(
      'The same repository (a/b) was also submitted by 2 other teams: team "T 2" as "P 2" (2) and team "T 3" as "P 3" (3).',
    );
    const many = duplicateView('a/b', [o('2'), o('3'), o('4')], 4999);
    expect(many.evidence).toBe(
      'The same repository (a/b) was also submitted by 4999 other teams: team "T 2" as "P 2" (2), team "T 3" as "P 3" (3), team "T 4" as "P 4" (4) and 4996 more.',
    );
    expect(JSON.parse(many.detail)).toEqual({
      repository: 'a/b',
      other_projects: 4999,
      named: ['2', '3', '4'].map((id) => ({ project_id: id, team_name: `T ${id}`, project_name: `P ${id}` })),
    });
    // The group shrank to none since: the stored sentence.
    expect(duplicateView('a/b', [], 0).evidence).toBe(stored.evidence);
  });

  it('retry time: Retry-After first, else the reset time when no quota is left', () => {
    const now = 1_000_000;
    expect(retryAtFromHeaders({ 'retry-after': '30' }, now)).toBe(now + 30_000);
    expect(retryAtFromHeaders({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2000' }, now)).toBe(2_000_000);
    expect(retryAtFromHeaders({ 'x-ratelimit-remaining': '10', 'x-ratelimit-reset': '2000' }, now)).toBeNull();
    expect(retryAtFromHeaders({}, now)).toBeNull();
  });
});

describe('GitHub answers read for the facts', () => {
  it('the last page of a Link header (the link itself is never followed)', () => {
    expect(
      lastPage(
        '<https://api.github.com/repos/a/b/commits?per_page=100&page=2>; rel="next", <https://api.github.com/repos/a/b/commits?per_page=100&page=7>; rel="last"',
      ),
    ).toBe(7);
    expect(lastPage('<https://x/?page=2>; rel="next"')).toBeNull();
    expect(lastPage(undefined)).toBeNull();
  });

  it("a commit's changed lines, also from a body cut off in its files", () => {
    expect(commitLines('{"sha":"x","stats":{"total":12,"additions":10,"deletions":2},"files":[{"patch":"+')).toBe(12);
    expect(commitLines('{"stats":{"total":7}}')).toBe(7);
    expect(commitLines('{"sha":"x","files":[')).toBeNull();
  });
});
