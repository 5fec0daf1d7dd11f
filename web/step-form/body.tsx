/**
 * The Slate body of a bit as a page: every construct of the stored form (src/content/slate.ts) as HTML.
 * Interactive elements are handed to the caller (the step form renders them as controls, an author page
 * as a read-only description). Urls of prose links and images pass the store's url rule again before they
 * reach an attribute: the store refuses unsafe ones, this keeps an old or foreign body from becoming a script.
 */
import type { ComponentChild, ComponentChildren } from 'preact';
import { isElementType } from '../../src/content/elements/element-types.js';
import type { NodeType } from '../../src/content/constructs/index.js';
import type { BlockNode, CellAlign, CodeLineNode, ElementNode, HeadingType, InlineNode, ListItemNode, SlateBody, SlateNode, TableCellNode, TableNode, TableRowNode, TextLeaf } from '../../src/content/slate.js';
import { walk } from '../../src/content/slate.js';
import { isSafeUrl } from '../../src/content/url.js';

export interface BodyHooks {
  /** An interactive element: `inline` for one inside a sentence (its definition's placement), whose children are its text. */
  element(node: ElementNode, placement: 'block' | 'inline'): ComponentChild;
  /** A connection line of the body; nothing by default (a step offers its connections after the form). */
  connection?(node: Extract<BlockNode, { type: 'bit-connection' }>): ComponentChild;
  /** The highest heading level the body uses (1 for `#`), set by SlateView. */
  topHeading: number;
  /** The label shown for a cited reference. */
  citationLabel?(referenceId: string, fallback: string): string;
}

function leaf(node: TextLeaf, key: number): ComponentChild {
  let out: ComponentChild = node.text;
  if (node.code) out = <code>{out}</code>;
  if (node.strikethrough) out = <s>{out}</s>;
  if (node.italic) out = <em>{out}</em>;
  if (node.bold) out = <strong>{out}</strong>;
  return <span key={key}>{out}</span>;
}

/** The node of a node type: `h2` is a TextBlock, whose type is any of the text block types. */
type NodeOf<T extends NodeType> = Exclude<SlateNode, ElementNode | TextLeaf> extends infer N ? (N extends { type: infer U } ? (T extends U ? N : never) : never) : never;

type Renderer<T extends NodeType> = (node: NodeOf<T>, key: number, hooks: BodyHooks) => ComponentChild;

/** A text block's children (its inline nodes). */
const inlineChildren = (node: { children: InlineNode[] }, hooks: BodyHooks) => inlines(node.children, hooks);

function heading(node: NodeOf<HeadingType>, key: number, hooks: BodyHooks): ComponentChild {
  // The page's title is its h1: a body's highest heading level becomes h2, the others keep their steps.
  const level = Math.min(6, Math.max(2, Number(node.type.slice(1)) - hooks.topHeading + 2));
  const Tag = `h${level}` as 'h3';
  return <Tag key={key}>{inlineChildren(node, hooks)}</Tag>;
}

function cell(node: TableCellNode, key: number, hooks: BodyHooks, align?: CellAlign): ComponentChild {
  const Tag = node.type === 'th' ? 'th' : 'td';
  return (
    <Tag key={key} class={align ? `align-${align}` : undefined} scope={Tag === 'th' ? 'col' : undefined}>
      {inlines(node.children[0]?.children ?? [], hooks)}
    </Tag>
  );
}

function row(node: TableRowNode, key: number, hooks: BodyHooks, align?: TableNode['align']): ComponentChild {
  return <tr key={key}>{node.children.map((c, i) => cell(c, i, hooks, align?.[i]))}</tr>;
}

function table(node: TableNode, key: number, hooks: BodyHooks): ComponentChild {
  const [head, ...rows] = node.children;
  return (
    <div key={key} class="table-wrap" tabIndex={0} role="region" aria-label="Table">
      <table>
        {head && <thead>{row(head, 0, hooks, node.align)}</thead>}
        <tbody>{rows.map((r, i) => row(r, i, hooks, node.align))}</tbody>
      </table>
    </div>
  );
}

function listItem(node: ListItemNode, key: number, hooks: BodyHooks): ComponentChild {
  const task = node.checked === undefined ? null : (
    <span class="task" role="img" aria-label={node.checked ? 'done' : 'not done'}>
      {node.checked ? '☑' : '☐'}{' '}
    </span>
  );
  return (
    <li key={key}>
      {task}
      {blocks(node.children, hooks)}
    </li>
  );
}

const codeText = (line: CodeLineNode) => line.children.map((leaf) => leaf.text).join('');

/**
 * How each node type of the stored form renders: one entry per type of the construct registry
 * (src/content/constructs NodeType), so a construct added without its renderer fails to compile. Interactive
 * elements are handed to the caller's hooks by placement, whatever their type.
 */
const RENDERERS: { [T in NodeType]: Renderer<T> } = {
  p: (node, key, hooks) => <p key={key}>{inlineChildren(node, hooks)}</p>,
  lic: (node, key, hooks) => <span key={key}>{inlineChildren(node, hooks)}</span>,
  h1: heading,
  h2: heading,
  h3: heading,
  h4: heading,
  h5: heading,
  h6: heading,
  blockquote: (node, key, hooks) => <blockquote key={key}>{blocks(node.children, hooks)}</blockquote>,
  ul: (node, key, hooks) => <ul key={key}>{node.children.map((li, i) => listItem(li, i, hooks))}</ul>,
  ol: (node, key, hooks) => (
    <ol key={key} start={node.start}>
      {node.children.map((li, i) => listItem(li, i, hooks))}
    </ol>
  ),
  li: listItem,
  code_block: (node, key) => {
    const lang = node.lang?.split(/\s/)[0];
    return (
      <pre key={key} tabIndex={0} aria-label={lang ? `${lang} code` : 'code'}>
        <code class={lang ? `language-${lang}` : undefined}>{node.children.map(codeText).join('\n')}</code>
      </pre>
    );
  },
  code_line: (node, key) => <code key={key}>{codeText(node)}</code>,
  hr: (_node, key) => <hr key={key} />,
  table,
  tr: (node, key, hooks) => row(node, key, hooks),
  th: (node, key, hooks) => cell(node, key, hooks),
  td: (node, key, hooks) => cell(node, key, hooks),
  a: (node, key, hooks) =>
    isSafeUrl(node.url) ? (
      <a key={key} href={node.url} title={node.title} rel="noopener noreferrer">
        {inlines(node.children, hooks)}
      </a>
    ) : (
      <span key={key}>{inlines(node.children, hooks)}</span>
    ),
  img: (node, key) => (isSafeUrl(node.url) ? <img key={key} src={node.url} alt={node.alt} title={node.title} loading="lazy" /> : <span key={key}>[{node.alt}]</span>),
  citation: (node, key, hooks) => {
    const label = hooks.citationLabel?.(node.reference_id, node.label) ?? node.label;
    return (
      <cite key={key} class="citation">
        <a href={`#ref-${node.reference_id}`} onClick={(e) => jumpTo(e, `ref-${node.reference_id}`)}>
          [{label}]
        </a>
      </cite>
    );
  },
  credential: (node, key) => (
    <span key={key} class="credential" title={node.purpose}>
      credential: {node.handle}
    </span>
  ),
  // A connection line shows nothing by default: a step offers its connections after the form.
  'bit-connection': (node, key, hooks) => (hooks.connection ? <div key={key}>{hooks.connection(node)}</div> : null),
};

/** The node types the table renders: the construct registry's, every one (the test renders a node of each). */
export const RENDERED_NODE_TYPES = Object.keys(RENDERERS) as NodeType[];

/** Any node in block or inline position: a text leaf, an element through the hooks, else its type's renderer. */
function node(n: SlateNode, key: number, hooks: BodyHooks, placement: 'block' | 'inline'): ComponentChild {
  const type = (n as { type?: string }).type;
  if (type === undefined) return leaf(n as TextLeaf, key);
  if (isElementType(type)) {
    const Tag = placement === 'block' ? 'div' : 'span';
    return (
      <Tag key={key} class={placement === 'block' ? 'element' : undefined}>
        {hooks.element(n as ElementNode, placement)}
      </Tag>
    );
  }
  const render = (RENDERERS as Record<string, Renderer<NodeType> | undefined>)[type];
  // A type this app does not know (a body from a newer server): its text, never nothing.
  if (!render) return <span key={key} class="unknown-node">{textOf(n)}</span>;
  return render(n as NodeOf<NodeType>, key, hooks);
}

function textOf(n: SlateNode): string {
  let text = '';
  walk([n], (child) => {
    if (typeof (child as TextLeaf).text === 'string') text += (child as TextLeaf).text;
  });
  return text;
}

/** In-page jumps without touching the hash the router reads. */
function jumpTo(event: Event, id: string): void {
  event.preventDefault();
  const target = document.getElementById(id);
  target?.scrollIntoView();
  target?.focus();
}

function inlines(nodes: InlineNode[], hooks: BodyHooks): ComponentChildren {
  return nodes.map((n, i) => node(n, i, hooks, 'inline'));
}

function blocks(nodes: ReadonlyArray<BlockNode | SlateNode>, hooks: BodyHooks): ComponentChildren {
  return nodes.map((n, i) => node(n, i, hooks, 'block'));
}

function topHeading(body: SlateBody): number {
  let top = 6;
  walk(body.children, (node) => {
    const type = (node as { type?: string }).type;
    if (type && /^h[1-6]$/.test(type)) top = Math.min(top, Number(type.slice(1)));
  });
  return top;
}

/** One node as the body renders it in block position (the test of every node type renders each so). */
export function renderNode(n: SlateNode, hooks: BodyHooks): ComponentChild {
  return node(n, 0, hooks, 'block');
}

export function SlateView({ body, hooks }: { body: SlateBody; hooks: Omit<BodyHooks, 'topHeading'> }) {
  return <div class="bit-body">{blocks(body.children, { ...hooks, topHeading: topHeading(body) })}</div>;
}
