/**
 * Reference citation: `citation`, an inline void naming a reference and a label, written
 * `[[ref:<reference_id>|<label>]]` (its markdown-it rule in ./citation-rule.ts).
 */
import { z } from 'zod';
import { UUID_PATTERN } from '../ids.js';
import type { VoidChildren } from '../slate.js';
import { targetNotFound } from '../problems.js';
import { citationRule, type CitationMeta } from './citation-rule.js';
import { STRING, VOID_CHILDREN, voidChildren } from './input.js';
import type { Construct, NodeHandler, ShapeFields } from './types.js';

const citationShape = z.strictObject({
  type: z.literal('citation'),
  reference_id: STRING.regex(UUID_PATTERN, { error: 'must be a reference id (UUID)' }),
  label: STRING.default(''),
  children: VOID_CHILDREN,
});

export interface CitationNode extends ShapeFields<typeof citationShape> {
  children: VoidChildren;
}

const citation: NodeHandler<CitationNode, typeof citationShape> = {
  standsIn: ['inline', 'link'],
  shape: citationShape,
  input(fields, step) {
    step.out.push({ type: 'citation', reference_id: fields.reference_id, label: fields.label, children: voidChildren(fields.children, step.path) });
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
      const names = b.ctx.names;
      const referenceId = names ? names.reference(meta.reference_id) : meta.reference_id;
      if (referenceId === undefined) throw targetNotFound('REFERENCE_NOT_FOUND', b.ctx.at(b.line), meta.reference_id);
      b.pushNode({ type: 'citation', reference_id: referenceId, label: meta.label, children: [b.leaf('')] });
      return k;
    },
  },
  plugin: (md) => md.inline.ruler.before('link', 'citation', citationRule),
  syntax: () => [{ construct: 'reference citation', form: '[[ref:<reference_id>|<label>]]' }],
};
