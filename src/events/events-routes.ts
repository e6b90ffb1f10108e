import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { principalOf, type App, type AppContext } from '../app-context.js';
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
import type { EventInput } from './events-service.js';
import { effectiveStatus } from './status.js';
import { validationError } from '../core/errors.js';

/** `?fields=a,b`: the named summary fields, validated (unknown names answer 422 listing the allowed ones). */
function parseFields(raw: string | undefined): Array<(typeof LIST_FIELDS)[number]> | null {
  if (raw === undefined) return null;
  const names = [...new Set(raw.split(',').map((f) => f.trim()))];
  const unknown = names.filter((n) => !(LIST_FIELDS as string[]).includes(n));
  if (unknown.length) {
    throw validationError([
      { field: 'fields', message: `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => JSON.stringify(u)).join(', ')}; allowed: ${LIST_FIELDS.join(', ')}` },
    ]);
  }
  return names as Array<(typeof LIST_FIELDS)[number]>;
}

/** Serialised list items remembered per cached event (statuses × field lists). */
const MAX_SHAPES = 8;

/** Public discovery (list, detail, registration form) and the organizer's create/update. */
export function eventsRoutes(ctx: AppContext) {
  const { events, clock, config } = ctx;

  async function fullEvent(e: EventRecord, showOrganizers: boolean) {
    const out = eventForApi(e, clock.now());
    return showOrganizers ? { ...out, co_organizers: await events.coOrganizers(e) } : out;
  }

  /**
   * The public body of GET /events/:id as JSON text, serialised once per cached event record and
   * status. The catalog hands out one record object per cached event until the event changes (then
   * a new one), and the status is the only part that moves with the clock, so a record and a status
   * always give the same bytes. A record read past the cache is a new object every time: it is
   * serialised as before, and its memo goes with it.
   */
  const publicJson = new WeakMap<EventRecord, { status: string; json: string }>();
  /** Likewise one list item's JSON text, by status and field list. */
  const listJson = new WeakMap<EventRecord, Map<string, string>>();
  function publicEventJson(e: EventRecord, reply: FastifyReply): string {
    const now = clock.now();
    const status = effectiveStatus(e, now);
    const memo = publicJson.get(e);
    if (memo && memo.status === status) return memo.json;
    const json = reply.serialize(eventForApi(e, now)) as string;
    publicJson.set(e, { status, json });
    return json;
  }

  return async function plugin(app: App) {
    app.get(
      '/events',
      {
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
          const full = eventSummaryForApi(e, now);
          return fields ? Object.fromEntries(fields.map((f) => [f, full[f]])) : full;
        };
        if (q.mine) return page.events.map(item);
        // Public pages: each item's JSON text is serialised once per cached record, status and
        // field list (as GET /events/:id), and the page is their concatenation.
        // The serializer writes properties in the schema's order, so a field list's order and
        // repeats do not change the bytes: one key per set of fields.
        const shape = fields ? [...new Set(fields)].sort().join(',') : '*';
        const parts = page.events.map((e) => {
          const status = effectiveStatus(e, now);
          let memo = listJson.get(e);
          // A few shapes per record at most: clients asking for ever new field sets cannot grow it.
          if (!memo || memo.size >= MAX_SHAPES) listJson.set(e, (memo = new Map()));
          const key = `${status}|${shape}`;
          let json = memo.get(key);
          if (json === undefined) {
            // The route's own (array) serializer on a one-item array: the same bytes as in a page.
            json = (reply.serialize([item(e)]) as string).slice(1, -1);
            memo.set(key, json);
          }
          return json;
        });
        return reply.type('application/json; charset=utf-8').send(`[${parts.join(',')}]` as never);
      },
    );

    app.get(
      '/events/:id',
      {
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
        return reply.type('application/json; charset=utf-8').send(publicEventJson(event, reply) as never);
      },
    );

    app.get(
      '/events/:id/register',
      {
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
        config: { auth: true, idempotent: true },
        schema: {
          tags: ['organizer'],
          summary: 'Create an event (status "draft" to keep it unpublished)',
          body: CreateEventBody,
          response: { 201: EventSchema, ...problems('forbidden') },
        },
      },
      async (request, reply) => {
        const event = await events.create(principalOf(request), request.body as EventInput);
        reply.status(201).header('Location', `${config.publicUrl}/api/v1/events/${event.id}`);
        return fullEvent(event, true);
      },
    );

    app.patch(
      '/events/:id',
      {
        config: { auth: true },
        schema: {
          tags: ['organizer'],
          summary: 'Change an event; `status` moves it forward (publish, close registration, judge, cancel)',
          params: EventIdParams,
          body: PatchEventBody,
          response: { 200: EventSchema, ...problems('forbidden', 'event_not_found', 'invalid_transition', 'event_locked') },
        },
      },
      async (request) => fullEvent(await events.update(principalOf(request), request.params.id, request.body as EventInput), true),
    );
  };
}

/** `POST {site_url}/api/agent/events/create`: kept at the seed's path with its {success, data} envelope. */
export function agentCreateRoute(ctx: AppContext) {
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
            ...problems('forbidden'),
          },
        },
      },
      async (request, reply) => {
        const body = request.body as EventInput;
        const event = await events.create(principalOf(request), { ...body, status: body.status ?? 'open' });
        reply.status(201).header('Location', `${config.publicUrl}/api/v1/events/${event.id}`);
        return { success: true as const, data: eventForApi(event, clock.now()) };
      },
    );
  };
}
