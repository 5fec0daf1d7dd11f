/**
 * After each restart: settle the writes that were in flight at the kill, then hold the store against
 * the model (every acknowledged write there, nothing else) and check the invariants that hold whatever
 * was written (authoring-interface.md, "Bit-to-bit connection", "Bit-level reference link", "States").
 */
import { bodyToMarkdown, collectConnections, listElements, markdownToBody, nodeInventory, type SlateBody } from '../../src/content/index.js';
import type { Model, Snapshot } from './model.js';
import type { PendingWrite } from './worker.js';

export interface Verification {
  /** Writes in flight at the kill, found applied or absent. */
  unknownApplied: number;
  unknownAbsent: number;
  /** An acknowledged write whose effect is missing or different. */
  lost: string[];
  /** A record or value that no acknowledged write made: a refused write's trace, or a phantom. */
  traces: string[];
  invariants: string[];
}

/** Bodies already found to round-trip, by their stored text: a body that has not changed is not converted again. */
export type RoundTripCache = Map<string, string>;

export function verify(model: Model, s: Snapshot, pending: PendingWrite[], cache: RoundTripCache): Verification {
  const out: Verification = { unknownApplied: 0, unknownAbsent: 0, lost: [], traces: [], invariants: [] };
  // Archives first: their cascades change other clients' bits, which the other writes are settled against.
  const ordered = [...pending].sort((a, b) => Number(b.tool === 'archive_bit') - Number(a.tool === 'archive_bit'));
  for (const p of ordered) {
    const r = p.resolve(s);
    if (r === 'applied') out.unknownApplied++;
    else if (r === 'absent') out.unknownAbsent++;
    else out.invariants.push(`client ${p.client} ${p.tool} in flight at the kill: ${r.violation}`);
  }
  compareBits(model, s, out);
  compareOthers(model, s, out);
  checkMarkers(model, s, out);
  checkInvariants(s, out, cache);
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function compareBits(model: Model, s: Snapshot, out: Verification): void {
  const linksByBit = groupBy(s.links, (l) => l.bit_id);
  for (const bit of model.bits.values()) {
    const row = s.bits.get(bit.id);
    const lost = (what: string) => out.lost.push(`bit ${bit.id} ("${bit.title}"): ${what}`);
    if (!row) {
      lost('missing');
      continue;
    }
    for (const [field, expected, actual] of [
      ['title', bit.title, row.title],
      ['abstract', bit.abstract, row.abstract],
      ['categories', bit.categories, row.categories],
      ['complexity', bit.complexity, row.complexity],
      ['status', bit.status, row.status],
    ] as const) {
      if (!same(expected, actual)) lost(`${field} is ${JSON.stringify(actual)}, acknowledged ${JSON.stringify(expected)}`);
    }
    const exact = bit.exact && !bit.exposed;
    if (exact ? row.updated_at !== bit.updatedAt : row.updated_at < bit.updatedAt) {
      lost(`last modified ${row.updated_at}, acknowledged ${bit.updatedAt}${exact ? '' : ' or later'}`);
    }
    if (!bit.exact && row.updated_at >= bit.updatedAt) {
      bit.updatedAt = row.updated_at;
      bit.exact = true;
    }
    const elements = listElements(row.body);
    if (elements.length !== bit.elements.length) lost(`${elements.length} elements, acknowledged ${bit.elements.length}`);
    else {
      bit.elements.forEach((e, i) => {
        const stored = elements[i];
        const label = typeof stored.props.label === 'string' ? stored.props.label : null;
        const items = stored.items ?? [];
        if (stored.type !== e.type || label !== e.label || (e.id !== null && stored.id !== e.id) || items.length !== e.items.length) {
          lost(`element ${i} is ${stored.type} ${stored.id} "${label}" with ${items.length} items, acknowledged ${e.type} ${e.id} "${e.label}" with ${e.items.length}`);
          return;
        }
        e.id = stored.id;
        e.items.forEach((item, j) => {
          if ((item.id !== null && items[j].id !== item.id) || items[j].text !== item.text) lost(`element ${e.id} item ${j} is ${items[j].id} "${String(items[j].text)}"`);
          else item.id = items[j].id;
        });
      });
    }
    const nodes = collectConnections(row.body);
    if (nodes.length !== bit.connections.length) lost(`${nodes.length} connections in the body, acknowledged ${bit.connections.length}`);
    else {
      bit.connections.forEach((c, i) => {
        if (nodes[i].target_bit_id !== c.target || (c.id !== null && nodes[i].id !== c.id)) lost(`connection ${i} is ${nodes[i].id} → ${nodes[i].target_bit_id}, acknowledged ${c.id} → ${c.target}`);
        else c.id = nodes[i].id;
      });
    }
    const links = (linksByBit.get(bit.id) ?? []).sort((a, b) => a.position - b.position);
    if (links.length !== bit.links.length) lost(`${links.length} reference links, acknowledged ${bit.links.length}`);
    else {
      bit.links.forEach((l, i) => {
        const stored = links[i];
        if (stored.reference_id !== l.referenceId || stored.display_label !== l.label || (l.id !== null && stored.id !== l.id)) {
          lost(`link ${i} is ${stored.id} → ${stored.reference_id} "${stored.display_label}", acknowledged ${l.id} → ${l.referenceId} "${l.label}"`);
        } else l.id = stored.id;
      });
    }
  }
  for (const row of s.bits.values()) if (!model.bits.has(row.id)) out.traces.push(`bit ${row.id} "${row.title}" was never acknowledged`);
}

function compareOthers(model: Model, s: Snapshot, out: Verification): void {
  for (const flow of model.flows.values()) {
    const row = s.flows.get(flow.id);
    if (!row) {
      out.lost.push(`flow ${flow.id} ("${flow.title}"): missing`);
      continue;
    }
    const expected = [flow.title, flow.description, flow.priority, flow.categories, flow.startBitId, flow.active ? 1 : 0, flow.updatedAt];
    const actual = [row.title, row.description, row.priority, row.categories, row.start_bit_id, row.is_active, row.updated_at];
    if (!same(expected, actual)) out.lost.push(`flow ${flow.id}: stored ${JSON.stringify(actual)}, acknowledged ${JSON.stringify(expected)}`);
  }
  for (const row of s.flows.values()) if (!model.flows.has(row.id)) out.traces.push(`flow ${row.id} "${row.title}" was never acknowledged`);

  for (const ref of model.references.values()) {
    const row = s.references.get(ref.id);
    if (!row) {
      out.lost.push(`reference ${ref.id} ("${ref.title}"): missing`);
      continue;
    }
    const expected = [ref.title, ref.categories, ref.active ? 1 : 0, ref.updatedAt];
    const actual = [row.title, row.categories, row.is_active, row.updated_at];
    if (!same(expected, actual)) out.lost.push(`reference ${ref.id}: stored ${JSON.stringify(actual)}, acknowledged ${JSON.stringify(expected)}`);
  }
  for (const row of s.references.values()) if (!model.references.has(row.id)) out.traces.push(`reference ${row.id} "${row.title}" was never acknowledged`);

  const answersByTrail = groupBy(s.answers, (a) => a.trail_id);
  for (const trail of model.trails.values()) {
    const row = s.trails.get(trail.id);
    if (!row) {
      out.lost.push(`trail ${trail.id} ("${trail.title}"): missing`);
      continue;
    }
    if (row.flow_id !== trail.flowId || row.title !== trail.title) out.lost.push(`trail ${trail.id}: stored flow ${row.flow_id} "${row.title}", acknowledged ${trail.flowId} "${trail.title}"`);
    const key = (a: { elementId: string; value: unknown }) => `${a.elementId}=${JSON.stringify(a.value)}`;
    const stored = (answersByTrail.get(trail.id) ?? []).map((a) => key({ elementId: a.element_id, value: a.value })).sort();
    const expected = trail.answers.map(key).sort();
    if (!same(stored, expected)) {
      const missing = expected.filter((e) => !stored.includes(e));
      const extra = stored.filter((e) => !expected.includes(e));
      if (missing.length > 0) out.lost.push(`trail ${trail.id}: acknowledged answers missing: ${missing.join('; ')}`);
      if (extra.length > 0 || stored.length !== expected.length) out.traces.push(`trail ${trail.id}: ${stored.length} answers stored, ${expected.length} acknowledged (extra: ${extra.join('; ')})`);
    }
  }
  for (const row of s.trails.values()) if (!model.trails.has(row.id)) out.traces.push(`trail ${row.id} "${row.title}" was never acknowledged`);
}

/** The unique titles and answers of refused writes appear nowhere. */
function checkMarkers(model: Model, s: Snapshot, out: Verification): void {
  if (model.refusedMarkers.length === 0) return;
  const markers = new Set(model.refusedMarkers);
  const titles = [...s.bits.values(), ...s.flows.values(), ...s.references.values(), ...s.trails.values()].map((r) => r.title);
  for (const title of titles) if (title !== null && markers.has(title)) out.traces.push(`a refused write's title "${title}" is stored`);
  for (const a of s.answers) {
    if (typeof a.value !== 'string') continue;
    const marker = a.value.split(' ', 2).join(' ');
    if (markers.has(a.value) || markers.has(marker)) out.traces.push(`a refused answer "${a.value.slice(0, 60)}" is stored on trail ${a.trail_id}`);
  }
}

function checkInvariants(s: Snapshot, out: Verification, cache: RoundTripCache): void {
  const bad = (what: string) => out.invariants.push(what);
  const rowsBySource = groupBy(s.connections, (c) => c.source_bit_id);
  for (const bit of s.bits.values()) {
    if (bit.bodyError) {
      bad(`bit ${bit.id}: the stored body does not parse: ${bit.bodyError}`);
      continue;
    }
    // Connection nodes of the body = mirror rows, in order, with sort_order 0..n-1.
    const nodes = collectConnections(bit.body);
    const rows = (rowsBySource.get(bit.id) ?? []).sort((a, b) => a.sort_order - b.sort_order);
    const nodeList = nodes.map((n) => `${n.id}→${n.target_bit_id}`).join(',');
    const rowList = rows.map((r) => `${r.id}→${r.target_bit_id}`).join(',');
    if (nodeList !== rowList) bad(`bit ${bit.id}: connection nodes [${nodeList}] differ from mirror rows [${rowList}]`);
    if (nodes.some((n) => n.id === null)) bad(`bit ${bit.id}: a stored connection node has no id`);
    if (new Set(nodes.map((n) => n.id)).size !== nodes.length) bad(`bit ${bit.id}: a connection id appears twice in the body`);
    if (rows.some((r, i) => r.sort_order !== i)) bad(`bit ${bit.id}: sort_order is [${rows.map((r) => r.sort_order).join(',')}], not 0..${rows.length - 1}`);
    if (bit.status === 'archived' && nodes.length > 0) bad(`archived bit ${bit.id} still has ${nodes.length} connection nodes`);
    const problem = roundTrip(bit.id, bit.body, cache);
    if (problem) bad(`bit ${bit.id}: ${problem}`);
  }
  for (const c of s.connections) {
    const source = s.bits.get(c.source_bit_id);
    const target = s.bits.get(c.target_bit_id);
    if (!source || !target) bad(`connection ${c.id}: ${!source ? 'source' : 'target'} bit missing`);
    else if (source.status !== 'active' || target.status !== 'active') bad(`connection ${c.id} ${source.id} → ${target.id} touches an archived bit`);
  }
  for (const [bitId, links] of groupBy(s.links, (l) => l.bit_id)) {
    const positions = links.map((l) => l.position).sort((a, b) => a - b);
    if (positions.some((p, i) => p !== i)) bad(`bit ${bitId}: reference link positions [${positions.join(',')}] are not 0..${positions.length - 1}`);
    for (const l of links) {
      const ref = s.references.get(l.reference_id);
      if (!s.bits.has(l.bit_id) || !ref) bad(`link ${l.id}: its bit or reference is missing`);
      else if (ref.is_active !== 1) bad(`link ${l.id}: reference ${ref.id} is archived but still linked`);
    }
  }
  for (const flow of s.flows.values()) {
    const start = s.bits.get(flow.start_bit_id);
    if (!start) bad(`flow ${flow.id}: start bit ${flow.start_bit_id} missing`);
    else if (flow.is_active === 1 && start.status !== 'active') bad(`active flow ${flow.id} starts at archived bit ${start.id}`);
  }
}

/** The stored body renders to markdown, and that markdown parses back (previous = the body) to the same nodes. */
function roundTrip(bitId: string, body: SlateBody, cache: RoundTripCache): string | null {
  const text = JSON.stringify(body);
  if (cache.get(bitId) === text) return null;
  try {
    const markdown = bodyToMarkdown(body);
    const again = markdownToBody(markdown, { previous: body }).body;
    const before = inventory(body);
    const after = inventory(again);
    if (before !== after) return `rendering and parsing back changes the node inventory:\n  ${before}\n  ${after}`;
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return `the stored body does not render and parse back: ${e.code ?? ''} ${e.message ?? String(error)}`;
  }
  cache.set(bitId, text);
  return null;
}

function inventory(body: SlateBody): string {
  return [...nodeInventory(body).values()]
    .map((n) => `${n.id}|${n.type}|${n.label ?? ''}`)
    .sort()
    .join(' ');
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}
