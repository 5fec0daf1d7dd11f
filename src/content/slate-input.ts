/**
 * slateToBody: a body given as Slate (content_format `slate`, and reference_content) → the stored body.
 * Slate is the complete document (update_bit rule 1): its shape is checked node by node, element props and
 * items against their definitions, urls for safety; missing ids are minted. Walked with an explicit stack,
 * since a client can send any depth.
 */
import { WaymarkError, validationError } from '../errors.js';
import { OutputBudget } from './budget.js';
import { connectionLabel } from './connections.js';
import { indexBody } from './body-index.js';
import { checkItems, isElementType, validateElementProps, validateItemFields, ELEMENTS } from './elements/index.js';
import { defaultNewId, UUID_PATTERN } from './ids.js';
import { LIMITS } from './limits.js';
import { CREDENTIAL_HANDLE } from './markdown/inline.js';
import { parser } from './markdown/md.js';
import { invalid } from './problems.js';
import { assertBodySize } from './size.js';
import {
  CONNECTION_FLAGS,
  HEADING_TYPES,
  MARKS,
  type BlockNode,
  type ConnectionNode,
  type ConnectionParams,
  type ElementItem,
  type ListNode,
  type SlateBody,
  type SlateNode,
  type TextLeaf,
} from './slate.js';
import { assertSafeUrl } from './url.js';
import { quote } from './quote.js';

/** Which children a place accepts. */
type Place = 'block' | 'li' | 'list' | 'inline' | 'link' | 'code' | 'table' | 'row' | 'cell';

const BLOCK_TYPES = new Set<string>(['p', ...HEADING_TYPES, 'blockquote', 'ul', 'ol', 'code_block', 'hr', 'table', 'bit-connection']);
const INLINE_TYPES = new Set<string>(['a', 'img', 'citation', 'credential', 'link-inline']);

type Obj = Record<string, unknown>;

interface Work {
  value: unknown;
  path: string;
  place: Place;
  out: SlateNode[];
  depth: number;
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function allows(place: Place, type: string): boolean {
  switch (place) {
    case 'block':
      return BLOCK_TYPES.has(type) || (isElementType(type) && ELEMENTS[type].placement === 'block');
    case 'li':
      return type === 'lic' || allows('block', type);
    case 'list':
      return type === 'li';
    case 'inline':
      return INLINE_TYPES.has(type);
    case 'link':
      return INLINE_TYPES.has(type) && type !== 'a' && type !== 'link-inline';
    case 'table':
      return type === 'tr';
    case 'row':
      return type === 'th' || type === 'td';
    case 'cell':
      return type === 'p';
    case 'code':
      return type === 'code_line';
  }
}

function onlyKeys(node: Obj, allowed: readonly string[], path: string): void {
  for (const k of Object.keys(node)) {
    if (!allowed.includes(k)) throw invalid(path, `unknown field '${quote(k)}' on a ${quote(String(node.type ?? 'text'))} node (allowed: ${allowed.join(', ')})`);
  }
}

function str(node: Obj, key: string, path: string, optional = false): string | undefined {
  const v = node[key];
  if (v === undefined && optional) return undefined;
  if (typeof v !== 'string') throw invalid(`${path}.${key}`, 'must be a string');
  return v;
}

function textLeaf(value: Obj, path: string, allowMarks: boolean): TextLeaf {
  onlyKeys(value, ['text', ...MARKS], path);
  const leaf: TextLeaf = { text: str(value, 'text', path)! };
  for (const m of MARKS) {
    const v = value[m];
    if (v === undefined || v === false) continue;
    if (v !== true) throw invalid(`${path}.${m}`, 'a mark is true or absent');
    if (allowMarks) leaf[m] = true;
  }
  return leaf;
}

/** A void's single empty text child; marks on it carry emphasis around an inline void. */
function voidChildren(value: Obj, path: string): [TextLeaf] {
  const children = value.children;
  if (children === undefined) return [{ text: '' }];
  if (!Array.isArray(children) || children.length !== 1 || !isObj(children[0]) || children[0].text !== '') {
    throw invalid(`${path}.children`, 'a void node holds exactly one empty text: [{"text": ""}]');
  }
  return [textLeaf(children[0], `${path}.children[0]`, true)];
}

export interface SlateInputOptions {
  previous?: SlateBody;
  newId?: () => string;
}

export function slateToBody(nodes: unknown, opts: SlateInputOptions = {}): SlateBody {
  const newId = opts.newId ?? defaultNewId;
  const input = isObj(nodes) && Array.isArray(nodes.children) ? nodes.children : nodes;
  if (!Array.isArray(input)) throw invalid('bit_body', 'a Slate body is an array of nodes (or {children: [...]})');
  const ids = new Set<string>();
  const connections: ConnectionNode[] = [];
  const lists: ListNode[] = [];
  const claimId = (value: unknown, path: string): string => {
    if (value === undefined || value === null) return newId();
    // Ids are UUIDs (authoring-interface.md, "Resources"): a made-up one would print as an anchor that the
    // markdown form cannot write back, or clash with an element key of the same text.
    if (typeof value !== 'string' || !UUID_PATTERN.test(value)) throw invalid(path, 'an id is a UUID as get_bit returned it; leave it out on a new node and one is made');
    if (ids.has(value)) throw invalid(path, `id ${quote(value)} is used by more than one node`);
    ids.add(value);
    return value;
  };

  const root: SlateNode[] = [];
  const stack: Work[] = [];
  for (let i = input.length - 1; i >= 0; i--) stack.push({ value: input[i], path: `bit_body[${i}]`, place: 'block', out: root, depth: 1 });

  const pushChildren = (value: Obj, path: string, place: Place, out: SlateNode[], depth: number, emptyFill?: SlateNode) => {
    const children = value.children;
    if (!Array.isArray(children)) throw invalid(`${path}.children`, 'must be an array of nodes');
    if (children.length === 0 && emptyFill) out.push(emptyFill);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ value: children[i], path: `${path}.children[${i}]`, place, out, depth });
  };

  // Each node is charged at least the 11 bytes of `{"text":""}`, and its text or url: an input that cannot fit
  // stops before the rest of it is checked and copied.
  const budget = new OutputBudget();
  while (stack.length > 0) {
    const { value, path, place, out, depth } = stack.pop()!;
    budget.spend(11, 1);
    if (depth > LIMITS.bodyDepth) {
      throw validationError([{ path, message: `the body is nested more than ${LIMITS.bodyDepth} deep; flatten it` }], undefined, { max_depth: LIMITS.bodyDepth });
    }
    if (!isObj(value)) throw invalid(path, 'must be a node object');
    if (value.type === undefined) {
      if (place !== 'inline' && place !== 'link' && place !== 'code') throw invalid(path, 'text belongs inside a paragraph, heading, cell or link');
      const leaf = textLeaf(value, path, place !== 'code');
      budget.spend(leaf.text.length);
      out.push(leaf);
      continue;
    }
    const type = value.type;
    if (typeof type !== 'string' || !allows(place, type)) {
      throw invalid(`${path}.type`, `a ${quote(String(type))} node cannot stand here`);
    }
    const empty = (): SlateNode => ({ text: '' });
    switch (type) {
      case 'p':
      case 'lic':
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6': {
        onlyKeys(value, ['type', 'children'], path);
        const node = { type, children: [] as SlateNode[] };
        out.push(node as SlateNode);
        pushChildren(value, path, 'inline', node.children, depth, empty());
        break;
      }
      case 'blockquote': {
        onlyKeys(value, ['type', 'children'], path);
        const node = { type, children: [] as SlateNode[] };
        out.push(node as SlateNode);
        pushChildren(value, path, 'block', node.children, depth + 1, { type: 'p', children: [{ text: '' }] });
        break;
      }
      case 'ul':
      case 'ol': {
        onlyKeys(value, ['type', 'children', ...(type === 'ol' ? ['start'] : [])], path);
        const start = value.start;
        if (start !== undefined && !(Number.isInteger(start) && (start as number) >= 0 && (start as number) <= 999_999_999)) {
          throw invalid(`${path}.start`, 'must be an integer from 0 to 999999999');
        }
        const node: ListNode = { type, ...(start !== undefined && start !== 1 ? { start: start as number } : {}), children: [] };
        out.push(node);
        lists.push(node);
        if (!Array.isArray(value.children) || value.children.length === 0) throw invalid(`${path}.children`, 'a list holds at least one li');
        pushChildren(value, path, 'list', node.children as SlateNode[], depth + 1);
        break;
      }
      case 'li': {
        onlyKeys(value, ['type', 'children', 'checked'], path);
        if (value.checked !== undefined && typeof value.checked !== 'boolean') throw invalid(`${path}.checked`, 'must be a boolean');
        const node = { type, ...(typeof value.checked === 'boolean' ? { checked: value.checked } : {}), children: [] as SlateNode[] };
        out.push(node as SlateNode);
        pushChildren(value, path, 'li', node.children, depth, { type: 'lic', children: [{ text: '' }] });
        break;
      }
      case 'code_block': {
        onlyKeys(value, ['type', 'children', 'lang'], path);
        const lang = str(value, 'lang', path, true);
        const node = { type, ...(lang ? { lang } : {}), children: [] as SlateNode[] };
        out.push(node as SlateNode);
        pushChildren(value, path, 'code', node.children, depth, { type: 'code_line', children: [{ text: '' }] });
        break;
      }
      case 'code_line': {
        onlyKeys(value, ['type', 'children'], path);
        const texts: SlateNode[] = [];
        const children = Array.isArray(value.children) ? value.children : [];
        children.forEach((c, i) => {
          if (!isObj(c) || c.type !== undefined) throw invalid(`${path}.children[${i}]`, 'a code line holds text only');
          const leaf = textLeaf(c, `${path}.children[${i}]`, false);
          budget.spend(leaf.text.length);
          texts.push(leaf);
        });
        out.push({ type, children: [{ text: texts.map((t) => (t as TextLeaf).text).join('') }] } as SlateNode);
        break;
      }
      case 'hr':
        onlyKeys(value, ['type', 'children'], path);
        out.push({ type, children: voidChildren(value, path) });
        break;
      case 'table': {
        onlyKeys(value, ['type', 'children', 'align'], path);
        const align = value.align;
        if (align !== undefined && !(Array.isArray(align) && align.every((a) => a === null || a === 'left' || a === 'center' || a === 'right'))) {
          throw invalid(`${path}.align`, "must be an array of 'left', 'center', 'right' or null");
        }
        const node = { type, ...(Array.isArray(align) && align.some((a) => a !== null) ? { align } : {}), children: [] as SlateNode[] };
        out.push(node as SlateNode);
        if (!Array.isArray(value.children) || value.children.length === 0) throw invalid(`${path}.children`, 'a table holds at least one row');
        pushChildren(value, path, 'table', node.children, depth + 1);
        break;
      }
      case 'tr': {
        onlyKeys(value, ['type', 'children'], path);
        const node = { type, children: [] as SlateNode[] };
        out.push(node as SlateNode);
        pushChildren(value, path, 'row', node.children, depth);
        break;
      }
      case 'th':
      case 'td': {
        onlyKeys(value, ['type', 'children'], path);
        const node = { type, children: [] as SlateNode[] };
        out.push(node as SlateNode);
        if (!Array.isArray(value.children) || value.children.length !== 1) throw invalid(`${path}.children`, 'a cell holds one p');
        pushChildren(value, path, 'cell', node.children, depth);
        break;
      }
      case 'a': {
        onlyKeys(value, ['type', 'children', 'id', 'url', 'title'], path);
        const url = safeUrl(str(value, 'url', path)!, `${path}.url`);
        budget.spend(url.length);
        const title = str(value, 'title', path, true);
        const node = { type, id: claimId(value.id, `${path}.id`), url, ...(title !== undefined ? { title } : {}), children: [] as SlateNode[] };
        out.push(node as SlateNode);
        pushChildren(value, path, 'link', node.children, depth, empty());
        break;
      }
      case 'img': {
        onlyKeys(value, ['type', 'children', 'id', 'url', 'alt', 'title'], path);
        const url = safeUrl(str(value, 'url', path)!, `${path}.url`);
        budget.spend(url.length);
        const title = str(value, 'title', path, true);
        out.push({
          type,
          id: claimId(value.id, `${path}.id`),
          url,
          alt: str(value, 'alt', path, true) ?? '',
          ...(title !== undefined ? { title } : {}),
          children: voidChildren(value, path),
        });
        break;
      }
      case 'citation': {
        onlyKeys(value, ['type', 'children', 'reference_id', 'label'], path);
        const ref = str(value, 'reference_id', path)!;
        if (!UUID_PATTERN.test(ref)) throw invalid(`${path}.reference_id`, 'must be a reference id (UUID)');
        out.push({ type, reference_id: ref, label: str(value, 'label', path, true) ?? '', children: voidChildren(value, path) });
        break;
      }
      case 'credential': {
        onlyKeys(value, ['type', 'children', 'handle', 'purpose'], path);
        const handle = str(value, 'handle', path)!;
        if (!CREDENTIAL_HANDLE.test(handle)) throw invalid(`${path}.handle`, 'a handle is 1 to 128 letters, digits, _ . -');
        out.push({ type, handle, purpose: str(value, 'purpose', path, true) ?? '', children: voidChildren(value, path) });
        break;
      }
      case 'bit-connection': {
        const node = connection(value, path);
        if (node.id !== null) claimId(node.id, `${path}.id`);
        connections.push(node);
        out.push(node);
        break;
      }
      default: {
        // An interactive element (allows() admitted only element types here).
        const elementType = type as Parameters<typeof validateElementProps>[0];
        const def = ELEMENTS[elementType];
        onlyKeys(value, ['type', 'children', 'id', 'props', ...(def.items ? ['items'] : [])], path);
        if (value.props !== undefined && !isObj(value.props)) throw invalid(`${path}.props`, 'must be an object');
        const props = validateElementProps(elementType, (value.props as Obj | undefined) ?? {}, `${path}.props`);
        if (elementType === 'link-inline') props.url = normalizeUrl(String(props.url));
        const node: SlateNode & { items?: ElementItem[] } = { type: elementType, id: claimId(value.id, `${path}.id`), props, children: [] };
        if (def.items) {
          const items = value.items ?? [];
          if (!Array.isArray(items)) throw invalid(`${path}.items`, 'must be an array');
          node.items = items.map((item: unknown, i: number) => {
            const ip = `${path}.items[${i}]`;
            if (!isObj(item)) throw invalid(ip, 'must be an object');
            const { id, ...fields } = item;
            return { id: claimId(id, `${ip}.id`), ...validateItemFields(elementType, fields, ip) };
          });
          checkItems(elementType, node.items, path);
        }
        out.push(node);
        if (def.placement === 'inline') pushChildren(value, path, 'link', node.children as SlateNode[], depth, empty());
        else node.children = voidChildren(value, path);
      }
    }
  }
  for (const list of lists) normaliseList(list);
  const body: SlateBody = { children: root.length > 0 ? (root as BlockNode[]) : [{ type: 'p', children: [{ text: '' }] }] };
  finishConnections(body, connections, opts.previous);
  assertBodySize(body);
  return body;
}

function normalizeUrl(url: string): string {
  return parser().normalizeLink(url);
}

function safeUrl(url: string, path: string): string {
  assertSafeUrl(url, path);
  return normalizeUrl(url);
}

/** Tight or loose is a property of the whole list in markdown: one `p` makes every item's `lic` a `p`. */
function normaliseList(list: ListNode): void {
  const loose = list.children.some((li) => li.children.some((c) => c.type === 'p'));
  for (const li of list.children) {
    if (loose) for (const c of li.children) if (c.type === 'lic') (c as { type: string }).type = 'p';
    const first = li.children[0];
    if (li.checked !== undefined && first?.type !== 'lic' && first?.type !== 'p') delete li.checked;
  }
}

function connection(value: Obj, path: string): ConnectionNode {
  onlyKeys(value, ['type', 'children', 'id', 'target_bit_id', 'label', 'params'], path);
  const id = value.id ?? null;
  if (id !== null && (typeof id !== 'string' || id === '')) throw invalid(`${path}.id`, 'a connection id is a string, or null for a new connection');
  const target = str(value, 'target_bit_id', path)!;
  if (!UUID_PATTERN.test(target)) throw invalid(`${path}.target_bit_id`, 'must be a bit id (UUID)');
  const given = value.label ?? null;
  if (given !== null && typeof given !== 'string') throw invalid(`${path}.label`, 'must be a string or null');
  const label = connectionLabel(given);
  const params: ConnectionParams = {};
  const raw = value.params ?? {};
  if (!isObj(raw)) throw invalid(`${path}.params`, 'must be an object');
  for (const [k, v] of Object.entries(raw)) {
    if (k === 'when') {
      if (v === undefined || v === null) continue;
      const w = v as Obj;
      const okOptions = isObj(w) && typeof w.element_id === 'string' && Array.isArray(w.option_ids) && w.option_ids.every((o) => typeof o === 'string');
      const okChecked = isObj(w) && typeof w.element_id === 'string' && typeof w.checked === 'boolean';
      if (!okOptions && !okChecked) {
        throw invalid(`${path}.params.when`, 'is {element_id, option_ids: [..]} or {element_id, checked: boolean}');
      }
      params.when = okOptions ? { element_id: w.element_id as string, option_ids: w.option_ids as string[] } : { element_id: w.element_id as string, checked: w.checked as boolean };
    } else if ((CONNECTION_FLAGS as readonly string[]).includes(k)) {
      if (typeof v !== 'boolean') throw invalid(`${path}.params.${k}`, 'must be a boolean (false hides it)');
      if (v === false) params[k as (typeof CONNECTION_FLAGS)[number]] = false;
    } else throw invalid(`${path}.params.${k}`, `unknown parameter; allowed: when, ${CONNECTION_FLAGS.join(', ')}`);
  }
  return { type: 'bit-connection', id: id as string | null, target_bit_id: target, label: label as string | null, params, children: voidChildren(value, path) };
}

/** The same connection rules as a markdown body: at most 20, `when` naming this body's options, claims. */
function finishConnections(body: SlateBody, connections: ConnectionNode[], previous: SlateBody | undefined): void {
  if (connections.length === 0) return;
  if (connections.length > LIMITS.outgoingConnections) {
    throw new WaymarkError('CONNECTION_LIMIT_EXCEEDED', `a bit has at most ${LIMITS.outgoingConnections} outgoing connections`, {
      max: LIMITS.outgoingConnections,
    });
  }
  const index = indexBody(body);
  for (const c of connections) {
    const when = c.params.when;
    if (!when) continue;
    const found = index.get(when.element_id);
    const ok =
      'checked' in when
        ? found?.kind === 'item' && found.element.type === 'check-list'
        : found?.kind === 'element' &&
          (found.node.type === 'dropdown' || found.node.type === 'radio-button') &&
          when.option_ids.every((o) => (found.node.items ?? []).some((i) => i.id === o));
    if (!ok) throw invalid('bit_body', `a connection's when names ${quote(when.element_id)}, not an option of a dropdown or radio-button, or a check-list item, of this body`);
  }
  const named = new Set(connections.flatMap((c) => (c.id === null ? [] : [c.id])));
  const unclaimed = [...indexBody(previous).values()].flatMap((v) => (v.kind === 'connection' && !named.has(v.node.id!) ? [v.node] : []));
  for (const c of connections) {
    if (c.id !== null) continue;
    const i = unclaimed.findIndex((u) => u.target_bit_id === c.target_bit_id);
    if (i >= 0) c.id = unclaimed.splice(i, 1)[0].id;
  }
}
