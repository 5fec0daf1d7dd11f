/**
 * Who took part in a trail, by name (issue 11: the history shows "who answered what"): the trail tools name
 * principals by id only. Only principals of the caller's own account are named; the trail's visibility is
 * get_trail's.
 */
import { findPrincipalsOf } from '../../store/repositories/auth.repo.js';
import type { Store } from '../../store/store.js';
import type { Actor } from '../actor.js';
import type { TrailsService } from './trails.service.js';
import type { TrailPeople } from './shapes.js';

export class TrailPeopleService {
  constructor(
    private readonly store: Store,
    private readonly trails: TrailsService,
  ) {}

  async list(actor: Actor, input: { trail_id: string }): Promise<TrailPeople> {
    // Names only: the step's body is not printed (the Slate reader leaves it in the snapshot).
    const view = (await this.trails.get(actor, input, 'slate')).trail;
    const ids = new Set<string>([view.started_by]);
    for (const step of view.history) {
      for (const id of [step.left_by, step.cancellation?.cancelled_by, ...step.transfers.map((t) => t.transferred_by), ...step.answers.map((a) => a.answered_by)]) {
        if (id) ids.add(id);
      }
    }
    const rows = await findPrincipalsOf(this.store.db, actor.accountId, [...ids]);
    return { people: rows.map((r) => ({ principal_id: r.id, name: r.name, kind: r.kind })) };
  }
}
