import { Type } from 'typebox';
import type { Clock } from '../core/clock.js';
import type { Db } from '../core/db/index.js';
import { principalOf, type App } from '../core/http/app-types.js';
import { decodeCursor, encodeCursor, setNextLink, takePage } from '../core/http/pagination.js';
import { effectiveStatus } from '../events/status.js';
import * as repo from './participants-repo.js';
import { MyHackathonSchema, MyHackathonsQuery } from './participants-schemas.js';

/** The participants routes take these from the wiring. */
export interface ParticipantsRoutesDeps {
  db: Db;
  clock: Clock;
  config: { publicUrl: string };
}

const CURSOR_KIND = 'my-hackathons';

/** What a person sees across events: every hackathon they are in, in any part. */
export function participantsRoutes(ctx: ParticipantsRoutesDeps) {
  const { db, clock, config } = ctx;
  return async function plugin(app: App) {
    app.get(
      '/me/hackathons',
      {
        config: { auth: true },
        schema: {
          tags: ['account'],
          summary:
            'Every event you are in (team leader or member, organizer, reviewer) with its status and next deadline, latest first (cursor pagination, Link rel="next")',
          querystring: MyHackathonsQuery,
          response: { 200: Type.Array(MyHackathonSchema) },
        },
      },
      async (request, reply) => {
        const who = principalOf(request);
        const q = request.query;
        const after = q.cursor ? decodeCursor(q.cursor, CURSOR_KIND, who.userId, ['time', 'id']) : null;
        const rows = await repo.myEventsPage(db, who, q.limit, after);
        const page = takePage(rows, q.limit, (e) => [e.submission_deadline, e.id]);
        setNextLink(reply, config.publicUrl, '/me/hackathons', q, page.nextKey ? encodeCursor(CURSOR_KIND, who.userId, page.nextKey) : null);
        const roles = await repo.myRoles(
          db,
          who,
          page.items.map((e) => e.id),
        );
        const now = clock.now();
        return page.items.map((e) => {
          const team = roles.teams.get(e.id) ?? null;
          const status = effectiveStatus(e, now);
          const mine: Array<'leader' | 'member' | 'organizer' | 'reviewer'> = [];
          if (team) mine.push(team.leader ? 'leader' : 'member');
          if (roles.organizer.has(e.id)) mine.push('organizer');
          if (roles.reviewer.has(e.id)) mine.push('reviewer');
          const t = now.getTime();
          const next =
            status === 'open' && t < Date.parse(e.registration_deadline)
              ? { kind: 'registration' as const, at: e.registration_deadline }
              : (status === 'open' || status === 'active') && t < Date.parse(e.submission_deadline)
                ? { kind: 'submission' as const, at: e.submission_deadline }
                : null;
          return {
            event_id: e.id,
            event_name: e.name,
            status,
            time_zone: e.time_zone,
            roles: mine,
            team: team ? { registration_id: team.registration_id, team_name: team.team_name, status: team.status, reason: team.reason } : null,
            registration_deadline: e.registration_deadline,
            submission_deadline: e.submission_deadline,
            result_announced_at: e.result_announced_at,
            next_deadline: next,
          };
        });
      },
    );
  };
}
