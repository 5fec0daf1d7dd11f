/**
 * A flow graph as a Mermaid flowchart, for a person to look at. Node ids are positional (`n0`, `n1`, …)
 * because Mermaid reads `-` in an id as part of an arrow; titles travel as quoted labels.
 */
import type { FlowGraph, GraphBit } from './flow-graph.js';

/**
 * Text inside a quoted Mermaid label. Mermaid decodes `#name;` and `#code;` entities in labels, so every
 * character that could end the label or be read as markup becomes one: `"` would close the label, `<` and
 * `>` would be taken as HTML, a backtick opens a markdown string, `|` ends an edge label, and `#` itself
 * must go first so that the entities we write are not escaped again. Line breaks become spaces.
 */
export function mermaidText(text: string): string {
  return text
    .replace(/#/g, '#35;')
    .replace(/"/g, '#quot;')
    .replace(/</g, '#lt;')
    .replace(/>/g, '#gt;')
    .replace(/`/g, '#96;')
    .replace(/\|/g, '#124;')
    .replace(/[\r\n]+/g, ' ');
}

export function flowGraphMermaid(graph: FlowGraph): string {
  const all: GraphBit[] = [...graph.bits, ...graph.unreachable_bits];
  const ids = new Map(all.map((bit, i) => [bit.bit_id, `n${i}`]));
  const lines = ['flowchart TD'];
  for (const bit of all) {
    const suffix = bit.status === 'archived' ? ' (archived)' : bit.human_required ? ' (human)' : '';
    lines.push(`  ${ids.get(bit.bit_id)}["${mermaidText(bit.bit_title + suffix)}"]`);
  }
  for (const bit of all) {
    for (const c of bit.connections) {
      const target = ids.get(c.target_bit_id);
      if (!target) continue;
      // A conditional connection is dotted: it is available only when its `when` holds.
      const arrow = c.condition ? '-.->' : '-->';
      const text = c.label ?? (c.condition ? 'when' : null);
      lines.push(`  ${ids.get(bit.bit_id)} ${arrow}${text ? `|"${mermaidText(text)}"|` : ''} ${target}`);
    }
  }
  lines.push('  classDef start stroke-width:3px');
  lines.push('  classDef archived stroke-dasharray:5 5,color:#888');
  lines.push('  classDef unreachable fill:#eee,stroke-dasharray:2 2');
  const start = ids.get(graph.start_bit_id);
  if (start) lines.push(`  class ${start} start`);
  const archived = all.filter((b) => b.status === 'archived').map((b) => ids.get(b.bit_id));
  if (archived.length > 0) lines.push(`  class ${archived.join(',')} archived`);
  const unreachable = graph.unreachable_bits.map((b) => ids.get(b.bit_id));
  if (unreachable.length > 0) lines.push(`  class ${unreachable.join(',')} unreachable`);
  return lines.join('\n') + '\n';
}
