/** Ids of nodes: UUIDs minted by an injected function, so tests can make them predictable. */

export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export function defaultNewId(): string {
  // Web Crypto, global in Node and in browsers: the body language imports no Node module (../brand.ts).
  return crypto.randomUUID();
}
