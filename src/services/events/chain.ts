/**
 * The hash chain of an account's events (issue 26): each event's hash covers the previous event's hash and its own
 * fields, in one fixed order, so that editing any field of any event, or removing one, breaks the chain from there.
 */
import { createHash } from 'node:crypto';
import type { EventTable } from '../../store/schema.js';

/** Every field but the hash itself, in the order the hash reads them: adding a field means adding it here. */
const HASHED_FIELDS = [
  'prev_hash',
  'account_id',
  'seq',
  'id',
  'occurred_at',
  'scope_id',
  'principal_id',
  'principal_kind',
  'token_id',
  'client_name',
  'operation',
  'resource_type',
  'resource_id',
  'revision',
  'summary',
] as const satisfies ReadonlyArray<Exclude<keyof EventTable, 'hash'>>;

/** SHA-256 (hex) of the event's fields as a JSON array; numbers are read back as numbers whatever the driver gave. */
export function eventHash(event: Omit<EventTable, 'hash'>): string {
  const values = HASHED_FIELDS.map((field) => {
    const value = event[field];
    return field === 'seq' || (field === 'revision' && value !== null) ? Number(value) : value;
  });
  return createHash('sha256').update(JSON.stringify(values)).digest('hex');
}
