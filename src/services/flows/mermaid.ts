/**
 * A flow graph as a Mermaid flowchart, for a person to look at. Node ids are positional (`n0`, `n1`, …)
 * because Mermaid reads `-` in an id as part of an arrow; titles travel as quoted labels.
 */
import type { FlowGraph, GraphBit } from './graph.js';

/**
 * Text inside a quoted Mermaid label. Mermaid decodes `#name;` and `#code;` entities in labels, so every
 * character that could end the label or be read as markup becomes one: `"` would close the label, `<` and
 * `>` would be taken as HTML, a backtick opens a markdown string, `|` ends an edge label, and `#` itself
 * must go first so that the entities we write are not escaped again.
 *
 * Mermaid looks for `%%{…}%%` directives anywhere in the text, inside labels too, before it parses (issue 24,
 * finding 7: a title's `themeCSS` made the viewer's browser fetch the author's url), and reads a line that
 * begins with `%%` as a comment. So a `%` that another `%` follows is written `#37;` (a lone `%`, common in
 * titles, stays readable), `{` and `}` are written too, and every line break, Unicode's included, becomes a
 * space: a label is one line, and no author text can begin a line of its own.
 */
export function mermaidText(text: string): string {
  const escaped = text
    .replace(/#/g, '#35;')
    .replace(/"/g, '#quot;')
    .replace(/</g, '#lt;')
    .replace(/>/g, '#gt;')
    .replace(/`/g, '#96;')
    .replace(/\|/g, '#124;')
    .replace(/%(?=%)/g, '#37;')
    .replace(/\{/g, '#123;')
    .replace(/\}/g, '#125;')
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ');
  // Before parsing, mermaid drops the last `;` of a line that reads `style…:…#…;` or `classDef…:…#…;`
  // (utils encodeEntities, meant for `fill:#f00;`), which would cut off the entity code or the `;` the author
  // wrote. Such a label's `:` are written `#58;`: the line then cannot match, and other titles keep theirs.
  return /style|classDef/.test(escaped) ? escaped.replace(/:/g, '#58;') : escaped;
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
