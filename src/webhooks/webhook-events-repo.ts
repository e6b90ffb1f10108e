import { sql } from 'kysely';
import type { Executor } from '../core/db/index.js';

/** Who besides the organizers may receive an occurrence. */
export type Audience = { participant: string; registrationId: string } | 'registered' | 'organizers';

/**
 * One delivery per enabled subscription to `type` (its `events` matches `pattern`, `%,type,%`) that
 * the audience lets receive it, in one INSERT … SELECT: ids `<base>_<the webhook id's tail>`.
 */
export async function insertDeliveries(
  db: Executor,
  d: { base: string; type: string; payload: string; at: string; eventId: string; pattern: string; audience: Audience },
): Promise<void> {
  await db
    .insertInto('webhook_deliveries')
    .columns(['id', 'webhook_id', 'event_type', 'payload', 'status', 'attempts', 'next_attempt_at', 'created_at', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('webhooks as w')
        .select([
          sql<string>`${d.base} || '_' || substr(w.id, 5)`.as('id'),
          'w.id as webhook_id',
          sql<string>`${d.type}`.as('event_type'),
          sql<string>`${d.payload}`.as('payload'),
          sql<string>`'queued'`.as('status'),
          sql<number>`0`.as('attempts'),
          sql<string>`${d.at}`.as('next_attempt_at'),
          sql<string>`${d.at}`.as('created_at'),
          sql<string>`${d.at}`.as('updated_at'),
        ])
        .where('w.disabled_at', 'is', null)
        .where('w.events', 'like', d.pattern)
        .where((w) => w.or([w('w.event_id', 'is', null), w('w.event_id', '=', d.eventId)]))
        .where((w) => {
          const organizes = w.exists(
            w
              .selectFrom('event_organizers as eo')
              .select(sql`1`.as('one'))
              .where('eo.event_id', '=', d.eventId)
              .whereRef('eo.user_id', '=', 'w.user_id'),
          );
          if (d.audience === 'organizers') return organizes;
          if (d.audience === 'registered') {
            return w.or([
              organizes,
              w.exists(
                w
                  .selectFrom('team_members as tm')
                  .select(sql`1`.as('one'))
                  .where('tm.event_id', '=', d.eventId)
                  .whereRef('tm.user_id', '=', 'w.user_id'),
              ),
            ]);
          }
          return w.or([
            organizes,
            w('w.user_id', '=', d.audience.participant),
            w.exists(
              w
                .selectFrom('team_members as tm')
                .select(sql`1`.as('one'))
                .where('tm.registration_id', '=', d.audience.registrationId)
                .whereRef('tm.user_id', '=', 'w.user_id'),
            ),
          ]);
        }),
    )
    .execute();
}

/** What every enabled subscription listens to (the webhook index's load: the table is small). */
export async function enabledSubscriptionScopes(db: Executor): Promise<Array<{ event_id: string | null; events: string }>> {
  return db.selectFrom('webhooks').select(['event_id', 'events']).where('disabled_at', 'is', null).execute();
}
