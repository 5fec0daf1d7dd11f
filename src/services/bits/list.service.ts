/**
 * list_bits (CONTRACT.md, "Tools beyond the interface document"): the bits a caller can see, filtered
 * and paged. Bodies are left out; get_bit reads one bit whole.
 */
import * as repo from '../../store/repositories/bits.repo.js';
import type { Store } from '../../store/store.js';
import type { Actor } from '../actor.js';
import { resolveScope } from '../scopes.js';
import { LIMITS } from '../../limits/index.js';
import type { BitStatus } from '../../store/enums.js';
import type { BitSummary } from './shapes.js';
import { bitSummary } from './view.js';

export interface ListBitsInput {
  scope_id?: string | null;
  status?: BitStatus | 'any';
  category?: string;
  query?: string;
  cursor?: string;
  limit?: number;
}

export class BitListService {
  constructor(private readonly store: Store) {}

  async list(actor: Actor, input: ListBitsInput): Promise<{ bits: BitSummary[]; next_cursor: string | null }> {
    if (typeof input.scope_id === 'string') await resolveScope(this.store.db, actor, input.scope_id);
    const parse = <T>(raw: unknown) => this.store.dialect.parseJson<T>(raw);
    const category = input.category;
    const status = input.status ?? 'active';
    const page = await repo.listBits(
      this.store.db,
      { accountId: actor.accountId, scopeId: actor.scopeId },
      { scopeId: input.scope_id, status: status === 'any' ? undefined : status, category, query: input.query },
      { limit: input.limit ?? LIMITS.defaultPageSize, cursor: input.cursor },
      (row) => category === undefined || parse<string[]>(row.categories).includes(category),
    );
    return {
      bits: page.rows.map((row) => bitSummary(row, parse)),
      next_cursor: page.next_cursor,
    };
  }
}
