import type { Selectable } from 'kysely';
import type { Executor } from '../core/db/index.js';
import type { EventMediaKind, EventMediaTable } from '../core/db/schema.js';

/** Stores the event's image of this kind, replacing the one it had. */
export async function upsertMedia(db: Executor, row: Selectable<EventMediaTable>): Promise<void> {
  const { content_type, bytes, sha256, width, height, updated_at } = row;
  await db
    .insertInto('event_media')
    .values(row)
    .onConflict((oc) => oc.columns(['event_id', 'kind']).doUpdateSet({ content_type, bytes, sha256, width, height, updated_at }))
    .execute();
}

/** Sets the event's cover or logo version (null: none). */
export async function setMediaVersion(db: Executor, eventId: string, kind: EventMediaKind, version: string | null, now: string): Promise<void> {
  await db
    .updateTable('events')
    .set(kind === 'cover' ? { cover_version: version, updated_at: now } : { logo_version: version, updated_at: now })
    .where('id', '=', eventId)
    .execute();
}

/** Deletes the event's image of this kind; whether there was one. */
export async function deleteMedia(db: Executor, eventId: string, kind: EventMediaKind): Promise<boolean> {
  const res = await db.deleteFrom('event_media').where('event_id', '=', eventId).where('kind', '=', kind).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function findMedia(db: Executor, eventId: string, kind: EventMediaKind): Promise<Selectable<EventMediaTable> | undefined> {
  return db.selectFrom('event_media').selectAll().where('event_id', '=', eventId).where('kind', '=', kind).executeTakeFirst();
}
