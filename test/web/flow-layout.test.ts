import { describe, expect, it } from 'vitest';
import { BOX, layoutFlow, wrapTitle } from '../../web/components/flow-layout.js';
import type { GraphBit } from '../../src/services/flows/shapes.js';

const bit = (id: string, depth: number | null, targets: string[], title = id): GraphBit => ({
  bit_id: id,
  bit_title: title,
  status: 'active',
  human_required: false,
  depth,
  connections: targets.map((t, i) => ({ connection_id: `${id}-${t}`, target_bit_id: t, sort_order: i, label: null, params: {}, condition: null, target_bit_title: t })),
});

describe('the flow picture layout', () => {
  it('puts each bit in the row of its distance from the start, unreachable ones last, boxes apart', () => {
    const layout = layoutFlow([bit('start', 0, ['a', 'b']), bit('a', 1, ['end']), bit('b', 1, ['end']), bit('end', 2, ['start']), bit('lost', null, [])]);
    const at = new Map(layout.bits.map((p) => [p.bit.bit_id, p]));
    expect(['start', 'a', 'b', 'end', 'lost'].map((id) => at.get(id)?.row)).toEqual([0, 1, 1, 2, 3]);
    expect(at.get('a')!.y).toBe(at.get('b')!.y);
    expect(Math.abs(at.get('a')!.x - at.get('b')!.x)).toBeGreaterThanOrEqual(BOX.width);
    expect(at.get('end')!.y).toBeGreaterThan(at.get('a')!.y + at.get('a')!.height);
    // Every box inside the picture.
    for (const p of layout.bits) {
      expect(p.x).toBeGreaterThanOrEqual(0);
      expect(p.x + BOX.width).toBeLessThanOrEqual(layout.width);
      expect(p.y + p.height).toBeLessThanOrEqual(layout.height);
    }
    // Down edges leave the bottom of a box; the loop back to the start leaves its right side.
    const edges = new Map(layout.edges.map((e) => [e.id, e]));
    expect(layout.edges).toHaveLength(5);
    expect(edges.get('a-end')!.d.startsWith(`M${at.get('a')!.x + BOX.width / 2},${at.get('a')!.y + at.get('a')!.height} `)).toBe(true);
    expect(edges.get('end-start')!.d.startsWith(`M${at.get('end')!.x + BOX.width},`)).toBe(true);
  });

  it('orders a row by where the bits leading to it stand, so lines do not cross', () => {
    // x leads to q, y to p: the row below follows x, y's order although p came first.
    const layout = layoutFlow([bit('s', 0, ['x', 'y']), bit('x', 1, ['q']), bit('y', 1, ['p']), bit('p', 2, []), bit('q', 2, [])]);
    const x = (id: string) => layout.bits.find((p) => p.bit.bit_id === id)!.x;
    expect(x('x') < x('y')).toBe(true);
    expect(x('q') < x('p')).toBe(true);
  });

  it('wraps a title in at most three lines of about 24 characters', () => {
    expect(wrapTitle('Approve system access')).toEqual(['Approve system access']);
    expect(wrapTitle('Set up the laptop and check that everything works before lunch')).toEqual(['Set up the laptop and', 'check that everything', 'works before lunch']);
    expect(wrapTitle('one two three four five six seven eight nine ten eleven twelve thirteen')).toHaveLength(3);
    expect(wrapTitle('Supercalifragilisticexpialidocious-and-more')[0]).toMatch(/…$/);
  });
});
