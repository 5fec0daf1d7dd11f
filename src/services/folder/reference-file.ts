/**
 * A reference as a file of a folder (issue 30): markdown with YAML front matter where its content comes back the
 * same from markdown, else JSON with the Slate nodes (a construct markdown cannot hold). Read back through
 * create_reference's own check of the content.
 */
import { bodyToMarkdown, markdownToBody, type SlateBody } from '../../content/index.js';
import { checkReferenceContent, type SlateNode } from '../references/content.js';
import { blankToNull, checkTitle } from '../bits/text-fields.js';
import { referenceFrontMatterShape, referenceJsonShape } from './format.js';
import { nodeIds } from './ids.js';
import { canonicalJson } from './canonical.js';
import { problemOf, type FolderProblem } from './problems.js';
import { pathText } from '../../errors.js';
import { splitFrontMatter, writeFrontMatterFile, YamlText } from './yaml-text.js';
import type { WaymarkError } from '../../errors.js';

export interface ReferenceRecord {
  id: string;
  title: string;
  abstract: string | null;
  categories: string[];
  content: SlateNode[];
}

/** The content as markdown, when reading that markdown back gives the same content; else null. */
export function referenceMarkdown(reference: ReferenceRecord): string | null {
  try {
    const markdown = bodyToMarkdown({ children: reference.content } as SlateBody);
    const back = markdownToBody(markdown, { adoptAnchors: true, newId: nodeIds(reference.id) });
    return canonicalJson(checkReferenceContent(back.body.children)) === canonicalJson(reference.content) ? markdown : null;
  } catch {
    return null;
  }
}

function front(reference: ReferenceRecord): Record<string, unknown> {
  const out: Record<string, unknown> = { id: reference.id, title: reference.title };
  if (reference.abstract !== null) out.abstract = reference.abstract;
  if (reference.categories.length > 0) out.categories = reference.categories;
  return out;
}

/** The file's text; `markdown` from referenceMarkdown (null: the JSON form). */
export function writeReferenceFile(reference: ReferenceRecord, markdown: string | null): string {
  if (markdown !== null) return writeFrontMatterFile(front(reference), markdown);
  return `${JSON.stringify({ ...front(reference), content: reference.content }, null, 2)}\n`;
}

export interface ReadReference {
  id: string | undefined;
  title: string;
  abstract: string | null;
  categories: string[];
  content: SlateNode[];
}

/** Reads a reference file; `id` is the folder's id of it (new link and image nodes take ids derived from it). */
export function readReferenceFile(file: string, text: string, id: string): ReadReference | { problems: FolderProblem[] } {
  const json = file.endsWith('.json');
  let yamlText: string;
  let body = '';
  let bodyLine = 1;
  if (json) yamlText = text;
  else {
    const split = splitFrontMatter(file, text);
    if ('code' in split) return { problems: [split] };
    ({ yaml: yamlText, body, bodyLine } = split);
  }
  // JSON is YAML (1.2): one reader names the lines of both forms.
  const parsed = YamlText.parse(file, yamlText, 1);
  if ('problems' in parsed) return parsed;
  const shape = json ? referenceJsonShape : referenceFrontMatterShape;
  const checked = shape.safeParse(parsed.value ?? {});
  if (!checked.success) {
    return { problems: checked.error.issues.map((issue) => ({ file, line: parsed.yaml.lineOf(issue.path), code: 'VALIDATION_ERROR' as const, message: `${pathText(issue.path) || 'front matter'}: ${issue.message}` })) };
  }
  const fields = checked.data;
  try {
    const title = checkTitle(fields.title, 'title');
    const nodes = 'content' in fields ? fields.content : markdownToBody(body, { adoptAnchors: true, newId: nodeIds(id) }).body.children;
    return { id: fields.id, title, abstract: blankToNull(fields.abstract ?? null), categories: fields.categories ?? [], content: checkReferenceContent(nodes) };
  } catch (error) {
    const lineOf = (e: WaymarkError): number | null => {
      const line = (e.details as { line?: unknown } | undefined)?.line;
      if (typeof line === 'number') return line + bodyLine - 1;
      return json ? parsed.yaml.lineOf(['content']) : null;
    };
    return { problems: [problemOf(file, error, lineOf)] };
  }
}
