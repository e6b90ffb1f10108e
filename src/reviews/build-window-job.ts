import type { Clock } from '../core/clock.js';
import type { Db, Executor } from '../core/db/index.js';
import { isDatabaseUnavailable } from '../core/db/index.js';
import { createJobWorker } from '../core/job-queue.js';
import { iso } from '../core/time.js';
import {
  duplicateFlag,
  duplicateRepository,
  duplicateView,
  hackingStart,
  DUPLICATE_NAMED,
  repoFlags,
  type BuildWindowFlag,
  type RepoFacts,
} from './build-window.js';
import {
  changedProjects,
  checkedStartSpan,
  countSameRepo,
  deleteFlags,
  deleteOpenFlag,
  markChecked,
  openBuildWindowFlags,
  projectsCheckedAgainst,
  readRepoFacts,
  runningEvents,
  sameRepo,
  setBuildWindowRepo,
  setRetryAt,
  storeRepoFacts,
} from './build-window-repo.js';
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
 * Real time between the loop's passes; a pass that found work is followed at once by the next (until
 * nothing is due). A pass reads only due projects (a partial index holds exactly those) and, per
 * running event, the least and greatest hacking start its projects were compared with.
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
/**
 * Build-window checks in the background (never in a submission request), on the core job queue's
 * loop (core/job-queue.ts: a poll every PASS_INTERVAL_MS, once-per-outage logging, graceful stop);
 * a pass is its one job (these rows need no lease: two processes checking the same project at once
 * record each flag once, flags being unique per project and evidence). A project is due when its
 * github_url was never checked or changed since its last completed check (projects.build_window_url),
 * or the event's hacking start moved since (projects.build_window_start: the repository's cached
 * facts are compared again, usually without a GitHub call), and a skipped check's retry time
 * (build_window_retry_at) has come. A pass costs O(due projects), whatever the size of the events:
 *
 * - the same repository submitted by other teams of the event (no GitHub call): the project's
 *   normalised repository is kept in projects.build_window_repo (indexed with the event), and one
 *   indexed read finds whether another project has it. The flag is one per project (duplicateFlag),
 *   not one per pair; the other project gets its flag when the group grows from one to two (a larger
 *   group is flagged already). The review page names the count and a few of the others.
 * - reads the repository's facts from github_repo_facts when fresher than FACTS_TTL_MS, else from the
 *   GitHub API (github-context.ts: the same guarded client as the review context);
 * - flags what build-window.ts decides against the event's hacking start;
 * - on a GitHub refusal (rate limit: Retry-After or X-RateLimit-Reset; down or an error status),
 *   records the retry time on the project and, for a rate limit, asks GitHub nothing more until
 *   then in this process. Reviews never wait for any of this.
 *
 * A re-check after a github_url change or a moved start removes the project's open build_window
 * flags the new check no longer finds, and, when the project leaves a repository only one other
 * team still has, that team's open duplicate flag; flags an organizer marked checked are kept as the
 * record of what they saw.
 */
export function createBuildWindowJob(deps: BuildWindowJobDeps) {
  const { db, clock, github } = deps;
  let blockedUntil = 0;
  let running: Promise<number> | null = null;
  const closing = new AbortController();

  /**
   * Up to BATCH due projects: first those never checked or whose URL changed (the rows of the
   * projects_build_window_due_idx partial index, so unchanged projects are never read), then those of
   * an event whose hacking start moved (per running event, the least and greatest start its projects
   * were compared with come from the (event_id, build_window_start) index; only when one differs are
   * the differing projects read, as two index ranges).
   */
  async function duePage(now: string) {
    const changed = await changedProjects(db, now, BATCH);
    if (changed.length >= BATCH) return changed;
    const out = [...changed];
    const seen = new Set(changed.map((p) => p.id));
    const running = await runningEvents(db);
    for (const e of running) {
      if (out.length >= BATCH) break;
      const start = hackingStart(e);
      const span = await checkedStartSpan(db, e.id);
      const lo = span?.lo ?? null;
      const hi = span?.hi ?? null;
      if ((lo === null || lo === start) && (hi === null || hi === start)) continue;
      for (const side of ['<', '>'] as const) {
        if (out.length >= BATCH) break;
        const rows = await projectsCheckedAgainst(db, { eventId: e.id, side, start, now, limit: BATCH - out.length });
        for (const r of rows)
          if (!seen.has(r.id)) {
            seen.add(r.id);
            out.push({ ...r, hacking_starts_at: e.hacking_starts_at, registration_deadline: e.registration_deadline });
          }
      }
    }
    return out;
  }

  async function cachedFacts(key: string, now: number): Promise<RepoFacts | null> {
    const row = await readRepoFacts(db, key);
    if (!row || now - Date.parse(row.fetched_at) >= FACTS_TTL_MS) return null;
    return JSON.parse(row.facts) as RepoFacts;
  }

  async function storeFacts(key: string, facts: RepoFacts, now: string) {
    await storeRepoFacts(db, key, JSON.stringify(facts), now);
  }

  type Due = Awaited<ReturnType<typeof duePage>>[number];

  /**
   * The duplicate check of one project: at most two other projects of the event with the same
   * repository (one indexed read). Records the project's flag and, when the group has just grown
   * from one project to two, the other's. Returns the project's flag, or null.
   */
  async function checkDuplicate(p: Due, key: string, now: string): Promise<BuildWindowFlag | null> {
    const others = await sameRepo(db, p.event_id, key, p.id, 2);
    if (others.length === 0) return null;
    const flag = duplicateFlag(key);
    await recordFindings(db, { eventId: p.event_id, projectId: p.id, flags: [flag], now });
    if (others.length === 1) await recordFindings(db, { eventId: p.event_id, projectId: others[0]!.id, flags: [flag], now });
    return flag;
  }

  /** The project left `key`: if only one project still has it, that project's open duplicate flag for it goes. */
  async function leftRepo(eventId: string, key: string) {
    const rest = await sameRepo(db, eventId, key, null, 2);
    if (rest.length !== 1) return;
    await deleteOpenFlag(db, rest[0]!.id, evidenceKey(duplicateFlag(key)));
  }

  /** Checks one project; false when GitHub refused for its rate limit. */
  async function checkProject(p: Due): Promise<boolean> {
    const nowDate = clock.now();
    const now = iso(nowDate);
    const key = repoKey(p.github_url);
    // The project's repository first, then the read of the others: of two projects with the same
    // repository checked at once (two processes), the later read sees the earlier.
    if (p.build_window_repo !== key) await setBuildWindowRepo(db, p.id, key);
    const own: BuildWindowFlag[] = [];
    const dup = key ? await checkDuplicate(p, key, now) : null;
    if (dup) own.push(dup);
    if (p.build_window_repo !== null && p.build_window_repo !== key) await leftRepo(p.event_id, p.build_window_repo);

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
      own.push(...found);
    }

    if (p.build_window_url !== null) await dropStale(p.id, own);
    // Unless the URL changed again meanwhile: the project then stays due for the new URL.
    await markChecked(db, { projectId: p.id, githubUrl: p.github_url, start: hackingStart(p) });
    return true;
  }

  async function retryLater(projectId: string, atMs: number) {
    await setRetryAt(db, projectId, iso(atMs));
  }

  /** After a re-check: the project's open build_window flags it no longer finds go (one indexed read of its own flags). */
  async function dropStale(projectId: string, current: readonly BuildWindowFlag[]) {
    const keep = new Set(current.map((f) => evidenceKey(f)));
    const open = await openBuildWindowFlags(db, projectId);
    const stale = open.filter((f) => !keep.has(f.evidence_key)).map((f) => f.id);
    if (stale.length > 0) await deleteFlags(db, stale);
  }

  /**
   * One pass over the due projects (at most BATCH): how many were checked, or set to wait after a
   * GitHub error; one that met a rate limit is not counted (the others that need GitHub then wait for
   * the limit's reset without asking). A database outage ends the pass (the loop logs it once).
   */
  async function runDue(): Promise<number> {
    let done = 0;
    for (const p of await duePage(iso(clock.now()))) {
      if (closing.signal.aborted) break;
      let counted: boolean;
      try {
        counted = await checkProject(p);
      } catch (err) {
        if (isDatabaseUnavailable(err)) throw err;
        deps.log().error({ err, project: p.id }, 'build-window check failed; trying again later');
        await retryLater(p.id, clock.now().getTime() + RETRY_DEFAULT_MS);
        continue;
      }
      if (counted) done++;
    }
    return done;
  }

  /** One pass at a time, whether the loop or checkBuildWindows() asks. */
  function pass(): Promise<number> {
    if (running) return running.then(() => pass());
    const p = runDue();
    running = p;
    const clear = () => {
      if (running === p) running = null;
    };
    p.then(clear, clear);
    return p;
  }

  const worker = createJobWorker<{ id: string }>({
    component: 'build-window checks',
    log: deps.log,
    pollMs: PASS_INTERVAL_MS,
    concurrency: 1,
    // The pass is the job: "claimed" when something is due (one read), run as one batch.
    claim: async () => ((await duePage(iso(clock.now()))).length > 0 ? [{ id: 'pass' }] : []),
    run: async () => void (await pass()),
  });

  /** Waits for the pass in progress, if any. */
  async function idle(): Promise<void> {
    while (running) await running.catch(() => undefined);
  }

  /** Stops: the GitHub reads in flight are aborted (their projects stay due) and the pass ends. */
  async function close(): Promise<void> {
    closing.abort();
    await worker.close();
    await idle();
  }

  return { runDue: pass, start: worker.start, idle, close };
}

/**
 * A project's flags as the review page shows them: each duplicate_repository flag says, from the
 * live group, how many other teams' projects have the repository and names the first few (one
 * count and one short read per flagged repository).
 */
export async function withDuplicateViews<F extends { source: string; detail: string | null; evidence: string }>(
  db: Executor,
  eventId: string,
  projectId: string,
  flags: F[],
): Promise<F[]> {
  const out: F[] = [];
  for (const f of flags) {
    const key = f.source === 'duplicate_repository' ? duplicateRepository(f.detail) : null;
    if (!key) {
      out.push(f);
      continue;
    }
    const named = await sameRepo(db, eventId, key, projectId, DUPLICATE_NAMED);
    const count = named.length < DUPLICATE_NAMED ? named.length : await countSameRepo(db, eventId, key, projectId);
    out.push({ ...f, ...duplicateView(key, named, count) });
  }
  return out;
}

export type BuildWindowJob = ReturnType<typeof createBuildWindowJob>;
