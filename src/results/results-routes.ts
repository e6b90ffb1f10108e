import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.js';
import { AppError } from '../core/errors.js';
import { problems } from '../core/http/schemas.js';
import { EventIdParams } from '../events/events-schemas.js';

export const ResultEntrySchema = Type.Object({
  rank: Type.Integer(),
  project_id: Type.String(),
  project_name: Type.String(),
  team_name: Type.String(),
  track_id: Type.Union([Type.String(), Type.Null()]),
  score: Type.Number(),
  scores_by_model: Type.Record(Type.String(), Type.Number()),
  scores_by_dimension: Type.Record(Type.String(), Type.Number()),
});

/**
 * The published ranking. Until an organizer publishes results this answers 409
 * results_not_published; computing and publishing the ranking belongs to the judging module.
 */
export function resultsRoutes(ctx: AppContext) {
  const { events } = ctx;
  return async function plugin(app: App) {
    app.get(
      '/events/:id/result',
      {
        schema: {
          tags: ['results'],
          summary: 'The published ranking, best first',
          params: EventIdParams,
          response: { 200: Type.Array(ResultEntrySchema), ...problems(401, 404, 409, 429) },
        },
      },
      async (request) => {
        const event = await events.getVisible(request.params.id, request.principal);
        throw new AppError('results_not_published', `The results of "${event.name}" have not been published yet.`);
      },
    );
  };
}
