/**
 * Fixtures for the References Library tests: bits come straight from the bits repository (the bit tools
 * belong to another part of the server), references through create_reference.
 */
import { randomUUID } from 'node:crypto';
import { insertBit, updateBit } from '../src/store/repositories/bits.repo.js';
import type { Harness, ToolClient } from './harness.js';

export const para = (text: string) => [{ type: 'p', children: [{ text }] }];

export async function makeBit(h: Harness, options: { scopeId?: string | null; accountId?: string; archived?: boolean; title?: string } = {}): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const store = h.store.store;
  await insertBit(store.db, {
    id,
    account_id: options.accountId ?? h.accountId,
    scope_id: options.scopeId ?? null,
    title: options.title ?? 'A bit',
    abstract: null,
    description: null,
    body: store.dialect.json({ children: [] }),
    categories: store.dialect.json([]),
    complexity: 'medium',
    human_required: 0,
    status: 'active',
    created_by: h.owner.principalId,
    created_at: now,
    updated_at: now,
  });
  if (options.archived) await updateBit(store.db, id, { status: 'archived' });
  return id;
}

export async function makeReference(client: ToolClient, fields: Record<string, unknown> = {}): Promise<string> {
  const data = await client.ok<{ reference_id: string }>('create_reference', {
    reference_title: 'Reference',
    reference_content: para('Some reference text.'),
    ...fields,
  });
  return data.reference_id;
}
