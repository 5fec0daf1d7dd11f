/**
 * The flow laid out as a picture (issue 28: Mermaid cost 2.3 MB of JavaScript and about 2 s to draw a flow). A layered
 * drawing, top to bottom: each bit's row is its distance from the start (get_flow's depth), bits not reachable from
 * the start in a last row; within a row, bits are ordered by where the bits that lead to them stand (two barycenter
 * passes), which keeps most lines from crossing in the flows people write (a few dozen bits, a few branches).
 * Pure: positions in, positions out; the component draws them.
 */
import type { GraphBit } from '../api.js';

export const BOX = { width: 190, lineHeight: 17, padding: 12, maxLines: 3, charsPerLine: 24 } as const;
const GAP = { x: 36, y: 56 } as const;
const MARGIN = 16;

export interface PlacedBit {
  bit: GraphBit;
  x: number;
  y: number;
  height: number;
  lines: string[];
  row: number;
}

export interface PlacedEdge {
  id: string;
  from: string;
  to: string;
  label: string | null;
  /** An SVG path. */
  d: string;
  /** Where the label sits. */
  labelAt: { x: number; y: number };
}

export interface FlowLayout {
  bits: PlacedBit[];
  edges: PlacedEdge[];
  width: number;
  height: number;
}

/** A title cut into at most three lines of about 24 characters, at spaces where it can be. */
export function wrapTitle(title: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of title.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (next.length <= BOX.charsPerLine || line === '') line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  const cut = lines.map((l) => (l.length > BOX.charsPerLine ? `${l.slice(0, BOX.charsPerLine - 1)}…` : l));
  if (cut.length <= BOX.maxLines) return cut;
  const kept = cut.slice(0, BOX.maxLines);
  kept[BOX.maxLines - 1] = `${(kept[BOX.maxLines - 1] as string).slice(0, BOX.charsPerLine - 1)}…`;
  return kept;
}

export function layoutFlow(bits: GraphBit[]): FlowLayout {
  const maxDepth = Math.max(-1, ...bits.map((b) => b.depth ?? -1));
  const rowOf = (b: GraphBit) => b.depth ?? maxDepth + 1;
  const rows: GraphBit[][] = [];
  for (const bit of bits) (rows[rowOf(bit)] ??= []).push(bit);
  const known = new Set(bits.map((b) => b.bit_id));
  const parents = new Map<string, string[]>();
  for (const bit of bits) for (const c of bit.connections) if (known.has(c.target_bit_id)) parents.set(c.target_bit_id, [...(parents.get(c.target_bit_id) ?? []), bit.bit_id]);
  const children = new Map(bits.map((b) => [b.bit_id, b.connections.map((c) => c.target_bit_id).filter((id) => known.has(id))]));

  // Order within rows: by the mean place of the bits leading in (downwards), then of those led to (upwards).
  const place = new Map<string, number>();
  const settle = () => rows.forEach((row) => row?.forEach((b, i) => place.set(b.bit_id, i)));
  settle();
  const mean = (ids: string[]) => {
    const at = ids.map((id) => place.get(id)).filter((p): p is number => p !== undefined);
    return at.length ? at.reduce((s, p) => s + p, 0) / at.length : undefined;
  };
  for (const [neighbours, order] of [[parents, rows.keys()], [children, [...rows.keys()].reverse()]] as const) {
    for (const r of order) {
      const row = rows[r];
      if (!row) continue;
      const keyed = row.map((b, i) => ({ b, key: mean(neighbours.get(b.bit_id) ?? []) ?? i }));
      keyed.sort((a, z) => a.key - z.key);
      rows[r] = keyed.map((k) => k.b);
      settle();
    }
  }

  const heightOf = (lines: string[]) => lines.length * BOX.lineHeight + 2 * BOX.padding;
  const widest = Math.max(0, ...rows.map((row) => row?.length ?? 0));
  const width = 2 * MARGIN + widest * BOX.width + Math.max(0, widest - 1) * GAP.x;
  const placed = new Map<string, PlacedBit>();
  let y = MARGIN;
  rows.forEach((row, r) => {
    if (!row) return;
    const wrapped = row.map((b) => wrapTitle(b.bit_title));
    const rowHeight = Math.max(...wrapped.map(heightOf));
    const rowWidth = row.length * BOX.width + (row.length - 1) * GAP.x;
    let x = (width - rowWidth) / 2;
    row.forEach((bit, i) => {
      const lines = wrapped[i] as string[];
      placed.set(bit.bit_id, { bit, x, y, height: heightOf(lines), lines, row: r });
      x += BOX.width + GAP.x;
    });
    y += rowHeight + GAP.y;
  });
  const height = y - GAP.y + MARGIN;

  const edges: PlacedEdge[] = [];
  for (const bit of bits) {
    const from = placed.get(bit.bit_id) as PlacedBit;
    for (const c of bit.connections) {
      const to = placed.get(c.target_bit_id);
      if (!to) continue;
      const label = c.label;
      if (to.row > from.row) {
        // Down: from the bottom of one box to the top of the other.
        const x1 = from.x + BOX.width / 2;
        const y1 = from.y + from.height;
        const x2 = to.x + BOX.width / 2;
        const y2 = to.y;
        const bend = (y2 - y1) / 2;
        edges.push({ id: c.connection_id, from: bit.bit_id, to: to.bit.bit_id, label, d: `M${x1},${y1} C${x1},${y1 + bend} ${x2},${y2 - bend} ${x2},${y2}`, labelAt: { x: (x1 + x2) / 2, y: (y1 + y2) / 2 } });
      } else {
        // Back up (a loop) or along a row: out of the right side, round, into the right side of the target.
        const x1 = from.x + BOX.width;
        const y1 = from.y + from.height / 2;
        const x2 = to.x + BOX.width;
        const y2 = to.y + to.height / 2;
        const out = Math.max(x1, x2) + GAP.x * 0.8;
        edges.push({ id: c.connection_id, from: bit.bit_id, to: to.bit.bit_id, label, d: `M${x1},${y1} C${out},${y1} ${out},${y2} ${x2},${y2}`, labelAt: { x: out - 4, y: (y1 + y2) / 2 } });
      }
    }
  }
  return { bits: [...placed.values()], edges, width: Math.max(width, 2 * MARGIN + BOX.width) + GAP.x, height };
}
