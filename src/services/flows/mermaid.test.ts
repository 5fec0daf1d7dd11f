/**
 * Author text in the flowchart stays text (issue 24, finding 7): read by mermaid's own parser, a hostile bit
 * title or connection label sets no config, starts no statement and ends no label; it is drawn as written.
 */
import { describe, expect, it } from 'vitest';
import { parseFlowchart } from '../../../test/mermaid-parse.js';
import type { FlowGraph, GraphBit } from './graph.js';
import { flowGraphMermaid, mermaidText } from './mermaid.js';

const BEACON = "%%{init: {'themeCSS': '.node rect{background:url(http://127.0.0.1:9/beacon)}'}}%%";

/** Each a way out of a quoted label, or into a directive, a comment or a statement of its own. */
const HOSTILE = [
  BEACON,
  `Plain ${BEACON} inside`,
  'a\n%% a comment line\nb',
  'a\n%%{init: {"theme": "dark"}}%%',
  'x"]\n  click n0 call alert(1)\n  n9["y',
  'x"] --> n1',
  'x"]; n0 --> n1; style n0 fill:#f00;',
  'a --> b -.-> c ==> d',
  'click n0 href "javascript:alert(1)" "tip"',
  '<script>alert(1)</script><img src=x onerror=alert(1)>',
  'pipe | bracket ] brace } paren ) semicolon ;',
  '`**markdown**`',
  'style n0 fill:#f00;',
  '#quot; stays #lt;literal#gt;',
  'percent % and %%%',
  'line\u2028separator\u2029and\rreturn',
  '---\nconfig:\n  theme: dark\n---',
];

const bit = (i: number, title: string, connections: GraphBit['connections'] = []): GraphBit => ({
  bit_id: `b${i}`,
  bit_title: title,
  status: 'active',
  human_required: false,
  depth: i,
  connections,
});

const edge = (i: number, target: string, label: string | null) => ({
  connection_id: `c${i}`,
  target_bit_id: target,
  target_bit_title: null,
  sort_order: 0,
  label,
  params: {},
  condition: null,
});

/** What the person sees: a label's line breaks become spaces (a node label is one line). */
const shown = (text: string) => text.replace(/[\r\n\u2028\u2029]+/g, ' ');

describe('flowGraphMermaid with hostile author text', () => {
  it('keeps every title and label a label: no directive, comment, statement or click', async () => {
    const bits = HOSTILE.map((title, i) => bit(i, title, i + 1 < HOSTILE.length ? [edge(i, `b${i + 1}`, HOSTILE[HOSTILE.length - 1 - i])] : []));
    const graph: FlowGraph = { start_bit_id: 'b0', bits, unreachable_bit_ids: [], unreachable_bits: [] };
    const text = flowGraphMermaid(graph);
    const parsed = await parseFlowchart(text);
    expect(parsed.diagramType).toBe('flowchart-v2');
    expect(parsed.config).toEqual({});
    expect(parsed.nodes).toEqual(HOSTILE.map((title, i) => ({ id: `n${i}`, text: shown(title), styles: [] })));
    expect(parsed.edges).toEqual(HOSTILE.slice(0, -1).map((_, i) => ({ start: `n${i}`, end: `n${i + 1}`, text: shown(HOSTILE[HOSTILE.length - 1 - i]) })));
    expect(parsed.classes).toEqual(['start', 'archived', 'unreachable']);
    expect(parsed.clicks).toEqual([]);
  });

  it('writes the characters that could start a directive or end a label as entity codes, and no others', () => {
    expect(mermaidText(BEACON)).toBe("#37;%#123;init: #123;'themeCSS': '.node rect#123;background:url(http://127.0.0.1:9/beacon)#125;'#125;#125;#37;%");
    expect(mermaidText('a"b<c>d`e|f#g\nh')).toBe('a#quot;b#lt;c#gt;d#96;e#124;f#35;g h');
    // A lone percent sign, as titles often carry, is left readable: only `%%` starts a directive or comment.
    expect(mermaidText('Reach 80% coverage: done; [x]')).toBe('Reach 80% coverage: done; [x]');
    // Mermaid would drop the last `;` of a line reading `style…:…#…;`: such a label's colons are codes.
    expect(mermaidText('style n0 fill:#f00;')).toBe('style n0 fill#58;#35;f00;');
    expect(mermaidText('a\u2028b\tc')).toBe('a b c');
  });
});
