import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { principalOf, type App } from '../core/http/app-types.js';
import type { Config } from '../core/config.js';
import { ifNoneMatch } from '../core/http/etag.js';
import { problems } from '../core/http/schemas.js';
import { EventIdParams } from '../events/events-schemas.js';
import {
  CsvText,
  FeedbackReleaseBody,
  FeedbackReleaseResponse,
  LeaderboardEntries,
  LeaderboardQuery,
  NotModified,
  PublishBody,
  PublishResponse,
  ResultBundleSchema,
  ResultEntries,
  ResultQuery,
  ReviewerOutliersResponse,
  TrackQuery,
  WinnersResponse,
} from './results-schemas.js';
import type { ResultsService } from './results-service.js';

export { ResultEntrySchema } from './results-schemas.js';

/** A published result never changes; a short max-age bounds staleness anyway, and revalidation is a cheap 304. */
const RESULT_CACHE_CONTROL = 'public, max-age=60';
/** The live leaderboard is the organizers' working data: never stored by a cache. */
const LEADERBOARD_CACHE_CONTROL = 'private, no-store';
/**
 * Present while, after a bulk change (a weight edit, judging start, every review re-run), some
 * projects' standings are still being recomputed in the background: how many. Their rows show
 * their previous numbers meanwhile (a project never computed yet is not listed).
 */
export const LEADERBOARD_PENDING = 'Leaderboard-Pending';
/** On the published result: the normalisation it was computed with (`none` or `zscore`). */
export const RESULT_NORMALIZATION = 'Result-Normalization';

/**
 * Sends entries as JSON text. They are built by this module in exactly the schema's shape, and
 * JSON.stringify is about 5x faster than the schema serializer on the per-model/per-dimension maps
 * (10,000 entries: ~25 ms instead of ~120 ms). A string body is what the schema serializer skips.
 */
function sendJson(reply: FastifyReply, json: string | Buffer) {
  return reply.type('application/json; charset=utf-8').send(json);
}

/** Streams the whole ranking as CSV: never one giant string, paced by the client (backpressure). */
async function sendCsv(
  reply: FastifyReply,
  results: ResultsService,
  who: Parameters<ResultsService['leaderboardCsv']>[0],
  eventId: string,
  trackId: string | undefined,
) {
  const { event, lines } = await results.leaderboardCsv(who, eventId, { trackId });
  const safe = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_');
  const name = `${safe(event.id)}-leaderboard${trackId ? `-${safe(trackId)}` : ''}.csv`;
  return reply.type('text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename="${name}"`).send(Readable.from(lines));
}

/** `Link: <…same query with cursor=…>; rel="next"` while there are more entries. */
function linkNext(reply: FastifyReply, base: string, query: Record<string, string | number | undefined>, next: string | null) {
  if (!next) return;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && k !== 'cursor') params.set(k, String(v));
  params.set('cursor', next);
  reply.header('Link', `<${base}?${params}>; rel="next"`);
}

/** The results routes take these from the wiring. */
export interface ResultsRoutesDeps {
  results: ResultsService;
  config: Config;
}

/**
 * Ranking and publication: the organizers' live leaderboard (JSON pages or a streamed CSV, whole or
 * per track), publishing (freezes the ranking and ends the event), and the public, cacheable result.
 */
export function resultsRoutes(ctx: ResultsRoutesDeps) {
  const { results, config } = ctx;
  return async function plugin(app: App) {
    app.get(
      '/events/:id/leaderboard',
      {
        config: {
          auth: true,
          mcp: {
            name: 'get_leaderboard',
            title: 'Get the leaderboard',
            role: 'organizer',
            omit: ['format'],
            countHeader: { header: 'leaderboard-pending', property: 'pending' },
            description:
              'The live ranking of your event from the reviews so far: raw and normalised scores, review coverage. `pending` > 0: being recomputed; call again soon.',
          },
        },
        schema: {
          tags: ['organizer'],
          summary: 'The live ranking from the reviews so far (owners, any time), paginated; entries as the result, plus review coverage',
          params: EventIdParams,
          querystring: LeaderboardQuery,
          response: {
            200: {
              description: 'Entries ordered by rank, one page (format=csv: the whole CSV export, not paginated)',
              content: { 'application/json': { schema: LeaderboardEntries }, 'text/csv': { schema: CsvText } },
              headers: {
                [LEADERBOARD_PENDING]: {
                  type: 'integer',
                  minimum: 1,
                  description:
                    "Present only while some projects' numbers are still being recomputed in the background after a bulk change (weights edited, judging started, every review re-run): how many. Their rows show their previous numbers meanwhile, and a project never computed yet is not listed. Read again in a few seconds.",
                },
              },
            },
            ...problems('forbidden', 'event_not_found'),
          },
        },
      },
      async (request, reply) => {
        const q = request.query;
        reply.header('Cache-Control', LEADERBOARD_CACHE_CONTROL);
        if (q.format === 'csv') return sendCsv(reply, results, principalOf(request), request.params.id, q.track_id);
        const page = await results.leaderboard(principalOf(request), request.params.id, { trackId: q.track_id, limit: q.limit, cursor: q.cursor });
        linkNext(reply, `${config.publicUrl}/api/v1/events/${encodeURIComponent(page.event.id)}/leaderboard`, q, page.nextCursor);
        if (page.pending > 0) reply.header(LEADERBOARD_PENDING, String(page.pending));
        return sendJson(reply, page.json);
      },
    );

    app.get(
      '/events/:id/leaderboard.csv',
      {
        config: { auth: true },
        schema: {
          tags: ['organizer'],
          summary: 'The live ranking as CSV (owners), streamed whole: one column per model group and per dimension',
          params: EventIdParams,
          querystring: TrackQuery,
          response: {
            200: { description: 'text/csv', content: { 'text/csv': { schema: CsvText } } },
            ...problems('forbidden', 'event_not_found'),
          },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', LEADERBOARD_CACHE_CONTROL);
        return sendCsv(reply, results, principalOf(request), request.params.id, request.query.track_id);
      },
    );

    app.get(
      '/events/:id/leaderboard/reviewers',
      {
        config: { auth: true },
        schema: {
          tags: ['organizer'],
          summary:
            "Reviewers far from the panel (owners, any time): each reviewer's and model's mean offset and correlation with the others, flagged for a human look",
          params: EventIdParams,
          response: { 200: ReviewerOutliersResponse, ...problems('forbidden', 'event_not_found') },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', LEADERBOARD_CACHE_CONTROL);
        return results.reviewerOutliers(principalOf(request), request.params.id);
      },
    );

    app.post(
      '/events/:id/results/publish',
      {
        config: {
          auth: true,
          idempotent: true,
          mcp: {
            name: 'publish_results',
            title: 'Publish the results',
            role: 'organizer',
            destructive: true,
            description:
              'Publish the ranking of your judging event: freezes the result and ends the event. `release_feedback: true` lets teams read their reviews (later: set_feedback_release).',
          },
        },
        schema: {
          tags: ['organizer'],
          summary:
            'Publish the ranking (while judging): freezes it as the result and ends the event; refused while projects are unscored or human judging is unfinished, unless force',
          params: EventIdParams,
          body: Type.Optional(Type.Union([PublishBody, Type.Null()])),
          response: {
            200: PublishResponse,
            ...problems('forbidden', 'event_not_found', 'not_judging', 'results_already_published', 'unscored_projects', 'unfinished_judging'),
          },
        },
      },
      async (request, reply) => {
        const force = request.body?.force === true;
        const releaseFeedback = request.body?.release_feedback === true;
        const { entryPieces, ...published } = await results.publish(principalOf(request), request.params.id, { force, releaseFeedback });
        const head = JSON.stringify({ ...published, result_url: `${config.publicUrl}/api/v1/events/${published.event_id}/result` });
        // The entries are already JSON text: spliced in, not parsed and serialised again, and
        // encoded a piece at a time with a turn of the event loop in between (50,000 entries are
        // about 16 MB: in one string, joining and encoding them would hold the loop for tens of ms).
        const parts = [Buffer.from(`${head.slice(0, -1)},"entries":[`)];
        for (const piece of entryPieces) {
          parts.push(Buffer.from(piece));
          await nextTurn();
        }
        parts.push(Buffer.from(']}'));
        return sendJson(reply, Buffer.concat(parts));
      },
    );

    app.put(
      '/events/:id/results/feedback',
      {
        config: {
          auth: true,
          mcp: {
            name: 'set_feedback_release',
            title: 'Release feedback to teams',
            role: 'organizer',
            description: 'After publish_results: release the reviews to the teams (each reads its own, reviewers unnamed) or hide them again.',
          },
        },
        schema: {
          tags: ['organizer'],
          summary: 'Release (or hide again) the reviews to the teams after publication: each team reads its own, reviewers unnamed',
          params: EventIdParams,
          body: FeedbackReleaseBody,
          response: { 200: FeedbackReleaseResponse, ...problems('forbidden', 'event_not_found', 'results_not_published') },
        },
      },
      async (request) => results.setFeedbackRelease(principalOf(request), request.params.id, request.body.released),
    );

    app.get(
      '/events/:id/result',
      {
        config: {
          mcp: {
            name: 'get_result',
            title: 'Get the result',
            role: 'participant',
            description: 'The published ranking, best first. Before publication: results_not_published with event_status and retry_after_seconds.',
          },
        },
        schema: {
          tags: ['results'],
          summary: 'The published ranking, best first, paginated (cacheable; send If-None-Match)',
          params: EventIdParams,
          querystring: ResultQuery,
          response: {
            200: {
              description: 'Entries ordered by rank, one page',
              content: { 'application/json': { schema: ResultEntries } },
              headers: {
                [RESULT_NORMALIZATION]: {
                  type: 'string',
                  enum: ['none', 'zscore'],
                  description: "the score normalisation the published ranking was computed with (the event's normalization at publication)",
                },
              },
            },
            304: NotModified,
            ...problems('event_not_found', 'results_not_published'),
          },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const result = await results.published(request.principal, request.params.id, { trackId: q.track_id, limit: q.limit, cursor: q.cursor });
        reply.header('ETag', result.etag).header('Cache-Control', RESULT_CACHE_CONTROL).header(RESULT_NORMALIZATION, result.normalization);
        if (ifNoneMatch(request.headers['if-none-match'], result.etag)) return reply.code(304).send();
        // Stored entry text, sent as is: nothing is parsed or re-encoded.
        const page = await result.page();
        linkNext(reply, `${config.publicUrl}/api/v1/events/${encodeURIComponent(result.event.id)}/result`, q, page.nextCursor);
        return sendJson(reply, page.json);
      },
    );

    app.get(
      '/events/:id/result/winners',
      {
        config: {
          mcp: {
            name: 'get_result_winners',
            title: 'Get the winners',
            role: 'participant',
            description: "The published winners: each track's winner(s) with its prize, and the overall top places.",
          },
        },
        schema: {
          tags: ['results'],
          summary: "The winners of the published result (cacheable): per track the project(s) first in it with the track's prize, and the overall top places",
          params: EventIdParams,
          response: { 200: WinnersResponse, 304: NotModified, ...problems('event_not_found', 'results_not_published') },
        },
      },
      async (request, reply) => {
        const found = await results.winners(request.principal, request.params.id);
        reply.header('ETag', found.etag).header('Cache-Control', RESULT_CACHE_CONTROL);
        if (ifNoneMatch(request.headers['if-none-match'], found.etag)) return reply.code(304).send();
        return found.body;
      },
    );

    app.get(
      '/events/:id/result/bundle',
      {
        config: {
          mcp: {
            name: 'get_result_bundle',
            title: 'Get the results bundle',
            role: 'participant',
            description:
              'The signed results bundle of a published event (rubric, models, every score, flags, ranking); `node verify-bundle.mjs <file> --site <site>` (served at /verify-bundle.mjs) checks it.',
          },
        },
        schema: {
          tags: ['results'],
          summary:
            "The verifiable results bundle (public once published): rubric, normalisation, models, every score (human reviewers pseudonymous), flags and the ranking, with its SHA-256 and the site's Ed25519 signature; `node verify-bundle.mjs <file> --site <site>` (the verifier at /verify-bundle.mjs) checks it",
          params: EventIdParams,
          response: {
            200: {
              description: 'The bundle as stored at publication (canonical JSON, RFC 8785), as an attachment',
              content: { 'application/json': { schema: ResultBundleSchema } },
            },
            304: NotModified,
            ...problems('event_not_found', 'results_not_published', 'bundle_not_available'),
          },
        },
      },
      async (request, reply) => {
        const bundle = await results.resultBundle(request.principal, request.params.id);
        const name = `${bundle.event.id.replace(/[^A-Za-z0-9_-]/g, '_')}-result-bundle.json`;
        reply.header('ETag', bundle.etag).header('Cache-Control', RESULT_CACHE_CONTROL);
        if (ifNoneMatch(request.headers['if-none-match'], bundle.etag)) return reply.code(304).send();
        // The stored text, byte for byte: what the hash was computed over (with `sha256` in it).
        return sendJson(reply.header('Content-Disposition', `attachment; filename="${name}"`), bundle.text);
      },
    );
  };
}
