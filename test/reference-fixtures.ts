/**
 * Fixtures for the References Library tests: bits and references made through the tools (add_bit,
 * archive_bit, create_reference), the write path the server serves, so no fixture holds a row the server
 * would not have written.
 */
import type { Harness, ToolClient } from './harness.js';

export const para = (text: string) => [{ type: 'p', children: [{ text }] }];

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

export async function makeReference(client: ToolClient, fields: Record<string, unknown> = {}): Promise<string> {
  const data = await client.ok<{ reference_id: string }>('create_reference', {
    reference_title: 'Reference',
    reference_content: para('Some reference text.'),
    ...fields,
  });
  return data.reference_id;
}
