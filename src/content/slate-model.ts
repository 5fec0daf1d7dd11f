/**
 * The Slate node model as describe_platform teaches it (issue 13): what an agent writes in reference_content
 * (references take Slate only) and in a bit_body sent with content_format "slate". Derived, never written a
 * second time: each node type's fields from its construct's shape, what its children may be from where each
 * type stands (`standsIn`) and what each holds (`holds`), the marks from MARKS, and the example from the real
 * converter, reading a few lines of markdown.
 */
import type { z } from 'zod';
import { isOptional, notation } from '../zod-issues.js';
import { CONSTRUCTS, type ConstructRegistry } from './constructs/index.js';
import { VOID_CHILDREN } from './constructs/input.js';
import type { Place } from './constructs/types.js';
import { ELEMENT_TYPES, ELEMENTS } from './elements/index.js';
import { markdownToBody } from './markdown/convert.js';
import { MARKS, type SlateNode } from './slate.js';
import { BIT_BODY_ONLY } from './slate-input.js';

export interface SlateModel {
  /** A text leaf with its marks. */
  text: string;
  /** Each node type (types alike share an entry): its fields, and `children` as the place they stand in (a key of `holds`), or the one empty text of a void. */
  nodes: Record<string, string>;
  /** Each place: what may stand there. */
  holds: Record<string, string>;
  /** A small body, as the converter makes it from markdown (ids left out: a new node needs none). */
  example: SlateNode[];
}

/** Markdown for the example: a heading, marks, a link, a list (its item holds a paragraph) and an image. */
const EXAMPLE = '## Steps\n\nRead **this** and the [guide](https://example.com/guide).\n\n- Check the *seal*\n\n![Seal](https://example.com/seal.png)\n';

const TEXT_PLACES: readonly Place[] = ['inline', 'link', 'code'];

export function describeSlateModel(constructs: ConstructRegistry = CONSTRUCTS): SlateModel {
  const handlers = constructs.nodeHandlers();
  // Types of the same description share one entry (`h1, h2, …`): the model stays short.
  const byDescription = new Map<string, string[]>();
  for (const [type, handler] of handlers) {
    const shape = (handler.shape as z.ZodObject).shape as Record<string, z.core.$ZodType>;
    const fields = Object.entries(shape)
      .filter(([name]) => name !== 'type' && name !== 'children')
      .map(([name, schema]) => `${name}${isOptional(schema) ? '?' : ''}: ${notation(schema, 1)}`);
    // No place of its own: a void (its one empty text) or a node that reads its text itself (a code line).
    fields.push(`children: ${handler.holds ? `[${handler.holds}]` : shape.children === VOID_CHILDREN ? '[{ text: "" }]' : '[text]'}`);
    const description = fields.join(', ');
    byDescription.set(description, [...(byDescription.get(description) ?? []), type]);
  }
  const nodes = Object.fromEntries([...byDescription].map(([description, types]) => [types.join(', '), description]));
  const holds: Record<string, string> = {};
  const places = [...new Set(handlers.flatMap(([, h]) => (h.holds ? [h.holds] : [])).concat('block'))];
  for (const place of places) {
    const types = handlers.filter(([, h]) => h.standsIn.includes(place)).map(([type]) => type);
    const elements = ELEMENT_TYPES.filter((t) => (ELEMENTS[t].placement === 'inline' ? place === 'inline' : place === 'block' || place === 'li'));
    holds[place] = [
      ...(TEXT_PLACES.includes(place) ? ['text'] : []),
      ...types.map((type) => (BIT_BODY_ONLY.includes(type) ? `${type} (bit_body only)` : type)),
      ...(elements.length > 0 ? [`elements (${elements.length > 2 ? 'element_types' : elements.join(', ')}; bit_body only)`] : []),
    ].join(', ');
  }
  return { text: `{ text: string, ${MARKS.map((m) => `${m}?: true`).join(', ')} }`, nodes, holds, example: withoutIds(markdownToBody(EXAMPLE).body.children) };
}

function withoutIds(nodes: readonly SlateNode[]): SlateNode[] {
  return JSON.parse(JSON.stringify(nodes, (key, value: unknown) => (key === 'id' ? undefined : value))) as SlateNode[];
}
