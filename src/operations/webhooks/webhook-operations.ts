/**
 * Webhooks (issue 29), declared once for every door: an agent may list them and see their health (`list_webhooks`,
 * an MCP tool); an Admin makes, changes, rotates, removes them and reads their delivery log, in the app, over
 * REST and at the command line (not offered over MCP). A secret is answered once, by create and rotate.
 */
import { z } from 'zod';
import { deliveryPageShape, deliveryViewShape, webhookViewShape, webhookWithSecretShape } from '../../services/webhooks/shapes.js';
import { ALL_EVENTS, WEBHOOK_EVENT_NAMES } from '../../services/webhooks/event-types.js';
import { recordId } from '../common-schemas.js';
import { pageInput } from '../flows/flow-schemas.js';
import { defineOperation } from '../operation.js';

const webhookId = recordId();
const url = z.string().min(1).max(2000);
const eventTypes = z.array(z.enum([...WEBHOOK_EVENT_NAMES, ALL_EVENTS])).min(1).max(WEBHOOK_EVENT_NAMES.length + 1);
const description = z.string().max(500);
const ADMIN = { capability: 'author', permission: 'admin' } as const;

export const listWebhooksTool = defineOperation({
  name: 'list_webhooks',
  title: 'List webhooks',
  description: 'The webhook subscriptions you can see and their health: status, events behind, last delivery. Never a secret.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  rest: { method: 'get', path: '/webhooks', operationId: 'listWebhooks' },
  input: z.strictObject({}),
  output: z.object({ webhooks: z.array(webhookViewShape) }),
  run: ({ actor, services }) => services.webhooks.list(actor),
});

export const createWebhookOperation = defineOperation({
  name: 'create_webhook',
  title: 'Subscribe a URL to events',
  description: `Sends the account's (or a scope's) accepted changes of these types to an https URL, signed by the Standard Webhooks specification. The secret is answered once. Event types: ${WEBHOOK_EVENT_NAMES.join(', ')}, or "${ALL_EVENTS}".`,
  flags: { W: true, D: false, I: false },
  access: ADMIN,
  rest: { method: 'post', path: '/webhooks', operationId: 'createWebhook' },
  mcp: false,
  input: z.strictObject({ url, event_types: eventTypes, scope_id: recordId().nullable().optional(), description: description.optional() }),
  output: webhookWithSecretShape,
  run: ({ actor, services }, input) => services.webhooks.create(actor, input),
});

export const updateWebhookOperation = defineOperation({
  name: 'update_webhook',
  title: 'Change a webhook',
  description: 'Changes its URL, event types or description; status "disabled" stops it, "active" enables it again from the event it stopped at.',
  flags: { W: true, D: false, I: false },
  access: ADMIN,
  rest: { method: 'post', path: '/webhooks/:webhook_id', operationId: 'updateWebhook' },
  mcp: false,
  input: z.strictObject({ webhook_id: webhookId, url: url.optional(), event_types: eventTypes.optional(), description: description.nullable().optional(), status: z.enum(['active', 'disabled']).optional() }),
  output: webhookViewShape,
  run: ({ actor, services }, input) => services.webhooks.update(actor, input),
});

export const deleteWebhookOperation = defineOperation({
  name: 'delete_webhook',
  title: 'Remove a webhook',
  description: 'Removes the subscription and its delivery log; nothing more is sent to it.',
  flags: { W: true, D: true, I: false },
  access: ADMIN,
  rest: { method: 'delete', path: '/webhooks/:webhook_id', operationId: 'deleteWebhook' },
  mcp: false,
  input: z.strictObject({ webhook_id: webhookId }),
  output: z.object({ webhook_id: z.string(), removed: z.literal(true) }),
  run: ({ actor, services }, input) => services.webhooks.remove(actor, input),
});

export const rotateWebhookSecretOperation = defineOperation({
  name: 'rotate_webhook_secret',
  title: 'Rotate a webhook\'s secret',
  description: 'A new signing secret, answered once; the old one keeps signing beside it for overlap_hours (default 24; 0 ends it now).',
  flags: { W: true, D: false, I: false },
  access: ADMIN,
  rest: { method: 'post', path: '/webhooks/:webhook_id/rotate', operationId: 'rotateWebhookSecret' },
  mcp: false,
  input: z.strictObject({ webhook_id: webhookId, overlap_hours: z.number().int().min(0).max(24 * 14).optional() }),
  output: webhookWithSecretShape,
  run: ({ actor, services }, input) => services.webhooks.rotate(actor, input),
});

export const listWebhookDeliveriesOperation = defineOperation({
  name: 'list_webhook_deliveries',
  title: 'A webhook\'s delivery log',
  description: 'Every attempt to deliver to the webhook, newest first: event, type, attempt, outcome, response code, error, time.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'admin' },
  rest: { method: 'get', path: '/webhooks/:webhook_id/deliveries', operationId: 'listWebhookDeliveries' },
  mcp: false,
  input: z.strictObject({ webhook_id: webhookId, ...pageInput }),
  output: deliveryPageShape,
  run: ({ actor, services }, input) => services.webhooks.deliveries(actor, input),
});

export const redeliverWebhookOperation = defineOperation({
  name: 'redeliver_webhook',
  title: 'Deliver an event again',
  description: 'Sends a logged delivery\'s event to the webhook again now and logs the attempt; the webhook\'s own order is unchanged.',
  flags: { W: false, D: false, I: false },
  access: ADMIN,
  rest: { method: 'post', path: '/webhooks/:webhook_id/deliveries/:delivery_id/redeliver', operationId: 'redeliverWebhook' },
  mcp: false,
  input: z.strictObject({ webhook_id: webhookId, delivery_id: recordId() }),
  output: deliveryViewShape,
  run: ({ actor, services }, input) => services.webhooks.redeliver(actor, input),
});

export const sendTestWebhookOperation = defineOperation({
  name: 'send_test_webhook',
  title: 'Send a test event',
  description: 'Sends a signed webhook.test event to the webhook now and answers how it went; nothing else receives it.',
  flags: { W: false, D: false, I: false },
  access: ADMIN,
  rest: { method: 'post', path: '/webhooks/:webhook_id/test', operationId: 'sendTestWebhook' },
  mcp: false,
  input: z.strictObject({ webhook_id: webhookId }),
  output: deliveryViewShape,
  run: ({ actor, services }, input) => services.webhooks.sendTest(actor, input),
});

export const WEBHOOK_OPERATIONS = [
  listWebhooksTool,
  createWebhookOperation,
  updateWebhookOperation,
  deleteWebhookOperation,
  rotateWebhookSecretOperation,
  listWebhookDeliveriesOperation,
  redeliverWebhookOperation,
  sendTestWebhookOperation,
];
