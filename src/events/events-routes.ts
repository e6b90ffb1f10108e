import { Type } from 'typebox';
import { principalOf, type App, type AppContext } from '../app-context.js';
import { problems } from '../core/http/schemas.js';
import type { EventRecord } from './events-model.js';
import { eventForApi, eventSummaryForApi, registrationFormForApi } from './events-model.js';
import {
  CreateEventBody,
  EventIdParams,
  EventSchema,
  EventSummarySchema,
  ListEventsQuery,
  PatchEventBody,
  RegistrationFormSchema,
} from './events-schemas.js';
import type { EventInput } from './events-service.js';

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
          response: { 200: Type.Array(EventSummarySchema) },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const page = await events.list(
          { limit: q.limit, ...(q.status ? { status: q.status } : {}), ...(q.cursor ? { cursor: q.cursor } : {}), ...(q.mine ? { mine: true } : {}) },
          request.principal,
        );
        if (page.nextCursor) {
          const params = new URLSearchParams();
          if (q.status) params.set('status', q.status);
          if (q.mine) params.set('mine', 'true');
          params.set('limit', String(q.limit));
          params.set('cursor', page.nextCursor);
          reply.header('Link', `<${config.publicUrl}/api/v1/events?${params}>; rel="next"`);
        }
        const now = clock.now();
        return page.events.map((e) => eventSummaryForApi(e, now));
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
        config: { auth: true },
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
        config: { auth: true, envelope: true },
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
