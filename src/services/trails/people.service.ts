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
import { answeredByItems } from '../../content/index.js';
import { stepSnapshot, stepsOf } from '../../store/repositories/trails.repo.js';
import { stepElements, storedSnapshot, type BitSnapshot } from './step.js';

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const labelOf = (config: Record<string, unknown>) => text(config.label) ?? text(config.custom_title) ?? text(config.altText);
/** An item's words: a check-list's and a radio-button's `text`, a dropdown's `name`, else its value. */
const itemText = (item: Record<string, unknown>) => text(item.text) ?? text(item.name) ?? text(item.value) ?? String(item.id);

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
    return { people: rows.map((r) => ({ principal_id: r.id, name: r.name, kind: r.kind })), elements: await this.elementsOf(view.trail_id) };
  }

  /** The elements of every step the trail entered, by id, from the snapshots it kept (each read once). */
  private async elementsOf(trailId: string): Promise<TrailPeople['elements']> {
    const elements: TrailPeople['elements'] = {};
    const read = new Set<string>();
    for (const step of await stepsOf(this.store.db, trailId)) {
      const holder = step.snapshot_step_id ?? step.id;
      if (read.has(holder)) continue;
      read.add(holder);
      const snapshot = storedSnapshot(this.store.dialect.parseJson<BitSnapshot>(await stepSnapshot(this.store.db, step)));
      for (const element of stepElements(snapshot.body)) {
        const label = labelOf(element.config);
        const texts = Object.fromEntries((element.items ?? []).map((item) => [item.id, itemText(item)]));
        if (answeredByItems(element.type)) {
          for (const [id, text] of Object.entries(texts)) elements[id] = { label: text, type: `${element.type}-item`, list: label };
        } else elements[element.element_id] = { label, type: element.type, ...(element.items ? { options: texts } : {}) };
      }
    }
    return elements;
  }
}
