/** Ids of nodes: UUIDs minted by an injected function, so tests can make them predictable. */
import { randomUUID } from 'node:crypto';

export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export function defaultNewId(): string {
  return randomUUID();
}
