import { actorOf, fieldChanges, recordAudit } from '../core/audit.js';
import type { Clock } from '../core/clock.js';
import type { Db, Executor } from '../core/db/index.js';
import { AppError, validationError } from '../core/errors.js';
import { decodeCursor, encodeCursor, takePage } from '../core/http/pagination.js';
import type { Principal } from '../core/principal.js';
import { iso } from '../core/time.js';
import { fromRow, type EventRecord } from '../events/events-model.js';
import { findEvent } from '../events/events-repo.js';
import type { EventsService } from '../events/events-service.js';
import { effectiveStatus } from '../events/status.js';
import { assignReviewers, pairKey, type Assignment } from './assignment.js';
import * as repo from './assignments-repo.js';

/** The most reviewers per project an organizer may ask for. */
export const PER_PROJECT_MAX = 20;

/** Where human judging stands at publication (see `unfinishedJudging`). */
export interface UnfinishedJudging {
  mode: 'every' | 'assigned';
  /** assigned: projects with fewer human reviews than assigned reviewers; every: projects without any human review. */
  projects_unfinished: number;
  /** assigned: reviewers with open assignments; every: reviewers who have reviewed nothing. */
  reviewers_unfinished: number;
  /** assigned: assignments without their review; every: null. */
  open_assignments: number | null;
}

function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * Assigned reviewing: who reviews which project. The assignments are kept converged with the
 * event's projects and reviewers by `sync`, run before anything reads them (a reviewer's queue and
 * review, the organizers' list, publication) and when a reviewer joins: a project judged since, a
 * reviewer who joined or left, a conflict declared, are all taken in at the next read, in one
 * transaction under the event row's lock, so no assignment is lost or doubled under concurrency.
 */
export function createAssignmentsService(deps: { db: Db; clock: Clock; events: EventsService }) {
  const { db, clock, events } = deps;

  /** Every input of the rule, read with one executor, and the rule's answer. */
  async function plan(x: Executor, eventId: string, k: number, sameDomain: boolean) {
    const [projects, reviewers, rows, reviewed, declared, people] = await Promise.all([
      repo.judgedProjectIds(x, eventId),
      repo.reviewersOf(x, eventId),
      repo.assignmentRows(x, eventId),
      repo.reviewedPairs(x, eventId),
      repo.declaredConflicts(x, eventId),
      repo.teamPeople(x, eventId),
    ]);
    const conflicts = conflictMap(reviewers, declared, people, sameDomain);
    const current = new Map<string, string[]>();
    const manual = new Set<string>();
    for (const r of rows) {
      current.set(r.project_id, [...(current.get(r.project_id) ?? []), r.reviewer_id]);
      if (r.source === 'manual') manual.add(r.project_id);
    }
    const fixed = new Set(reviewed.map((r) => pairKey(r.project_id, r.reviewer)));
    const result = assignReviewers({ projects, reviewers: reviewers.map((r) => r.id), k, conflicts, current, fixed, manual });
    return { result, current, reviewers };
  }

  function conflictMap(
    reviewers: Array<{ id: string; email: string }>,
    declared: Array<{ project_id: string; reviewer_id: string }>,
    people: Array<{ project_id: string; user_id: string; email: string }>,
    sameDomain: boolean,
  ): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    const add = (p: string, r: string) => {
      const set = out.get(p) ?? new Set<string>();
      set.add(r);
      out.set(p, set);
    };
    const reviewerIds = new Set(reviewers.map((r) => r.id));
    for (const d of declared) add(d.project_id, d.reviewer_id);
    for (const m of people) if (reviewerIds.has(m.user_id)) add(m.project_id, m.user_id);
    if (sameDomain) {
      const byDomain = new Map<string, string[]>();
      for (const r of reviewers) byDomain.set(emailDomain(r.email), [...(byDomain.get(emailDomain(r.email)) ?? []), r.id]);
      for (const m of people) for (const r of byDomain.get(emailDomain(m.email)) ?? []) add(m.project_id, r);
    }
    return out;
  }

  /** The pairs to delete and to insert to go from `current` to `result`. */
  function diff(current: Map<string, string[]>, result: Assignment) {
    const remove: Array<{ project_id: string; reviewer_id: string }> = [];
    const add: Array<{ project_id: string; reviewer_id: string }> = [];
    for (const [p, want] of result) {
      const have = current.get(p) ?? [];
      for (const r of have) if (!want.includes(r)) remove.push({ project_id: p, reviewer_id: r });
      for (const r of want) if (!have.includes(r)) add.push({ project_id: p, reviewer_id: r });
    }
    return { remove, add };
  }

  /** Inside a transaction holding the event's lock: brings the assignments up to date. */
  async function syncIn(tx: Executor, eventId: string): Promise<void> {
    const s = await repo.readReviewSettings(tx, eventId);
    if (s.mode !== 'assigned' || !s.perProject) return;
    const { result, current } = await plan(tx, eventId, s.perProject, s.sameDomain);
    const { remove, add } = diff(current, result);
    await repo.deleteAssignments(tx, eventId, remove);
    await repo.insertAssignments(tx, eventId, add, 'auto', iso(clock.now()));
  }

  /**
   * Brings an event's assignments up to date: planned without locks first; only when something is
   * to change, planned again and applied in a transaction under the event's lock.
   */
  async function sync(eventId: string): Promise<void> {
    const s = await repo.readReviewSettings(db, eventId);
    if (s.mode !== 'assigned' || !s.perProject) return;
    const { result, current } = await plan(db, eventId, s.perProject, s.sameDomain);
    const { remove, add } = diff(current, result);
    if (remove.length === 0 && add.length === 0) return;
    await db.transaction().execute(async (tx) => {
      await repo.lockEvent(tx, eventId);
      await syncIn(tx, eventId);
    });
  }

  /** Changes are taken until the results are published. */
  function requireUnpublished(event: EventRecord): void {
    const status = effectiveStatus(event, clock.now());
    if (status === 'ended') throw new AppError('results_already_published', 'The results are published; the assignments behind them stay.');
    if (status === 'cancelled') throw new AppError('event_locked', 'The event is cancelled.');
  }

  /** The same, read inside a transaction holding the event's lock. */
  async function requireUnpublishedIn(tx: Executor, eventId: string): Promise<void> {
    const row = await findEvent(tx, eventId);
    if (!row) throw new AppError('event_not_found', `no event ${eventId}`);
    requireUnpublished(fromRow(row));
  }

  async function summary(eventId: string) {
    const s = await repo.readReviewSettings(db, eventId);
    const [rows, projects, reviewers] = await Promise.all([
      repo.assignmentRows(db, eventId),
      repo.judgedProjectIds(db, eventId),
      repo.reviewersOf(db, eventId),
    ]);
    const judged = new Set(projects);
    const perProject = new Map<string, number>();
    const load = new Map(reviewers.map((r) => [r.id, 0]));
    for (const r of rows) {
      if (!judged.has(r.project_id)) continue;
      perProject.set(r.project_id, (perProject.get(r.project_id) ?? 0) + 1);
      if (load.has(r.reviewer_id)) load.set(r.reviewer_id, load.get(r.reviewer_id)! + 1);
    }
    const loads = [...load.values()];
    return {
      review_mode: s.mode,
      per_project: s.perProject,
      same_email_domain_conflicts: s.sameDomain,
      projects: projects.length,
      reviewers: reviewers.length,
      assignments: [...perProject.values()].reduce((a, b) => a + b, 0),
      projects_short: s.perProject ? projects.filter((p) => (perProject.get(p) ?? 0) < s.perProject!).length : 0,
      min_load: loads.length ? Math.min(...loads) : 0,
      max_load: loads.length ? Math.max(...loads) : 0,
    };
  }

  /**
   * Switches the event to assigned reviewing with k per project and assigns afresh: every
   * assignment without a review yet is dropped, the reviewed ones stay (and count), and the rule
   * fills the rest evenly.
   */
  async function autoAssign(who: Principal, eventId: string, input: { perProject: number; sameDomain?: boolean | undefined }) {
    const event = await events.getOwned(eventId, who);
    await db.transaction().execute(async (tx) => {
      await repo.lockEvent(tx, event.id);
      // Checked under the lock: a publication that got there first wins.
      await requireUnpublishedIn(tx, event.id);
      // Nobody to assign: saying "assigned" would leave every project without a reviewer.
      if ((await repo.reviewersOf(tx, event.id)).length === 0) {
        throw new AppError(
          'no_reviewers',
          `No one has joined this event as a reviewer yet, so there is nobody to assign. Invite reviewers first (POST /api/v1/events/${event.id}/reviewers with {"email": …}); once they have accepted (GET /api/v1/events/${event.id}/reviewers), assign again.`,
        );
      }
      await repo.writeReviewSettings(tx, event.id, {
        mode: 'assigned',
        perProject: input.perProject,
        ...(input.sameDomain !== undefined ? { sameDomain: input.sameDomain } : {}),
      });
      await repo.deleteUnreviewedAssignments(tx, event.id);
      await syncIn(tx, event.id);
      await recordAudit(tx, {
        eventId: event.id,
        actor: actorOf(who),
        action: 'assignment.auto',
        targetType: 'event',
        targetId: event.id,
        data: { per_project: input.perProject, ...(input.sameDomain !== undefined ? { same_email_domain_conflicts: input.sameDomain } : {}) },
        at: iso(clock.now()),
      });
    });
    return summary(event.id);
  }

  /** `mode` back to every (assignments kept, unused) or to assigned (needs a k set before); the domain rule. */
  async function updateSettings(who: Principal, eventId: string, input: { mode?: 'every' | 'assigned' | undefined; sameDomain?: boolean | undefined }) {
    const event = await events.getOwned(eventId, who);
    await db.transaction().execute(async (tx) => {
      await repo.lockEvent(tx, event.id);
      await requireUnpublishedIn(tx, event.id);
      const s = await repo.readReviewSettings(tx, event.id);
      if (input.mode === 'assigned' && !s.perProject) {
        throw validationError([{ field: 'review_mode', message: 'assign automatically first (POST .../assignments/auto with per_project)' }]);
      }
      await repo.writeReviewSettings(tx, event.id, {
        ...(input.mode !== undefined ? { mode: input.mode } : {}),
        ...(input.sameDomain !== undefined ? { sameDomain: input.sameDomain } : {}),
      });
      await syncIn(tx, event.id);
      const changes = fieldChanges(
        { review_mode: s.mode, same_email_domain_conflicts: s.sameDomain },
        { review_mode: input.mode ?? s.mode, same_email_domain_conflicts: input.sameDomain ?? s.sameDomain },
        ['review_mode', 'same_email_domain_conflicts'],
      );
      if (changes.length > 0) {
        await recordAudit(tx, {
          eventId: event.id,
          actor: actorOf(who),
          action: 'assignment.mode_changed',
          targetType: 'event',
          targetId: event.id,
          data: { changes },
          at: iso(clock.now()),
        });
      }
    });
    return summary(event.id);
  }

  async function summaryFor(who: Principal, eventId: string) {
    const event = await events.getOwned(eventId, who);
    await sync(event.id);
    return summary(event.id);
  }

  /** One page of the judged projects with their reviewers (organizers). */
  async function list(who: Principal, eventId: string, page: { limit: number; cursor?: string | undefined }) {
    const event = await events.getOwned(eventId, who);
    const after = page.cursor ? decodeCursor(page.cursor, 'assignments', event.id, ['time', 'id']) : undefined;
    await sync(event.id);
    const { projects, pairs } = await repo.assignmentsPage(db, event.id, {
      limit: page.limit + 1,
      ...(after ? { after: [after[0]!, after[1]!] as const } : {}),
    });
    const { items, nextKey } = takePage(projects, page.limit, (p) => [p.first_submitted_at, p.id]);
    const byProject = new Map<string, typeof pairs>();
    for (const pair of pairs) byProject.set(pair.project_id, [...(byProject.get(pair.project_id) ?? []), pair]);
    return {
      event,
      assignments: items.map((p) => {
        const mine = byProject.get(p.id) ?? [];
        return {
          project_id: p.id,
          project_name: p.project_name,
          team_name: p.team_name,
          reviewer_ids: mine.map((m) => m.reviewer_id),
          reviewed_by: mine.filter((m) => m.review_id !== null).map((m) => m.reviewer_id),
          manual: mine.some((m) => m.source === 'manual'),
        };
      }),
      nextCursor: nextKey ? encodeCursor('assignments', event.id, nextKey) : null,
    };
  }

  /**
   * Sets a project's reviewers by hand (they then stay as set: never topped up or moved). An empty
   * list hands the project back to the automatic rule. Each must be a reviewer of the event
   * without a conflict of interest with the project.
   */
  async function setProject(who: Principal, eventId: string, projectId: string, reviewerIds: string[]) {
    const event = await events.getOwned(eventId, who);
    const wanted = [...new Set(reviewerIds)];
    await db.transaction().execute(async (tx) => {
      await repo.lockEvent(tx, event.id);
      await requireUnpublishedIn(tx, event.id);
      const s = await repo.readReviewSettings(tx, event.id);
      if (s.mode !== 'assigned' || !s.perProject) {
        throw new AppError('not_assigned_mode', 'The event reviews in "every" mode (each reviewer reviews every project); assign automatically first.');
      }
      const projects = await repo.judgedProjectIds(tx, event.id);
      if (!projects.includes(projectId)) throw new AppError('project_not_found', `no judged project ${projectId} in this event`);
      const reviewers = await repo.reviewersOf(tx, event.id);
      const known = new Set(reviewers.map((r) => r.id));
      const unknown = wanted.map((id, i) => ({ id, i })).filter((x) => !known.has(x.id));
      if (unknown.length) throw validationError(unknown.map((x) => ({ field: `reviewer_ids.${x.i}`, message: `${x.id} is not a reviewer of this event` })));
      const conflicts = conflictMap(reviewers, await repo.declaredConflicts(tx, event.id), await repo.teamPeople(tx, event.id), s.sameDomain).get(projectId);
      const conflicted = wanted.filter((r) => conflicts?.has(r));
      if (conflicted.length) {
        throw new AppError('conflict_of_interest', `Reviewer(s) ${conflicted.join(', ')} have a conflict of interest with this project.`, {
          extra: { reviewer_ids: conflicted },
        });
      }
      const before = (await repo.assignmentRows(tx, event.id))
        .filter((r) => r.project_id === projectId)
        .map((r) => r.reviewer_id)
        .sort();
      await repo.deleteProjectAssignments(tx, event.id, projectId);
      await repo.insertAssignments(
        tx,
        event.id,
        wanted.map((r) => ({ project_id: projectId, reviewer_id: r })),
        'manual',
        iso(clock.now()),
      );
      await syncIn(tx, event.id);
      await recordAudit(tx, {
        eventId: event.id,
        actor: actorOf(who),
        action: 'assignment.set',
        targetType: 'project',
        targetId: projectId,
        data: { changes: [{ field: 'reviewer_ids', before, after: [...wanted].sort() }] },
        at: iso(clock.now()),
      });
    });
    const rows = (await repo.assignmentRows(db, event.id)).filter((r) => r.project_id === projectId);
    return { project_id: projectId, reviewer_ids: rows.map((r) => r.reviewer_id).sort(), manual: rows.some((r) => r.source === 'manual') };
  }

  /** Records a conflict (the reviewer's own declaration or an organizer's): the pair's assignment and review go. */
  async function addConflict(eventId: string, projectId: string, reviewerId: string, by: 'reviewer' | 'organizer', event: EventRecord, organizer?: Principal) {
    requireUnpublished(event);
    await db.transaction().execute(async (tx) => {
      await repo.lockEvent(tx, eventId);
      await requireUnpublishedIn(tx, eventId);
      const projects = await repo.judgedProjectIds(tx, eventId);
      if (!projects.includes(projectId)) throw new AppError('project_not_found', `no judged project ${projectId} in this event`);
      if (!(await repo.reviewersOf(tx, eventId)).some((r) => r.id === reviewerId)) {
        throw new AppError('not_found', `${reviewerId} is not a reviewer of this event`);
      }
      await repo.insertConflict(tx, { event_id: eventId, project_id: projectId, reviewer_id: reviewerId, declared_by: by, created_at: iso(clock.now()) });
      await syncIn(tx, eventId);
      // An organizer's declaration is an organizer action; a reviewer's own is not logged.
      if (organizer) {
        await recordAudit(tx, {
          eventId,
          actor: actorOf(organizer),
          action: 'conflict.declared',
          targetType: 'project',
          targetId: projectId,
          data: { reviewer_id: reviewerId },
          at: iso(clock.now()),
        });
      }
    });
  }

  async function organizerAddConflict(who: Principal, eventId: string, reviewerId: string, projectId: string) {
    const event = await events.getOwned(eventId, who);
    await addConflict(event.id, projectId, reviewerId, 'organizer', event, who);
  }

  async function organizerRemoveConflict(who: Principal, eventId: string, reviewerId: string, projectId: string) {
    const event = await events.getOwned(eventId, who);
    requireUnpublished(event);
    const removed = await db.transaction().execute(async (tx) => {
      await repo.lockEvent(tx, event.id);
      const gone = await repo.deleteConflict(tx, event.id, projectId, reviewerId);
      if (gone) {
        await syncIn(tx, event.id);
        await recordAudit(tx, {
          eventId: event.id,
          actor: actorOf(who),
          action: 'conflict.removed',
          targetType: 'project',
          targetId: projectId,
          data: { reviewer_id: reviewerId },
          at: iso(clock.now()),
        });
      }
      return gone;
    });
    if (!removed) throw new AppError('not_found', `no declared conflict of ${reviewerId} with ${projectId}`);
  }

  /** A reviewer declares a conflict with a project (their event checked by the caller). */
  async function declareConflict(who: Principal, event: EventRecord, projectId: string) {
    await addConflict(event.id, projectId, who.userId, 'reviewer', event);
  }

  /**
   * For publication, inside its transaction (which holds the event's lock): brings the
   * assignments up to date, then says whether human judging is unfinished, or null when it is done
   * (or there is no human judging: no reviewers).
   */
  async function unfinishedJudging(tx: Executor, eventId: string): Promise<UnfinishedJudging | null> {
    await syncIn(tx, eventId);
    const s = await repo.readReviewSettings(tx, eventId);
    const mode = s.mode === 'assigned' && s.perProject ? 'assigned' : 'every';
    const p = await repo.judgingProgress(tx, eventId, mode);
    const unfinished = mode === 'assigned' ? (p.openAssignments ?? 0) > 0 : p.projects > 0;
    if (!unfinished) return null;
    return { mode, projects_unfinished: p.projects, reviewers_unfinished: p.reviewers, open_assignments: p.openAssignments };
  }

  return {
    sync,
    settings: (eventId: string) => repo.readReviewSettings(db, eventId),
    autoAssign,
    updateSettings,
    list,
    summaryFor,
    setProject,
    organizerAddConflict,
    organizerRemoveConflict,
    declareConflict,
    unfinishedJudging,
  };
}

export type AssignmentsService = ReturnType<typeof createAssignmentsService>;
