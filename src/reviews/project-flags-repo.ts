import { createHash } from 'node:crypto';
import type { Executor } from '../core/db/index.js';
import { newId } from '../core/ids.js';
import type { ScreenFlag } from './injection-screen.js';

/** A finding's identity within its project: the same passage found again is the same flag. */
export function evidenceKey(f: { kind: string; source: string; evidence: string }): string {
  return createHash('sha256').update(`${f.kind}\u0000${f.source}\u0000${f.evidence}`).digest('hex');
}

/**
 * Records screening findings for a project: new ones are inserted, ones already recorded (by any
 * earlier attempt or model) are left as they are, with their organizer's status and note.
 */
export async function recordFlags(db: Executor, o: { eventId: string; projectId: string; flags: readonly ScreenFlag[]; now: string }): Promise<void> {
  await recordFindings(db, { ...o, flags: o.flags.map((f) => ({ kind: f.kind, source: f.source, evidence: f.evidence, detail: f.pattern })) });
}

/** A finding of any kind (screening, build-window checks) as a flag row takes it. */
export interface Finding {
  kind: string;
  source: string;
  evidence: string;
  detail: string | null;
}

/** Records findings as flags, each once per project (see recordFlags). */
export async function recordFindings(db: Executor, o: { eventId: string; projectId: string; flags: readonly Finding[]; now: string }): Promise<void> {
  if (o.flags.length === 0) return;
  const rows = o.flags.map((f) => ({
    id: newId('flg'),
    event_id: o.eventId,
    project_id: o.projectId,
    kind: f.kind,
    source: f.source,
    evidence: f.evidence,
    detail: f.detail,
    evidence_key: evidenceKey(f),
    status: 'open' as const,
    note: null,
    checked_by: null,
    checked_at: null,
    created_at: o.now,
    updated_at: o.now,
  }));
  await db
    .insertInto('project_flags')
    .values(rows)
    .onConflict((oc) => oc.columns(['project_id', 'evidence_key']).doNothing())
    .execute();
}

/** A project's flags, oldest first (those found together by source). */
export function flagsOf(db: Executor, eventId: string, projectId: string) {
  return db
    .selectFrom('project_flags')
    .select(['id', 'kind', 'source', 'evidence', 'detail', 'status', 'note', 'checked_by', 'checked_at', 'created_at', 'updated_at'])
    .where('event_id', '=', eventId)
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('source')
    .orderBy('id')
    .execute();
}

/** The flags of several projects of an event, oldest first per project (as flagsOf), in one query. */
export function flagsOfProjects(db: Executor, eventId: string, projectIds: readonly string[]) {
  if (projectIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('project_flags')
    .select(['id', 'project_id', 'kind', 'source', 'evidence', 'detail', 'status', 'created_at'])
    .where('event_id', '=', eventId)
    .where('project_id', 'in', [...projectIds])
    .orderBy('project_id')
    .orderBy('created_at')
    .orderBy('source')
    .orderBy('id')
    .execute();
}

/** Marks a flag of the project checked or open again; undefined when the project has no such flag. */
export async function setFlagStatus(
  db: Executor,
  o: {
    eventId: string;
    projectId: string;
    flagId: string;
    status: 'open' | 'checked';
    note: string | null;
    checkedBy: string | null;
    checkedAt: string | null;
    now: string;
  },
) {
  return db
    .updateTable('project_flags')
    .set({ status: o.status, note: o.note, checked_by: o.checkedBy, checked_at: o.checkedAt, updated_at: o.now })
    .where('id', '=', o.flagId)
    .where('event_id', '=', o.eventId)
    .where('project_id', '=', o.projectId)
    .returning(['id', 'kind', 'source', 'evidence', 'detail', 'status', 'note', 'checked_by', 'checked_at', 'created_at'])
    .executeTakeFirst();
}
