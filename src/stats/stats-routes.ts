import { principalOf, type App } from '../core/http/app-types.js';
import type { Db } from '../core/db/index.js';
import type { EventsService } from '../events/events-service.js';
import type { Clock } from '../core/clock.js';
import { problems } from '../core/http/schemas.js';
import { iso } from '../core/time.js';
import { EventIdParams } from '../events/events-schemas.js';
import * as repo from './stats-repo.js';
import { EventStatsSchema } from './stats-schemas.js';

/** The stats routes take these from the wiring. */
export interface StatsRoutesDeps {
  db: Db;
  events: EventsService;
  clock: Clock;
}

/** The organizer's dashboard numbers for one event (the web app polls it). */
export function statsRoutes(ctx: StatsRoutesDeps) {
  const { db, events, clock } = ctx;
  return async function plugin(app: App) {
    app.get(
      '/events/:id/stats',
      {
        config: { auth: true },
        schema: {
          tags: ['organizer'],
          summary: 'Counts for the organizer: registrations by status, projects, review progress per model and per human reviewer',
          params: EventIdParams,
          response: { 200: EventStatsSchema, ...problems('forbidden', 'event_not_found') },
        },
      },
      async (request, reply) => {
        const event = await events.getOwned(request.params.id, principalOf(request));
        const [registrations, projects, judged, modelCounts, humanCounts, reviewerRows, invitationsPending, ownProject, assignedTo] = await Promise.all([
          repo.registrationCounts(db, event.id),
          repo.projectCount(db, event.id),
          repo.judgedProjectCount(db, event.id),
          repo.modelReviewCounts(db, event.id),
          repo.humanReviewCounts(db, event.id),
          repo.reviewerList(db, event.id),
          repo.pendingInvitationCount(db, event.id, iso(clock.now())),
          repo.reviewersWithOwnProject(db, event.id),
          repo.assignedCounts(db, event.id),
        ]);
        // Every model of the event is listed (zeros before judging), then any other model that has reviews.
        const byModel = new Map<string, { reviewer: string; pending: number; running: number; done: number; failed: number }>();
        for (const m of event.models) byModel.set(m, { reviewer: m, pending: 0, running: 0, done: 0, failed: 0 });
        for (const c of modelCounts) {
          let row = byModel.get(c.reviewer);
          if (!row) byModel.set(c.reviewer, (row = { reviewer: c.reviewer, pending: 0, running: 0, done: 0, failed: 0 }));
          if (c.status === 'queued') row.pending += c.n;
          else if (c.status === 'running') row.running += c.n;
          else if (c.status === 'succeeded') row.done += c.n;
          else row.failed += c.n;
        }
        const reviewers = reviewerRows.map((r) => ({
          user_id: r.user_id,
          email: r.email,
          reviewed: humanCounts.get(r.user_id) ?? 0,
          assigned: assignedTo ? (assignedTo.get(r.user_id) ?? 0) : Math.max(0, judged - (ownProject.has(r.user_id) ? 1 : 0)),
        }));
        let reviewsDone = 0;
        for (const n of humanCounts.values()) reviewsDone += n;
        reply.header('cache-control', 'private, no-store');
        return {
          event_id: event.id,
          registrations,
          projects,
          judged_projects: judged,
          reviews: {
            by_model: [...byModel.values()],
            human: { reviewers: reviewers.length, invitations_pending: invitationsPending, reviews_done: reviewsDone },
          },
          reviewers,
        };
      },
    );
  };
}
