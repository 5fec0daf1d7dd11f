/**
 * Revisions and flow versions (migration 014): appended, never updated or deleted. Rows are found by the resource's
 * id (ids are UUIDs, unique across kinds), always with the account, so a reader never reaches another account's.
 */
import type { FlowVersionTable, RevisionTable } from '../schema.js';
import { visibleTo, type Visibility } from '../visibility.js';
import type { Db, Tx } from '../store.js';

type Q = Db | Tx;

export async function insertRevision(tx: Tx, row: RevisionTable): Promise<void> {
  await tx.insertInto('revisions').values(row).execute();
}

export type RevisionHead = Pick<RevisionTable, 'revision' | 'kind' | 'chain_bytes' | 'resource_type'>;

/** The resource's latest stored revision (without its data). */
export async function latestRevision(q: Q, accountId: string, resourceId: string): Promise<RevisionHead | undefined> {
  return q
    .selectFrom('revisions')
    .select(['revision', 'kind', 'chain_bytes', 'resource_type'])
    .where('resource_id', '=', resourceId)
    .where('account_id', '=', accountId)
    .orderBy('revision', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The latest revision number of each of these resources that has one. */
export async function latestRevisions(q: Q, accountId: string, resourceIds: readonly string[]): Promise<Map<string, number>> {
  if (resourceIds.length === 0) return new Map();
  const rows = await q
    .selectFrom('revisions')
    .select(['resource_id', (eb) => eb.fn.max('revision').as('revision')])
    .where('account_id', '=', accountId)
    .where('resource_id', 'in', [...resourceIds])
    .groupBy('resource_id')
    .execute();
  return new Map(rows.map((r) => [r.resource_id, Number(r.revision)]));
}

/** The resource's first stored revision: where its history as revisions begins. */
export async function firstRevision(q: Q, accountId: string, resourceId: string): Promise<number | undefined> {
  const row = await q.selectFrom('revisions').select('revision').where('resource_id', '=', resourceId).where('account_id', '=', accountId).orderBy('revision').limit(1).executeTakeFirst();
  return row === undefined ? undefined : Number(row.revision);
}

/**
 * What a reader of `revision` reads: the last full revision at or before it and the deltas up to it, in order;
 * empty when the resource has no such revision. Two index range reads on the primary key.
 */
export async function revisionChain(q: Q, accountId: string, resourceId: string, revision: number): Promise<Array<Pick<RevisionTable, 'revision' | 'kind' | 'data' | 'resource_type' | 'created_at'>>> {
  const base = await q
    .selectFrom('revisions')
    .select('revision')
    .where('resource_id', '=', resourceId)
    .where('account_id', '=', accountId)
    .where('revision', '<=', revision)
    .where('kind', '=', 'full')
    .orderBy('revision', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!base) return [];
  const rows = await q
    .selectFrom('revisions')
    .select(['revision', 'kind', 'data', 'resource_type', 'created_at'])
    .where('resource_id', '=', resourceId)
    .where('account_id', '=', accountId)
    .where('revision', '>=', base.revision)
    .where('revision', '<=', revision)
    .orderBy('revision')
    .execute();
  return rows.at(-1)?.revision === revision ? rows : [];
}

export async function insertFlowVersion(tx: Tx, row: FlowVersionTable): Promise<void> {
  await tx.insertInto('flow_versions').values(row).execute();
}

/** The flow's latest approved version, or the one numbered. */
export async function findFlowVersion(q: Q, accountId: string, flowId: string, version?: number): Promise<FlowVersionTable | undefined> {
  let query = q.selectFrom('flow_versions').selectAll().where('flow_id', '=', flowId).where('account_id', '=', accountId);
  if (version !== undefined) query = query.where('version', '=', version);
  return query.orderBy('version', 'desc').limit(1).executeTakeFirst();
}

const TABLES = { bit: 'bits', flow: 'flows', reference: 'library_references' } as const;

/** Whether `seen` may see this bit, flow or reference (now: a resource keeps its account and scope). */
export async function resourceVisible(q: Q, type: keyof typeof TABLES, id: string, seen: Visibility): Promise<boolean> {
  const row = await q.selectFrom(TABLES[type]).select('id').where('id', '=', id).where(visibleTo(seen)).executeTakeFirst();
  return row !== undefined;
}

/** The flow version whose flow revision this is, if an approval made one. */
export async function flowVersionAt(q: Q, accountId: string, flowId: string, flowRevision: number): Promise<FlowVersionTable | undefined> {
  return q.selectFrom('flow_versions').selectAll().where('flow_id', '=', flowId).where('account_id', '=', accountId).where('flow_revision', '=', flowRevision).orderBy('version', 'desc').limit(1).executeTakeFirst();
}
