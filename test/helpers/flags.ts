import { newId } from '../../src/core/ids.js';
import type { Db } from '../../src/core/db/index.js';

/**
 * An open flag on a project, written straight into project_flags, for tests about what happens to
 * a flag (the review page, the audit log, the bundle) rather than how screening finds one.
 * Returns the flag's id.
 */
export async function insertFlag(
  db: Db,
  f: { eventId: string; projectId: string; evidence: string; at: Date; id?: string; kind?: string; source?: string; detail?: string | null },
): Promise<string> {
  const id = f.id ?? newId('flg');
  const stamp = f.at.toISOString();
  await db
    .insertInto('project_flags')
    .values({
      id,
      event_id: f.eventId,
      project_id: f.projectId,
      kind: f.kind ?? 'prompt_injection',
      source: f.source ?? 'project.description',
      evidence: f.evidence,
      detail: f.detail ?? null,
      evidence_key: `test-${id}`,
      status: 'open',
      note: null,
      checked_by: null,
      checked_at: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
  return id;
}
