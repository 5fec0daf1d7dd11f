/** What the webhook operations answer (issue 29), as zod schemas: the services' types and the operations' outputs. Never a secret but once, when made. */
import { z } from 'zod';

export const WEBHOOK_STATUSES = ['active', 'failing', 'disabled'] as const;

export const webhookViewShape = z.object({
  webhook_id: z.string(),
  url: z.string(),
  event_types: z.array(z.string()),
  scope_id: z.string().nullable(),
  description: z.string().nullable(),
  /** active; failing (its head event has failed for an hour or more: still retried); disabled (gave up, or by an Admin). */
  status: z.enum(WEBHOOK_STATUSES),
  failing_since: z.string().nullable(),
  /** Events of its account not yet handled (delivered, skipped as not subscribed, or given up). */
  events_behind: z.number().int(),
  head_attempts: z.number().int(),
  next_attempt_date_time_utc: z.string().nullable(),
  last_delivery: z
    .object({ outcome: z.enum(['delivered', 'failed']), response_code: z.number().int().nullable(), attempted_date_time_utc: z.string() })
    .nullable(),
  /** Until when the previous secret still signs beside the new one (a rotation's overlap). */
  previous_secret_until: z.string().nullable(),
  created_date_time_utc: z.string(),
});
export type WebhookView = z.infer<typeof webhookViewShape>;

/** A new or rotated endpoint: its signing secret, shown this once. */
export const webhookWithSecretShape = webhookViewShape.extend({ secret: z.string() });
export type WebhookWithSecret = z.infer<typeof webhookWithSecretShape>;

export const deliveryViewShape = z.object({
  delivery_id: z.string(),
  event_id: z.string(),
  event_seq: z.number().int(),
  event_type: z.string(),
  attempt: z.number().int(),
  outcome: z.enum(['delivered', 'failed']),
  response_code: z.number().int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
  attempted_date_time_utc: z.string(),
});
export type DeliveryView = z.infer<typeof deliveryViewShape>;

export const deliveryPageShape = z.object({ deliveries: z.array(deliveryViewShape), next_cursor: z.string().nullable() });
export type DeliveryPage = z.infer<typeof deliveryPageShape>;

/** The JSON body a receiver gets: the event's type, time and what changed (ids and a summary, never a body). */
export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: {
    event_id: string;
    seq: number;
    account_id: string;
    scope_id: string | null;
    operation: string;
    resource_type: string;
    resource_id: string;
    revision: number | null;
    actor: { principal_id: string | null; principal_kind: string; client_name: string | null };
    summary: Record<string, unknown>;
  };
}
