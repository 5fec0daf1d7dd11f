/**
 * The fault load's writes on flows, references, reference links and trails: create_flow, update_flow,
 * create_reference, update_reference, link_reference, update_bit_reference_link, unlink_reference,
 * start_trail, submit_step_data; each also in a form that must be refused.
 */
import { randomUUID } from 'node:crypto';
import type { FlowModel, ReferenceModel, TrailModel } from './model.js';
import type { Worker } from './worker.js';

const PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
const CUSTOMER_SCHEMA = { type: 'object', properties: { customer: { type: 'string' } }, required: ['customer'] };

interface FlowWritten extends Record<string, unknown> {
  flow_id: string;
  last_modified_date_time_utc: string;
}
interface ReferenceWritten extends Record<string, unknown> {
  reference_id: string;
  last_modified_date_time_utc: string;
}
interface LinkWritten extends Record<string, unknown> {
  bit_reference_id: string;
}
interface TrailWritten extends Record<string, unknown> {
  trail_id: string;
  current_step: { elements: Array<{ element_id: string; type: string; items?: Array<{ id: string }> }> } | null;
}

export async function createFlow(w: Worker): Promise<boolean> {
  const bits = w.activeBits();
  if (bits.length === 0) return false;
  const start = w.rnd.pick(bits);
  const m = w.marker();
  const title = `flow ${m}`;
  const needsCustomer = w.rnd.chance(0.3);
  const description = w.rnd.chance(0.5) ? `about ${m}` : null;
  const categories = [`area-${w.rnd.int(4)}`];
  const priority = w.rnd.pick(PRIORITIES);
  const args = {
    flow_title: title,
    start_bit_id: start.id,
    flow_categories: categories,
    priority,
    ...(description ? { flow_description: description } : {}),
    ...(needsCustomer ? { trail_context_schema: CUSTOMER_SCHEMA } : {}),
  };
  const make = (id: string, updatedAt: string): FlowModel => ({ id, owner: w.index, title, description, priority, categories, startBitId: start.id, active: true, needsCustomer, updatedAt });
  await w.write<FlowWritten>('create_flow', args, {
    marker: title,
    event: { type: 'flow', id: (d) => d.flow_id },
    ack: (d) => w.model.flows.set(d.flow_id, make(d.flow_id, d.last_modified_date_time_utc)),
    resolve: (s) => {
      const rows = [...s.flows.values()].filter((f) => f.title === title);
      if (rows.length === 0) return 'absent';
      if (rows.length > 1) return { violation: `create_flow ${m} stored ${rows.length} flows` };
      w.model.flows.set(rows[0].id, make(rows[0].id, rows[0].updated_at));
      return 'applied';
    },
  });
  return true;
}

export async function updateFlow(w: Worker): Promise<boolean> {
  const flows = w.model.flowsOf(w.index);
  if (flows.length === 0) return false;
  const flow = w.rnd.pick(flows);
  const m = w.marker();
  const title = `flow ${m}`;
  const deactivate = flow.active && w.rnd.chance(0.2);
  const bits = w.activeBits();
  const start = bits.length > 0 && w.rnd.chance(0.25) ? w.rnd.pick(bits) : null;
  const priority = w.rnd.chance(0.4) ? w.rnd.pick(PRIORITIES) : undefined;
  const description = w.rnd.chance(0.3) ? (w.rnd.chance(0.5) ? '' : `about ${m}`) : undefined;
  const categories = w.rnd.chance(0.3) ? [`area-${w.rnd.int(4)}`, 'revised'] : undefined;
  const args = {
    flow_id: flow.id,
    flow_title: title,
    last_modified_date_time_utc: 'ignored',
    ...(priority ? { priority } : {}),
    ...(description !== undefined ? { flow_description: description } : {}),
    ...(categories ? { flow_categories: categories } : {}),
    ...(deactivate ? { is_active: false } : {}),
    ...(start ? { start_bit_id: start.id } : {}),
  };
  const apply = (updatedAt: string) => {
    flow.title = title;
    if (priority) flow.priority = priority;
    if (description !== undefined) flow.description = description === '' ? null : description;
    if (categories) flow.categories = categories;
    if (deactivate) flow.active = false;
    if (start) flow.startBitId = start.id;
    flow.updatedAt = updatedAt;
  };
  await w.write<FlowWritten>('update_flow', args, {
    marker: title,
    event: { type: 'flow', id: flow.id },
    ack: (d) => apply(d.last_modified_date_time_utc),
    resolve: (s) => {
      const row = s.flows.get(flow.id);
      if (!row) return { violation: `flow ${flow.id} is gone` };
      if (row.title !== title) return 'absent';
      apply(row.updated_at);
      return 'applied';
    },
  });
  return true;
}

/** create_flow on an archived start bit, update_flow re-activating a flow never approved or repointing it to an archived bit. */
export async function flowRefused(w: Worker): Promise<boolean> {
  const archived = w.archivedBits();
  const flows = w.model.flowsOf(w.index);
  const inactive = flows.filter((f) => !f.active);
  const m = w.marker();
  const title = `flow ${m}`;
  const choice = w.rnd.int(3);
  if (choice === 0 && archived.length > 0) {
    await w.write('create_flow', { flow_title: title, start_bit_id: w.rnd.pick(archived).id }, { refuse: 'FLOW_START_BIT_INVALID', marker: title });
  } else if (choice === 1 && inactive.length > 0) {
    await w.write('update_flow', { flow_id: w.rnd.pick(inactive).id, flow_title: title, is_active: true }, { refuse: 'FLOW_ACTIVATION_REFUSED', marker: title });
  } else if (flows.length > 0 && archived.length > 0) {
    await w.write('update_flow', { flow_id: w.rnd.pick(flows).id, flow_title: title, start_bit_id: w.rnd.pick(archived).id }, { refuse: 'FLOW_START_BIT_INVALID', marker: title });
  } else {
    return false;
  }
  return true;
}

export async function createReference(w: Worker): Promise<boolean> {
  const m = w.marker();
  const title = `ref ${m}`;
  const categories = [`kind-${w.rnd.int(3)}`];
  const args = {
    reference_title: title,
    reference_content: [{ type: 'p', children: [{ text: `Reference ${m}: how the work is done, ` }, { text: 'carefully', bold: true }, { text: '.' }] }],
    reference_categories: categories,
    ...(w.rnd.chance(0.3) ? { reference_abstract: `summary ${m}` } : {}),
  };
  const make = (id: string, updatedAt: string): ReferenceModel => ({ id, owner: w.index, title, categories, active: true, updatedAt });
  await w.write<ReferenceWritten>('create_reference', args, {
    marker: title,
    event: { type: 'reference', id: (d) => d.reference_id },
    ack: (d) => w.model.references.set(d.reference_id, make(d.reference_id, d.last_modified_date_time_utc)),
    resolve: (s) => {
      const rows = [...s.references.values()].filter((r) => r.title === title);
      if (rows.length === 0) return 'absent';
      if (rows.length > 1) return { violation: `create_reference ${m} stored ${rows.length} references` };
      w.model.references.set(rows[0].id, make(rows[0].id, rows[0].updated_at));
      return 'applied';
    },
  });
  return true;
}

export async function updateReference(w: Worker): Promise<boolean> {
  const refs = w.model.referencesOf(w.index).filter((r) => r.active);
  if (refs.length === 0) return false;
  const ref = w.rnd.pick(refs);
  const m = w.marker();
  const title = `ref ${m}`;
  const archive = !w.model.referenceLinked(ref.id) && w.rnd.chance(0.2);
  const categories = w.rnd.chance(0.4) ? [`kind-${w.rnd.int(3)}`, 'reviewed'] : undefined;
  const args = { reference_id: ref.id, reference_title: title, ...(categories ? { reference_categories: categories } : {}), ...(archive ? { is_active: false } : {}) };
  const apply = (updatedAt: string) => {
    ref.title = title;
    if (categories) ref.categories = categories;
    if (archive) ref.active = false;
    ref.updatedAt = updatedAt;
  };
  await w.write<ReferenceWritten>('update_reference', args, {
    marker: title,
    event: { type: 'reference', id: ref.id },
    ack: (d) => apply(d.last_modified_date_time_utc),
    resolve: (s) => {
      const row = s.references.get(ref.id);
      if (!row) return { violation: `reference ${ref.id} is gone` };
      if (row.title !== title) return 'absent';
      apply(row.updated_at);
      return 'applied';
    },
  });
  return true;
}

/** An interactive element in reference content; archiving a linked reference. */
export async function referenceRefused(w: Worker): Promise<boolean> {
  const m = w.marker();
  const title = `ref ${m}`;
  const linked = w.model.referencesOf(w.index).filter((r) => r.active && w.model.referenceLinked(r.id));
  if (linked.length > 0 && w.rnd.chance(0.5)) {
    await w.write('update_reference', { reference_id: w.rnd.pick(linked).id, reference_title: title, is_active: false }, { refuse: 'REFERENCE_IN_USE', marker: title });
    return true;
  }
  const content = [
    { type: 'p', children: [{ text: `Reference ${m}` }] },
    { type: 'text-area', id: randomUUID(), props: {}, children: [{ text: '' }] },
  ];
  await w.write('create_reference', { reference_title: title, reference_content: content }, { refuse: 'INTERACTIVE_ELEMENT_NOT_ALLOWED', marker: title });
  return true;
}

export async function linkReference(w: Worker): Promise<boolean> {
  const refs = w.model.referencesOf(w.index).filter((r) => r.active);
  const bits = w.activeBits().filter((b) => refs.some((r) => !b.links.some((l) => l.referenceId === r.id)));
  if (bits.length === 0) return false;
  const bit = w.rnd.pick(bits);
  const ref = w.rnd.pick(refs.filter((r) => !bit.links.some((l) => l.referenceId === r.id)));
  const m = w.marker();
  const position = w.rnd.chance(0.4) ? w.rnd.int(bit.links.length + 1) : undefined;
  const label = w.rnd.chance(0.5) ? `label ${m}` : undefined;
  const args = { bit_id: bit.id, reference_id: ref.id, ...(label ? { display_label: label } : {}), ...(position !== undefined ? { position } : {}) };
  const apply = (id: string | null) => bit.links.splice(position ?? bit.links.length, 0, { id, referenceId: ref.id, label: label ?? null });
  // A link is its bit's change: its event names the bit.
  await w.write<LinkWritten>('link_reference', args, {
    event: { type: 'bit', id: bit.id },
    ack: (d) => apply(d.bit_reference_id),
    resolve: (s) => {
      const row = s.links.find((l) => l.bit_id === bit.id && l.reference_id === ref.id);
      if (!row) return 'absent';
      apply(row.id);
      return 'applied';
    },
  });
  return true;
}

export async function updateLink(w: Worker): Promise<boolean> {
  const bits = w.activeBits().filter((b) => b.links.length > 0);
  if (bits.length === 0) return false;
  const bit = w.rnd.pick(bits);
  const link = w.rnd.pick(bit.links);
  const position = w.rnd.int(bit.links.length);
  const label = `label ${w.marker()}`;
  const apply = () => {
    bit.links = bit.links.filter((l) => l !== link);
    bit.links.splice(position, 0, link);
    link.label = label;
  };
  // The label is new each time, so the link always changes and records an event.
  await w.write('update_bit_reference_link', { bit_id: bit.id, reference_id: link.referenceId, display_label: label, position }, {
    event: { type: 'bit', id: bit.id },
    ack: apply,
    resolve: (s) => {
      const row = s.links.find((l) => l.bit_id === bit.id && l.reference_id === link.referenceId);
      if (!row) return { violation: `link ${bit.id} → ${link.referenceId} is gone` };
      if (row.display_label !== label) return 'absent';
      apply();
      return 'applied';
    },
  });
  return true;
}

export async function unlinkReference(w: Worker): Promise<boolean> {
  const bits = w.ownBits().filter((b) => b.links.length > 0);
  if (bits.length === 0) return false;
  const bit = w.rnd.pick(bits);
  const link = w.rnd.pick(bit.links);
  const apply = () => {
    bit.links = bit.links.filter((l) => l !== link);
  };
  await w.write('unlink_reference', { bit_id: bit.id, reference_id: link.referenceId }, {
    event: { type: 'bit', id: bit.id },
    ack: apply,
    resolve: (s) => {
      if (s.links.some((l) => l.bit_id === bit.id && l.reference_id === link.referenceId)) return 'absent';
      apply();
      return 'applied';
    },
  });
  return true;
}

/** A duplicate link; a link to an archived reference; unlinking a pair that is not linked. */
export async function linkRefused(w: Worker): Promise<boolean> {
  const refs = w.model.referencesOf(w.index);
  const withLinks = w.activeBits().filter((b) => b.links.length > 0);
  const archivedRefs = refs.filter((r) => !r.active);
  const active = w.activeBits();
  const choice = w.rnd.int(3);
  if (choice === 0 && withLinks.length > 0) {
    const bit = w.rnd.pick(withLinks);
    await w.write('link_reference', { bit_id: bit.id, reference_id: w.rnd.pick(bit.links).referenceId, display_label: 'again' }, { refuse: 'DUPLICATE_REFERENCE_LINK' });
  } else if (choice === 1 && archivedRefs.length > 0 && active.length > 0) {
    await w.write('link_reference', { bit_id: w.rnd.pick(active).id, reference_id: w.rnd.pick(archivedRefs).id }, { refuse: 'REFERENCE_ARCHIVED' });
  } else {
    const pairs = active.flatMap((b) => refs.filter((r) => !b.links.some((l) => l.referenceId === r.id)).map((r) => [b, r] as const));
    if (pairs.length === 0) return false;
    const [bit, ref] = w.rnd.pick(pairs);
    await w.write('unlink_reference', { bit_id: bit.id, reference_id: ref.id }, { refuse: 'BIT_REFERENCE_LINK_NOT_FOUND' });
  }
  return true;
}

export async function startTrail(w: Worker): Promise<boolean> {
  const flows = w.model.flowsOf(w.index).filter((f) => f.active);
  if (flows.length === 0) return false;
  const flow = w.rnd.pick(flows);
  const m = w.marker();
  const title = `trail ${m}`;
  const args = { flow_id: flow.id, trail_title: title, ...(flow.needsCustomer ? { trail_context: { customer: `customer ${m}` } } : {}) };
  const make = (id: string, notesId: string | null, itemId: string | null): TrailModel => ({ id, owner: w.index, flowId: flow.id, title, notesId, itemId, answers: [] });
  await w.write<TrailWritten>('start_trail', args, {
    marker: title,
    event: { type: 'trail', id: (d) => d.trail_id },
    ack: (d) => {
      const elements = d.current_step?.elements ?? [];
      const notes = elements.find((e) => e.type === 'text-area');
      const list = elements.find((e) => e.type === 'check-list');
      w.model.trails.set(d.trail_id, make(d.trail_id, notes?.element_id ?? null, list?.items?.[0]?.id ?? null));
    },
    resolve: (s) => {
      const rows = [...s.trails.values()].filter((t) => t.title === title);
      if (rows.length === 0) return 'absent';
      if (rows.length > 1) return { violation: `start_trail ${m} stored ${rows.length} trails` };
      // The step's elements are the start bit's at that moment; no other client edits this client's bits.
      const start = w.model.bits.get(flow.startBitId);
      w.model.trails.set(rows[0].id, make(rows[0].id, start?.elements[0]?.id ?? null, start?.elements[1]?.items[0]?.id ?? null));
      return 'applied';
    },
  });
  return true;
}

export async function submitStepData(w: Worker): Promise<boolean> {
  const trails = w.model.trailsOf(w.index).filter((t) => t.notesId !== null);
  if (trails.length === 0) return false;
  const trail = w.rnd.pick(trails);
  const value = `answer ${w.marker()}`;
  const data: Array<{ element_id: string; element_type: string; value: { value: unknown } }> = [{ element_id: trail.notesId as string, element_type: 'TextArea', value: { value } }];
  if (trail.itemId && w.rnd.chance(0.3)) data.push({ element_id: trail.itemId, element_type: 'CheckListItem', value: { value: w.rnd.chance(0.5) } });
  const apply = () => {
    for (const d of data) trail.answers.push({ elementId: d.element_id, value: d.value.value });
  };
  await w.write('submit_step_data', { trail_id: trail.id, data }, {
    marker: value,
    event: { type: 'trail', id: trail.id },
    ack: apply,
    resolve: (s) => {
      if (!s.answers.some((a) => a.trail_id === trail.id && a.value === value)) return 'absent';
      apply();
      return 'applied';
    },
  });
  return true;
}

/** An answer over the text-area's maxLength; a good answer beside an unknown element (nothing of the call is stored); an inactive flow. */
export async function trailRefused(w: Worker): Promise<boolean> {
  const trails = w.model.trailsOf(w.index).filter((t) => t.notesId !== null);
  const inactive = w.model.flowsOf(w.index).filter((f) => !f.active);
  const marker = `answer ${w.marker()}`;
  const choice = w.rnd.int(3);
  if (choice === 0 && inactive.length > 0) {
    await w.write('start_trail', { flow_id: w.rnd.pick(inactive).id, trail_title: `trail ${marker}` }, { refuse: 'FLOW_INACTIVE', marker: `trail ${marker}` });
  } else if (trails.length > 0) {
    const trail = w.rnd.pick(trails);
    const notes = trail.notesId as string;
    const data =
      choice === 1
        ? [{ element_id: notes, element_type: 'TextArea', value: { value: `${marker} ${'x'.repeat(220)}` } }]
        : [
            { element_id: notes, element_type: 'TextArea', value: { value: marker } },
            { element_id: randomUUID(), element_type: 'TextArea', value: { value: 'nowhere' } },
          ];
    await w.write('submit_step_data', { trail_id: trail.id, data }, { refuse: choice === 1 ? 'ANSWER_INVALID' : 'ELEMENT_NOT_FOUND', marker });
  } else {
    return false;
  }
  return true;
}
