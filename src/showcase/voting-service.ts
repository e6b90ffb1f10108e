import { votingOpen } from './gallery-order.js';
import { actorOf, recordAudit } from '../core/audit.js';
import type { Clock } from '../core/clock.js';
import type { Db, Executor } from '../core/db/index.js';
import { AppError } from '../core/errors.js';
import type { Principal } from '../core/principal.js';
import { iso } from '../core/time.js';
import type { EventRecord } from '../events/events-model.js';
import type { EventsService } from '../events/events-service.js';
import * as repo from './voting-repo.js';

/** Why a vote for a listed project does not count (a project of a team no longer approved is not listed). */
type ProjectExclusionReason = Exclude<repo.ExclusionReason, 'team_not_approved'>;

export interface PeoplesChoiceEntry {
  rank: number;
  project_id: string;
  project_name: string;
  team_name: string;
  track_id: string | null;
  votes: number;
  /** The list the entry is ranked in: its track's id when the vote is per track, null when event-wide. */
  scope: string | null;
}

/** When an event's vote opens: its own time, else the submission deadline. */
function opensAt(event: EventRecord): string {
  return event.voting.opens_at ?? event.submission_deadline;
}

/** Competition ranks ("1, 1, 3") over rows sorted by votes, most first. */
function ranked<T extends { votes: number }>(rows: T[]): Array<T & { rank: number }> {
  let rank = 0;
  let prev: number | null = null;
  return rows.map((r, i) => {
    if (r.votes !== prev) rank = i + 1;
    prev = r.votes;
    return { ...r, rank };
  });
}

/**
 * People's choice: any signed-in account votes for projects of approved teams while the event's
 * window is open. Counting is exact under concurrency without check-then-write: a vote is one
 * insert that either takes a free numbered slot of the voter's (at most votes_per_person per track,
 * or per event) or meets a unique constraint; votes stay hidden (counts for the owners only) until
 * the result is published, which freezes the people's choice beside the judged ranking.
 */
export function createVotingService(deps: { db: Db; clock: Clock; events: EventsService }) {
  const { db, clock, events } = deps;

  function windowOf(event: EventRecord) {
    return { opens_at: opensAt(event), closes_at: event.voting.closes_at };
  }

  // The one vote-window rule (the gallery orders by it too).
  const isOpen = votingOpen;

  function closed(event: EventRecord, now: Date): AppError {
    const w = windowOf(event);
    const detail = !event.voting.enabled
      ? "This event has no people's choice vote."
      : event.status === 'ended' || (w.closes_at && now.getTime() >= Date.parse(w.closes_at))
        ? 'Voting has closed.'
        : event.status === 'cancelled'
          ? 'The event was cancelled.'
          : `Voting opens at ${w.opens_at}.`;
    return new AppError('voting_closed', detail, { extra: { opens_at: event.voting.enabled ? w.opens_at : null, closes_at: w.closes_at } });
  }

  /** The project as a vote target: a project of an approved team of the event, with its track and team. */
  async function target(eventId: string, projectId: string) {
    const row = await repo.findVoteTarget(db, eventId, projectId);
    if (!row) throw new AppError('project_not_found', `no project ${projectId} of an approved team in this event`);
    return row;
  }

  async function vote(
    who: Principal,
    eventId: string,
    projectId: string,
  ): Promise<{ created: boolean; vote: { project_id: string; track_id: string | null; voted_at: string } }> {
    const event = await events.getPublic(eventId, who);
    const now = clock.now();
    if (!isOpen(event, now)) throw closed(event, now);
    const project = await target(event.id, projectId);
    if (await repo.isOrWasTeamMember(db, project.registration_id, who.userId)) {
      throw new AppError('own_project', 'You cannot vote for a project of a team you are or were in.');
    }
    if (project.vote_excluded) throw new AppError('project_not_in_vote', 'The organizer took this project out of the vote.');
    if (event.voting.exclude_new_accounts) {
      const createdAt = await repo.userCreatedAt(db, who.userId);
      if (createdAt !== undefined && Date.parse(createdAt) > Date.parse(opensAt(event))) {
        throw new AppError('account_too_new', 'This vote counts only accounts that existed when voting opened.', { extra: { opens_at: opensAt(event) } });
      }
    }
    const scope = event.voting.per_track ? (project.track_id ?? '') : '';
    const existing = () => repo.findVote(db, event.id, who.userId, projectId);
    const same = await existing();
    if (same) return { created: false, vote: { project_id: projectId, track_id: project.track_id, voted_at: same.created_at } };
    const stamp = iso(now);
    for (let slot = 1; slot <= event.voting.votes_per_person; slot++) {
      // Either constraint stops the insert: the slot is taken (try the next), or this very vote was
      // just cast by a concurrent request (then it stands, once).
      const inserted = await repo.insertVoteInSlot(db, { event_id: event.id, project_id: projectId, user_id: who.userId, scope, slot, created_at: stamp });
      if (inserted) return { created: true, vote: { project_id: projectId, track_id: project.track_id, voted_at: stamp } };
      const raced = await existing();
      if (raced) return { created: false, vote: { project_id: projectId, track_id: project.track_id, voted_at: raced.created_at } };
    }
    throw new AppError(
      'vote_limit_reached',
      `You have used your ${event.voting.votes_per_person} vote(s)${event.voting.per_track ? ' in this track' : ''}; withdraw one to vote for another project.`,
      { extra: { votes_per_person: event.voting.votes_per_person, per_track: event.voting.per_track } },
    );
  }

  async function unvote(who: Principal, eventId: string, projectId: string): Promise<void> {
    const event = await events.getPublic(eventId, who);
    const now = clock.now();
    if (!isOpen(event, now)) throw closed(event, now);
    if (!(await repo.deleteVote(db, event.id, who.userId, projectId))) throw new AppError('vote_not_found', 'You have no vote for this project.');
  }

  async function mine(who: Principal, eventId: string) {
    const event = await events.getPublic(eventId, who);
    const rows = await repo.votesOf(db, event.id, who.userId);
    const own = await repo.ownProjectIds(db, event.id, who.userId);
    return {
      event_id: event.id,
      enabled: event.voting.enabled,
      open: isOpen(event, clock.now()),
      ...windowOf(event),
      votes_per_person: event.voting.votes_per_person,
      per_track: event.voting.per_track,
      votes: rows.map((r) => ({ project_id: r.project_id, track_id: r.track_id, voted_at: r.created_at })),
      own_project_ids: own,
    };
  }

  /** Every vote of the event by project and whether it counts (or why not): the one rule for the tally and the publication. */
  async function breakdown(executor: Executor, event: EventRecord) {
    // With the switch, only accounts created no later than the window opened (as voting refuses them).
    const rows = await repo.voteBreakdown(executor, event.id, event.voting.exclude_new_accounts ? opensAt(event) : null);
    return rows.map((r) => ({ ...r, votes: Number(r.votes) }));
  }

  /**
   * The counted projects by votes, most first (ties share a rank, then by project id for a stable
   * order). A vote per track is a list per track: each entry ranked within its scope.
   */
  function standingOf(event: EventRecord, rows: Awaited<ReturnType<typeof breakdown>>): PeoplesChoiceEntry[] {
    const counted = rows
      .filter((r) => r.reason === 'counted')
      .map((r) => ({
        project_id: r.project_id,
        project_name: r.project_name,
        team_name: r.team_name,
        track_id: r.track_id,
        votes: r.votes,
        scope: event.voting.per_track ? r.track_id : null,
      }))
      .sort((a, b) => b.votes - a.votes || a.project_id.localeCompare(b.project_id));
    const rankOf = new Map<string | null, Map<string, number>>();
    for (const scope of new Set(counted.map((r) => r.scope))) {
      rankOf.set(scope, new Map(ranked(counted.filter((r) => r.scope === scope)).map((r) => [r.project_id, r.rank])));
    }
    return counted.map((r) => ({ ...r, rank: rankOf.get(r.scope)!.get(r.project_id)! }));
  }

  /**
   * The owners' view while voting runs: per project the votes cast, counted and not counted by
   * reason (excluded projects too), the same in total, and votes per hour, to spot bursts.
   */
  async function tally(who: Principal, eventId: string) {
    const event = await events.getOwned(eventId, who);
    const excluded = await repo.excludedProjects(db, event.id);
    const perHour = await repo.votesPerHour(db, event.id);
    const total = await repo.voteTotals(db, event.id);
    const rows = await breakdown(db, event);
    const standing = standingOf(event, rows);
    const rankOf = new Map(standing.map((r) => [r.project_id, r.rank]));
    const placeOf = new Map(standing.map((r, i) => [r.project_id, i]));
    const noneExcluded = (): Record<ProjectExclusionReason, number> => ({ disabled_account: 0, own_or_former_team: 0, new_account: 0, project_excluded: 0 });
    const totals = { counted: 0, excluded_votes: { team_not_approved: 0, ...noneExcluded() } };
    const projects = new Map<
      string,
      {
        project_id: string;
        project_name: string;
        team_name: string;
        track_id: string | null;
        cast: number;
        counted: number;
        excluded_votes: Record<ProjectExclusionReason, number>;
      }
    >();
    const projectOf = (r: { project_id: string; project_name: string; team_name: string; track_id: string | null }) => {
      let p = projects.get(r.project_id);
      if (!p) {
        p = {
          project_id: r.project_id,
          project_name: r.project_name,
          team_name: r.team_name,
          track_id: r.track_id,
          cast: 0,
          counted: 0,
          excluded_votes: noneExcluded(),
        };
        projects.set(r.project_id, p);
      }
      return p;
    };
    for (const r of rows) {
      if (r.reason === 'counted') totals.counted += r.votes;
      else totals.excluded_votes[r.reason] += r.votes;
      // A team no longer approved leaves the list (its votes show in the total only).
      if (r.reason === 'team_not_approved') continue;
      const p = projectOf(r);
      p.cast += r.votes;
      if (r.reason === 'counted') p.counted += r.votes;
      else p.excluded_votes[r.reason] += r.votes;
    }
    const excludedIds = new Set(excluded.map((r) => r.project_id));
    for (const r of excluded) projectOf(r);
    const list = [...projects.values()].map((p) => ({
      rank: rankOf.get(p.project_id) ?? null,
      project_id: p.project_id,
      project_name: p.project_name,
      team_name: p.team_name,
      track_id: p.track_id,
      cast: p.cast,
      votes: excludedIds.has(p.project_id) ? null : p.counted,
      excluded_votes: p.excluded_votes,
      excluded: excludedIds.has(p.project_id),
    }));
    // Ranked first (as the people's choice will be), then the rest with votes, then those taken out.
    const order = (p: (typeof list)[number]) => (p.excluded ? 2 : p.rank === null ? 1 : 0);
    const place = (p: (typeof list)[number]) => placeOf.get(p.project_id) ?? 0;
    list.sort((a, b) => order(a) - order(b) || place(a) - place(b) || b.cast - a.cast || a.project_id.localeCompare(b.project_id));
    return {
      event_id: event.id,
      ...windowOf(event),
      open: isOpen(event, clock.now()),
      votes: Number(total.votes),
      voters: Number(total.voters),
      counted: totals.counted,
      excluded_votes: totals.excluded_votes,
      projects: list,
      per_hour: perHour.map((h) => ({ hour: `${h.hour}:00:00.000Z`, votes: Number(h.votes) })),
    };
  }

  /** Takes a project out of the vote, or puts it back (the owners; until publication). */
  async function setExcluded(who: Principal, eventId: string, projectId: string, excluded: boolean): Promise<void> {
    const event = await events.getOwned(eventId, who);
    if (event.status === 'ended') throw new AppError('results_already_published', 'The vote was counted at publication; it can no longer change.');
    const found = await db.transaction().execute(async (tx) => {
      if (!(await repo.setVoteExcluded(tx, event.id, projectId, excluded))) return false;
      await recordAudit(tx, {
        eventId: event.id,
        actor: actorOf(who),
        action: excluded ? 'vote.excluded' : 'vote.included',
        targetType: 'project',
        targetId: projectId,
        at: iso(clock.now()),
      });
      return true;
    });
    if (!found) throw new AppError('project_not_found', `no project ${projectId} in this event`);
  }

  /** Counts the vote into the people's choice, inside the publication's transaction (null when the event has no vote). */
  async function freeze(tx: Executor, event: EventRecord): Promise<PeoplesChoiceEntry[] | null> {
    if (!event.voting.enabled) return null;
    const entries = standingOf(event, await breakdown(tx, event));
    await repo.insertPeoplesChoice(tx, event.id, entries);
    return entries;
  }

  /** The published people's choice. */
  async function published(who: Principal | null, eventId: string) {
    const event = await events.getPublic(eventId, who);
    if (!(event.status === 'ended' && event.result_announced_at)) {
      throw new AppError('results_not_published', "The people's choice is published with the results.", { extra: { event_status: event.status } });
    }
    const rows = await repo.peoplesChoice(db, event.id);
    const perTrack = event.voting.per_track;
    return {
      event_id: event.id,
      enabled: event.voting.enabled,
      per_track: perTrack,
      entries: rows.map((r) => ({ ...r, scope: perTrack ? r.track_id : null })),
    };
  }

  return { vote, unvote, mine, tally, setExcluded, freeze, published };
}

export type VotingService = ReturnType<typeof createVotingService>;
