/**
 * connect_bits and remove_connection (authoring-interface.md, "Bit-to-bit connection", "connect_bits",
 * "remove_connection"). The body node and the mirror row change in one transaction, under the source
 * bit's row lock; sort_order stays dense (0..n-1 in body order), so the next append is always `count`.
 */
import { randomUUID } from 'node:crypto';
import { appendConnection, removeConnections, type SlateBody } from '../content/index.js';
import { LIMITS } from '../content/limits.js';
import { WaymarkError } from '../errors.js';
import { findBit, updateBit } from '../store/repositories/bits.repo.js';
import { countOutgoing, findConnection, lockBitForWrite } from '../store/repositories/connections.repo.js';
import type { Store } from '../store/store.js';
import { assertCanWriteIn, canSee, type Actor } from './actor.js';
import { notFound } from './bits.service.js';
import { nextModified } from './clock.js';
import { checkTarget, syncConnectionRows } from './connection-rows.js';

export interface ConnectionResult {
  connection_id: string;
  source_bit_id: string;
  source_bit_last_modified_date_time_utc: string;
  target_bit_id: string;
}

export class ConnectionsService {
  constructor(private readonly store: Store) {}

  async connect(actor: Actor, input: { source_bit_id: string; target_bit_id: string; sort_order?: number }): Promise<ConnectionResult> {
    return this.store.transaction(async (tx) => {
      // Only the source is locked. The target is checked here and again after the row is in
      // (syncConnectionRows), which is what keeps a concurrent archive_bit of the target from being missed.
      const source = await lockBitForWrite(tx, this.store.dialect, input.source_bit_id);
      if (!source || !canSee(actor, source)) throw notFound(input.source_bit_id);
      assertCanWriteIn(actor, source.scope_id);
      if (source.status !== 'active') throw new WaymarkError('BIT_ARCHIVED', `Bit ${source.id} is archived; connect only active bits.`, { bit_id: source.id });
      checkTarget(actor, source, await findBit(tx, input.target_bit_id), input.target_bit_id);
      const count = await countOutgoing(tx, source.id);
      if (count >= LIMITS.outgoingConnections) {
        throw new WaymarkError('CONNECTION_LIMIT_EXCEEDED', `Bit ${source.id} already has ${count} outgoing connections, the most a bit may have; remove one first (remove_connection).`, {
          max: LIMITS.outgoingConnections,
        });
      }
      if (input.sort_order !== undefined && input.sort_order !== count) {
        throw new WaymarkError('SORT_ORDER_CONFLICT', `sort_order must be ${count}, the source's next position (connections are appended); omit it to get that position.`, {
          expected_sort_order: count,
        });
      }
      const id = randomUUID();
      const body = this.store.dialect.parseJson<SlateBody>(source.body);
      appendConnection(body, { id, target_bit_id: input.target_bit_id });
      await syncConnectionRows(tx, actor, source, body, { created: new Set([id]) });
      const updated = nextModified(source.updated_at);
      await updateBit(tx, source.id, { body: this.store.dialect.json(body), updated_at: updated });
      return { connection_id: id, source_bit_id: source.id, source_bit_last_modified_date_time_utc: updated, target_bit_id: input.target_bit_id };
    });
  }

  async remove(actor: Actor, input: { connection_id: string }): Promise<ConnectionResult> {
    const missing = () => new WaymarkError('CONNECTION_NOT_FOUND', `No connection ${input.connection_id}: it does not exist or was already removed (get_bit lists a bit's connections).`, { connection_id: input.connection_id });
    return this.store.transaction(async (tx) => {
      const row = await findConnection(tx, input.connection_id);
      if (!row) throw missing();
      const source = await lockBitForWrite(tx, this.store.dialect, row.source_bit_id);
      if (!source || !canSee(actor, source)) throw missing();
      assertCanWriteIn(actor, source.scope_id);
      // Read again under the lock: a concurrent remove may have taken it meanwhile.
      if (!(await findConnection(tx, input.connection_id))) throw missing();
      const body = this.store.dialect.parseJson<SlateBody>(source.body);
      removeConnections(body, (c) => c.id === input.connection_id);
      await syncConnectionRows(tx, actor, source, body);
      const updated = nextModified(source.updated_at);
      await updateBit(tx, source.id, { body: this.store.dialect.json(body), updated_at: updated });
      return { connection_id: row.id, source_bit_id: source.id, source_bit_last_modified_date_time_utc: updated, target_bit_id: row.target_bit_id };
    });
  }
}
