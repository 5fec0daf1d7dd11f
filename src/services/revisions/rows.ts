/**
 * A revision's state as the row it was (state.ts keeps a row's columns): the live mappers turn it into the
 * same view as the row itself. JSON columns come parsed, so read them with `passThrough`.
 */
import type { BitTable, FlowTable, ReferenceTable } from '../../store/schema.js';
import type { ReferenceLink } from '../references/shapes.js';
import type { RevisionState } from './codec.js';

/** A JSON column of a revision's row is already parsed. */
export const passThrough = <T>(raw: unknown): T => raw as T;

export function bitRowOf(id: string, accountId: string, state: RevisionState): { row: BitTable; references: ReferenceLink[] } {
  const { references, ...fields } = state.fields as Omit<BitTable, 'id' | 'account_id' | 'body'> & { references: ReferenceLink[] };
  return { row: { ...fields, id, account_id: accountId, body: { children: state.nodes } }, references: references ?? [] };
}

export function flowRowOf(id: string, accountId: string, state: RevisionState): FlowTable {
  return { ...(state.fields as Omit<FlowTable, 'id' | 'account_id'>), id, account_id: accountId };
}

export function referenceRowOf(id: string, accountId: string, state: RevisionState): Omit<ReferenceTable, 'search_text' | 'snippet_text'> {
  return { ...(state.fields as Omit<ReferenceTable, 'id' | 'account_id' | 'content' | 'search_text' | 'snippet_text'>), id, account_id: accountId, content: state.nodes };
}
