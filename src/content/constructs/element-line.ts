/**
 * Element line: an interactive element placed as a block (every element type whose definition says
 * `placement: 'block'`), a void written `[<type>: <label>](waymark-node:<key-or-id>)` on a line of its own,
 * with its item lines right under it when the type has items. What the element is (props, items, answers)
 * is its definition's (../elements/); this is only how it stands in a body.
 */
import type { Token } from 'markdown-it';
import { z } from 'zod';
import { nodeScheme } from '../../brand.js';
import { checkItems, ELEMENTS, ELEMENT_TYPES, isElementType, validateElementProps, validateItemFields, type ElementDefinition } from '../elements/index.js';
import { anchorOf, elementLineForm, itemLineForm, itemMarkerForm } from '../elements/forms.js';
import type { ParseContext } from '../markdown/context.js';
import { escapeInline, escapeLineEnd, escapeLineStart } from '../markdown/escape.js';
import { matchItemLine, startsItemList, type LinkLine } from '../markdown/lines.js';
import { invalid, unsupported } from '../problems.js';
import { quote } from '../../quote.js';
import type { ItemLine } from '../resolve.js';
import type { BlockNode, ElementItem, ElementNode, SlateNode } from '../slate.js';
import { CHILDREN, emptyText, ID, isObj, normalizeUrl, VOID_CHILDREN, voidChildren } from './input.js';
import { LABEL_TEXT } from './text-contexts.js';
import type { BlockWriter, InputStep, NodeHandler, Obj } from './types.js';

/** An element's handler, but its shape: that is its type's (elementShape), given where the type is looked up (./index.ts). */
export type ElementHandler = Omit<NodeHandler<ElementNode, ReturnType<typeof elementShape>>, 'shape'>;

function lineOf(t: Token): number {
  return t.map ? t.map[0] + 1 : 1;
}

/** The element of an element line; the resolver makes it from its entry or the stored element. */
export function elementFromLine(ctx: ParseContext, match: LinkLine, line: number, items: ItemLine[] | undefined): BlockNode {
  const text = match.text.trim();
  const colon = text.indexOf(':');
  const type = (colon < 0 ? text : text.slice(0, colon)).trim();
  const label = colon < 0 ? '' : text.slice(colon + 1).trim();
  if (!isElementType(type)) {
    throw unsupported(ctx.at(line), `'${quote(type)}' is not an element type; an element line is [<type>: <label>](${ctx.anchorPrefix}<key>) with type one of ${ELEMENT_TYPES.join(', ')}`);
  }
  const ref = match.href.slice(ctx.anchorPrefix.length);
  if (ref === '') throw unsupported(ctx.at(line), `the anchor needs a key or an id after ${ctx.anchorPrefix}`);
  return ctx.resolver.resolveLine(Object.assign(ctx.at(line), { type, ref, ...(label !== '' ? { label } : {}), ...(items ? { items } : {}) }));
}

/** How each element type with items writes an item line, for the message that refuses another line. */
function itemLineForms(): string {
  const forms = ELEMENT_TYPES.flatMap((t) => (ELEMENTS[t].items ? [`"${itemLineForm(ELEMENTS[t])}" (${t})`] : []));
  return forms.length > 1 ? `${forms.slice(0, -1).join(', ')} or ${forms[forms.length - 1]}` : (forms[0] ?? '');
}

/**
 * The item list right under an element line: a bullet list whose first item is an item line. Every item
 * must then be an item line and nothing else. Returns the items and the list's close token index.
 */
export function itemListAfter(ctx: ParseContext, tokens: readonly Token[], i: number): { items: ItemLine[]; end: number } | null {
  const open = tokens[i];
  if (!open || open.type !== 'bullet_list_open') return null;
  if (tokens[i + 1]?.type !== 'list_item_open' || tokens[i + 2]?.type !== 'paragraph_open') return null;
  if (!startsItemList(ctx.inline(tokens[i + 3]), ctx.anchorPrefix)) return null;
  const items: ItemLine[] = [];
  let k = i + 1;
  while (tokens[k].type === 'list_item_open') {
    const line = lineOf(tokens[k]);
    const shape =
      tokens[k + 1]?.type === 'paragraph_open' && tokens[k + 3]?.type === 'paragraph_close' && tokens[k + 4]?.type === 'list_item_close';
    const match = shape ? matchItemLine(ctx.inline(tokens[k + 2]), ctx.anchorPrefix) : null;
    if (!match) throw unsupported(ctx.at(line), `an item line under an element is ${itemLineForms()}, alone in its item`);
    items.push(Object.assign(ctx.at(line), { ref: match.ref, itemText: match.text.trim(), marker: match.marker, ...(match.marker !== 'none' ? { checked: match.checked } : {}) }));
    k += 5;
  }
  return { items, end: k };
}

/** A label stays on its element's line: a newline in it is written as a reference. */
function oneLine(escaped: string): string {
  return escaped.includes('\n') ? escaped.replace(/\n/g, '&#xA;') : escaped;
}

function writeElement(node: ElementNode, w: BlockWriter): void {
  const def = ELEMENTS[node.type];
  const label = typeof node.props.label === 'string' && node.props.label !== '' && def.hasLabel ? `: ${oneLine(escapeInline(node.props.label, LABEL_TEXT))}` : '';
  const required = node.props.required === true ? ' (required)' : '';
  w.line(`[${node.type}${label}](${anchorOf(node.id)})${required}`);
  if (!def.items) return;
  const field = def.items.textField;
  for (const item of node.items ?? []) {
    let marker = itemMarkerForm(def);
    if (item.checked === true) marker = marker.replace(' ]', 'x]').replace(' )', 'x)');
    const text = oneLine(escapeLineEnd(escapeLineStart(escapeInline(String(item[field] ?? ''), LABEL_TEXT))));
    w.line(`- ${marker}[${text}](${anchorOf(item.id)})${item.required === true ? ' *(required)*' : ''}`);
  }
}

/** The fields of an element node in a Slate input, whatever its type. */
export interface ElementFields {
  type: string;
  props?: Obj | undefined;
  id?: string | null | undefined;
  items?: unknown[] | undefined;
  children?: unknown;
}

/**
 * The Slate shape of an element of type `def`: its props and items are the definition's (checked against it
 * once the shape holds); `items` only on a type with items; a block element is a void, an inline one holds
 * its link text.
 */
export function elementShape(def: ElementDefinition) {
  const fields = { type: z.literal(def.type), props: z.custom<Obj>(isObj, { error: 'must be an object' }).optional(), id: ID };
  const children = def.placement === 'inline' ? CHILDREN : VOID_CHILDREN;
  return def.items ? z.strictObject({ ...fields, items: z.array(z.unknown(), { error: 'must be an array' }).optional(), children }) : z.strictObject({ ...fields, children });
}

/** An element of a Slate input, for either placement, from its checked shape: props and items checked against the definition. */
export function elementInput(fields: ElementFields, step: InputStep, def: ElementDefinition): void {
  const { path } = step;
  const type = def.type;
  const props = validateElementProps(type, fields.props ?? {}, `${path}.props`);
  // An inline element is written as a link: its url is stored as the markdown parser stores a destination.
  if (def.placement === 'inline') props.url = normalizeUrl(String(props.url));
  const node: ElementNode = { type, id: step.claimId(fields.id, `${path}.id`), props, children: [] as SlateNode[] as ElementNode['children'] };
  if (def.items) {
    node.items = (fields.items ?? []).map((item: unknown, i: number): ElementItem => {
      const ip = `${path}.items[${i}]`;
      if (!isObj(item)) throw invalid(ip, 'must be an object');
      const { id, ...itemFields } = item;
      return { id: step.claimId(id, `${ip}.id`), ...validateItemFields(type, itemFields, ip) };
    });
    checkItems(type, node.items, path);
  }
  step.out.push(node);
  if (def.placement === 'inline') step.children(fields.children, node.children as SlateNode[], step.depth, emptyText());
  else node.children = voidChildren(fields.children as [Obj] | undefined, path);
}

/** An element's entries in the inventory: the element, and each of its items by id. */
export function elementInventory(element: ElementNode, label: string | null, out: Map<string, { id: string; type: string; label: string | null }>): boolean {
  out.set(element.id, { id: element.id, type: element.type, label });
  const field = ELEMENTS[element.type].items?.textField;
  for (const item of element.items ?? []) {
    out.set(item.id, { id: item.id, type: `${element.type}-item`, label: field ? String(item[field] ?? '') : null });
  }
  return false;
}

export const elementLine: ElementHandler = {
  standsIn: ['block', 'li'],
  input: (fields, step) => elementInput(fields, step, ELEMENTS[fields.type as ElementNode['type']]),
  render: {
    block: {
      block: (node, _task, w) => writeElement(node, w),
      endsWithItems: (node) => ELEMENTS[node.type].items !== undefined && (node.items?.length ?? 0) > 0,
    },
  },
  // An element is a question to answer, not prose.
  text: 'skip',
  inventory: (node, out) => elementInventory(node, typeof node.props.label === 'string' ? node.props.label : null, out),
};

/** describe_platform's entries for element lines, inline elements and item lines, from the definitions. */
export function elementLineSyntax(): Array<{ construct: string; form: string; notes?: string }> {
  const a = `${nodeScheme}:`;
  const blocks = ELEMENT_TYPES.filter((t) => ELEMENTS[t].placement === 'block');
  const unlabelled = blocks.filter((t) => !ELEMENTS[t].hasLabel);
  return [
    {
      construct: 'element',
      form: `[<type>: <label>](${a}<key-or-id>)`,
      notes: `${unlabelled.join(', ')}: [<type>](${a}<key-or-id>); the label may be given in props.label instead; " (required)" after the line is printed for required elements and ignored on input`,
    },
    ...ELEMENT_TYPES.filter((t) => ELEMENTS[t].placement === 'inline').map((t) => ({ construct: `${t} element`, form: elementLineForm(ELEMENTS[t], '<key-or-id>') })),
    ...blocks.flatMap((t) => {
      const def = ELEMENTS[t];
      const form = itemLineForm(def, '<key-or-id>');
      return def.items && form ? [{ construct: `${t} item`, form, ...(def.items.syntaxNotes ? { notes: def.items.syntaxNotes } : {}) }] : [];
    }),
  ];
}
