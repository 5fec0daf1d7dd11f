/**
 * Bits and connections written straight into the store, for tests of the reading and flow tools that
 * must not depend on the authoring tools. The shapes are content/slate.ts's: a body `{children}` whose
 * connections are `bit-connection` void nodes with the connection id, mirrored by `connections` rows.
 */
import { randomUUID } from 'node:crypto';
import type { ConnectionCondition } from '../src/content/slate.js';
import { nextModified, nowIso } from '../src/services/clock.js';
import type { Store } from '../src/store/store.js';

export interface TestBitOptions {
  accountId: string;
  title?: string;
  scopeId?: string | null;
  status?: 'active' | 'archived';
  categories?: string[];
  abstract?: string | null;
  description?: string | null;
  humanRequired?: boolean;
  /** Top-level blocks of the Slate body; default one paragraph with the title. */
  blocks?: unknown[];
}

/** Strictly increasing across fixtures, so list order (newest change first) is the order of insertion. */
let lastStamp: string | null = null;
function stamp(): string {
  lastStamp = nextModified(lastStamp);
  return lastStamp;
}

export async function insertTestBit(store: Store, options: TestBitOptions): Promise<string> {
  const id = randomUUID();
  const now = stamp();
  await store.db
    .insertInto('bits')
    .values({
      id,
      account_id: options.accountId,
      scope_id: options.scopeId ?? null,
      title: options.title ?? `Bit ${id.slice(0, 6)}`,
      abstract: options.abstract ?? null,
      description: options.description ?? null,
      body: store.dialect.json({ children: options.blocks ?? [{ type: 'p', children: [{ text: options.title ?? 'step' }] }] }),
      categories: store.dialect.json(options.categories ?? []),
      complexity: 'medium',
      human_required: options.humanRequired ? 1 : 0,
      status: options.status ?? 'active',
      created_by: 'test',
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

export async function setBitStatus(store: Store, bitId: string, status: 'active' | 'archived'): Promise<void> {
  const row = await store.db.selectFrom('bits').select('updated_at').where('id', '=', bitId).executeTakeFirstOrThrow();
  await store.db.updateTable('bits').set({ status, updated_at: stamp() > row.updated_at ? lastStamp! : nextModified(row.updated_at) }).where('id', '=', bitId).execute();
}

/** A connection as connect_bits makes it: a node appended to the source's body and its mirror row. */
export async function insertTestConnection(
  store: Store,
  source: string,
  target: string,
  options: { label?: string | null; when?: ConnectionCondition; preview?: false } = {},
): Promise<string> {
  const id = randomUUID();
  const bit = await store.db.selectFrom('bits').selectAll().where('id', '=', source).executeTakeFirstOrThrow();
  const body = store.dialect.parseJson<{ children: unknown[] }>(bit.body);
  const params: Record<string, unknown> = {};
  if (options.when) params.when = options.when;
  if (options.preview === false) params.preview = false;
  body.children.push({ type: 'bit-connection', id, target_bit_id: target, label: options.label ?? null, params, children: [{ text: '' }] });
  const count = await store.db.selectFrom('connections').select((eb) => eb.fn.countAll<number>().as('n')).where('source_bit_id', '=', source).executeTakeFirstOrThrow();
  await store.db
    .insertInto('connections')
    .values({ id, account_id: bit.account_id, source_bit_id: source, target_bit_id: target, sort_order: Number(count.n), created_at: nowIso() })
    .execute();
  await store.db.updateTable('bits').set({ body: store.dialect.json(body), updated_at: nextModified(bit.updated_at) }).where('id', '=', source).execute();
  return id;
}
