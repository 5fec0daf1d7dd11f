/** Code block: `code_block` holding one `code_line` per line; written fenced, its info string as `lang`. */
import type { Token } from 'markdown-it';
import { z } from 'zod';
import { parser } from '../markdown/md.js';
import type { SlateNode, TextLeaf } from '../slate.js';
import { invalid } from '../problems.js';
import { CHILDREN, isObj, STRING, textLeaf } from './input.js';
import type { BlockWalk, BlockWriter, Construct, NodeHandler, ShapeFields } from './types.js';

/** `lang` is the fence's info string (language first). */
const codeBlockShape = z.strictObject({ type: z.literal('code_block'), lang: STRING.optional(), children: CHILDREN });
const codeLineShape = z.strictObject({ type: z.literal('code_line'), children: CHILDREN });

export interface CodeBlockNode extends ShapeFields<typeof codeBlockShape> {
  children: CodeLineNode[];
}

/** One line of code: its text in one leaf, without marks. */
export interface CodeLineNode extends ShapeFields<typeof codeLineShape> {
  children: [TextLeaf];
}

function write(node: CodeBlockNode, w: BlockWriter): void {
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

const codeBlock: NodeHandler<CodeBlockNode, typeof codeBlockShape> = {
  standsIn: ['block', 'li'],
  holds: 'code',
  shape: codeBlockShape,
  input(fields, step) {
    const node: CodeBlockNode = { type: 'code_block', ...(fields.lang ? { lang: fields.lang } : {}), children: [] };
    step.out.push(node);
    step.children(fields.children, node.children, step.depth, { type: 'code_line', children: [{ text: '' }] });
  },
  render: { block: { block: (node, _task, w) => write(node, w) } },
  text: 'descend',
};

const codeLine: NodeHandler<CodeLineNode, typeof codeLineShape> = {
  standsIn: ['code'],
  shape: codeLineShape,
  input(fields, step) {
    const texts: TextLeaf[] = [];
    // Its text leaves are joined into one here, not scheduled on the walker: a line holds no other node.
    const children = Array.isArray(fields.children) ? fields.children : [];
    children.forEach((c, i) => {
      if (!isObj(c) || c.type !== undefined) throw invalid(`${step.path}.children[${i}]`, 'a code line holds text only');
      const leaf = textLeaf(c, `${step.path}.children[${i}]`, false);
      step.budget.spend(leaf.text.length);
      texts.push(leaf);
    });
    step.out.push({ type: 'code_line', children: [{ text: texts.map((t) => t.text).join('') }] } as SlateNode);
  },
  render: 'parent',
  text: 'line',
};

function fromToken(walk: BlockWalk, t: Token, i: number): number {
  const content = t.content.endsWith('\n') ? t.content.slice(0, -1) : t.content;
  const lang = t.type === 'fence' ? parser().utils.unescapeAll(t.info).trim() : '';
  walk.add({
    type: 'code_block',
    ...(lang !== '' ? { lang } : {}),
    children: content.split('\n').map((text) => ({ type: 'code_line', children: [{ text }] })),
  } as CodeBlockNode);
  return i;
}

export const code: Construct<'code_block' | 'code_line'> = {
  name: 'code',
  nodes: { code_block: codeBlock as NodeHandler, code_line: codeLine as NodeHandler },
  blockTokens: { fence: fromToken, code_block: fromToken },
  syntax: () => [],
};
