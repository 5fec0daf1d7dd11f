/**
 * Restoring an archived bit (authoring-interface.md, "States and transitions": available only through the
 * REST interface; CONTRACT.md, "REST"). The bit becomes active again with a later modification time; the
 * connections its archive cleared stay cleared (their rows and body nodes are gone, so there is nothing to revive).
 */
import { quote } from '../../quote.js';
import { WaymarkError } from '../../errors.js';
import { lockBit, updateBit } from '../../store/repositories/bits.repo.js';
import type { Store } from '../../store/store.js';
import { assertCanWriteIn, type Actor } from '../actor.js';
import { nextModified } from '../clock.js';
import { recordChange } from '../events/record.js';
import type { RestoredBit } from './shapes.js';

export class BitRestoreService {
  constructor(private readonly store: Store) {}

  async restore(actor: Actor, input: { bit_id: string }): Promise<RestoredBit> {
    return this.store.transaction(async (tx) => {
      const bit = await lockBit(tx, this.store.dialect, input.bit_id, actor);
      if (!bit) throw new WaymarkError('BIT_NOT_FOUND', `No bit ${quote(input.bit_id)} is visible to this token: list_bits (status "archived") shows the archived bits you can restore.`, { bit_id: quote(input.bit_id) });
      assertCanWriteIn(actor, bit.scope_id);
      if (bit.status === 'active') return { bit_id: bit.id, status: 'active', last_modified_date_time_utc: bit.updated_at, was_already_active: true };
      const updated = nextModified(bit.updated_at);
      await updateBit(tx, bit.id, { status: 'active', updated_at: updated });
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'bit', resourceId: bit.id, scopeId: bit.scope_id, summary: { status: 'active' } });
      return { bit_id: bit.id, status: 'active', last_modified_date_time_utc: updated, was_already_active: false };
    });
  }
}
