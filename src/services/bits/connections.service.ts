/**
 * connect_bits and remove_connection (authoring-interface.md, "Bit-to-bit connection", "connect_bits",
 * "remove_connection"). The body node and the mirror row change in one transaction, under the source
 * bit's row lock; sort_order stays dense (0..n-1 in body order), so the next append is always `count`.
 */
import { randomUUID } from 'node:crypto';
import { appendConnection, assertConnectionCount, collectConnections, removeConnections, type SlateBody } from '../../content/index.js';
import { WaymarkError } from '../../errors.js';
import { updateBit } from '../../store/repositories/bits.repo.js';
import { lockBitForWrite, readTargets } from '../../store/repositories/bits.repo.js';
import { appendConnectionRow, findConnection } from '../../store/repositories/connections.repo.js';
import type { Store } from '../../store/store.js';
import { assertCanWriteIn, type Actor } from '../actor.js';
import { notFound } from './bits.service.js';
import { nextModified, nowIso } from '../clock.js';
import { recordChange } from '../events/record.js';
import { checkTarget, syncConnectionRows } from './connection-rows.js';
import type { ConnectionResult } from './shapes.js';

export class ConnectionsService {
  constructor(private readonly store: Store) {}

  async connect(actor: Actor, input: { source_bit_id: string; target_bit_id: string; sort_order?: number }): Promise<ConnectionResult> {
    const { dialect } = this.store;
    return this.store.transaction(async (tx) => {
      const source = await lockBitForWrite(tx, dialect, input.source_bit_id, actor);
      if (!source) throw notFound(input.source_bit_id);
      assertCanWriteIn(actor, source.scope_id);
      if (source.status !== 'active') throw new WaymarkError('BIT_ARCHIVED', `Bit ${source.id} is archived; connect only active bits.`, { bit_id: source.id });
      // FOR KEY SHARE: a concurrent archive_bit of the target is waited for, or waits for us (readTargets).
      const [target] = await readTargets(tx, dialect, [input.target_bit_id], actor);
      checkTarget(source, target, input.target_bit_id);
      const id = randomUUID();
      const body = dialect.parseJson<SlateBody>(source.body);
      const inBody = collectConnections(body).length;
      // The row goes in at the row count; a refusal below rolls it back with the transaction.
      const count = await appendConnectionRow(tx, { id, account_id: source.account_id, source_bit_id: source.id, target_bit_id: input.target_bit_id, created_at: nowIso() });
      assertConnectionCount(count + 1);
      if (input.sort_order !== undefined && input.sort_order !== count) {
        throw new WaymarkError('SORT_ORDER_CONFLICT', `sort_order must be ${count}, the source's next position (connections are appended); omit it to get that position.`, {
          expected_sort_order: count,
        });
      }
      appendConnection(body, { id, target_bit_id: input.target_bit_id });
      // Body nodes and rows always agree, so the new node is last in both. Should they ever not, the rows are
      // rewritten from the body, which is what readers follow.
      if (inBody !== count) await syncConnectionRows(tx, dialect, actor, source, body, { created: new Set([id]) });
      const updated = nextModified(source.updated_at);
      await updateBit(tx, source.id, { body: dialect.json(body), updated_at: updated });
      await recordChange(tx, dialect, actor, { resourceType: 'bit', resourceId: source.id, scopeId: source.scope_id, summary: { connection_id: id, target_bit_id: input.target_bit_id } });
      return { connection_id: id, source_bit_id: source.id, source_bit_last_modified_date_time_utc: updated, target_bit_id: input.target_bit_id };
    });
  }

  async remove(actor: Actor, input: { connection_id: string }): Promise<ConnectionResult> {
    const missing = () => new WaymarkError('CONNECTION_NOT_FOUND', `No connection ${input.connection_id}: it does not exist or was already removed (get_bit lists a bit's connections).`, { connection_id: input.connection_id });
    return this.store.transaction(async (tx) => {
      const row = await findConnection(tx, input.connection_id);
      if (!row) throw missing();
      const source = await lockBitForWrite(tx, this.store.dialect, row.source_bit_id, actor);
      if (!source) throw missing();
      assertCanWriteIn(actor, source.scope_id);
      // Read again under the lock: a concurrent remove may have taken it meanwhile.
      if (!(await findConnection(tx, input.connection_id))) throw missing();
      const body = this.store.dialect.parseJson<SlateBody>(source.body);
      removeConnections(body, (c) => c.id === input.connection_id);
      await syncConnectionRows(tx, this.store.dialect, actor, source, body);
      const updated = nextModified(source.updated_at);
      await updateBit(tx, source.id, { body: this.store.dialect.json(body), updated_at: updated });
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'bit', resourceId: source.id, scopeId: source.scope_id, summary: { connection_id: row.id, target_bit_id: row.target_bit_id } });
      return { connection_id: row.id, source_bit_id: source.id, source_bit_last_modified_date_time_utc: updated, target_bit_id: row.target_bit_id };
    });
  }
}
