/** What the input handlers of the constructs share: field checks of a Slate input node. */
import { parser } from '../markdown/md.js';
import { invalid } from '../problems.js';
import { quote } from '../quote.js';
import { MARKS, type SlateNode, type TextLeaf } from '../slate.js';
import { assertSafeUrl } from '../url.js';
import type { Obj } from './types.js';

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function onlyKeys(node: Obj, allowed: readonly string[], path: string): void {
  for (const k of Object.keys(node)) {
    if (!allowed.includes(k)) throw invalid(path, `unknown field '${quote(k)}' on a ${quote(String(node.type ?? 'text'))} node (allowed: ${allowed.join(', ')})`);
  }
}

export function str(node: Obj, key: string, path: string, optional: true): string | undefined;
export function str(node: Obj, key: string, path: string): string;
export function str(node: Obj, key: string, path: string, optional = false): string | undefined {
  const v = node[key];
  if (v === undefined && optional) return undefined;
  if (typeof v !== 'string') throw invalid(`${path}.${key}`, 'must be a string');
  return v;
}

export function textLeaf(value: Obj, path: string, allowMarks: boolean): TextLeaf {
  onlyKeys(value, ['text', ...MARKS], path);
  const leaf: TextLeaf = { text: str(value, 'text', path) };
  for (const m of MARKS) {
    const v = value[m];
    if (v === undefined || v === false) continue;
    if (v !== true) throw invalid(`${path}.${m}`, 'a mark is true or absent');
    if (allowMarks) leaf[m] = true;
  }
  return leaf;
}

/** A void's single empty text child; marks on it carry emphasis around an inline void. */
export function voidChildren(value: Obj, path: string): [TextLeaf] {
  const children = value.children;
  if (children === undefined) return [{ text: '' }];
  if (!Array.isArray(children) || children.length !== 1 || !isObj(children[0]) || children[0].text !== '') {
    throw invalid(`${path}.children`, 'a void node holds exactly one empty text: [{"text": ""}]');
  }
  return [textLeaf(children[0], `${path}.children[0]`, true)];
}

/** A url as the markdown parser stores a link destination (normalised), so that get_bit prints it unchanged. */
export function normalizeUrl(url: string): string {
  return parser().normalizeLink(url);
}

export function safeUrl(url: string, path: string): string {
  assertSafeUrl(url, path);
  return normalizeUrl(url);
}

/** A container's children must be an array; an empty one is filled where Slate needs a child. */
export function emptyText(): SlateNode {
  return { text: '' };
}
