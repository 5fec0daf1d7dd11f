/**
 * Webhook subscriptions (issue 29): an Admin makes, changes, rotates and removes them; anyone who may read sees
 * them and their health, never a secret (shown once, when made or rotated). Each accepted change of a subscription
 * is an event like any other. `deliver` sends one event to one endpoint and logs the attempt: the deliverer's
 * step, a redelivery, and a test event all go through it.
 */
import { randomUUID } from 'node:crypto';
import { WaymarkError, validationError } from '../../errors.js';
import { eventOfId } from '../../store/repositories/events.repo.js';
import * as repo from '../../store/repositories/webhooks.repo.js';
import type { EventTable, WebhookDeliveryTable, WebhookEndpointTable } from '../../store/schema.js';
import type { Store } from '../../store/store.js';
import { assertCanWriteIn, type Actor } from '../actor.js';
import { nowIso } from '../clock.js';
import { fieldsGiven, recordChange } from '../events/record.js';
import { resolveScope } from '../scopes.js';
import { addressPolicyFromEnv, checkEndpointUrl, type AddressPolicy } from './address.js';
import { ALL_EVENTS, typeOf, WEBHOOK_EVENT_NAMES } from './event-types.js';
import { send, SEND_LIMITS, type SendLimits } from './send.js';
import type { DeliveryPage, DeliveryView, WebhookPayload, WebhookView, WebhookWithSecret } from './shapes.js';
import { newSecret, signedHeaders } from './sign.js';

export interface CreateWebhookInput {
  url: string;
  event_types: string[];
  scope_id?: string | null;
  description?: string;
}

export interface UpdateWebhookInput {
  webhook_id: string;
  url?: string;
  event_types?: string[];
  description?: string | null;
  /** `active` again after it was disabled (resumes from the event it stopped at), or `disabled`. */
  status?: 'active' | 'disabled';
}

/** The event type of a test delivery: not an accepted change, so never a subscription's own type. */
export const TEST_EVENT_TYPE = 'webhook.test';

const notFound = (id: string) => new WaymarkError('WEBHOOK_NOT_FOUND', `No webhook ${id} is visible to this token: list_webhooks lists them.`, { webhook_id: id });

function checkTypes(types: readonly string[]): string[] {
  const unknown = types.filter((t) => t !== ALL_EVENTS && !WEBHOOK_EVENT_NAMES.includes(t));
  if (types.length === 0) throw validationError([{ path: 'event_types', message: `name at least one event type, or "${ALL_EVENTS}"` }]);
  if (unknown.length > 0) throw validationError([{ path: 'event_types', message: `unknown event type ${unknown.map((t) => JSON.stringify(t)).join(', ')}; one of ${WEBHOOK_EVENT_NAMES.join(', ')}, or "${ALL_EVENTS}"` }]);
  return [...new Set(types)].sort();
}

/** The body a receiver gets for an event, and its type. */
export function payloadOf(event: EventTable, type: string): WebhookPayload {
  return {
    type,
    timestamp: event.occurred_at,
    data: {
      event_id: event.id,
      seq: Number(event.seq),
      account_id: event.account_id,
      scope_id: event.scope_id,
      operation: event.operation,
      resource_type: event.resource_type,
      resource_id: event.resource_id,
      revision: event.revision === null ? null : Number(event.revision),
      actor: { principal_id: event.principal_id, principal_kind: event.principal_kind, client_name: event.client_name },
      summary: JSON.parse(event.summary) as Record<string, unknown>,
    },
  };
}

/** The secrets that sign now: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(endpoint: Pick<WebhookEndpointTable, 'secret' | 'previous_secret' | 'previous_secret_until'>, now: string): string[] {
  return endpoint.previous_secret && endpoint.previous_secret_until && endpoint.previous_secret_until > now ? [endpoint.secret, endpoint.previous_secret] : [endpoint.secret];
}

export class WebhooksService {
  constructor(
    private readonly store: Store,
    /** Where it may send: fixed here, or read from the environment at each use (addressPolicyFromEnv). */
    private readonly fixedPolicy?: AddressPolicy,
    readonly limits: SendLimits = SEND_LIMITS,
  ) {}

  get policy(): AddressPolicy {
    return this.fixedPolicy ?? addressPolicyFromEnv(process.env);
  }

  private async visible(actor: Actor, id: string): Promise<WebhookEndpointTable> {
    const endpoint = await repo.findEndpoint(this.store.db, id, actor);
    if (!endpoint) throw notFound(id);
    return endpoint;
  }

  async view(endpoint: WebhookEndpointTable): Promise<WebhookView> {
    const last = await repo.lastDelivery(this.store.db, endpoint.id);
    return {
      webhook_id: endpoint.id,
      url: endpoint.url,
      event_types: JSON.parse(endpoint.event_types) as string[],
      scope_id: endpoint.scope_id,
      description: endpoint.description,
      status: endpoint.status,
      failing_since: endpoint.failing_since,
      events_behind: Math.max(0, (await repo.headSeq(this.store.db, endpoint.account_id)) - Number(endpoint.cursor_seq)),
      head_attempts: Number(endpoint.head_attempts),
      next_attempt_date_time_utc: endpoint.next_attempt_at,
      last_delivery: last ? { outcome: last.outcome, response_code: last.response_code === null ? null : Number(last.response_code), attempted_date_time_utc: last.attempted_at } : null,
      previous_secret_until: endpoint.previous_secret && endpoint.previous_secret_until && endpoint.previous_secret_until > nowIso() ? endpoint.previous_secret_until : null,
      created_date_time_utc: endpoint.created_at,
    };
  }

  async list(actor: Actor): Promise<{ webhooks: WebhookView[] }> {
    const rows = await repo.listEndpoints(this.store.db, actor);
    return { webhooks: await Promise.all(rows.map((r) => this.view(r))) };
  }

  async create(actor: Actor, input: CreateWebhookInput): Promise<WebhookWithSecret> {
    const url = checkEndpointUrl(input.url, this.policy);
    const types = checkTypes(input.event_types);
    const scopeId = await resolveScope(this.store.db, actor, input.scope_id ?? actor.scopeId);
    assertCanWriteIn(actor, scopeId);
    const now = nowIso();
    const row: WebhookEndpointTable = {
      id: randomUUID(),
      account_id: actor.accountId,
      scope_id: scopeId,
      url,
      event_types: JSON.stringify(types),
      description: input.description?.trim() || null,
      secret: newSecret(),
      previous_secret: null,
      previous_secret_until: null,
      status: 'active',
      cursor_seq: 0,
      head_attempts: 0,
      head_failing_since: null,
      next_attempt_at: null,
      lease_id: null,
      leased_until: null,
      failing_since: null,
      created_by: actor.operator ? null : actor.principalId,
      created_at: now,
      updated_at: now,
    };
    await this.store.transaction(async (tx) => {
      // It hears what happens from now on: the events after the one that records it.
      row.cursor_seq = (await repo.headSeq(tx, actor.accountId)) + 1;
      await repo.insertEndpoint(tx, row);
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'webhook', resourceId: row.id, scopeId, summary: { event_types: types } });
    });
    return { ...(await this.view(row)), secret: row.secret };
  }

  async update(actor: Actor, input: UpdateWebhookInput): Promise<WebhookView> {
    const changes: Partial<WebhookEndpointTable> = {};
    if (input.url !== undefined) changes.url = checkEndpointUrl(input.url, this.policy);
    if (input.event_types !== undefined) changes.event_types = JSON.stringify(checkTypes(input.event_types));
    if (input.description !== undefined) changes.description = input.description?.trim() || null;
    await this.store.transaction(async (tx) => {
      const endpoint = await repo.findEndpoint(tx, input.webhook_id, actor);
      if (!endpoint) throw notFound(input.webhook_id);
      assertCanWriteIn(actor, endpoint.scope_id);
      if (input.status === 'disabled') changes.status = 'disabled';
      // Enabled again: it resumes from the event it stopped at, retried afresh.
      if (input.status === 'active') Object.assign(changes, { status: 'active', head_attempts: 0, head_failing_since: null, next_attempt_at: null, failing_since: null });
      if (Object.keys(changes).length === 0) return;
      await repo.updateEndpoint(tx, endpoint.id, { ...changes, updated_at: nowIso() });
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'webhook', resourceId: endpoint.id, scopeId: endpoint.scope_id, summary: { fields: fieldsGiven(input, ['webhook_id']) } });
    });
    return this.view(await this.visible(actor, input.webhook_id));
  }

  async remove(actor: Actor, input: { webhook_id: string }): Promise<{ webhook_id: string; removed: true }> {
    await this.store.transaction(async (tx) => {
      const endpoint = await repo.findEndpoint(tx, input.webhook_id, actor);
      if (!endpoint) throw notFound(input.webhook_id);
      assertCanWriteIn(actor, endpoint.scope_id);
      await repo.deleteEndpoint(tx, endpoint.id);
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'webhook', resourceId: endpoint.id, scopeId: endpoint.scope_id, summary: { removed: true } });
    });
    return { webhook_id: input.webhook_id, removed: true };
  }

  /** A new secret; the old one keeps signing beside it for `overlap_hours` (default 24, 0: at once). */
  async rotate(actor: Actor, input: { webhook_id: string; overlap_hours?: number }): Promise<WebhookWithSecret> {
    const secret = newSecret();
    await this.store.transaction(async (tx) => {
      const endpoint = await repo.findEndpoint(tx, input.webhook_id, actor);
      if (!endpoint) throw notFound(input.webhook_id);
      assertCanWriteIn(actor, endpoint.scope_id);
      const hours = input.overlap_hours ?? 24;
      const until = new Date(Date.now() + hours * 3600_000).toISOString();
      await repo.updateEndpoint(tx, endpoint.id, { secret, previous_secret: hours > 0 ? endpoint.secret : null, previous_secret_until: hours > 0 ? until : null, updated_at: nowIso() });
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'webhook', resourceId: endpoint.id, scopeId: endpoint.scope_id, summary: { rotated: true, overlap_hours: hours } });
    });
    return { ...(await this.view(await this.visible(actor, input.webhook_id))), secret };
  }

  async deliveries(actor: Actor, input: { webhook_id: string; cursor?: string; limit?: number }): Promise<DeliveryPage> {
    const endpoint = await this.visible(actor, input.webhook_id);
    const limit = input.limit ?? 50;
    const before = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
    const rows = await repo.listDeliveries(this.store.db, endpoint.id, limit + 1, before);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { deliveries: page.map(deliveryView), next_cursor: rows.length > limit && last ? Buffer.from(JSON.stringify([last.attempted_at, last.id])).toString('base64url') : null };
  }

  /** Sends a logged event again now, whatever its earlier outcome; the endpoint's own order is not changed. */
  async redeliver(actor: Actor, input: { webhook_id: string; delivery_id: string }): Promise<DeliveryView> {
    const endpoint = await this.visible(actor, input.webhook_id);
    assertCanWriteIn(actor, endpoint.scope_id);
    const logged = await repo.findDelivery(this.store.db, endpoint.id, input.delivery_id);
    // A test event is no accepted change: it is made again, under its id.
    const event = !logged ? undefined : logged.event_type === TEST_EVENT_TYPE ? testEvent(endpoint, actor, logged.event_id) : await eventOfId(this.store.db, endpoint.account_id, logged.event_id);
    if (!logged || !event) throw new WaymarkError('DELIVERY_NOT_FOUND', `No delivery ${input.delivery_id} of webhook ${endpoint.id}: list_webhook_deliveries lists them.`, { delivery_id: input.delivery_id });
    return deliveryView(await this.deliver(endpoint, event, logged.event_type, Number(logged.attempt) + 1));
  }

  /** Sends a `webhook.test` event now (not an accepted change: nothing else receives it) and answers how it went. */
  async sendTest(actor: Actor, input: { webhook_id: string }): Promise<DeliveryView> {
    const endpoint = await this.visible(actor, input.webhook_id);
    assertCanWriteIn(actor, endpoint.scope_id);
    const event = testEvent(endpoint, actor, randomUUID());
    return deliveryView(await this.deliver(endpoint, event, TEST_EVENT_TYPE, 1));
  }

  /** One attempt: signs and sends the event, logs the outcome. */
  async deliver(endpoint: WebhookEndpointTable, event: EventTable, type: string, attempt: number): Promise<WebhookDeliveryTable> {
    const row = await this.attempt(endpoint, event, type, attempt);
    await repo.insertDelivery(this.store.db, row);
    return row;
  }

  /** Signs and sends the event; answers the delivery log's row of it, for the caller to store (the deliverer stores it with its cursor). */
  async attempt(endpoint: WebhookEndpointTable, event: EventTable, type: string, attempt: number): Promise<WebhookDeliveryTable> {
    const now = new Date();
    const body = JSON.stringify(payloadOf(event, type));
    const result = await send(endpoint.url, signedHeaders(event.id, now, body, signingSecrets(endpoint, now.toISOString())), body, this.policy, this.limits);
    const row: WebhookDeliveryTable = {
      id: randomUUID(),
      endpoint_id: endpoint.id,
      account_id: endpoint.account_id,
      event_id: event.id,
      event_seq: Number(event.seq),
      event_type: type,
      attempt,
      outcome: result.ok ? 'delivered' : 'failed',
      response_code: result.status,
      error: result.error?.slice(0, 300) ?? null,
      duration_ms: result.durationMs,
      attempted_at: now.toISOString(),
    };
    return row;
  }

  /** The webhook event type of a stored event, if any subscription could receive it. */
  typeOf(event: EventTable): string | null {
    return typeOf({ resource_type: event.resource_type, operation: event.operation, summary: JSON.parse(event.summary) as Record<string, unknown> });
  }
}

/** The `webhook.test` event: shaped as an accepted change's, numbered 0, naming the webhook. */
function testEvent(endpoint: WebhookEndpointTable, actor: Actor, id: string): EventTable {
  return {
    id,
    account_id: endpoint.account_id,
    seq: 0,
    occurred_at: nowIso(),
    scope_id: endpoint.scope_id,
    principal_id: actor.principalId,
    principal_kind: actor.kind,
    token_id: null,
    client_name: null,
    operation: 'send_test_webhook',
    resource_type: 'webhook',
    resource_id: endpoint.id,
    revision: null,
    summary: '{}',
    prev_hash: null,
    hash: '',
  };
}

function decodeCursor(cursor: string): { at: string; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof at === 'string' && typeof id === 'string') return { at, id };
  } catch {
    // answered below
  }
  throw validationError([{ path: 'cursor', message: 'not a cursor this server handed out; pass next_cursor from the previous page, or omit it' }]);
}

function deliveryView(row: WebhookDeliveryTable): DeliveryView {
  return {
    delivery_id: row.id,
    event_id: row.event_id,
    event_seq: Number(row.event_seq),
    event_type: row.event_type,
    attempt: Number(row.attempt),
    outcome: row.outcome,
    response_code: row.response_code === null ? null : Number(row.response_code),
    error: row.error,
    duration_ms: Number(row.duration_ms),
    attempted_date_time_utc: row.attempted_at,
  };
}
