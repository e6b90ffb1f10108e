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

/** Public discovery (list, detail, registration form) and the organizer's create/update. */
export function eventsRoutes(ctx: AppContext) {
  const { events, clock, config } = ctx;

  async function fullEvent(e: EventRecord, showOrganizers: boolean) {
    const out = eventForApi(e, clock.now());
    return showOrganizers ? { ...out, co_organizers: await events.coOrganizers(e) } : out;
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
        if (!fields) return page.events.map((e) => eventSummaryForApi(e, now));
        return page.events.map((e) => {
          const full = eventSummaryForApi(e, now);
          return Object.fromEntries(fields.map((f) => [f, full[f]]));
        });
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
      async (request) => {
        const event = await events.getPublic(request.params.id, request.principal);
        return fullEvent(event, await events.isOwner(event, request.principal));
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
