/**
 * The step form's body renderer (web/step-form/body.tsx) over the stored form's every node type: a node of each
 * type of the construct registry, and of each element type, taken from the constructs' fixtures (Slate beside
 * markdown, src/content/constructs/*.fixtures.ts) and the all-elements step, renders something a person
 * sees: its text, or a visible element of its own (a rule, an image). Rendered as Preact's virtual nodes, walked
 * here the way the DOM would receive them. Typechecked with the web app (web/tsconfig.json: Preact's JSX and the DOM).
 */
import { describe, expect, test } from 'vitest';
import type { ComponentChild, VNode } from 'preact';
import { h } from 'preact';
import { ELEMENT_TYPES, markdownToBody } from '../../src/content/index.js';
import { CONSTRUCT_FIXTURES } from '../../src/content/constructs/fixtures.js';
import { walk, type SlateNode } from '../../src/content/slate.js';
import { RENDERED_NODE_TYPES, renderNode, type BodyHooks } from '../../web/step-form/body.js';
import { ALL_ELEMENTS_ENTRIES, ALL_ELEMENTS_MARKDOWN } from './step-fixture.js';

const hooks: BodyHooks = {
  topHeading: 1,
  element: (node, placement) => h('span', { 'data-element': node.type, 'data-placement': placement }, node.type),
  connection: (node) => h('p', null, `→ ${node.label ?? node.target_bit_id}`),
};

/** Tags that show something with no text inside them. */
const VISIBLE_VOIDS = new Set(['hr', 'img']);

interface Seen {
  text: string;
  tags: string[];
}

function seen(child: ComponentChild, into: Seen = { text: '', tags: [] }): Seen {
  if (child === null || child === undefined || typeof child === 'boolean') return into;
  if (typeof child === 'string' || typeof child === 'number' || typeof child === 'bigint') {
    into.text += String(child);
    return into;
  }
  if (Array.isArray(child)) {
    for (const c of child) seen(c as ComponentChild, into);
    return into;
  }
  const vnode = child as VNode<{ children?: ComponentChild; alt?: string }>;
  if (typeof vnode.type === 'string') into.tags.push(vnode.type);
  if (vnode.type === 'img') into.text += vnode.props.alt ?? '';
  return seen(vnode.props.children, into);
}

/** Every node of the fixtures, by type: constructs' Slate, and a body with every element type. */
function nodesByType(): Map<string, SlateNode[]> {
  const out = new Map<string, SlateNode[]>();
  const add = (nodes: SlateNode[]) =>
    walk(nodes, (node) => {
      const type = (node as { type?: string }).type;
      if (type !== undefined) out.set(type, [...(out.get(type) ?? []), node]);
    });
  for (const fixture of CONSTRUCT_FIXTURES) add(fixture.slate as SlateNode[]);
  add(markdownToBody(ALL_ELEMENTS_MARKDOWN, { elements: ALL_ELEMENTS_ENTRIES }).body.children);
  // The fixtures show some heading levels only: the others are the same node at their level.
  const heading = [...out.entries()].find(([type]) => /^h[1-6]$/.test(type))?.[1][0];
  for (const level of ['h1', 'h2', 'h3', 'h4', 'h5', 'h6']) if (heading && !out.has(level)) out.set(level, [{ ...heading, type: level } as SlateNode]);
  return out;
}

describe('the body renderer', () => {
  const nodes = nodesByType();

  test('has a renderer for every node type of the fixtures, and a fixture for every type it renders', () => {
    const fixtureTypes = [...nodes.keys()].filter((t) => !(ELEMENT_TYPES as readonly string[]).includes(t));
    expect(fixtureTypes.filter((t) => !RENDERED_NODE_TYPES.includes(t as never))).toEqual([]);
    expect(RENDERED_NODE_TYPES.filter((t) => !nodes.has(t))).toEqual([]);
    expect(ELEMENT_TYPES.filter((t) => !nodes.has(t))).toEqual([]);
  });

  test.each([...RENDERED_NODE_TYPES, ...ELEMENT_TYPES])('a %s node renders something visible', (type) => {
    for (const node of nodes.get(type) ?? []) {
      const out = seen(renderNode(node, hooks));
      const visible = out.text.trim() !== '' || out.tags.some((t) => VISIBLE_VOIDS.has(t));
      expect(visible, `${type}: ${JSON.stringify(node).slice(0, 200)}`).toBe(true);
    }
  });

  test('a node of a type it does not know shows its text, not nothing', () => {
    const out = seen(renderNode({ type: 'callout', children: [{ text: 'Mind the gap' }] } as unknown as SlateNode, hooks));
    expect(out.text).toBe('Mind the gap');
  });
});
