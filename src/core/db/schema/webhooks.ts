import type { Generated, Selectable } from 'kysely';

/** A webhook subscription (src/webhooks). */
export interface WebhooksTable {
  id: string;
  user_id: string;
  url: string;
  /** The subscribed kinds, as ",kind,kind,". */
  events: string;
  event_id: string | null;
  /** `whsec_<base64>`: kept so the server can sign; shown once, never logged. */
  secret: string;
  consecutive_failures: Generated<number>;
  disabled_at: string | null;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

export type WebhookDeliveryStatus = 'queued' | 'running' | 'delivered' | 'failed';

/** One message to one subscription: the durable delivery queue. */
export interface WebhookDeliveriesTable {
  /** Also the `webhook-id` header: the same on every attempt. */
  id: string;
  webhook_id: string;
  event_type: string;
  payload: string;
  status: WebhookDeliveryStatus;
  attempts: Generated<number>;
  next_attempt_at: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
}

export type WebhookRow = Selectable<WebhooksTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
