/**
 * Signing by the Standard Webhooks specification, through its maintained library (`standardwebhooks`): the
 * `webhook-id` (the event's id: the receiver's idempotency key), `webhook-timestamp` and `webhook-signature`
 * headers. During a secret's rotation both the new and the previous secret sign, space-separated, as the
 * specification allows, so a receiver that knows either one verifies.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new signing secret, in the specification's `whsec_` + base64 form (24 random bytes). */
export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function signedHeaders(id: string, at: Date, body: string, secrets: readonly string[]): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(id, at, body));
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
