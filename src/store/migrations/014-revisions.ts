import { deflateSync } from 'node:zlib';
import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationTarget } from './engine.js';

/**
 * Revisions (issue 26): every accepted change of a bit, flow or reference keeps the resource's state after it as
 * revision n, n being the revision its event carries. A revision is stored `full` (the whole state, deflated) or
 * as a `delta` against the revision before it (the top-level nodes it copies and the ones it adds, deflated), so
 * the history grows with the change, not with the body; `chain_bytes` is what a reader of this revision reads
 * from the last full one, which keeps that bounded. No foreign keys: a revision outlives what it names.
 *
 * A flow version is the flow's revision at an approval, with its graph and the revision of every bit in it.
 * A trail may run an approved version (`flow_version`), and each step records the bit revision it ran.
 *
 * The stores that exist already keep their resources' present state as their first revision: numbered as their
 * latest event numbers them, or 0 for what has had no event since events began (013).
 */
export function revisions(target: MigrationTarget): Migration {
  const bytes = target.engine === 'postgres' ? 'bytea' : 'blob';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('revisions')
        .addColumn('resource_id', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('resource_type', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('data', bytes, (c) => c.notNull())
        .addColumn('chain_bytes', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('revisions_pk', ['resource_id', 'revision'])
        .execute();
      await db.schema
        .createTable('flow_versions')
        .addColumn('flow_id', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('flow_revision', 'integer', (c) => c.notNull())
        .addColumn('graph', 'text', (c) => c.notNull())
        .addColumn('approved_by', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('flow_versions_pk', ['flow_id', 'version'])
        .execute();
      await db.schema.alterTable('trails').addColumn('flow_version', 'integer').execute();
      await db.schema.alterTable('trail_steps').addColumn('bit_revision', 'integer').execute();
      await baseline(db, target);
    },
  };
}

const parse = (raw: unknown): unknown => (typeof raw === 'string' ? JSON.parse(raw) : raw);

/**
 * A row's columns as a revision keeps them: all but its ids, its body and what is derived from it; JSON columns
 * parsed, flags as 0 or 1 (the row as the live code maps it to its view).
 */
function fieldsOf(row: Record<string, unknown>, body: string[], json: string[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key === 'id' || key === 'account_id' || body.includes(key)) continue;
    fields[key] = json.includes(key) && value !== null ? parse(value) : typeof value === 'bigint' ? Number(value) : value;
  }
  return fields;
}

/** The format 1 full revision as this migration writes it: `{v: 1, fields, nodes}` as JSON, deflated. */
function full(fields: Record<string, unknown>, nodes: unknown[]): Buffer {
  return deflateSync(Buffer.from(JSON.stringify({ v: 1, fields, nodes })));
}

async function baseline(untyped: Kysely<unknown>, target: MigrationTarget): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads the tables as they are here
  const db = untyped as Kysely<any>;
  const latest = async (type: string, id: string, accountId: string): Promise<number> => {
    const row = await db
      .selectFrom('events')
      .select('revision')
      .where('account_id', '=', accountId)
      .where('resource_type', '=', type)
      .where('resource_id', '=', id)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? Number(row.revision) : 0;
  };
  const now = new Date().toISOString();
  const keep = async (type: string, id: string, accountId: string, fields: Record<string, unknown>, nodes: unknown[]) => {
    const data = full(fields, nodes);
    await db
      .insertInto('revisions')
      .values({ resource_id: id, revision: await latest(type, id, accountId), resource_type: type, account_id: accountId, created_at: now, kind: 'full', data, chain_bytes: data.length })
      .execute();
  };
  for (const bit of await db.selectFrom('bits').selectAll().orderBy('id').execute()) {
    const links = await db
      .selectFrom('bit_reference_links as l')
      .innerJoin('library_references as r', 'r.id', 'l.reference_id')
      .select(['l.id', 'l.reference_id', 'l.display_label', 'l.position', 'r.title'])
      .where('l.bit_id', '=', bit.id)
      .orderBy('l.position')
      .orderBy('l.id')
      .execute();
    const references = links.map((r) => ({ bit_reference_id: r.id, reference_id: r.reference_id, display_label: r.display_label, label: r.display_label ?? r.title, position: Number(r.position) }));
    const body = parse(bit.body) as { children?: unknown[] };
    await keep('bit', bit.id, bit.account_id, { ...fieldsOf(bit, ['body'], ['categories']), references }, body.children ?? []);
  }
  for (const flow of await db.selectFrom('flows').selectAll().orderBy('id').execute()) {
    await keep('flow', flow.id, flow.account_id, fieldsOf(flow, [], ['categories', 'trail_context_schema']), []);
  }
  for (const ref of await db.selectFrom('library_references').selectAll().orderBy('id').execute()) {
    await keep('reference', ref.id, ref.account_id, fieldsOf(ref, ['content', 'search_text', 'snippet_text', 'search_vector'], ['categories']), parse(ref.content) as unknown[]);
  }
  if (target.engine === 'postgres') await sql`analyze revisions`.execute(db);
}
