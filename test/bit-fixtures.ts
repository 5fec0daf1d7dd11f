/**
 * Bits made through the write path the server serves (add_bit, archive_bit, and the REST restore's service),
 * so no fixture holds a row the server would not have written. test/graph-fixtures.ts does the same for bits
 * with element bodies and connections.
 */
import type { Harness } from './harness.js';

export async function makeBit(h: Harness, options: { scopeId?: string | null; accountId?: string; archived?: boolean; title?: string } = {}): Promise<string> {
  // A bit of another account is written by a principal of that account.
  const client = options.accountId && options.accountId !== h.accountId ? (await h.principal({ accountId: options.accountId })).client : h.owner.client;
  const { bit_id } = await client.ok<{ bit_id: string }>('add_bit', {
    bit_title: options.title ?? 'A bit',
    bit_body: 'A step.',
    ...(options.scopeId ? { scope_id: options.scopeId } : {}),
  });
  if (options.archived) await client.ok('archive_bit', { bit_id });
  return bit_id;
}

export async function archiveBit(h: Harness, bitId: string): Promise<void> {
  await h.owner.client.ok('archive_bit', { bit_id: bitId });
}

/** Restoring is REST only (POST /api/v1/bits/{bit_id}/restore): its service, as the owner. */
export async function restoreBit(h: Harness, bitId: string): Promise<void> {
  const owner = await h.services.auth.authenticate(h.owner.token);
  if (!owner) throw new Error('the owner token does not authenticate');
  await h.services.bitRestore.restore(owner, { bit_id: bitId });
}
