/**
 * Reference citation: `citation`, an inline void naming a reference and a label, written
 * `[[ref:<reference_id>|<label>]]` (its markdown-it rule in ./citation-rule.ts).
 */
import { UUID_PATTERN } from '../ids.js';
import { invalid } from '../problems.js';
import type { CitationNode } from '../slate.js';
import { citationRule, type CitationMeta } from './citation-rule.js';
import { onlyKeys, str, voidChildren } from './input.js';
import type { Construct, NodeHandler } from './types.js';

const citation: NodeHandler<CitationNode> = {
  standsIn: ['inline', 'link'],
  input(value, step) {
    onlyKeys(value, ['type', 'children', 'reference_id', 'label'], step.path);
    const ref = str(value, 'reference_id', step.path);
    if (!UUID_PATTERN.test(ref)) throw invalid(`${step.path}.reference_id`, 'must be a reference id (UUID)');
    step.out.push({ type: 'citation', reference_id: ref, label: str(value, 'label', step.path, true) ?? '', children: voidChildren(value, step.path) });
  },
  render: {
    inline: {
      kind: 'void',
      inline(node, _mask, ctx) {
        let label = node.label.replace(/[\\\]]/g, '\\$&').replace(/\n/g, ' ');
        if (ctx.inTable) label = label.replace(/\|/g, '\\|');
        // In a table the separator is a cell boundary too: GFM splits the row before reading the citation.
        const bar = ctx.inTable ? '\\|' : '|';
        return label === '' ? `[[ref:${node.reference_id}]]` : `[[ref:${node.reference_id}${bar}${label}]]`;
      },
    },
  },
  // The label is what a reader sees of a citation.
  text: { text: (node) => (node as CitationNode).label },
};

export const citations: Construct<'citation'> = {
  name: 'citation',
  nodes: { citation: citation as NodeHandler },
  inlineTokens: {
    citation(b, tokens, k) {
      b.flushRaw();
      const meta = tokens[k].meta as unknown as CitationMeta;
      b.pushNode({ type: 'citation', reference_id: meta.reference_id, label: meta.label, children: [b.leaf('')] });
      return k;
    },
  },
  plugin: (md) => md.inline.ruler.before('link', 'citation', citationRule),
  syntax: () => [{ construct: 'reference citation', form: '[[ref:<reference_id>|<label>]]' }],
};
