import type { Clock } from '../core/clock.js';
import type { Db } from '../core/db/index.js';
import { iso } from '../core/time.js';
import { duplicateDetail, duplicateFlags, hackingStart, repoFlags, type BuildWindowFlag, type ProjectRepo, type RepoFacts } from './build-window.js';
import { parseGithubRepo, type GithubContextFetcher } from './github-context.js';
import { evidenceKey, recordFindings } from './project-flags-repo.js';
import type { ReviewLog } from './review-worker.js';

/** How long a repository's facts are reused before GitHub is asked again. */
export const FACTS_TTL_MS = 6 * 60 * 60_000;
/** When a check GitHub did not answer (down, an error, a rate limit without a reset time) is tried again. */
export const RETRY_DEFAULT_MS = 10 * 60_000;
/** Projects checked per pass at most (the rest wait for the next pass). */
const BATCH = 20;
/**
 * Real time between the loop's passes (kick): the due query reads the projects of every running
 * event, so it runs every 15 s rather than every REVIEW_POLL_MS; a pass that filled its batch is
 * followed at once.
 */
export const PASS_INTERVAL_MS = 15_000;

export interface BuildWindowJobDeps {
  db: Db;
  clock: Clock;
  github: GithubContextFetcher;
  log: () => ReviewLog;
}

const repoKey = (url: string | null) => {
  const r = url ? parseGithubRepo(url) : null;
  return r ? `${r.owner}/${r.repo}`.toLowerCase() : null;
};

/**
 * Build-window checks in the background (never in a submission request). A project is due when its
 * github_url was never checked or changed since its last completed check (projects.build_window_url),
 * or the event's hacking start moved since (projects.build_window_start: the repository's cached
 * facts are compared again, usually without a GitHub call), and a skipped check's retry time
 * (build_window_retry_at) has come. A pass:
 *
 * - flags the same repository submitted by another team of the event (no GitHub call), on both sides;
 * - reads the repository's facts from github_repo_facts when fresher than FACTS_TTL_MS, else from the
 *   GitHub API (github-context.ts: the same guarded client as the review context);
 * - flags what build-window.ts decides against the event's hacking start;
 * - on a GitHub refusal (rate limit: Retry-After or X-RateLimit-Reset; down or an error status),
 *   records the retry time on the project and, for a rate limit, asks GitHub nothing more until
 *   then in this process. Reviews never wait for any of this.
 *
 * A re-check after a github_url change or a moved start removes the project's open build_window flags the new check
 * no longer finds (and the other projects' open duplicate flags that named it for the old
 * repository); flags an organizer marked checked are kept as the record of what they saw.
 * Two processes checking the same project at once record each flag once (flags are unique per
 * project and evidence).
 */
export function createBuildWindowJob(deps: BuildWindowJobDeps) {
  const { db, clock, github } = deps;
  let blockedUntil = 0;
  let running: Promise<number> | null = null;
  let nextPassAt = 0;
  const closing = new AbortController();

  async function duePage(now: string) {
    return db
      .selectFrom('projects')
      .innerJoin('events', 'events.id', 'projects.event_id')
      .select([
        'projects.id',
        'projects.event_id',
        'projects.registration_id',
        'projects.github_url',
        'projects.build_window_url',
        'projects.build_window_start',
        'events.hacking_starts_at',
        'events.registration_deadline',
      ])
      .where('events.status', 'not in', ['cancelled', 'ended'])
      .where((eb) =>
        eb.or([
          eb('projects.build_window_url', 'is', null),
          eb('projects.build_window_url', '!=', eb.ref('projects.github_url')),
          // The organizer moved the hacking start (or the registration deadline standing for it).
          eb('projects.build_window_start', 'is', null),
          eb('projects.build_window_start', '!=', eb.fn.coalesce('events.hacking_starts_at', 'events.registration_deadline')),
        ]),
      )
      .where((eb) => eb.or([eb('projects.build_window_retry_at', 'is', null), eb('projects.build_window_retry_at', '<=', now)]))
      .orderBy('projects.updated_at')
      .orderBy('projects.id')
      .limit(BATCH)
      .execute();
  }

  async function cachedFacts(key: string, now: number): Promise<RepoFacts | null> {
    const row = await db.selectFrom('github_repo_facts').select(['facts', 'fetched_at']).where('repo_key', '=', key).executeTakeFirst();
    if (!row || now - Date.parse(row.fetched_at) >= FACTS_TTL_MS) return null;
    return JSON.parse(row.facts) as RepoFacts;
  }

  async function storeFacts(key: string, facts: RepoFacts, now: string) {
    const json = JSON.stringify(facts);
    await db
      .insertInto('github_repo_facts')
      .values({ repo_key: key, facts: json, fetched_at: now })
      .onConflict((oc) => oc.column('repo_key').doUpdateSet({ facts: json, fetched_at: now }))
      .execute();
  }

  /** The event's projects with the repository each names (for the duplicate check). */
  async function eventRepos(eventId: string): Promise<ProjectRepo[]> {
    const rows = await db
      .selectFrom('projects')
      .innerJoin('registrations', 'registrations.id', 'projects.registration_id')
      .select(['projects.id', 'projects.project_name', 'registrations.team_name', 'projects.registration_id', 'projects.github_url'])
      .where('projects.event_id', '=', eventId)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      project_name: r.project_name,
      team_name: r.team_name,
      registration_id: r.registration_id,
      repo_key: repoKey(r.github_url),
    }));
  }

  type Due = Awaited<ReturnType<typeof duePage>>[number];

  /**
   * Checks one project; false when GitHub refused for its rate limit (the pass stops then).
   * `repos` reads an event's projects once per pass, however many of its projects are due.
   */
  async function checkProject(p: Due, repos: (eventId: string) => Promise<ProjectRepo[]>): Promise<boolean> {
    const nowDate = clock.now();
    const now = iso(nowDate);
    const key = repoKey(p.github_url);
    const projects = await repos(p.event_id);
    const self = projects.find((x) => x.id === p.id);
    const dups = self ? duplicateFlags(self, projects) : [];
    for (const d of dups) await recordFindings(db, { eventId: p.event_id, projectId: d.projectId, flags: [d.flag], now });

    let own: BuildWindowFlag[] = dups.filter((d) => d.projectId === p.id).map((d) => d.flag);
    const parsed = p.github_url ? parseGithubRepo(p.github_url) : null;
    if (key && parsed) {
      let facts = await cachedFacts(key, nowDate.getTime());
      if (!facts) {
        if (nowDate.getTime() < blockedUntil) {
          await retryLater(p.id, blockedUntil);
          return false;
        }
        const got = await github.repoFacts(parsed.owner, parsed.repo, { signal: closing.signal, now: () => clock.now().getTime() });
        if (closing.signal.aborted) return false;
        if (!got.ok) {
          const at = got.retryAt !== null && got.retryAt > nowDate.getTime() ? got.retryAt : nowDate.getTime() + RETRY_DEFAULT_MS;
          deps
            .log()
            .warn({ project: p.id, repo: key, reason: got.reason, retry_at: iso(at) }, 'build-window check skipped: GitHub did not answer; trying again later');
          await retryLater(p.id, at);
          if (got.rateLimited) blockedUntil = at;
          return !got.rateLimited;
        }
        facts = got.facts;
        await storeFacts(key, facts, now);
      }
      const found = repoFlags(facts, hackingStart(p));
      await recordFindings(db, { eventId: p.event_id, projectId: p.id, flags: found, now });
      own = own.concat(found);
    }

    if (p.build_window_url !== null) await dropStale(p.event_id, p.id, key, own);
    await db
      .updateTable('projects')
      .set({ build_window_url: p.github_url, build_window_start: hackingStart(p), build_window_retry_at: null })
      .where('id', '=', p.id)
      // Changed again meanwhile: stays due for the new URL.
      .where('github_url', '=', p.github_url)
      .execute();
    return true;
  }

  async function retryLater(projectId: string, atMs: number) {
    await db
      .updateTable('projects')
      .set({ build_window_retry_at: iso(atMs) })
      .where('id', '=', projectId)
      .execute();
  }

  /** After a github_url change: open build_window flags the new check no longer finds go (here and on the projects that named this one). */
  async function dropStale(eventId: string, projectId: string, key: string | null, current: readonly BuildWindowFlag[]) {
    const keep = new Set(current.map((f) => evidenceKey(f)));
    const open = await db
      .selectFrom('project_flags')
      .select(['id', 'project_id', 'source', 'evidence_key', 'detail'])
      .where('event_id', '=', eventId)
      .where('kind', '=', 'build_window')
      .where('status', '=', 'open')
      .execute();
    const stale = open.filter((f) => {
      if (f.project_id === projectId) return !keep.has(f.evidence_key);
      if (f.source !== 'duplicate_repository') return false;
      const d = duplicateDetail(f.detail);
      return d !== null && d.other_project_id === projectId && d.repository !== key;
    });
    if (stale.length > 0)
      await db
        .deleteFrom('project_flags')
        .where(
          'id',
          'in',
          stale.map((f) => f.id),
        )
        .execute();
  }

  /** One pass over the due projects (at most BATCH): how many were checked, or set to wait after a GitHub error; the one that met a rate limit ends the pass uncounted. */
  async function runDue(): Promise<number> {
    let done = 0;
    const perEvent = new Map<string, Promise<ProjectRepo[]>>();
    const repos = (eventId: string) => {
      let read = perEvent.get(eventId);
      if (!read) perEvent.set(eventId, (read = eventRepos(eventId)));
      return read;
    };
    for (const p of await duePage(iso(clock.now()))) {
      if (closing.signal.aborted) break;
      let more: boolean;
      try {
        more = await checkProject(p, repos);
      } catch (err) {
        deps.log().error({ err, project: p.id }, 'build-window check failed; trying again later');
        await retryLater(p.id, clock.now().getTime() + RETRY_DEFAULT_MS).catch(() => undefined);
        continue;
      }
      if (!more) break;
      done++;
    }
    return done;
  }

  /** Starts a pass in the background unless one is running or the last ended less than PASS_INTERVAL_MS ago. Never throws. */
  function kick(): void {
    if (running || closing.signal.aborted || Date.now() < nextPassAt) return;
    const pass = runDue()
      .catch((err: unknown) => {
        deps.log().error({ err }, 'build-window pass failed; the next poll tries again');
        return 0;
      })
      .then((handled) => {
        nextPassAt = handled >= BATCH ? 0 : Date.now() + PASS_INTERVAL_MS;
        return handled;
      });
    running = pass;
    void pass.finally(() => {
      if (running === pass) running = null;
    });
  }

  /** Waits for the pass in progress, if any. */
  async function idle(): Promise<void> {
    while (running) await running;
  }

  /** Stops: the GitHub reads in flight are aborted (their projects stay due) and the pass ends. */
  async function close(): Promise<void> {
    closing.abort();
    await idle();
  }

  return { runDue, kick, idle, close };
}

export type BuildWindowJob = ReturnType<typeof createBuildWindowJob>;
