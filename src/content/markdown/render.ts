/**
 * bodyToMarkdown: the canonical markdown of a body, as get_bit prints it (CONTRACT.md, "Body forms"): ids
 * in anchors, `(required)` marks, connection parameters in their order. Blocks are written with an explicit
 * stack; each open container (quote, list item) contributes a prefix to every line written inside it.
 * The output is a fixpoint: reading it and writing it again gives the same text.
 */
import { ELEMENTS } from '../elements/index.js';
import { anchorOf, itemMarkerForm } from '../elements/forms.js';
import type { BlockNode, CodeBlockNode, ConnectionNode, ElementNode, InlineNode, ListItemNode, ListNode, SlateBody, TableNode } from '../slate.js';
import { HEADING_TYPES } from '../slate.js';
import { formatConnectionUrl } from './connection-url.js';
import { escapeInline, escapeLineEnd, escapeLineStart, type TextContext } from './escape.js';
import { connectionLine, renderInlines } from './render-inline.js';

const BLOCK: TextContext = { inLink: false, inTable: false, singleLine: false };
const SINGLE: TextContext = { inLink: false, inTable: false, singleLine: true };
const CELL: TextContext = { inLink: false, inTable: true, singleLine: true };
const LABEL: TextContext = { inLink: true, inTable: false, singleLine: true };

interface Prefix {
  first: string;
  rest: string;
}

type Task =
  | { kind: 'block'; node: BlockNode; blank: boolean; marker: string | undefined; task: string | undefined }
  | { kind: 'item'; node: ListItemNode; blank: boolean; marker: string; tight: boolean }
  | { kind: 'pop' };

class Writer {
  out = '';
  private readonly prefixes: Prefix[] = [];
  /** Prefixes from this index on have not written their first line yet. */
  private fresh = 0;
  /** The continuation prefix of every open container. */
  private rest = '';

  push(prefix: Prefix): void {
    this.prefixes.push(prefix);
  }

  pop(): void {
    this.prefixes.pop();
    if (this.fresh > this.prefixes.length) this.fresh = this.prefixes.length;
    this.rest = '';
    for (let i = 0; i < this.fresh; i++) this.rest += this.prefixes[i].rest;
  }

  line(content: string): void {
    let prefix = this.rest;
    if (this.fresh < this.prefixes.length) {
      for (let i = this.fresh; i < this.prefixes.length; i++) {
        prefix += this.prefixes[i].first;
        this.rest += this.prefixes[i].rest;
      }
      this.fresh = this.prefixes.length;
    }
    // A blank line inside a container keeps only the container's marks (`>`), never trailing spaces.
    this.out += content === '' ? `${prefix.trimEnd()}\n` : `${prefix}${content}\n`;
  }
}

/** A list is loose (blank lines between items) when an item holds a `p`; a tight item holds `lic`. */
function isLoose(list: ListNode): boolean {
  return list.children.some((li) => li.children.some((c) => c.type === 'p'));
}

function hasItemLines(node: BlockNode | undefined): boolean {
  return node !== undefined && ELEMENTS[node.type as ElementNode['type']]?.items !== undefined && ((node as ElementNode).items?.length ?? 0) > 0;
}

/**
 * The marker of a list: two lists in a row with the same marker would read as one list, and a bullet
 * list right after an element's item lines would read as more items, so such a list takes the other marker.
 * A bullet list opening its parent item shares that item's line, where `- - -` would be a thematic break,
 * so it takes the other marker too.
 */
function listMarker(list: ListNode, previous: BlockNode | undefined, previousMarker: string | undefined, enclosing: string | undefined): string {
  if (list.type === 'ol') return previous?.type === 'ol' && previousMarker === '.' ? ')' : '.';
  // `+`, not `*`: an item starting with a thematic break `***` would make `* ***` one thematic break.
  if (previous?.type === 'ul' && previousMarker === '-') return '+';
  if (hasItemLines(previous)) return '+';
  if (previous === undefined && enclosing === '-') return '+';
  return '-';
}

/** Pushes a container's children as tasks, in order; lists get their marker from the sibling before. */
function schedule(stack: Task[], children: readonly BlockNode[], tight: boolean, taskMarker?: string, enclosing?: string): void {
  const tasks: Task[] = new Array(children.length);
  let prevMarker: string | undefined;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    let marker: string | undefined;
    if (child.type === 'ul' || child.type === 'ol') marker = listMarker(child, children[i - 1], prevMarker, i === 0 ? enclosing : undefined);
    prevMarker = marker;
    tasks[i] = { kind: 'block', node: child, blank: i > 0 && !tight, marker, task: i === 0 ? taskMarker : undefined };
  }
  for (let i = tasks.length - 1; i >= 0; i--) stack.push(tasks[i]);
}

export function bodyToMarkdown(body: SlateBody): string {
  const w = new Writer();
  const stack: Task[] = [];
  schedule(stack, body.children, false);
  while (stack.length > 0) {
    const task = stack.pop()!;
    if (task.kind === 'pop') {
      w.pop();
      continue;
    }
    if (task.blank) w.line('');
    if (task.kind === 'item') {
      const li = task.node;
      const first = li.children[0];
      const isTask = li.checked !== undefined && (first?.type === 'lic' || first?.type === 'p');
      w.push({ first: `${task.marker} `, rest: ' '.repeat(task.marker.length + 1) });
      stack.push({ kind: 'pop' });
      schedule(stack, li.children, task.tight, isTask ? (li.checked ? '[x] ' : '[ ] ') : undefined, task.marker);
    } else writeBlock(w, task, stack);
  }
  return w.out;
}

function writeBlock(w: Writer, task: Extract<Task, { kind: 'block' }>, stack: Task[]): void {
  const node = task.node;
  switch (node.type) {
    case 'p':
    case 'lic': {
      // After a task marker the text is at a line start too: the marker's spaces would swallow its leading ones.
      const text = renderInlines(node.children, BLOCK, true);
      const content = task.task !== undefined ? task.task + text : text;
      if (!content.includes('\n')) w.line(content);
      else for (const l of content.split('\n')) w.line(l);
      return;
    }
    case 'blockquote':
      w.push({ first: '> ', rest: '> ' });
      stack.push({ kind: 'pop' });
      schedule(stack, node.children, false);
      return;
    case 'ul':
    case 'ol': {
      const tight = !isLoose(node);
      const start = node.type === 'ol' ? (node.start ?? 1) : 0;
      for (let i = node.children.length - 1; i >= 0; i--) {
        const marker = node.type === 'ol' ? `${start + i}${task.marker ?? '.'}` : (task.marker ?? '-');
        stack.push({ kind: 'item', node: node.children[i], blank: i > 0 && !tight, marker, tight });
      }
      return;
    }
    case 'code_block':
      writeCode(w, node);
      return;
    case 'hr':
      // `***`, not `---`: after a paragraph line `---` would underline it as a heading.
      w.line('***');
      return;
    case 'table':
      writeTable(w, node);
      return;
    case 'bit-connection':
      w.line(connectionLine((node as ConnectionNode).label, formatConnectionUrl(node as ConnectionNode)));
      return;
    default:
      if (node.type.length === 2 && node.type[0] === 'h' && (HEADING_TYPES as readonly string[]).includes(node.type)) {
        const level = Number(node.type[1]);
        let text = renderInlines((node as { children: InlineNode[] }).children, SINGLE);
        // A closing run of `#` would be dropped from the heading.
        if (/(^|[ \t])#+$/.test(text)) text = text.replace(/#+$/, (run) => `\\${run}`);
        w.line(text === '' ? '#'.repeat(level) : `${'#'.repeat(level)} ${text}`);
        return;
      }
      writeElement(w, node as ElementNode);
  }
}

/** A label stays on its element's line: a newline in it is written as a reference. */
function oneLine(escaped: string): string {
  return escaped.includes('\n') ? escaped.replace(/\n/g, '&#xA;') : escaped;
}

function writeElement(w: Writer, node: ElementNode): void {
  const def = ELEMENTS[node.type];
  if (!def) return;
  const label = typeof node.props.label === 'string' && node.props.label !== '' && def.hasLabel ? `: ${oneLine(escapeInline(node.props.label, LABEL))}` : '';
  const required = node.props.required === true ? ' (required)' : '';
  w.line(`[${node.type}${label}](${anchorOf(node.id)})${required}`);
  if (!def.items) return;
  const field = def.items.textField;
  for (const item of node.items ?? []) {
    let marker = itemMarkerForm(def);
    if (item.checked === true) marker = marker.replace(' ]', 'x]').replace(' )', 'x)');
    const text = oneLine(escapeLineEnd(escapeLineStart(escapeInline(String(item[field] ?? ''), LABEL))));
    w.line(`- ${marker}[${text}](${anchorOf(item.id)})${item.required === true ? ' *(required)*' : ''}`);
  }
}

function writeCode(w: Writer, node: CodeBlockNode): void {
  const lines = node.children.map((l) => l.children.map((t) => t.text).join(''));
  const lang = node.lang ?? '';
  // An info string cannot hold a backtick after a backtick fence.
  const char = lang.includes('`') ? '~' : '`';
  let longest = 0;
  for (const l of lines) {
    const m = l.match(char === '`' ? /^ {0,3}(`+)/ : /^ {0,3}(~+)/);
    if (m && m[1].length > longest) longest = m[1].length;
  }
  const fence = char.repeat(Math.max(3, longest + 1));
  // The info string reads backslash escapes and references.
  const info = lang.replace(/[\\&]/g, '\\$&');
  w.line(fence + info);
  // One empty line is how Slate holds an empty code block (an element needs a child): it is written empty.
  const content = lines.join('\n');
  if (content !== '') for (const l of content.split('\n')) w.line(l);
  w.line(fence);
}

const DELIMITER_CELL: Readonly<Record<string, string>> = { left: ' :-- |', center: ' :-: |', right: ' --: |' };

function writeTable(w: Writer, node: TableNode): void {
  const rows = node.children;
  const columns = rows[0]?.children.length ?? 0;
  if (columns === 0) return;
  // Every row has the header's cells: markdown pads a short row and drops extra cells.
  for (let r = 0; r < rows.length; r++) {
    let line = '|';
    for (let c = 0; c < columns; c++) {
      const text = renderInlines(rows[r].children[c]?.children[0]?.children ?? [], CELL);
      line += text === '' ? '  |' : ` ${text} |`;
    }
    w.line(line);
    if (r === 0) {
      let delimiter = '|';
      for (let c = 0; c < columns; c++) delimiter += DELIMITER_CELL[node.align?.[c] ?? ''] ?? ' --- |';
      w.line(delimiter);
    }
  }
}

