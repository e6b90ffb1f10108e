import { Type } from 'typebox';
import { principalOf, type App } from '../core/http/app-types.js';
import type { ReviewsService } from './reviews-service.js';
import { configuredProviders } from '../core/ai-models.js';
import type { Config } from '../core/config.js';
import { setNextLink } from '../core/http/pagination.js';
import { problems } from '../core/http/schemas.js';
import { EventIdParams } from '../events/events-schemas.js';
import {
  EventProjectFlagParams,
  FlagUpdateBody,
  ProjectFlagSchema,
  EventProjectReviewsParams,
  ListReviewsQuery,
  ModelsResponse,
  ProjectReviewsResponse,
  RerunBodyOrNone,
  RerunResponse,
  ReviewSchema,
  reviewForApi,
} from './reviews-schemas.js';

/** The AI reviews routes take these from the wiring. */
export interface ReviewsRoutesDeps {
  reviews: ReviewsService;
  config: Config;
}

/** Organizer endpoints over the event's reviews (AI and human). */
export function reviewsRoutes(ctx: ReviewsRoutesDeps) {
  const { reviews, config } = ctx;
  return async function plugin(app: App) {
    app.get(
      '/models',
      {
        config: {
          mcp: {
            name: 'list_ai_models',
            title: 'List the AI models this server can run',
            role: 'organizer',
            description: "The configured AI providers and how to name their models (provider/model) in an event's `models`.",
          },
        },
        schema: {
          tags: ['organizer'],
          summary:
            "What AI models this server can run (an event's `models`): its configured providers; an event naming another is refused (422 model_not_configured)",
          response: { 200: ModelsResponse },
        },
      },
      async () => {
        const providers = configuredProviders(config.ai);
        return {
          providers,
          accepts_unconfigured_models: config.ai.acceptUnconfiguredModels,
          note: providers.length
            ? `Name models as <provider>/<model>, e.g. ${providers[0]!.example}: any model the provider serves (this server does not list them). Without models only human reviewers score.`
            : 'No AI provider is configured: create events without models (only human reviewers score), or ask the operator to configure one.',
        };
      },
    );

    app.get(
      '/events/:id/reviews',
      {
        config: {
          auth: true,
          mcp: {
            name: 'list_reviews',
            title: 'List reviews',
            role: 'organizer',
            description: "Your event's reviews (per project and reviewer): status, scores, summary, failure_reason; filter by status or project_id.",
          },
        },
        schema: {
          tags: ['organizer'],
          summary:
            'Reviews of the event (per project × model or human reviewer): status, scores, summary, failure reason; one page (cursor pagination, Link rel="next")',
          params: EventIdParams,
          querystring: ListReviewsQuery,
          response: { 200: Type.Array(ReviewSchema), ...problems('forbidden', 'event_not_found') },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const page = await reviews.list(principalOf(request), request.params.id, {
          limit: q.limit,
          ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
          ...(q.status ? { status: q.status } : {}),
          ...(q.project_id ? { projectId: q.project_id } : {}),
        });
        setNextLink(reply, config.publicUrl, `/events/${encodeURIComponent(request.params.id)}/reviews`, q, page.nextCursor);
        return page.rows.map((r) => reviewForApi(r, q.include_raw === true));
      },
    );

    app.get(
      '/events/:id/projects/:project_id/reviews',
      {
        config: {
          auth: true,
          mcp: {
            name: 'get_project_reviews',
            title: "Read a project's reviews",
            role: 'organizer',
            args: { project_id: 'project id (prj_…), from get_leaderboard or list_reviews' },
            description:
              "One project's review page: the project, its AI and human reviews (scores, summaries, failures), its flags and its current score line.",
          },
        },
        schema: {
          tags: ['organizer'],
          summary:
            "One project's review page: the project, every AI review (model, status, scores, summary, failure and attempts), every human review (reviewer's name and e-mail, scores, comment) and its current score line",
          params: EventProjectReviewsParams,
          response: { 200: ProjectReviewsResponse, ...problems('forbidden', 'event_not_found', 'project_not_found') },
        },
      },
      async (request) => reviews.projectReviews(principalOf(request), request.params.id, request.params.project_id),
    );

    app.put(
      '/events/:id/projects/:project_id/flags/:flag_id',
      {
        config: {
          auth: true,
          mcp: {
            name: 'set_project_flag',
            title: 'Mark a flag checked or open',
            role: 'organizer',
            destructive: true,
            args: { flag_id: 'flag id (flg_…), from get_project_reviews' },
            description: "Mark a project's flag (screening or build_window) checked with an optional note, or open it again.",
          },
        },
        schema: {
          tags: ['organizer'],
          summary: 'Mark a flag of a project (screening or build window) checked, with a note, or open again',
          params: EventProjectFlagParams,
          body: FlagUpdateBody,
          response: { 200: ProjectFlagSchema, ...problems('forbidden', 'event_not_found', 'flag_not_found', 'validation_failed') },
        },
      },
      async (request) => reviews.setFlag(principalOf(request), request.params.id, request.params.project_id, request.params.flag_id, request.body),
    );

    app.post(
      '/events/:id/reviews/rerun',
      {
        config: {
          auth: true,
          idempotent: true,
          mcp: {
            name: 'rerun_reviews',
            title: 'Re-run reviews',
            role: 'organizer',
            description:
              'Queue reviews of your judging event again: every failed one by default, or one model\'s (`model`; with `status: "failed"` only its failed ones).',
          },
        },
        schema: {
          tags: ['organizer'],
          summary: "Re-queue reviews: every failed one by default, or one model's (`model`, optionally only `status: failed`)",
          params: EventIdParams,
          body: Type.Optional(RerunBodyOrNone),
          response: { 202: RerunResponse, ...problems('forbidden', 'event_not_found', 'not_judging', 'results_already_published') },
        },
      },
      async (request, reply) => {
        const body = request.body ?? {};
        const requeued = await reviews.rerun(principalOf(request), request.params.id, {
          ...(body.model !== undefined ? { model: body.model } : {}),
          ...(body.status !== undefined ? { status: body.status } : {}),
        });
        reply.status(202);
        return { event_id: request.params.id, requeued };
      },
    );
  };
}
