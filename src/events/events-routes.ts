import { Type } from 'typebox';
import { principalOf, type App } from '../core/http/app-types.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { problems } from '../core/http/schemas.js';
import type { EventRecord } from './events-model.js';
import { eventForApi, eventSummaryForApi, registrationFormForApi } from './events-model.js';
import {
  CreateEventBody,
  EventIdParams,
  EventSchema,
  EventListItemSchema,
  LIST_FIELDS,
  ListEventsQuery,
  PatchEventBody,
  RegistrationFormSchema,
} from './events-schemas.js';
import type { EventInput, EventsService } from './events-service.js';
import { eventNotes } from './event-notes.js';
import { effectiveStatus, EVENT_STATUS_INPUTS } from './status.js';
import { validationError } from '../core/errors.js';

/** `?fields=a,b`: the named summary fields, validated (unknown names answer 422 listing the allowed ones). */
function parseFields(raw: string | undefined): Array<(typeof LIST_FIELDS)[number]> | null {
  if (raw === undefined) return null;
  const names = [...new Set(raw.split(',').map((f) => f.trim()))];
  const unknown = names.filter((n) => !(LIST_FIELDS as string[]).includes(n));
  if (unknown.length) {
    throw validationError([
      {
        field: 'fields',
        message: `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => JSON.stringify(u)).join(', ')}; allowed: ${LIST_FIELDS.join(', ')}`,
      },
    ]);
  }
  return names as Array<(typeof LIST_FIELDS)[number]>;
}

/** JSON texts remembered per cached event (the detail and list items, per status and field set). */
const MAX_SHAPES = 8;

/** The events routes take these from the wiring. */
export interface EventsRoutesDeps {
  events: EventsService;
  clock: Clock;
  config: Config;
}

/** Public discovery (list, detail, registration form) and the organizer's create/update. */
export function eventsRoutes(ctx: EventsRoutesDeps) {
  const { events, clock, config } = ctx;

  async function fullEvent(e: EventRecord, showOrganizers: boolean, o: { dimensionsDefaulted?: boolean } = {}) {
    const out = eventForApi(e, clock.now(), config.publicUrl);
    if (!showOrganizers) return out;
    return {
      ...out,
      feedback_released: e.feedback_released,
      co_organizers: await events.coOrganizers(e),
      notes: eventNotes(e, { ai: config.ai, ...o }),
    };
  }

  /**
   * Public JSON texts of a cached event, serialised once per record and key: the body of
   * GET /events/:id per status, an item of GET /events per status and set of fields. The catalog
   * hands out one record object per cached event until the event changes (then a new one), and
   * the status is the only part that moves with the clock, so a record and a key always give the
   * same bytes. A record read past the cache is a new object every time: it is serialised as
   * before, and its texts go with it. At most MAX_SHAPES per record, so clients asking for ever
   * new field sets cannot grow it.
   */
  const texts = new WeakMap<EventRecord, Map<string, string>>();
  function remembered(e: EventRecord, key: string, serialize: () => string): string {
    let memo = texts.get(e);
    if (!memo || memo.size >= MAX_SHAPES) texts.set(e, (memo = new Map<string, string>()));
    let json = memo.get(key);
    if (json === undefined) memo.set(key, (json = serialize()));
    return json;
  }

  return async function plugin(app: App) {
    app.get(
      '/events',
      {
        config: {
          mcp: {
            name: 'list_events',
            title: 'List events',
            role: 'participant',
            description: `Public events, newest first. \`status\` filters (comma-separated: ${EVENT_STATUS_INPUTS.filter((s) => s !== 'recruiting').join(', ')}; draft needs mine: true); \`mine: true\`: the events you organize, drafts included.`,
            omit: ['fields'],
          },
        },
        schema: {
          tags: ['events'],
          summary: 'List public events (newest first), with cursor pagination',
          querystring: ListEventsQuery,
          response: { 200: Type.Array(EventListItemSchema) },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const fields = parseFields(q.fields);
        const page = await events.list(
          { limit: q.limit, ...(q.status ? { status: q.status } : {}), ...(q.cursor ? { cursor: q.cursor } : {}), ...(q.mine ? { mine: true } : {}) },
          request.principal,
        );
        if (page.nextCursor) {
          const params = new URLSearchParams();
          if (q.status) params.set('status', q.status);
          if (q.mine) params.set('mine', 'true');
          if (q.fields !== undefined) params.set('fields', q.fields);
          params.set('limit', String(q.limit));
          params.set('cursor', page.nextCursor);
          reply.header('Link', `<${config.publicUrl}/api/v1/events?${params}>; rel="next"`);
        }
        const now = clock.now();
        const item = (e: EventRecord) => {
          const full = eventSummaryForApi(e, now, config.publicUrl);
          return fields ? Object.fromEntries(fields.map((f) => [f, full[f]])) : full;
        };
        if (q.mine) return page.events.map(item);
        // Public pages: their items' remembered texts, joined. The serializer writes properties in
        // the schema's order, so a field list's order and repeats do not change the bytes: one key
        // per set of fields. The route's own (array) serializer on a one-item array gives the same
        // bytes as in a page.
        const shape = fields ? [...new Set(fields)].sort().join(',') : '*';
        const parts = page.events.map((e) =>
          remembered(e, `item|${effectiveStatus(e, now)}|${shape}`, () => (reply.serialize([item(e)]) as string).slice(1, -1)),
        );
        return reply.type('application/json; charset=utf-8').send(`[${parts.join(',')}]` as never);
      },
    );

    app.get(
      '/events/:id',
      {
        config: {
          mcp: {
            name: 'get_event',
            title: 'Get an event',
            role: 'participant',
            description: 'One event: timeline, tracks, scoring dimensions, AI models and registration settings.',
          },
        },
        schema: {
          tags: ['events'],
          summary: 'One event with its timeline, tracks, dimensions and registration form',
          params: EventIdParams,
          response: { 200: EventSchema, ...problems('event_not_found') },
        },
      },
      async (request, reply) => {
        const event = await events.getPublic(request.params.id, request.principal);
        if (await events.isOwner(event, request.principal)) return fullEvent(event, true);
        // JSON text, sent as is (a string body skips the serializer).
        const now = clock.now();
        const json = remembered(event, `detail|${effectiveStatus(event, now)}`, () => reply.serialize(eventForApi(event, now, config.publicUrl)) as string);
        return reply.type('application/json; charset=utf-8').send(json as never);
      },
    );

    app.get(
      '/events/:id/register',
      {
        config: {
          mcp: {
            name: 'get_registration_form',
            title: 'Get the registration form',
            role: 'participant',
            description:
              'Whether registration is open, the tracks (track_id) and the custom fields (answer the required ones under `fields` by key). Read it before register_team.',
          },
        },
        schema: {
          tags: ['registration'],
          summary: 'The registration form and timeline; read it before registering',
          params: EventIdParams,
          response: { 200: RegistrationFormSchema, ...problems('event_not_found') },
        },
      },
      async (request) => registrationFormForApi(await events.getPublic(request.params.id, request.principal), clock.now()),
    );

    app.post(
      '/events',
      {
        config: {
          auth: true,
          idempotent: true,
          mcp: {
            name: 'create_event',
            title: 'Create an event',
            role: 'organizer',
            description: 'Create an event; status "draft" keeps it unlisted, otherwise it opens at once.',
          },
        },
        schema: {
          tags: ['organizer'],
          summary: 'Create an event (status "draft" to keep it unpublished)',
          body: CreateEventBody,
          response: { 201: EventSchema, ...problems('forbidden', 'model_not_configured') },
        },
      },
      async (request, reply) => {
        const event = await events.create(principalOf(request), request.body);
        reply.status(201).header('Location', `${config.publicUrl}/api/v1/events/${event.id}`);
        return fullEvent(event, true, { dimensionsDefaulted: request.body.dimensions === undefined });
      },
    );

    app.patch(
      '/events/:id',
      {
        config: {
          auth: true,
          mcp: [
            {
              name: 'update_event',
              title: 'Change an event',
              role: 'organizer',
              description:
                'Change your event: send only what changes (the fields of create_event). `status`: "open" publishes a draft, "active" closes registration (judging: start_judging; cancel: cancel_event).',
            },
            {
              name: 'start_judging',
              title: 'Start judging',
              role: 'organizer',
              destructive: true,
              fixedBody: { status: 'judging' },
              description: 'Close submissions and start judging now (else at the submission deadline); then list_reviews, get_leaderboard, publish_results.',
            },
            {
              name: 'cancel_event',
              title: 'Cancel an event',
              role: 'organizer',
              destructive: true,
              fixedBody: { status: 'cancelled' },
              description: 'Cancel your event. Final: no more registrations or submissions, never results.',
            },
          ],
        },
        schema: {
          tags: ['organizer'],
          summary: 'Change an event; `status` moves it forward (publish, close registration, judge, cancel)',
          params: EventIdParams,
          body: PatchEventBody,
          response: { 200: EventSchema, ...problems('forbidden', 'event_not_found', 'invalid_transition', 'event_locked', 'model_not_configured') },
        },
      },
      async (request) => fullEvent(await events.update(principalOf(request), request.params.id, request.body as EventInput), true),
    );
  };
}

/** `POST {site_url}/api/agent/events/create`: kept at the seed's path with its {success, data} envelope. */
export function agentCreateRoute(ctx: EventsRoutesDeps) {
  const { events, clock, config } = ctx;
  return async function plugin(app: App) {
    app.post(
      '/api/agent/events/create',
      {
        config: { auth: true, envelope: true, idempotent: true },
        schema: {
          tags: ['organizer'],
          summary: 'Create an event (starts open and is listed at once)',
          body: CreateEventBody,
          response: {
            201: Type.Object({ success: Type.Literal(true), data: EventSchema }),
            ...problems('forbidden', 'model_not_configured'),
          },
        },
      },
      async (request, reply) => {
        const body = request.body as EventInput;
        const event = await events.create(principalOf(request), { ...body, status: body.status ?? 'open' });
        reply.status(201).header('Location', `${config.publicUrl}/api/v1/events/${event.id}`);
        return { success: true as const, data: eventForApi(event, clock.now(), config.publicUrl) };
      },
    );
  };
}
