/**
 * Turns what a call names (an anchor in markdown, an `elements[]` entry) into element nodes: a key creates
 * a node with a fresh id, an id keeps a node of the previous body, and entries edit what they name.
 * Markdown alone never creates an element (authoring-interface.md, Body syntax rule 1).
 */
import { pathText, WaymarkError } from '../errors.js';
import { checkItems, ELEMENTS, ELEMENT_TYPES, validateElementProps, validateItemFields, type ElementType } from './elements/index.js';
import { itemLineForm } from './elements/forms.js';
import { itemFields, type CheckedEntry, type ItemEntry } from './entries.js';
import type { BodyIndex } from './body-index.js';
import { parser } from './markdown/md.js';
import { invalid, unsupported, type Place, type SourceLine } from './problems.js';
import { emptyVoidChildren, type BlockNode, type ElementItem, type ElementNode, type InlineElementNode, type InlineNode } from './slate.js';
import { quote } from '../quote.js';
import { UUID_PATTERN } from './ids.js';

/** An element line as the parser read it. */
export interface ElementLine extends SourceLine {
  type: ElementType;
  ref: string;
  /** The label written on the line, or undefined when the line has none. */
  label?: string;
  /** The item lines under it, or undefined when none were written. */
  items?: ItemLine[];
}

export interface ItemLine extends SourceLine {
  ref: string;
  /** The item's text (dropdown: its name) as written on the line. */
  itemText: string;
  /** What stood before the anchor: `[ ]`, `( )` or nothing. */
  marker: 'checkbox' | 'radio' | 'none';
  /** `[x]` / `(x)` state; undefined for dropdown items, which have no marker. */
  checked?: boolean;
}

/** What a link or image anchor names: a link or image node, or an inline element (written as a link). */
export type LinkAnchor = { kind: 'node'; id: string } | { kind: 'element'; type: ElementType; id: string; props: Record<string, unknown> };

/**
 * An inline element's url given in props, stored as the markdown parser stores a link destination
 * (normalised, as slateToBody does too): get_bit prints it in the body, and writing that back must not change it.
 */
function storedUrl(type: ElementType, props: Record<string, unknown>): Record<string, unknown> {
  return isInline(type) && typeof props.url === 'string' ? { ...props, url: parser().normalizeLink(props.url) } : props;
}

function isInline(type: ElementType): boolean {
  return ELEMENTS[type].placement === 'inline';
}

/** The element types written as a link inside a sentence. */
function inlineTypes(): string {
  return ELEMENT_TYPES.filter(isInline).join(', ');
}

/** An element that stands on its own (appended at the end of a body): an inline one in a paragraph of its own. */
export function standingAlone(node: ElementNode): BlockNode {
  return isInline(node.type) ? { type: 'p', children: [node as InlineElementNode] } : node;
}

/** Applies a props patch: a value replaces, `null` removes the prop, `undefined` is ignored. */
export function patchProps(base: Record<string, unknown>, patch: Record<string, unknown> | undefined): Record<string, unknown> {
  const out = { ...base };
  for (const [k, v] of Object.entries(patch ?? {})) {
    if (v === null) delete out[k];
    else if (v !== undefined) out[k] = v;
  }
  return out;
}

/**
 * An entry that edits one item answered on its own (`id` the item, `parent_element_id` its element, fields
 * in `props`) becomes an item edit of an entry for the element, so one path handles both spellings.
 */
function foldItemEntries(entries: readonly CheckedEntry[], at: WeakMap<object, string>): CheckedEntry[] {
  const out: CheckedEntry[] = [];
  const byId = new Map<string, CheckedEntry>();
  entries.forEach((e, i) => {
    if (e.id !== undefined && e.parent_element_id !== undefined) return;
    const copy: CheckedEntry = { ...e, ...(e.parent_element_id !== undefined ? { id: e.parent_element_id } : {}) };
    delete copy.parent_element_id;
    const path = pathText([i], 'elements');
    at.set(copy, path);
    copy.items?.forEach((item, j) => at.set(item, pathText(['items', j], path)));
    out.push(copy);
    if (copy.id !== undefined) byId.set(copy.id, copy);
  });
  for (const [i, e] of entries.entries()) {
    if (e.id === undefined || e.parent_element_id === undefined) continue;
    const item: ItemEntry = { ...(e.props ?? {}), id: e.id };
    at.set(item, pathText([i, 'props'], 'elements'));
    let list = byId.get(e.parent_element_id);
    if (!list) {
      list = { type: e.type, id: e.parent_element_id };
      byId.set(e.parent_element_id, list);
      out.push(list);
    }
    list.items = [...(list.items ?? []), item];
  }
  return out;
}

export class ElementResolver {
  readonly minted: Record<string, string> = {};
  private readonly byKey = new Map<string, CheckedEntry>();
  private readonly byId = new Map<string, CheckedEntry>();
  private readonly usedKeys = new Set<string>();
  private readonly placed = new Set<string>();
  /** Where each entry and item stood in the call's `elements[]`: error paths name it so (`elements[2].items[0]`). */
  private readonly at = new WeakMap<object, string>();

  constructor(
    entries: readonly CheckedEntry[],
    private readonly previous: BodyIndex,
    private readonly newId: () => string,
    /** An unknown anchor is the id of a new link or image (ConvertOptions.adoptAnchors). */
    private readonly adoptAnchors = false,
  ) {
    for (const e of foldItemEntries(entries, this.at)) {
      if (e.key !== undefined) this.byKey.set(e.key, e);
      else if (e.id !== undefined) this.byId.set(e.id, e);
    }
  }

  /** The path of an entry or item of `elements[]` (an item list made up from item entries has none of its own). */
  private pathOf(entry: object | undefined): string {
    return (entry && this.at.get(entry)) ?? 'elements';
  }

  private useKey(key: string, at: Place): string {
    if (this.usedKeys.has(key)) throw invalid(at, `key '${quote(key)}' is written more than once; each key is used once`);
    this.usedKeys.add(key);
    const id = this.newId();
    this.minted[key] = id;
    return id;
  }

  /** Records that a kept node is in the new body; a node written twice is refused. */
  place(id: string, at: Place): void {
    if (this.placed.has(id)) throw invalid(at, `node ${quote(id)} is written more than once`);
    this.placed.add(id);
  }

  /** The element of an element line (authoring-interface.md, Body syntax; CONTRACT.md, "Body forms"). */
  resolveLine(line: ElementLine): ElementNode {
    const def = ELEMENTS[line.type];
    if (def.placement === 'inline') {
      throw unsupported(line, `${line.type} is written as a link inside a sentence: [<text>](<url> "<anchor>")`);
    }
    let entry = this.byKey.get(line.ref);
    let id: string;
    let stored: ElementNode | undefined;
    if (entry) {
      if (entry.type !== line.type) throw invalid(line, `key '${quote(line.ref)}' is a ${entry.type} entry, but the line says ${line.type}`);
      id = this.useKey(line.ref, line);
    } else {
      entry = this.byId.get(line.ref);
      const found = this.previous.get(line.ref);
      if (!found) {
        if (entry) throw notFound(line.ref);
        throw unsupported(
          line,
          `'${line.ref}' names no elements[] entry (by key) and no element of this bit; markdown alone never creates an element: add an elements[] entry with this key`,
        );
      }
      if (found.kind !== 'element') throw unsupported(line, `'${quote(line.ref)}' names a ${found.kind} node, not an element`);
      stored = found.node;
      if (stored.type !== line.type) throw invalid(line, `element ${quote(line.ref)} is a ${stored.type}, but the line says ${line.type}`);
      id = line.ref;
      this.place(id, line);
    }
    // A kept element written back as it was needs no new validation: its stored props were validated.
    if (stored && !entry && (line.label === undefined || (def.hasLabel && line.label === stored.props.label))) {
      const node: ElementNode = { type: line.type, id, props: { ...stored.props }, children: emptyVoidChildren() };
      if (def.items) node.items = this.resolveItems(line.type, undefined, stored.items, line.items, line);
      else if (line.items) throw unsupported(line.items[0], `${line.type} has no items`);
      return node;
    }
    let props = patchProps(stored?.props ?? {}, entry?.props);
    if (line.label !== undefined) {
      if (!def.hasLabel) throw invalid(line, `${line.type} has no label: write [${line.type}](<anchor>)`);
      const given = entry?.props?.label;
      if (given !== undefined && given !== null && (typeof given === 'string' ? given.trim() : given) !== line.label) {
        throw invalid(line, `the label on the line ('${line.label}') and props.label ('${String(given)}') differ; give it in one place`);
      }
      props.label = line.label;
    }
    props = validateElementProps(line.type, props, entry ? `${this.pathOf(entry)}.props` : `bit_body line ${line.line}`);
    const node: ElementNode = { type: line.type, id, props, children: emptyVoidChildren() };
    if (def.items) node.items = this.resolveItems(line.type, entry, stored?.items, line.items, line);
    else if (line.items) throw unsupported(line.items[0], `${line.type} has no items`);
    return node;
  }

  private resolveItems(
    type: ElementType,
    entry: CheckedEntry | undefined,
    stored: readonly ElementItem[] | undefined,
    lines: readonly ItemLine[] | undefined,
    at: SourceLine,
  ): ElementItem[] {
    const items = ELEMENTS[type].items!;
    if (!entry) return this.keptItems(type, stored ?? [], lines ?? [], at);
    const entryItems = entry.items ?? [];
    const byKey = new Map(entryItems.filter((i) => i.key !== undefined).map((i) => [i.key!, i]));
    const byId = new Map(entryItems.filter((i) => i.id !== undefined).map((i) => [i.id!, i]));
    const storedById = new Map((stored ?? []).map((i) => [i.id, i]));
    const out: ElementItem[] = [];
    const placedKeys = new Set<string>();
    const placedIds = new Set<string>();
    for (const line of lines ?? []) {
      if (line.marker !== items.marker) {
        throw unsupported(line, `an item of a ${type} is written ${itemLineForm(ELEMENTS[type])}`);
      }
      let id: string;
      let fields: Record<string, unknown>;
      let given: Record<string, unknown>;
      const keyed = byKey.get(line.ref);
      if (keyed) {
        id = this.useKey(line.ref, line);
        placedKeys.add(line.ref);
        given = itemFields(keyed);
        fields = { ...given };
      } else if (storedById.has(line.ref)) {
        id = line.ref;
        this.place(id, line);
        placedIds.add(id);
        given = itemFields(byId.get(id) ?? {});
        fields = patchProps(itemFields(storedById.get(id)!), given);
      } else {
        throw unsupported(
          line,
          `'${line.ref}' names no item key of this ${type}'s elements[] entry and no item of it; add the item to the entry's items with this key`,
        );
      }
      const field = items.textField;
      const givenText: unknown = given[field];
      if (givenText !== undefined && givenText !== null && line.itemText !== (typeof givenText === 'string' ? givenText.trim() : givenText)) {
        throw invalid(line, `the item text on the line ('${line.itemText}') and ${field} ('${String(given[field])}') differ; give it in one place`);
      }
      fields[field] = line.itemText;
      if (line.checked !== undefined) {
        if (typeof given.checked === 'boolean' && given.checked !== line.checked) {
          throw invalid(line, `the line marks the item ${line.checked ? 'checked' : 'unchecked'} but checked is ${String(given.checked)}`);
        }
        fields.checked = line.checked;
      }
      out.push({ id, ...validateItemFields(type, fields, `bit_body line ${line.line}`) });
    }
    for (const [key, item] of byKey) {
      if (placedKeys.has(key)) continue;
      const fields = validateItemFields(type, itemFields(item), this.pathOf(item));
      out.push({ id: this.useKey(key, this.pathOf(item)), ...fields });
    }
    for (const id of byId.keys()) {
      if (placedIds.has(id)) continue;
      if (!storedById.has(id)) throw notFound(id, 'item');
      throw invalid(at, `item ${quote(id)} is edited in elements[] but its line is not under the element; write it back or list it in remove_node_ids`);
    }
    checkItems(type, out, entry ? this.pathOf(entry) : `bit_body line ${at.line}`);
    return out;
  }

  /** Items of a kept element without an entry: each line names a stored item; its line sets text and state. */
  private keptItems(type: ElementType, stored: readonly ElementItem[], lines: readonly ItemLine[], at: SourceLine): ElementItem[] {
    const items = ELEMENTS[type].items!;
    const out: ElementItem[] = [];
    for (const line of lines) {
      if (line.marker !== items.marker) throw unsupported(line, `an item of a ${type} is written ${itemLineForm(ELEMENTS[type])}`);
      const found = this.previous.get(line.ref);
      if (!found || found.kind !== 'item' || !stored.includes(found.node)) {
        throw unsupported(line, `'${line.ref}' names no item of this ${type}; a new item needs an elements[] entry for the ${type} with the item's key`);
      }
      this.place(line.ref, line);
      if (line.itemText === '') throw invalid(line, `an item's ${items.textField} cannot be empty`);
      const item: ElementItem = { ...found.node, [items.textField]: line.itemText };
      if (line.checked !== undefined) item.checked = line.checked;
      out.push(item);
    }
    checkItems(type, out, `element at line ${at.line}`);
    return out;
  }

  /**
   * The node a link or image anchor names; a link or image without an anchor is new. A link's anchor can
   * name an inline element (or its entry): the link is that element, its destination the element's url.
   */
  resolveAnchor(kind: 'a' | 'img', ref: string | null, url: string, at: SourceLine): LinkAnchor {
    if (ref === null) return { kind: 'node', id: this.newId() };
    const entry = this.byKey.get(ref) ?? this.byId.get(ref);
    const found = this.previous.get(ref);
    if (entry) {
      if (!isInline(entry.type) || kind !== 'a') {
        throw invalid(at, `anchor '${ref}' names a ${entry.type} entry; only ${inlineTypes()} is written as a link`);
      }
      let id: string;
      let base: Record<string, unknown> = {};
      if (entry.key !== undefined) id = this.useKey(ref, at);
      else {
        if (!found || found.kind !== 'element' || found.node.type !== entry.type) throw notFound(ref);
        id = ref;
        this.place(id, at);
        base = found.node.props;
      }
      const given = entry.props?.url;
      let destination = url;
      if (typeof given === 'string') {
        const wanted = parser().normalizeLink(given);
        // update_bit rules 2 and 3: the anchor is written back as get_bit printed it, so a body that keeps the
        // stored destination says nothing about the url, and props.url sets it. Only a destination changed in
        // the body and a different props.url are two answers to one question.
        const keptDestination = entry.key === undefined && base.url === url;
        if (wanted !== url && !keptDestination) {
          throw invalid(at, `the link's destination (${url}) and props.url (${given}) differ; give it in one place`);
        }
        destination = wanted;
      }
      return { kind: 'element', type: entry.type, id, props: validateElementProps(entry.type, { ...patchProps(base, entry.props), url: destination }) };
    }
    if (found?.kind === 'element' && isInline(found.node.type) && kind === 'a') {
      this.place(ref, at);
      // A destination changed on a kept anchor is applied (update_bit rule 3).
      return { kind: 'element', type: found.node.type, id: ref, props: validateElementProps(found.node.type, { ...found.node.props, url }) };
    }
    if (found && found.kind === kind) {
      this.place(ref, at);
      return { kind: 'node', id: ref };
    }
    if (found) throw unsupported(at, `anchor '${ref}' names a ${found.kind === 'element' ? found.node.type : found.kind} node, not ${kind === 'a' ? 'a link' : 'an image'}`);
    if (this.adoptAnchors && UUID_PATTERN.test(ref)) {
      this.place(ref, at);
      return { kind: 'node', id: ref };
    }
    throw unsupported(
      at,
      `anchor '${ref}' names no node of this bit and no elements[] entry; remove the anchor from the title to add a new ${kind === 'a' ? 'link' : 'image'}`,
    );
  }

  /**
   * Entries the markdown did not place: a key entry becomes a new node appended at the end of the body
   * (as applyElementEdits does); an id entry whose line was left out is refused.
   */
  unplaced(): Array<{ entry: CheckedEntry; node: ElementNode }> {
    const out: Array<{ entry: CheckedEntry; node: ElementNode }> = [];
    for (const [key, entry] of this.byKey) {
      if (this.usedKeys.has(key)) continue;
      out.push({ entry, node: this.newFromEntry(entry) });
    }
    for (const id of this.byId.keys()) {
      if (this.placed.has(id)) continue;
      if (!this.previous.has(id)) throw notFound(id);
      throw invalid(this.pathOf(this.byId.get(id)), `element ${id} is edited but its line is not in bit_body; write it back as get_bit returned it`);
    }
    return out;
  }

  /** A new element from a key entry alone (no line). */
  newFromEntry(entry: CheckedEntry): ElementNode {
    const type = entry.type;
    const at = this.pathOf(entry);
    const id = this.useKey(entry.key!, at);
    const props = storedUrl(type, validateElementProps(type, patchProps({}, entry.props), `${at}.props`));
    const node: ElementNode = { type, id, props, children: emptyVoidChildren() };
    // An inline element made from its entry alone shows its url as its text.
    if (isInline(type)) node.children = [{ text: String(props.url) }] as InlineNode[];
    if (ELEMENTS[type].items) {
      node.items = (entry.items ?? []).map((item) => {
        const fields = validateItemFields(type, itemFields(item), this.pathOf(item));
        if (item.key === undefined) throw invalid(`${at}.items`, 'items of a new element are new: give each a key');
        return { id: this.useKey(item.key, this.pathOf(item)), ...fields };
      });
      checkItems(type, node.items, at);
    }
    return node;
  }

  /** Edits a stored element in place from its id entry (update_bit without bit_body, rule 5). */
  editInPlace(node: ElementNode, entry: CheckedEntry): void {
    const path = this.pathOf(entry);
    if (entry.type !== node.type) throw invalid(`${path}.type`, `element ${node.id} is a ${node.type}`);
    node.props = storedUrl(node.type, validateElementProps(node.type, patchProps(node.props, entry.props), `${path}.props`));
    if (!ELEMENTS[node.type].items) return;
    const items = [...(node.items ?? [])];
    for (const item of entry.items ?? []) {
      const at = this.pathOf(item);
      if (item.key !== undefined) {
        const fields = validateItemFields(node.type, itemFields(item), at);
        items.push({ id: this.useKey(item.key, at), ...fields });
        continue;
      }
      const i = items.findIndex((s) => s.id === item.id);
      if (i < 0) throw notFound(String(item.id), 'item');
      const { id, ...stored } = items[i];
      items[i] = { id, ...validateItemFields(node.type, patchProps(stored, itemFields(item)), at) };
    }
    checkItems(node.type, items, path);
    node.items = items;
  }

  /** Id entries, for applyElementEdits. */
  idEntries(): IterableIterator<[string, CheckedEntry]> {
    return this.byId.entries();
  }

  keyEntries(): IterableIterator<CheckedEntry> {
    return this.byKey.values();
  }
}

function notFound(id: string, what: 'element' | 'item' = 'element'): WaymarkError {
  return new WaymarkError('ELEMENT_NOT_FOUND', `this bit has no ${what} ${quote(id)}; read the bit with get_bit for its element ids`, { element_id: quote(id) });
}
