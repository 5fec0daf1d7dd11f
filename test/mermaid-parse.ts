/**
 * Mermaid's own parser, run in node, to say what a flowchart text means to the browser that draws it: the
 * config its directives set, and the nodes, edges, classes and click handlers its statements make.
 *
 * Mermaid's DOMPurify needs a DOM, and node has none: its hooks become no-ops and its sanitizer passes text
 * through. Nothing here draws or sanitizes; the parse (directives, comments, statements) is mermaid's own.
 */
import DOMPurify from 'dompurify';

Object.assign(DOMPurify, {
  addHook: () => undefined,
  removeHook: () => undefined,
  removeHooks: () => undefined,
  removeAllHooks: () => undefined,
  sanitize: (text: string) => text,
});

export interface ParsedFlowchart {
  diagramType: string;
  /** What directives and front matter set (mermaid.parse's `config`): {} when the text has none. */
  config: Record<string, unknown>;
  /** Node id, its label as the reader sees it (entity codes decoded), and the styles statements gave it. */
  nodes: Array<{ id: string; text: string; styles: string[] }>;
  edges: Array<{ start: string; end: string; text: string }>;
  classes: string[];
  /** Nodes given a click handler or link (`click n0 …`) or a tooltip. */
  clicks: string[];
}

interface FlowDb {
  getVertices(): Map<string, { id: string; text?: string; styles: string[]; haveCallback?: boolean; link?: string }>;
  getEdges(): Array<{ start: string; end: string; text: string }>;
  getClasses(): Map<string, unknown>;
  getTooltip(id: string): string | undefined;
}

const NAMED: Record<string, string> = { quot: '"', lt: '<', gt: '>', amp: '&', nbsp: '\u00a0' };

/**
 * Mermaid swaps `#code;` and `#name;` for placeholders before it parses (utils encodeEntities) and turns
 * them into HTML entities in the drawn SVG; the placeholders are decoded here as the browser would.
 */
function decode(text: string): string {
  return text
    .replace(/\ufb02\xb0\xb0(\d+)\xb6\xdf/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/\ufb02\xb0(\w+)\xb6\xdf/g, (whole, name: string) => NAMED[name] ?? whole);
}

export async function parseFlowchart(text: string): Promise<ParsedFlowchart> {
  const { default: mermaid } = await import('mermaid');
  // Loose, so that a `click` statement that got through registers its callback and shows up in `clicks`.
  mermaid.initialize({ startOnLoad: false, securityLevel: 'loose' });
  const parsed = await mermaid.parse(text);
  if (!parsed) throw new Error('mermaid did not parse the text');
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
  const db = diagram.db as unknown as FlowDb;
  const vertices = [...db.getVertices().values()];
  return {
    diagramType: parsed.diagramType,
    config: parsed.config as Record<string, unknown>,
    nodes: vertices.map((v) => ({ id: v.id, text: decode(v.text ?? ''), styles: v.styles })),
    edges: db.getEdges().map((e) => ({ start: e.start, end: e.end, text: decode(e.text) })),
    classes: [...db.getClasses().keys()],
    clicks: vertices.filter((v) => v.haveCallback || v.link || db.getTooltip(v.id)).map((v) => v.id),
  };
}
