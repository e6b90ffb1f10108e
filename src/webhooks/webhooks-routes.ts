import { Type } from 'typebox';
import type { Config } from '../core/config.js';
import { principalOf, type App } from '../core/http/app-types.js';
import { setNextLink } from '../core/http/pagination.js';
import { problems } from '../core/http/schemas.js';
import {
  CreateWebhookBody,
  CreatedWebhookSchema,
  DeliveryIdParams,
  DeliverySchema,
  ListDeliveriesQuery,
  WebhookIdParams,
  WebhookSchema,
  deliveryForApi,
  webhookForApi,
} from './webhooks-schemas.js';
import type { WebhooksService } from './webhooks-service.js';

export interface WebhooksRoutesDeps {
  webhooks: WebhooksService;
  config: Config;
}

const NoContent = (description: string) => Type.Null({ description });

/** The caller's own webhook subscriptions and their deliveries; another account's answer 404. */
export function webhooksRoutes(ctx: WebhooksRoutesDeps) {
  const { webhooks, config } = ctx;
  return async function plugin(app: App) {
    app.post(
      '/webhooks',
      {
        config: {
          auth: true,
          idempotent: true,
          mcp: {
            name: 'create_webhook',
            title: 'Create a webhook',
            role: 'participant',
            description: 'Subscribe an https endpoint to events (organizers: their events; teams: their own). The signing secret is shown only in this answer.',
          },
        },
        schema: {
          tags: ['webhooks'],
          summary:
            'Subscribe an https endpoint to events (organizers: the events they organize; teams: their own registration and project). The answer carries the signing `secret`, shown only here',
          body: CreateWebhookBody,
          response: { 201: CreatedWebhookSchema, ...problems('event_not_found', 'webhook_url_refused') },
        },
      },
      async (request, reply) => {
        const row = await webhooks.create(principalOf(request), request.body);
        reply.status(201);
        return { ...webhookForApi(row), secret: row.secret };
      },
    );

    app.get(
      '/webhooks',
      {
        config: {
          auth: true,
          mcp: { name: 'list_webhooks', title: 'List webhooks', role: 'participant', description: 'Your webhook subscriptions (without secrets).' },
        },
        schema: { tags: ['webhooks'], summary: 'Your webhook subscriptions (without their secrets)', response: { 200: Type.Array(WebhookSchema) } },
      },
      async (request) => (await webhooks.list(principalOf(request))).map(webhookForApi),
    );

    app.delete(
      '/webhooks/:id',
      {
        config: {
          auth: true,
          mcp: {
            name: 'delete_webhook',
            title: 'Delete a webhook',
            role: 'participant',
            destructive: true,
            description: 'Delete one of your webhook subscriptions and its deliveries, for good.',
          },
        },
        schema: {
          tags: ['webhooks'],
          summary: 'Delete one of your webhook subscriptions and its deliveries',
          params: WebhookIdParams,
          response: { 204: NoContent('Deleted'), ...problems('webhook_not_found') },
        },
      },
      async (request, reply) => {
        await webhooks.remove(principalOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/webhooks/:id/test',
      {
        config: {
          auth: true,
          idempotent: true,
          mcp: {
            name: 'test_webhook',
            title: 'Test a webhook',
            role: 'participant',
            description: 'Queue a webhook.test message to one of your subscriptions; follow it with list_webhook_deliveries.',
          },
        },
        schema: {
          tags: ['webhooks'],
          summary: 'Queue a `webhook.test` message to this subscription; follow it in its deliveries',
          params: WebhookIdParams,
          response: { 202: DeliverySchema, ...problems('webhook_not_found') },
        },
      },
      async (request, reply) => {
        const d = await webhooks.test(principalOf(request), request.params.id);
        reply.status(202);
        return deliveryForApi(d);
      },
    );

    app.get(
      '/webhooks/:id/deliveries',
      {
        config: {
          auth: true,
          mcp: {
            name: 'list_webhook_deliveries',
            title: 'List webhook deliveries',
            role: 'participant',
            description: "A subscription's deliveries, newest first: status, attempts, last status code and error.",
          },
        },
        schema: {
          tags: ['webhooks'],
          summary: 'A subscription\'s deliveries, newest first: status, attempts, last status code, duration and error (cursor pagination, Link rel="next")',
          params: WebhookIdParams,
          querystring: ListDeliveriesQuery,
          response: { 200: Type.Array(DeliverySchema), ...problems('webhook_not_found') },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const page = await webhooks.deliveries(principalOf(request), request.params.id, { limit: q.limit, cursor: q.cursor });
        setNextLink(reply, config.publicUrl, `/webhooks/${encodeURIComponent(request.params.id)}/deliveries`, q, page.nextCursor);
        return page.rows.map(deliveryForApi);
      },
    );

    app.post(
      '/webhooks/:id/deliveries/:delivery_id/retry',
      {
        config: {
          auth: true,
          idempotent: true,
          mcp: {
            name: 'retry_webhook_delivery',
            title: 'Retry a webhook delivery',
            role: 'participant',
            description: 'Send a delivery again now (same webhook-id); enables its subscription again if failures had disabled it.',
          },
        },
        schema: {
          tags: ['webhooks'],
          summary: 'Send a delivery again now (same webhook-id); enables the subscription again if failures had disabled it',
          params: DeliveryIdParams,
          response: { 202: DeliverySchema, ...problems('webhook_not_found', 'webhook_delivery_not_found') },
        },
      },
      async (request, reply) => {
        const d = await webhooks.retry(principalOf(request), request.params.id, request.params.delivery_id);
        reply.status(202);
        return deliveryForApi(d);
      },
    );
  };
}
