/**
 * Keeping a source bit's mirror rows equal to the connection nodes of its body (authoring-interface.md,
 * "Bit-to-bit connection": stored twice, changed atomically). Runs inside the caller's transaction, which
 * holds the source bit's row lock.
 */
import { randomUUID } from 'node:crypto';
import { assertConnectionCount, checkNamedConnection, collectConnections, removeConnections, type SlateBody } from '../../content/index.js';
import { WaymarkError } from '../../errors.js';
import type { StoreDialect } from '../../store/dialects/dialect.js';
import { lockBit, lockBitForWrite, readTargets, updateBit } from '../../store/repositories/bits.repo.js';
import { incomingSources, outgoing, writeOutgoing, type MirrorRow } from '../../store/repositories/connections.repo.js';
import type { Tx } from '../../store/store.js';
import type { Actor } from '../actor.js';
import { nextModified, nowIso } from '../clock.js';

interface Source {
  id: string;
  account_id: string;
  scope_id: string | null;
}

type TargetRow = { id: string; account_id: string; scope_id: string | null; status: string };

/** A connection's target, read as the caller may see it (readTargets): found, active, and in the source's scope (connect_bits rules). */
export function checkTarget(source: Source, target: TargetRow | undefined, targetId: string): void {
  if (!target) throw new WaymarkError('BIT_NOT_FOUND', `No bit ${targetId} is visible to this token: check the target id (list_bits lists the bits you can connect to).`, { bit_id: targetId });
  if (target.status !== 'active') throw new WaymarkError('BIT_ARCHIVED', `Bit ${targetId} is archived; connect only active bits.`, { bit_id: targetId });
  if (target.scope_id !== source.scope_id) {
    throw new WaymarkError('SCOPE_MISMATCH', `Bit ${targetId} is in scope ${target.scope_id ?? 'account level'} but the source is in ${source.scope_id ?? 'account level'}; both ends of a connection share a scope.`, {
      source_scope_id: source.scope_id,
      target_scope_id: target.scope_id,
    });
  }
}

export interface SyncOptions {
  /** Ids of connection nodes the caller has just added itself, after checking their targets (connect_bits). */
  created?: ReadonlySet<string>;
  /** The source's rows as the caller has just read them under the source's lock (saves reading them again). */
  stored?: MirrorRow[];
}

/**
 * Gives every new connection node (id null) an id after checking its target (read FOR KEY SHARE: see
 * readTargets, which is what keeps a concurrent archive_bit of it from being missed), then writes the mirror rows
 * in body order. A node naming an id that is not one of this bit's stored connections is refused, as a
 * markdown `node=` is (a Slate body could otherwise carry another bit's connection id, or a made-up one
 * that would skip the target checks), and so is a stored connection whose target changed.
 * Answers the ids of the rows that no longer have a node.
 */
export async function syncConnectionRows(tx: Tx, dialect: StoreDialect, actor: Actor, source: Source, body: SlateBody, options: SyncOptions = {}): Promise<string[]> {
  const nodes = collectConnections(body);
  const fresh = new Set<string>();
  for (const node of nodes) {
    if (node.id !== null) continue;
    node.id = randomUUID();
    fresh.add(node.id);
  }
  return syncConnectionList(tx, dialect, actor, source, nodes as BodyConnection[], fresh, options);
}

/** A connection node of a body as the mirror rows need it: every node has its id (new ones were given one). */
export interface BodyConnection {
  id: string;
  target_bit_id: string;
}

/**
 * syncConnectionRows for a body that is not at hand as nodes (a converted body kept as its JSON text,
 * bits/body.ts prepareBody): its connections in body order, those in `fresh` given their ids by the conversion.
 */
export async function syncConnectionList(
  tx: Tx,
  dialect: StoreDialect,
  actor: Actor,
  source: Source,
  nodes: readonly BodyConnection[],
  fresh: ReadonlySet<string>,
  options: SyncOptions = {},
): Promise<string[]> {
  assertConnectionCount(nodes.length);
  const stored = options.stored ?? (await outgoing(tx, source.id));
  const byId = new Map(stored.map((r) => [r.id, r]));
  const added = nodes.filter((n) => fresh.has(n.id));
  for (const node of nodes) {
    // The connection rules of the body's input, against the rows (a node the caller has just added has none yet).
    if (!fresh.has(node.id) && !options.created?.has(node.id)) checkNamedConnection(node, byId.get(node.id));
  }
  if (added.length > 0) {
    const targets = new Map((await readTargets(tx, dialect, [...new Set(added.map((n) => n.target_bit_id))], actor)).map((b) => [b.id, b]));
    for (const node of added) checkTarget(source, targets.get(node.target_bit_id), node.target_bit_id);
  }
  const wanted = nodes.map((n) => ({ id: n.id, target_bit_id: n.target_bit_id }));
  await writeOutgoing(tx, source.account_id, source.id, stored, wanted, nowIso());
  const kept = new Set(wanted.map((c) => c.id));
  return stored.filter((r) => !kept.has(r.id)).map((r) => r.id);
}

/**
 * Archives of one account queue on the account's row (FOR NO KEY UPDATE: connects, whose foreign-key check
 * takes KEY SHARE on it, still pass). An archive is the only write that holds more than one bit, so two
 * archives of bits that point at each other would otherwise each hold its own bit and wait for the other's.
 * Taken before the archived bit is locked.
 */
export async function queueArchive(tx: Tx, dialect: StoreDialect, accountId: string): Promise<void> {
  await dialect.forNoKeyUpdate(tx.selectFrom('accounts').select('id').where('id', '=', accountId)).executeTakeFirst();
}

/**
 * archive_bit's cascade over incoming connections (authoring-interface.md, "States and transitions"): every
 * source that points at the bit loses those lines and rows, and its last_modified advances. The caller holds
 * the bit with lockBitForWrite, after queueArchive. Sources are locked in the order read; then the bit itself
 * FOR UPDATE, which waits for the connects that have read it as a target (FOR KEY SHARE, readTargets) and not
 * yet committed, and makes later ones wait for our commit and then read it archived. The incoming rows are
 * read once more after that, for the connects that committed in between. The strong lock comes last: taken
 * first, it could wait for a connect that itself waits for a source we hold.
 */
export async function clearIncoming(tx: Tx, dialect: StoreDialect, actor: Actor, bitId: string): Promise<void> {
  const clear = async () => {
    for (const sourceId of await incomingSources(tx, bitId)) {
      if (sourceId === bitId) continue;
      const source = await lockBitForWrite(tx, dialect, sourceId);
      if (!source) continue;
      const body = dialect.parseJson<SlateBody>(source.body);
      removeConnections(body, (c) => c.target_bit_id === bitId);
      await syncConnectionRows(tx, dialect, actor, source, body);
      await updateBit(tx, source.id, { body: dialect.json(body), updated_at: nextModified(source.updated_at) });
    }
  };
  await clear();
  await lockBit(tx, dialect, bitId);
  await clear();
}
