/**
 * Build-window checks: the pure decisions. What the GitHub API said about a repository (RepoFacts,
 * read by github-context.ts and cached per repository) is compared with the event's hacking start;
 * the findings become project flags of kind `build_window` (project-flags-repo.ts). The job that
 * runs them is build-window-job.ts.
 */

/** How many commits' sizes are read at most: the giant-commit check runs only on repositories with that many commits or fewer. */
export const MAX_COMMIT_DETAILS = 30;
/** A commit carrying more than this share of the repository's changed lines (additions + deletions) is flagged. */
export const GIANT_COMMIT_SHARE = 0.9;

export interface CommitSize {
  sha: string;
  /** additions + deletions */
  lines: number;
}

/** What the GitHub API said about a repository, as cached (github_repo_facts.facts). */
export interface RepoFacts {
  /** `owner/repo` as GitHub spells it. */
  repo: string;
  /** false: 404 (private, deleted or never existed); nothing else is known then. */
  found: boolean;
  created_at: string | null;
  fork: boolean;
  /** The fork's parent, `owner/repo`; null when not a fork (or GitHub did not say). */
  parent: string | null;
  /** How many commits the default branch has (0: empty repository). */
  commit_count: number;
  /** The oldest commit of the default branch: its sha and author and committer dates. */
  first_commit: { sha: string; author_date: string | null; committer_date: string | null } | null;
  /**
   * Every commit's size when the branch has at most MAX_COMMIT_DETAILS commits; null when it has more
   * (the giant-commit check is then not made) or a size could not be read.
   */
  commit_sizes: CommitSize[] | null;
}

export type BuildWindowSource = 'repo_created_before_start' | 'first_commit_before_start' | 'giant_commit' | 'fork' | 'duplicate_repository';

export interface BuildWindowFlag {
  kind: 'build_window';
  source: BuildWindowSource;
  /** A sentence an organizer reads: dates, numbers, the parent or the other project. */
  evidence: string;
  /** JSON with the same facts, for tools. */
  detail: string;
}

const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : NaN);
const day = (iso: string) => iso.replace(/\.000Z$/, 'Z');

/** When hacking started: the event's hacking_starts_at, or else its registration deadline. */
export function hackingStart(event: { hacking_starts_at: string | null; registration_deadline: string }): string {
  return event.hacking_starts_at ?? event.registration_deadline;
}

/** The flags a repository's facts call for, against the hacking start (an ISO instant). */
export function repoFlags(facts: RepoFacts, startsAt: string): BuildWindowFlag[] {
  if (!facts.found) return [];
  const out: BuildWindowFlag[] = [];
  const start = ms(startsAt);
  const startText = day(new Date(start).toISOString());
  const flag = (source: BuildWindowSource, evidence: string, detail: Record<string, unknown>) =>
    out.push({ kind: 'build_window', source, evidence, detail: JSON.stringify({ repository: facts.repo, hacking_starts_at: startText, ...detail }) });

  if (facts.created_at && ms(facts.created_at) < start) {
    flag('repo_created_before_start', `The repository ${facts.repo} was created at ${day(facts.created_at)}, before hacking started (${startText}).`, {
      created_at: facts.created_at,
    });
  }
  const first = facts.first_commit;
  if (first) {
    const dates = [
      ['authored', first.author_date],
      ['committed', first.committer_date],
    ].filter((d): d is [string, string] => !!d[1] && ms(d[1]) < start);
    if (dates.length > 0) {
      flag(
        'first_commit_before_start',
        `The first commit of ${facts.repo} (${first.sha.slice(0, 7)}) was ${dates.map(([what, at]) => `${what} ${day(at)}`).join(' and ')}, before hacking started (${startText}).`,
        { sha: first.sha, author_date: first.author_date, committer_date: first.committer_date },
      );
    }
  }
  const giant = giantCommit(facts.commit_sizes);
  if (giant) {
    const pct = Math.floor(giant.share * 1000) / 10;
    flag(
      'giant_commit',
      `One commit (${giant.sha.slice(0, 7)}) carries ${pct} % of the changed lines of ${facts.repo} (${giant.lines} of ${giant.total}, ${facts.commit_count} commit${facts.commit_count === 1 ? '' : 's'}).`,
      { sha: giant.sha, lines: giant.lines, total_lines: giant.total, commits: facts.commit_count, share: giant.share },
    );
  }
  if (facts.fork) {
    flag('fork', facts.parent ? `The repository ${facts.repo} is a fork of ${facts.parent}.` : `The repository ${facts.repo} is a fork.`, {
      parent: facts.parent,
    });
  }
  return out;
}

/** The commit with more than GIANT_COMMIT_SHARE of all changed lines, if any (none when nothing changed). */
export function giantCommit(sizes: readonly CommitSize[] | null): { sha: string; lines: number; total: number; share: number } | null {
  if (!sizes || sizes.length === 0) return null;
  const total = sizes.reduce((n, c) => n + c.lines, 0);
  if (total <= 0) return null;
  const top = sizes.reduce((a, b) => (b.lines > a.lines ? b : a));
  const share = top.lines / total;
  return share > GIANT_COMMIT_SHARE ? { sha: top.sha, lines: top.lines, total, share } : null;
}

/** Another team's project that submitted the same repository, as a duplicate flag names it. */
export interface DuplicateOther {
  id: string;
  project_name: string;
  team_name: string;
}

/** How many of the other projects a duplicate_repository flag names (the rest are counted). */
export const DUPLICATE_NAMED = 3;

/**
 * The stored `duplicate_repository` flag of a project whose repository (lower-cased owner/repo)
 * another team of the event submitted too: one per project and repository, however many teams share
 * it (5,000 projects of one template make 5,000 flags, not 5,000² pairs). What it stores never goes
 * stale as teams come and go; the review page fills in who the others are (duplicateView).
 */
export function duplicateFlag(repoKey: string): BuildWindowFlag {
  return {
    kind: 'build_window',
    source: 'duplicate_repository',
    evidence: `The same repository (${repoKey}) was also submitted by another team of this event.`,
    detail: JSON.stringify({ repository: repoKey }),
  };
}

/**
 * A duplicate flag as the review page shows it, from the live group: how many other teams'
 * projects name the repository and the first DUPLICATE_NAMED of them.
 */
export function duplicateView(repoKey: string, others: readonly DuplicateOther[], count: number): { evidence: string; detail: string } {
  const named = others.slice(0, DUPLICATE_NAMED);
  const name = (o: DuplicateOther) => `team "${o.team_name}" as "${o.project_name}" (${o.id})`;
  const detail = JSON.stringify({
    repository: repoKey,
    other_projects: count,
    named: named.map((o) => ({ project_id: o.id, team_name: o.team_name, project_name: o.project_name })),
  });
  if (count <= 0 || named.length === 0) return { evidence: duplicateFlag(repoKey).evidence, detail };
  if (count === 1) return { evidence: `The same repository (${repoKey}) was also submitted by ${name(named[0]!)}.`, detail };
  const rest = count - named.length;
  const list = named.map(name);
  const text = rest > 0 ? `${list.join(', ')} and ${rest} more` : `${list.slice(0, -1).join(', ')} and ${list.at(-1)!}`;
  return { evidence: `The same repository (${repoKey}) was also submitted by ${count} other teams: ${text}.`, detail };
}

/** The repository a duplicate_repository flag's detail names. */
export function duplicateRepository(detail: string | null): string | null {
  try {
    const d = JSON.parse(detail ?? '') as { repository?: unknown };
    return typeof d.repository === 'string' ? d.repository : null;
  } catch {
    return null;
  }
}

/**
 * When to try GitHub again after an answer that refused us: Retry-After (seconds) if given, else
 * X-RateLimit-Reset (epoch seconds) when the remaining quota is 0; null when neither says.
 */
export function retryAtFromHeaders(headers: Record<string, string | string[] | undefined>, nowMs: number): number | null {
  const one = (h: string) => {
    const v = headers[h];
    return Array.isArray(v) ? v[0] : v;
  };
  const after = Number(one('retry-after'));
  if (one('retry-after') !== undefined && Number.isFinite(after) && after >= 0) return nowMs + after * 1000;
  const remaining = one('x-ratelimit-remaining');
  const reset = Number(one('x-ratelimit-reset'));
  if (remaining !== undefined && Number(remaining) <= 0 && Number.isFinite(reset) && reset > 0) return Math.max(nowMs, reset * 1000);
  return null;
}
