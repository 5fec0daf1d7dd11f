/**
 * What stateless HTTP remembers of a client's `initialize` (issue 14): the capabilities it declared, so the
 * per-request servers of its later requests know whether it shows MCP Apps. A 2025-era client sends them
 * once, and no session ties its next request to that one; the token's principal and OAuth client name it
 * instead (an API key's client is its principal: two programs sharing one key share one entry, the latest
 * initialize winning). Kept in this process only, for a day after the client's last initialize, at most
 * MAX_CLIENTS entries (the oldest go first); a client another process initialized is treated as announcing
 * nothing until it initializes here, and sees the tools as every plain client does.
 */
import type { AuthInfo, ClientCapabilities } from '@modelcontextprotocol/server';
import { actorOf } from '../session/bearer.js';

const MAX_CLIENTS = 10_000;
const KEEP_MS = 24 * 3600 * 1000;

export class ClientMemory {
  private readonly entries = new Map<string, { capabilities: ClientCapabilities; until: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The key of the token's client, or null without one. */
  static keyOf(auth: AuthInfo | undefined): string | null {
    const actor = actorOf(auth);
    return actor && auth ? `${actor.principalId}\u0000${auth.clientId}` : null;
  }

  /** Reads an initialize request's declared capabilities; other messages leave the memory as it is. */
  observe(key: string | null, body: unknown): void {
    if (!key || typeof body !== 'object' || body === null || Array.isArray(body)) return;
    const message = body as { method?: unknown; params?: { capabilities?: unknown } };
    if (message.method !== 'initialize') return;
    const capabilities = message.params?.capabilities;
    this.entries.delete(key);
    this.entries.set(key, { capabilities: typeof capabilities === 'object' && capabilities !== null ? (capabilities as ClientCapabilities) : {}, until: this.now() + KEEP_MS });
    if (this.entries.size > MAX_CLIENTS) this.entries.delete(this.entries.keys().next().value as string);
  }

  recall(key: string | null): ClientCapabilities | undefined {
    if (!key) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until < this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.capabilities;
  }
}
