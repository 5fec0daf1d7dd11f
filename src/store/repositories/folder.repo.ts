/**
 * The reads of a folder's export and import (issue 30): every record of a scope (or of the account level) at once,
 * and records by many ids. Ids are read in chunks: a folder holds thousands of files, and each engine bounds the
 * values one statement may bind.
 */
import type { Db, Tx } from '../store.js';

type Q = Db | Tx;

const CHUNK = 500;

async function chunked<T>(ids: readonly string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) out.push(...(await read(ids.slice(i, i + CHUNK))));
  return out;
}

/** `scopeId` null: the account level. */
export async function bitsOfScope(q: Q, accountId: string, scopeId: string | null, status: 'active' | 'archived' = 'active') {
  let query = q.selectFrom('bits').selectAll().where('account_id', '=', accountId).where('status', '=', status);
  query = scopeId === null ? query.where('scope_id', 'is', null) : query.where('scope_id', '=', scopeId);
  return query.orderBy('id').execute();
}

export async function flowsOfScope(q: Q, accountId: string, scopeId: string | null) {
  let query = q.selectFrom('flows').selectAll().where('account_id', '=', accountId);
  query = scopeId === null ? query.where('scope_id', 'is', null) : query.where('scope_id', '=', scopeId);
  return query.orderBy('id').execute();
}

const REFERENCE_COLUMNS = ['id', 'account_id', 'scope_id', 'title', 'abstract', 'content', 'categories', 'is_active', 'updated_at'] as const;

export async function referencesOfScope(q: Q, accountId: string, scopeId: string | null) {
  let query = q.selectFrom('library_references').select(REFERENCE_COLUMNS).where('account_id', '=', accountId).where('is_active', '=', 1);
  query = scopeId === null ? query.where('scope_id', 'is', null) : query.where('scope_id', '=', scopeId);
  return query.orderBy('id').execute();
}

/** The account's bits of these ids (any scope, any status). */
export async function bitsByIds(q: Q, accountId: string, ids: readonly string[]) {
  return chunked(ids, (chunk) => q.selectFrom('bits').selectAll().where('account_id', '=', accountId).where('id', 'in', chunk).execute());
}

export async function referencesByIds(q: Q, accountId: string, ids: readonly string[]) {
  return chunked(ids, (chunk) => q.selectFrom('library_references').select(REFERENCE_COLUMNS).where('account_id', '=', accountId).where('id', 'in', chunk).execute());
}

export async function flowsByIds(q: Q, accountId: string, ids: readonly string[]) {
  return chunked(ids, (chunk) => q.selectFrom('flows').selectAll().where('account_id', '=', accountId).where('id', 'in', chunk).execute());
}

/**
 * Which of these ids a row of the table holds already, in any account: a record the import creates keeps its
 * folder's id only where no row has it (ids are the store's keys). Only the ids are read, never the rows.
 */
export async function takenIds(q: Q, table: 'bits' | 'library_references' | 'flows', ids: readonly string[]): Promise<Set<string>> {
  const rows = await chunked(ids, (chunk) => q.selectFrom(table).select('id').where('id', 'in', chunk).execute());
  return new Set(rows.map((r) => r.id));
}

/** The reference links of these bits, each bit's in display order. */
export async function linksOfBits(q: Q, bitIds: readonly string[]) {
  return chunked(bitIds, (chunk) => q.selectFrom('bit_reference_links').selectAll().where('bit_id', 'in', chunk).orderBy('bit_id').orderBy('position').orderBy('id').execute());
}
