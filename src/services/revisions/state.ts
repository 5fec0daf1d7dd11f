/**
 * A bit's, flow's or reference's state as a revision keeps it (migration 014 wrote the first ones the same way):
 * its row's columns but its ids, its body and what is derived from it, JSON columns parsed and flags as 0 or 1, so
 * a revision maps to its view through the same mapper as the live row; and its body's top-level nodes. A bit's
 * fields also hold its reference links as get_bit lists them: a link is part of its bit.
 */
import { findBit } from '../../store/repositories/bits.repo.js';
import { findFlow } from '../../store/repositories/flows.repo.js';
import { listLinksForBit } from '../../store/repositories/links.repo.js';
import { findReference } from '../../store/repositories/references.repo.js';
import type { StoreDialect } from '../../store/dialects/dialect.js';
import type { Db, Tx } from '../../store/store.js';
import { accountWide } from '../../store/visibility.js';
import type { RevisionState } from './codec.js';

export const REVISED_TYPES = ['bit', 'flow', 'reference'] as const;
export type RevisedType = (typeof REVISED_TYPES)[number];

export function isRevised(type: string): type is RevisedType {
  return (REVISED_TYPES as readonly string[]).includes(type);
}

function fieldsOf(row: Record<string, unknown>, body: readonly string[], json: readonly string[], dialect: StoreDialect): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key === 'id' || key === 'account_id' || body.includes(key)) continue;
    fields[key] = json.includes(key) && value !== null ? dialect.parseJson(value) : typeof value === 'bigint' ? Number(value) : value;
  }
  return fields;
}

/** The resource's state now, as the transaction sees it; null if it has no such resource in this account. */
export async function currentState(q: Db | Tx, dialect: StoreDialect, accountId: string, type: RevisedType, id: string): Promise<RevisionState | null> {
  const seen = accountWide(accountId);
  if (type === 'bit') {
    const row = await findBit(q, id, seen);
    if (!row) return null;
    const references = await listLinksForBit(q, id);
    const body = dialect.parseJson<{ children?: unknown[] }>(row.body);
    return { fields: { ...fieldsOf(row, ['body'], ['categories'], dialect), references }, nodes: body.children ?? [] };
  }
  if (type === 'flow') {
    const row = await findFlow(q, id, seen);
    return row ? { fields: fieldsOf(row, [], ['categories', 'trail_context_schema'], dialect), nodes: [] } : null;
  }
  const row = await findReference(q, id, seen);
  return row ? { fields: fieldsOf(row, ['content', 'search_text'], ['categories'], dialect), nodes: dialect.parseJson<unknown[]>(row.content) } : null;
}
