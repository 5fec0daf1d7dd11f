/**
 * The fault load's writes on bits and connections: add_bit and update_bit with elements, connect_bits,
 * remove_connection, archive_bit; each also in a form that must be refused.
 */
import { randomUUID } from 'node:crypto';
import { collectConnections } from '../../src/content/index.js';
import type { BitModel, ElementModel } from './model.js';
import type { Worker } from './worker.js';

const COMPLEXITIES = ['low', 'medium', 'high'] as const;
const MAX_CONNECTIONS = 20;

interface BitWritten extends Record<string, unknown> {
  bit_id: string;
  last_modified_date_time_utc: string;
  minted_node_ids: Record<string, string>;
}
interface ConnectionWritten extends Record<string, unknown> {
  connection_id: string;
  source_bit_last_modified_date_time_utc: string;
}

/** Every new bit: prose with a link, a text-area (what trails answer) and a check-list of two items. */
function newBitBody(m: string, target: string | null): string {
  const lines = [
    `Step ${m}: read [the guide](https://example.com/guide/${m}) first.`,
    '',
    `[text-area: Notes ${m}](waymark-node:notes)`,
    '',
    '[check-list: Steps](waymark-node:steps)',
    '- [ ] [First](waymark-node:s1)',
    '- [ ] [Second](waymark-node:s2)',
  ];
  if (target) lines.push('', `[→](bit-connection:${target})`);
  return `${lines.join('\n')}\n`;
}

const NEW_BIT_ELEMENTS = [
  { key: 'notes', type: 'text-area', props: { maxLength: 200 } },
  { key: 'steps', type: 'check-list', items: [{ key: 's1' }, { key: 's2' }] },
];

function newBitElements(m: string, minted: Record<string, string> | null): ElementModel[] {
  return [
    { id: minted?.notes ?? null, type: 'text-area', label: `Notes ${m}`, items: [] },
    { id: minted?.steps ?? null, type: 'check-list', label: 'Steps', items: [{ id: minted?.s1 ?? null, text: 'First' }, { id: minted?.s2 ?? null, text: 'Second' }] },
  ];
}

export async function addBit(w: Worker, pinned: boolean): Promise<boolean> {
  const m = w.marker();
  const title = `bit ${m}`;
  const targets = w.connectionTargets(true);
  const target = !pinned && targets.length > 0 && w.rnd.chance(0.3) ? w.rnd.pick(targets).id : null;
  const foreign = target !== null && w.isForeign(target);
  const abstract = w.rnd.chance(0.5) ? `abstract ${m}` : null;
  const categories = [`cat-${w.rnd.int(5)}`];
  const complexity = w.rnd.pick(COMPLEXITIES);
  const args = { bit_title: title, bit_body: newBitBody(m, target), elements: NEW_BIT_ELEMENTS, bit_categories: categories, complexity, ...(abstract ? { bit_abstract: abstract } : {}) };
  const make = (id: string, updatedAt: string, minted: Record<string, string> | null): BitModel => ({
    id,
    owner: w.index,
    pinned,
    exposed: foreign,
    title,
    abstract,
    categories,
    complexity,
    status: 'active',
    updatedAt,
    exact: true,
    elements: newBitElements(m, minted),
    // An acknowledged connection to a bit archived meanwhile was cleared by the archive's cascade.
    connections: target && !w.model.isArchived(target) ? [{ id: null, target }] : [],
    links: [],
  });
  await w.write<BitWritten>('add_bit', args, {
    marker: title,
    tolerate: foreign ? ['BIT_ARCHIVED'] : undefined,
    event: { type: 'bit', id: (d) => d.bit_id },
    ack: (d) => w.model.bits.set(d.bit_id, make(d.bit_id, d.last_modified_date_time_utc, d.minted_node_ids)),
    resolve: (s) => {
      const rows = [...s.bits.values()].filter((b) => b.title === title);
      if (rows.length === 0) return 'absent';
      if (rows.length > 1) return { violation: `add_bit ${m} stored ${rows.length} bits` };
      w.model.bits.set(rows[0].id, make(rows[0].id, rows[0].updated_at, null));
      return 'applied';
    },
  });
  return true;
}

/** add_bit whose body connects to an archived (or missing) bit: refused after the row was inserted, so it tests the rollback. */
export async function addBitRefused(w: Worker): Promise<boolean> {
  const m = w.marker();
  const archived = w.archivedBits();
  const target = archived.length > 0 ? w.rnd.pick(archived).id : randomUUID();
  await w.write('add_bit', { bit_title: `bit ${m}`, bit_body: newBitBody(m, target), elements: NEW_BIT_ELEMENTS }, { refuse: archived.length > 0 ? 'BIT_ARCHIVED' : 'BIT_NOT_FOUND', marker: `bit ${m}` });
  return true;
}

/** update_bit of fields and, through `elements` without a body, the text-area's props and maybe a new element. */
export async function updateBitFields(w: Worker): Promise<boolean> {
  const bits = w.activeBits().filter((b) => b.elements[0]?.id);
  if (bits.length === 0) return false;
  const bit = w.rnd.pick(bits);
  const notes = bit.elements[0];
  const m = w.marker();
  const title = `bit ${m}`;
  const extra = w.rnd.chance(0.3);
  const categories = w.rnd.chance(0.5) ? [`cat-${w.rnd.int(5)}`, `tag-${w.rnd.int(3)}`] : undefined;
  const complexity = w.rnd.chance(0.5) ? w.rnd.pick(COMPLEXITIES) : undefined;
  const abstract = w.rnd.chance(0.3) ? (w.rnd.chance(0.5) ? '' : `abstract ${m}`) : undefined;
  const args = {
    bit_id: bit.id,
    bit_title: title,
    last_modified_date_time_utc: '2000-01-01T00:00:00.000Z',
    ...(categories ? { bit_categories: categories } : {}),
    ...(complexity ? { complexity } : {}),
    ...(abstract !== undefined ? { bit_abstract: abstract } : {}),
    elements: [
      { id: notes.id, type: 'text-area', props: { label: `Notes ${m}`, maxLength: 200 } },
      ...(extra ? [{ key: 'extra', type: 'text-area', props: { label: `Extra ${m}` } }] : []),
    ],
  };
  const apply = (updatedAt: string, minted: Record<string, string> | null) => {
    bit.title = title;
    if (categories) bit.categories = categories;
    if (complexity) bit.complexity = complexity;
    if (abstract !== undefined) bit.abstract = abstract === '' ? null : abstract;
    notes.label = `Notes ${m}`;
    if (extra) bit.elements.push({ id: minted?.extra ?? null, type: 'text-area', label: `Extra ${m}`, items: [] });
    bit.updatedAt = updatedAt;
    bit.exact = true;
  };
  await w.write<BitWritten>('update_bit', args, {
    marker: title,
    event: { type: 'bit', id: bit.id },
    ack: (d) => apply(d.last_modified_date_time_utc, d.minted_node_ids),
    resolve: (s) => {
      const row = s.bits.get(bit.id);
      if (!row) return { violation: `bit ${bit.id} is gone` };
      if (row.title !== title) return 'absent';
      apply(row.updated_at, null);
      return 'applied';
    },
  });
  return true;
}

/** update_bit with the markdown get_bit returned, edited: prose added, maybe a connection removed, an element and a connection added. */
export async function updateBitBody(w: Worker): Promise<boolean> {
  const bits = w.activeBits();
  if (bits.length === 0) return false;
  const bit = w.rnd.pick(bits);
  const got = await w.read<{ bit_body: string }>('get_bit', { bit_id: bit.id });
  const m = w.marker();
  const title = `bit ${m}`;
  const known = bit.connections.filter((c) => c.id !== null);
  const removed = known.length > 0 && w.rnd.chance(0.35) ? w.rnd.pick(known) : null;
  let md = got.bit_body;
  if (removed) md = md.split('\n').filter((line) => !line.includes(`node=${removed.id}`)).join('\n');
  md = `${md.trimEnd()}\n\nEdited ${m}.\n`;
  const addElement = w.rnd.chance(0.4);
  if (addElement) md += `\n[text-area: More ${m}](waymark-node:more)\n`;
  // Body syntax rule 5: a line without node= would claim an unclaimed connection to the same target.
  const targets = w.connectionTargets(true).filter((t) => t.id !== removed?.target);
  const remaining = bit.connections.length - (removed ? 1 : 0);
  const target = remaining < MAX_CONNECTIONS && targets.length > 0 && w.rnd.chance(0.35) ? w.rnd.pick(targets).id : null;
  if (target) md += `\n[→](bit-connection:${target})\n`;
  // Another client's archive may clear a connection of this body (its line then names no stored node) or archive the new target.
  const racy = w.hasForeignConnections(bit) || (target !== null && w.isForeign(target));
  const args = {
    bit_id: bit.id,
    bit_title: title,
    bit_body: md,
    content_format: 'markdown',
    ...(addElement ? { elements: [{ key: 'more', type: 'text-area' }] } : {}),
    ...(removed ? { remove_node_ids: [removed.id] } : {}),
  };
  const apply = (updatedAt: string, minted: Record<string, string> | null) => {
    bit.title = title;
    if (removed) {
      bit.connections = bit.connections.filter((c) => c !== removed);
      w.model.removedConnections.push(removed.id as string);
    }
    if (addElement) bit.elements.push({ id: minted?.more ?? null, type: 'text-area', label: `More ${m}`, items: [] });
    if (target && !w.model.isArchived(target)) bit.connections.push({ id: null, target });
    if (target && w.isForeign(target)) bit.exposed = true;
    bit.updatedAt = updatedAt;
    bit.exact = true;
  };
  await w.write<BitWritten>('update_bit', args, {
    marker: title,
    tolerate: racy ? ['CONNECTION_NOT_FOUND', 'BIT_ARCHIVED'] : undefined,
    event: { type: 'bit', id: bit.id },
    ack: (d) => apply(d.last_modified_date_time_utc, d.minted_node_ids),
    resolve: (s) => {
      const row = s.bits.get(bit.id);
      if (!row) return { violation: `bit ${bit.id} is gone` };
      if (row.title !== title) return 'absent';
      apply(row.updated_at, null);
      return 'applied';
    },
  });
  return true;
}

/** update_bit refused inside its transaction: a body that drops a connection unlisted, or connects to an archived bit. */
export async function updateBitRefused(w: Worker): Promise<boolean> {
  const bits = w.activeBits();
  if (bits.length === 0) return false;
  const bit = w.rnd.pick(bits);
  const got = await w.read<{ bit_body: string }>('get_bit', { bit_id: bit.id });
  const m = w.marker();
  // Only connections that no other client's archive can clear: dropping one must stay a content loss.
  const known = bit.connections.filter((c) => c.id !== null && !w.isForeign(c.target));
  let md = got.bit_body;
  let refuse: string;
  if (known.length > 0 && w.rnd.chance(0.5)) {
    const dropped = w.rnd.pick(known);
    md = md.split('\n').filter((line) => !line.includes(`node=${dropped.id}`)).join('\n');
    refuse = 'BIT_CONTENT_LOSS';
  } else {
    const archived = w.archivedBits();
    md += `\n[→](bit-connection:${archived.length > 0 ? w.rnd.pick(archived).id : randomUUID()})\n`;
    refuse = archived.length > 0 ? 'BIT_ARCHIVED' : 'BIT_NOT_FOUND';
  }
  const tolerate = w.hasForeignConnections(bit) ? ['CONNECTION_NOT_FOUND'] : undefined;
  await w.write('update_bit', { bit_id: bit.id, bit_title: `bit ${m}`, bit_body: md, content_format: 'markdown' }, { refuse, tolerate, marker: `bit ${m}` });
  return true;
}

export async function connectBits(w: Worker): Promise<boolean> {
  const sources = w.activeBits().filter((b) => b.connections.length < MAX_CONNECTIONS);
  const targets = w.connectionTargets(true);
  if (sources.length === 0 || targets.length === 0) return false;
  const source = w.rnd.pick(sources);
  const target = w.rnd.pick(targets).id;
  const foreign = w.isForeign(target);
  // The next position is only certain while no other client's archive can clear one of the source's connections.
  const explicit = !w.hasForeignConnections(source) && w.rnd.chance(0.3);
  const args = { source_bit_id: source.id, target_bit_id: target, ...(explicit ? { sort_order: source.connections.length } : {}) };
  await w.write<ConnectionWritten>('connect_bits', args, {
    tolerate: foreign ? ['BIT_ARCHIVED'] : undefined,
    event: { type: 'bit', id: source.id },
    ack: (d) => {
      if (foreign) source.exposed = true;
      if (!w.model.isArchived(target)) source.connections.push({ id: d.connection_id, target });
      source.updatedAt = d.source_bit_last_modified_date_time_utc;
      source.exact = true;
    },
    resolve: (s) => {
      const row = s.bits.get(source.id);
      if (!row) return { violation: `bit ${source.id} is gone` };
      const nodes = collectConnections(row.body);
      if (nodes.length === source.connections.length) return 'absent';
      const last = nodes[nodes.length - 1];
      if (nodes.length !== source.connections.length + 1 || last.target_bit_id !== target) {
        return { violation: `connect_bits ${source.id} → ${target}: the body holds ${nodes.length} connections, the model ${source.connections.length}` };
      }
      source.connections.push({ id: last.id, target });
      if (foreign) source.exposed = true;
      source.updatedAt = row.updated_at;
      source.exact = true;
      return 'applied';
    },
  });
  return true;
}

/** connect_bits refused: a wrong explicit sort_order, an archived target, or a 21st connection. */
export async function connectRefused(w: Worker): Promise<boolean> {
  const full = w.activeBits().filter((b) => b.connections.length >= MAX_CONNECTIONS && !w.hasForeignConnections(b));
  const open = w.activeBits().filter((b) => b.connections.length < MAX_CONNECTIONS);
  const archived = w.archivedBits();
  const targets = w.connectionTargets(false);
  const choice = w.rnd.int(3);
  if (choice === 0 && full.length > 0 && targets.length > 0) {
    await w.write('connect_bits', { source_bit_id: w.rnd.pick(full).id, target_bit_id: w.rnd.pick(targets).id }, { refuse: 'CONNECTION_LIMIT_EXCEEDED' });
  } else if (choice === 1 && open.length > 0 && archived.length > 0) {
    await w.write('connect_bits', { source_bit_id: w.rnd.pick(open).id, target_bit_id: w.rnd.pick(archived).id }, { refuse: 'BIT_ARCHIVED' });
  } else if (open.length > 0 && targets.length > 0) {
    const source = w.rnd.pick(open);
    await w.write('connect_bits', { source_bit_id: source.id, target_bit_id: w.rnd.pick(targets).id, sort_order: source.connections.length + 1 + w.rnd.int(3) }, { refuse: 'SORT_ORDER_CONFLICT' });
  } else {
    return false;
  }
  return true;
}

export async function removeConnection(w: Worker): Promise<boolean> {
  const bits = w.activeBits().filter((b) => b.connections.some((c) => c.id !== null));
  if (bits.length === 0) return false;
  const bit = w.rnd.pick(bits);
  const connection = w.rnd.pick(bit.connections.filter((c) => c.id !== null));
  const id = connection.id as string;
  const apply = (updatedAt: string) => {
    bit.connections = bit.connections.filter((c) => c !== connection);
    w.model.removedConnections.push(id);
    bit.updatedAt = updatedAt;
    bit.exact = true;
  };
  await w.write<ConnectionWritten>('remove_connection', { connection_id: id, source_bit_last_modified_date_time_utc: 'ignored' }, {
    tolerate: w.isForeign(connection.target) ? ['CONNECTION_NOT_FOUND'] : undefined,
    event: { type: 'bit', id: bit.id },
    ack: (d) => apply(d.source_bit_last_modified_date_time_utc),
    resolve: (s) => {
      const row = s.bits.get(bit.id);
      if (!row) return { violation: `bit ${bit.id} is gone` };
      if (collectConnections(row.body).some((c) => c.id === id)) return 'absent';
      apply(row.updated_at);
      return 'applied';
    },
  });
  return true;
}

/** remove_connection of a connection already removed: CONNECTION_NOT_FOUND (not idempotent). */
export async function removeConnectionRefused(w: Worker): Promise<boolean> {
  if (w.model.removedConnections.length === 0) return false;
  await w.write('remove_connection', { connection_id: w.rnd.pick(w.model.removedConnections) }, { refuse: 'CONNECTION_NOT_FOUND' });
  return true;
}

export async function archiveBit(w: Worker): Promise<boolean> {
  const bits = w.activeBits().filter((b) => !b.pinned && w.model.activeFlowsStartingAt(b.id).length === 0);
  if (bits.length < 3) return false;
  const bit = w.rnd.pick(bits);
  await w.write<{ last_modified_date_time_utc: string; was_already_archived: boolean }>('archive_bit', { bit_id: bit.id }, {
    event: { type: 'bit', id: bit.id, unless: (d) => d.was_already_archived },
    ack: (d) => w.model.applyArchive(bit, d.last_modified_date_time_utc),
    resolve: (s) => {
      const row = s.bits.get(bit.id);
      if (!row) return { violation: `bit ${bit.id} is gone` };
      if (row.status !== 'archived') return 'absent';
      w.model.applyArchive(bit, row.updated_at);
      return 'applied';
    },
  });
  return true;
}

/** archive_bit on the start bit of an active flow: BIT_IS_ACTIVE_FLOW_START, and no cascade. */
export async function archiveRefused(w: Worker): Promise<boolean> {
  const bits = w.activeBits().filter((b) => w.model.activeFlowsStartingAt(b.id).length > 0);
  if (bits.length === 0) return false;
  await w.write('archive_bit', { bit_id: w.rnd.pick(bits).id }, { refuse: 'BIT_IS_ACTIVE_FLOW_START' });
  return true;
}
