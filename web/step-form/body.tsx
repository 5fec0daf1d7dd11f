/**
 * The Slate body of a bit as a page: every construct of the stored form (src/content/slate.ts) as HTML.
 * Interactive elements are handed to the caller (the step form renders them as controls, an author page
 * as a read-only description). Urls of prose links and images pass the store's url rule again before they
 * reach an attribute: the store refuses unsafe ones, this keeps an old or foreign body from becoming a script.
 */
import type { ComponentChild, ComponentChildren } from 'preact';
import { isElementType } from '../../src/content/elements/element-types.js';
import type { BlockNode, BlockquoteNode, CellAlign, ElementNode, InlineNode, ListItemNode, ListNode, SlateBody, SlateNode, TableNode, TextBlock, TextLeaf } from '../../src/content/slate.js';
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

function inline(node: InlineNode, key: number, hooks: BodyHooks): ComponentChild {
  if (!('type' in node) || node.type === undefined) return leaf(node as TextLeaf, key);
  switch (node.type) {
    case 'a':
      return isSafeUrl(node.url) ? (
        <a key={key} href={node.url} title={node.title} rel="noopener noreferrer">
          {inlines(node.children, hooks)}
        </a>
      ) : (
        <span key={key}>{inlines(node.children, hooks)}</span>
      );
    case 'img':
      return isSafeUrl(node.url) ? <img key={key} src={node.url} alt={node.alt} title={node.title} loading="lazy" /> : <span key={key}>[{node.alt}]</span>;
    case 'citation': {
      const label = hooks.citationLabel?.(node.reference_id, node.label) ?? node.label;
      return (
        <cite key={key} class="citation">
          <a href={`#ref-${node.reference_id}`} onClick={(e) => jumpTo(e, `ref-${node.reference_id}`)}>
            [{label}]
          </a>
        </cite>
      );
    }
    case 'credential':
      return (
        <span key={key} class="credential" title={node.purpose}>
          credential: {node.handle}
        </span>
      );
    default:
      return isElementType(node.type) ? <span key={key}>{hooks.element(node as ElementNode, 'inline')}</span> : null;
  }
}

/** In-page jumps without touching the hash the router reads. */
function jumpTo(event: Event, id: string): void {
  event.preventDefault();
  const target = document.getElementById(id);
  target?.scrollIntoView();
  target?.focus();
}

function inlines(nodes: InlineNode[], hooks: BodyHooks): ComponentChildren {
  return nodes.map((n, i) => inline(n, i, hooks));
}

const alignClass = (a: CellAlign | undefined) => (a ? `align-${a}` : undefined);

function table(node: TableNode, key: number, hooks: BodyHooks): ComponentChild {
  const [head, ...rows] = node.children;
  const cells = (row: TableNode['children'][number], Tag: 'th' | 'td') =>
    row.children.map((cell, i) => (
      <Tag key={i} class={alignClass(node.align?.[i])} scope={Tag === 'th' ? 'col' : undefined}>
        {inlines(cell.children[0]?.children ?? [], hooks)}
      </Tag>
    ));
  return (
    <div key={key} class="table-wrap" tabIndex={0} role="region" aria-label="Table">
      <table>
        {head && (
          <thead>
            <tr>{cells(head, 'th')}</tr>
          </thead>
        )}
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>{cells(row, 'td')}</tr>
          ))}
        </tbody>
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

function block(node: BlockNode | SlateNode, key: number, hooks: BodyHooks): ComponentChild {
  const type = (node as { type?: string }).type;
  switch (type) {
    case 'p':
      return <p key={key}>{inlines((node as TextBlock).children, hooks)}</p>;
    case 'lic':
      return <span key={key}>{inlines((node as TextBlock).children, hooks)}</span>;
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6': {
      // The page's title is its h1: a body's highest heading level becomes h2, the others keep their steps.
      const level = Math.min(6, Math.max(2, Number(type.slice(1)) - hooks.topHeading + 2));
      const Tag = `h${level}` as 'h3';
      return <Tag key={key}>{inlines((node as TextBlock).children, hooks)}</Tag>;
    }
    case 'blockquote':
      return <blockquote key={key}>{blocks((node as BlockquoteNode).children, hooks)}</blockquote>;
    case 'ul':
    case 'ol': {
      const list = node as ListNode;
      const items = list.children.map((li, i) => listItem(li, i, hooks));
      return type === 'ol' ? (
        <ol key={key} start={(node as { start?: number }).start}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'code_block': {
      const code = node as Extract<BlockNode, { type: 'code_block' }>;
      const lang = code.lang?.split(/\s/)[0];
      return (
        <pre key={key} tabIndex={0} aria-label={lang ? `${lang} code` : 'code'}>
          <code class={lang ? `language-${lang}` : undefined}>{code.children.map((line) => line.children[0]?.text ?? '').join('\n')}</code>
        </pre>
      );
    }
    case 'hr':
      return <hr key={key} />;
    case 'table':
      return table(node as TableNode, key, hooks);
    case 'bit-connection':
      return hooks.connection ? <div key={key}>{hooks.connection(node as Extract<BlockNode, { type: 'bit-connection' }>)}</div> : null;
    default:
      return isElementType(type) ? <div key={key} class="element">{hooks.element(node as ElementNode, 'block')}</div> : null;
  }
}

function blocks(nodes: ReadonlyArray<BlockNode | SlateNode>, hooks: BodyHooks): ComponentChildren {
  return nodes.map((n, i) => block(n, i, hooks));
}

function topHeading(body: SlateBody): number {
  let top = 6;
  walk(body.children, (node) => {
    const type = (node as { type?: string }).type;
    if (type && /^h[1-6]$/.test(type)) top = Math.min(top, Number(type.slice(1)));
  });
  return top;
}

export function SlateView({ body, hooks }: { body: SlateBody; hooks: Omit<BodyHooks, 'topHeading'> }) {
  return <div class="bit-body">{blocks(body.children, { ...hooks, topHeading: topHeading(body) })}</div>;
}
