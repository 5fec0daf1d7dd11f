import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { addTestBit, archiveTestBit, connectTestBits } from '../../../test/graph-fixtures.js';
import { startHarness, type Harness } from '../../../test/harness.js';
import { checkList, dropdown } from '../../../test/trail-fixtures.js';
import type { FlowWithGraph as GraphData } from '../../services/flows/shapes.js';
import { mermaidText } from '../../services/flows/mermaid.js';


describe.each(ENGINES)('get_flow with the graph on %s', (engine) => {
  let h: Harness;
  const ids: Record<string, string> = {};
  const conn: Record<string, string> = {};
  /** The ids minted for the dropdown and the check-list the conditions name. */
  const node: Record<string, string> = {};
  let flowId: string;
  beforeAll(async () => {
    h = await startHarness(engine);
    const bit = async (title: string, extra: Parameters<typeof addTestBit>[1] = {}) => {
      const added = await addTestBit(h, { title, ...extra });
      Object.assign(node, added.ids);
      return added.bit_id;
    };
    // start → a, start → b (conditional), a → c, b → c, c → start (a cycle); orphan → b; feeder → orphan;
    // island stands alone; unrelated is wired to island only.
    ids.start = await bit('Start "here" <now>', { blocks: [dropdown('dd1', ['o1', 'o2', 'o3'])] });
    ids.a = await bit('A | pipe', { blocks: [checkList('list', [{ id: 'item9' }])] });
    ids.b = await bit('B #1', { humanRequired: true });
    ids.c = await bit('C');
    ids.orphan = await bit('Orphan');
    ids.feeder = await bit('Feeder');
    ids.island = await bit('Island');
    ids.unrelated = await bit('Unrelated');
    const connect = connectTestBits.bind(null, h);
    conn.sa = await connect(ids.start, ids.a, { label: 'Yes' });
    conn.sb = await connect(ids.start, ids.b, { label: null, when: { element_id: node.dd1, option_ids: [node.o1, node.o2] }, preview: false });
    conn.ac = await connect(ids.a, ids.c, { when: { element_id: node.item9, checked: true } });
    conn.bc = await connect(ids.b, ids.c);
    conn.cs = await connect(ids.c, ids.start, { label: 'again' });
    conn.ob = await connect(ids.orphan, ids.b);
    conn.fo = await connect(ids.feeder, ids.orphan);
    conn.ui = await connect(ids.unrelated, ids.island);
    flowId = (await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Graph', start_bit_id: ids.start })).flow_id;
  });
  afterAll(async () => h.close());

  it('lists the bits of one depth in the order the walk reached them, not by id', async () => {
    // Bits made until the later branch has the smaller id: sorting rows by source id would put its child first.
    for (let attempt = 0; attempt < 20; attempt++) {
      const [root, first, second, under1, under2] = (await Promise.all(['R', 'first', 'second', 'under first', 'under second'].map((title) => addTestBit(h, { title })))).map((b) => b.bit_id);
      if (second > first) continue;
      await connectTestBits(h, root, first);
      await connectTestBits(h, root, second);
      await connectTestBits(h, first, under1);
      await connectTestBits(h, second, under2);
      const flow = (await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Order', start_bit_id: root })).flow_id;
      const { graph } = await h.owner.client.ok<GraphData>('get_flow', { flow_id: flow, include_graph: true });
      expect(graph!.bits.map((b) => b.bit_title)).toEqual(['R', 'first', 'second', 'under first', 'under second']);
      return;
    }
    throw new Error('no id order that tells the two orders apart in 20 attempts');
  });

  it('leaves the graph out unless asked', async () => {
    const data = await h.owner.client.ok<GraphData>('get_flow', { flow_id: flowId });
    expect(data.graph).toBeUndefined();
  });

  it('walks breadth-first from the start bit, each bit once, with connections in sort_order and their conditions', async () => {
    const { graph } = await h.owner.client.ok<GraphData>('get_flow', { flow_id: flowId, include_graph: true });
    expect(graph!.bits.map((b) => [b.bit_id, b.depth])).toEqual([
      [ids.start, 0],
      [ids.a, 1],
      [ids.b, 1],
      [ids.c, 2],
    ]);
    const start = graph!.bits[0];
    expect(start).toEqual({
      bit_id: ids.start,
      bit_title: 'Start "here" <now>',
      status: 'active',
      human_required: false,
      depth: 0,
      connections: [
        { connection_id: conn.sa, target_bit_id: ids.a, target_bit_title: 'A | pipe', sort_order: 0, label: 'Yes', params: {}, condition: null },
        { connection_id: conn.sb, target_bit_id: ids.b, target_bit_title: 'B #1', sort_order: 1, label: null, params: { preview: false }, condition: { element_id: node.dd1, option_ids: [node.o1, node.o2] } },
      ],
    });
    expect(graph!.bits[1].connections[0].condition).toEqual({ element_id: node.item9, checked: true });
    expect(graph!.bits[2].human_required).toBe(true);
    expect(graph!.bits[3].connections.map((c) => c.target_bit_id)).toEqual([ids.start]);
    // Wired into the flow but never reached from the start; island/unrelated are not part of this flow at all.
    expect(graph!.unreachable_bit_ids).toEqual([ids.feeder, ids.orphan].sort());
    expect(graph!.mermaid).toBeUndefined();
  });

  it('draws the graph as a Mermaid flowchart with escaped labels', async () => {
    const { graph } = await h.owner.client.ok<GraphData>('get_flow', { flow_id: flowId, format: 'mermaid' });
    expect(graph!.bits).toHaveLength(4);
    // Unreachable bits follow the reachable ones, in id order.
    const [u4, u5] = ids.feeder < ids.orphan ? ['Feeder', 'Orphan'] : ['Orphan', 'Feeder'];
    const edges = ids.feeder < ids.orphan ? ['  n4 --> n5', '  n5 --> n2'] : ['  n4 --> n2', '  n5 --> n4'];
    expect(graph!.mermaid).toBe(
      [
        'flowchart TD',
        '  n0["Start #quot;here#quot; #lt;now#gt;"]',
        '  n1["A #124; pipe"]',
        '  n2["B #35;1 (human)"]',
        '  n3["C"]',
        `  n4["${u4}"]`,
        `  n5["${u5}"]`,
        '  n0 -->|"Yes"| n1',
        '  n0 -.->|"when"| n2',
        '  n1 -.->|"when"| n3',
        '  n2 --> n3',
        '  n3 -->|"again"| n0',
        ...edges,
        '  classDef start stroke-width:3px',
        '  classDef archived stroke-dasharray:5 5,color:#888',
        '  classDef unreachable fill:#eee,stroke-dasharray:2 2',
        '  class n0 start',
        '  class n4,n5 unreachable',
        '',
      ].join('\n'),
    );
  });

  it('escapes every character that could break a Mermaid label', () => {
    expect(mermaidText('a"b<c>d`e|f#g\nh')).toBe('a#quot;b#lt;c#gt;d#96;e#124;f#35;g h');
  });

  it('shows an archived start bit of an inactive flow, alone', async () => {
    const lone = (await addTestBit(h, { title: 'Lone' })).bit_id;
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Lone', start_bit_id: lone });
    await h.owner.client.ok('update_flow', { flow_id, is_active: false });
    await archiveTestBit(h, lone);
    const { graph } = await h.owner.client.ok<GraphData>('get_flow', { flow_id, format: 'mermaid' });
    expect(graph!.bits).toEqual([{ bit_id: lone, bit_title: 'Lone', status: 'archived', human_required: false, depth: 0, connections: [] }]);
    expect(graph!.unreachable_bit_ids).toEqual([]);
    expect(graph!.mermaid).toContain('n0["Lone (archived)"]');
    expect(graph!.mermaid).toContain('class n0 archived');
  });

  it('refuses an unknown format and a missing flow', async () => {
    expect((await h.owner.client.fail('get_flow', { flow_id: flowId, format: 'svg' })).code).toBe('VALIDATION_ERROR');
    expect((await h.owner.client.fail('get_flow', { flow_id: '00000000-0000-4000-8000-000000000000' })).code).toBe('FLOW_NOT_FOUND');
  });
});
