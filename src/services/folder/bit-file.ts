/**
 * A bit as a file of a folder (issue 30): YAML front matter with its fields and its elements as update_bit's
 * `elements` entries name them, and its body as get_bit writes it, connections and citations naming files relative
 * to this one (`[Next](bit-connection:review.md)`, `[[ref:../references/policy.md|Policy]]`) and connection lines
 * without their `node=`: a connection is the bit's line to a file, and the store keeps its id by its target (Body
 * syntax rule 5). Read back through the tools' own converter, so a file is held to add_bit's and update_bit's rules.
 */
import {
  ELEMENTS,
  assertJsonSize,
  bodyToMarkdown,
  isElementType,
  listElements,
  markdownToBody,
  walk,
  type CitationNode,
  type ConnectionNode,
  type ElementEntry,
  type SlateBody,
  type TargetNames,
} from '../../content/index.js';
import type { BodyIndex } from '../../content/index.js';
import { pathText, WaymarkError } from '../../errors.js';
import type { Complexity } from '../../store/enums.js';
import { blankToNull, checkTitle } from '../bits/text-fields.js';
import { checkedDuration } from '../bits/assignee-field.js';
import { ASSIGNEE_FORMS, parseAssignee } from '../assignee.js';
import { bitFrontMatterShape, type BitFrontMatter, type ElementEntryFile } from './format.js';
import { nodeIds } from './ids.js';
import { problemOf, type FolderProblem } from './problems.js';
import { splitFrontMatter, writeFrontMatterFile, YamlText } from './yaml-text.js';

/** A bit as the folder holds it: the fields of get_bit that a file keeps, and its body. */
export interface BitRecord {
  id: string;
  title: string;
  abstract: string | null;
  description: string | null;
  categories: string[];
  complexity: Complexity;
  human_required: boolean;
  /** Who does its step, portably (folder/assignees.ts): person:<email>, group:<name>, starter, context:<field>. */
  assignee: string | null;
  expected_duration: string | null;
  body: SlateBody;
  /** Its reference links in display order (link_reference): the reference and the label set on the link. */
  links: BitLink[];
}

export interface BitLink {
  reference_id: string;
  display_label: string | null;
}

/** How a file names other records: their folder paths, relative to its own (layout.ts relativeName). */
export interface RecordNames {
  bit(id: string): string | undefined;
  reference(id: string): string | undefined;
}

function sortedRecord(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, value[k]]));
}

/**
 * The body's elements as entries: what the body's lines do not say. The label is on the element's line, a
 * link-inline's url on its link, an item's text (and its checked state, where the line has a box) on its line.
 */
function entriesOf(body: SlateBody): ElementEntryFile[] {
  return listElements(body).map((element) => {
    const def = ELEMENTS[element.type as keyof typeof ELEMENTS];
    const props = { ...element.props };
    if (def.hasLabel) delete props.label;
    if (def.placement === 'inline') delete props.url;
    const entry: ElementEntryFile = { id: element.id, type: def.type };
    if (Object.keys(props).length > 0) entry.props = sortedRecord(props);
    if (def.items && element.items && element.items.length > 0) {
      entry.items = element.items.map((item) => {
        const { id, ...fields } = item as { id: string } & Record<string, unknown>;
        delete fields[def.items!.textField];
        if (def.items!.marker !== 'none') delete fields.checked;
        return { id, ...sortedRecord(fields) };
      });
    }
    return entry;
  });
}

/** A copy of the body with its connections and citations naming files, and its connections without ids. */
function namedBody(body: SlateBody, names: RecordNames): SlateBody {
  const copy = structuredClone(body);
  walk(copy.children, (node) => {
    const type = (node as { type?: string }).type;
    if (type === 'bit-connection') {
      const c = node as ConnectionNode;
      c.id = null;
      c.target_bit_id = names.bit(c.target_bit_id) ?? c.target_bit_id;
      return false;
    }
    if (type === 'citation') {
      const c = node as CitationNode;
      c.reference_id = names.reference(c.reference_id) ?? c.reference_id;
    }
    return true;
  });
  return copy;
}

export function bitFrontMatter(bit: BitRecord, names: RecordNames): BitFrontMatter {
  const front: BitFrontMatter = { id: bit.id, title: bit.title };
  if (bit.abstract !== null) front.abstract = bit.abstract;
  if (bit.description !== null) front.description = bit.description;
  if (bit.categories.length > 0) front.categories = bit.categories;
  front.complexity = bit.complexity;
  front.human_required = bit.human_required;
  if (bit.assignee !== null) front.assignee = bit.assignee;
  if (bit.expected_duration !== null) front.expected_duration = bit.expected_duration;
  const elements = entriesOf(bit.body);
  if (elements.length > 0) front.elements = elements;
  if (bit.links.length > 0) {
    front.references = bit.links.map((link) => ({ file: names.reference(link.reference_id) ?? link.reference_id, ...(link.display_label === null ? {} : { label: link.display_label }) }));
  }
  return front;
}

export function writeBitFile(bit: BitRecord, names: RecordNames): string {
  return writeFrontMatterFile(bitFrontMatter(bit, names) as Record<string, unknown>, bodyToMarkdown(namedBody(bit.body, names)));
}

/** A bit file as read: its own id (when it names one), its fields and its body, targets named by folder ids. */
export interface ReadBit {
  id: string | undefined;
  title: string;
  abstract: string | null;
  description: string | null;
  categories: string[];
  complexity: Complexity;
  human_required: boolean;
  /** As written (checked for its form only): the import resolves it against the store (folder/assignees.ts). */
  assignee: string | null;
  /** The line of `assignee`, for the import's problem when it names no one. */
  assigneeLine: number | null;
  expected_duration: string | null;
  body: SlateBody;
  /** Its reference links, the references by the ids `names` gave their files. */
  links: BitLink[];
}

/** The front matter of a bit file, checked; `yaml` to name the lines of later problems. */
export function readBitHeader(file: string, text: string): { front: BitFrontMatter; yaml: YamlText; body: string; bodyLine: number } | { problems: FolderProblem[] } {
  const split = splitFrontMatter(file, text);
  if ('code' in split) return { problems: [split] };
  const parsed = YamlText.parse(file, split.yaml, 1);
  if ('problems' in parsed) return parsed;
  const checked = bitFrontMatterShape.safeParse(parsed.value ?? {});
  if (!checked.success) {
    return {
      problems: checked.error.issues.map((issue) => ({
        file,
        line: parsed.yaml.lineOf(issue.path),
        code: 'VALIDATION_ERROR' as const,
        message: `${pathText(issue.path) || 'front matter'}: ${issue.message}`,
      })),
    };
  }
  return { front: checked.data, yaml: parsed.yaml, body: split.body, bodyLine: split.bodyLine };
}

/**
 * What the body's anchors may name: the elements the front matter declares by id, each as a bare node of its type
 * with its items' ids. The converter then reads every element as an `elements` entry editing it (its props and
 * items from the entry, its label and item texts from its lines), checked as update_bit checks one.
 */
function declared(entries: readonly ElementEntryFile[]): BodyIndex {
  const index: BodyIndex = new Map();
  for (const entry of entries) {
    if (entry.id === undefined || !isElementType(entry.type)) continue;
    const items = (entry.items ?? []).flatMap((i) => (typeof i.id === 'string' ? [{ id: i.id }] : []));
    const node = { type: entry.type, id: entry.id, props: {}, ...(ELEMENTS[entry.type].items ? { items } : {}), children: [{ text: '' }] } as never;
    index.set(entry.id, { kind: 'element', node });
    for (const item of items) index.set(item.id, { kind: 'item', node: item as never, element: node });
  }
  return index;
}

/** Where in the file a converter's refusal points: a body line (moved by where the body starts), or an entry. */
function lineOfError(error: WaymarkError, yaml: YamlText, bodyLine: number): number | null {
  const details = error.details as { line?: unknown; issues?: Array<{ path?: string }> } | undefined;
  if (typeof details?.line === 'number') return details.line + bodyLine - 1;
  const path = details?.issues?.[0]?.path ?? '';
  const bodyAt = /^bit_body line (\d+)/.exec(path);
  if (bodyAt) return Number(bodyAt[1]) + bodyLine - 1;
  const entryAt = /^elements\[(\d+)\](?:\.items\[(\d+)\])?/.exec(path);
  if (entryAt) return yaml.lineOf(['elements', Number(entryAt[1]), ...(entryAt[2] === undefined ? [] : ['items', Number(entryAt[2])])]);
  if (path === 'title' || path === 'assignee' || path === 'expected_duration') return yaml.lineOf([path]);
  if (error.code === 'UNKNOWN_ELEMENT_PROP' || error.code === 'ELEMENT_NOT_FOUND') return yaml.lineOf(['elements']);
  const found = /line (\d+)/.exec(error.message);
  return found ? Number(found[1]) + bodyLine - 1 : null;
}

/**
 * Reads a bit file as add_bit and update_bit read their input: the body through the converter, its targets named
 * through `names`; `id` is the folder's id of this bit (new nodes written by hand take ids derived from it).
 */
export function readBitFile(file: string, text: string, id: string, names: TargetNames): ReadBit | { problems: FolderProblem[] } {
  const header = readBitHeader(file, text);
  if ('problems' in header) return header;
  const { front, yaml } = header;
  try {
    checkTitle(front.title, 'title');
    const expectedDuration = checkedDuration(front.expected_duration ?? null);
    const assignee = blankToNull(front.assignee ?? null)?.trim() ?? null;
    if (assignee !== null && parseAssignee(assignee) === null) {
      return { problems: [{ file, line: yaml.lineOf(['assignee']), code: 'VALIDATION_ERROR', message: `assignee: ${JSON.stringify(assignee.slice(0, 80))} is not an assignee: write ${ASSIGNEE_FORMS}` }] };
    }
    const { body } = markdownToBody(header.body, {
      elements: (front.elements ?? []) as ElementEntry[],
      previous: declared(front.elements ?? []),
      names,
      adoptAnchors: true,
      newId: nodeIds(id),
      sizeCheckedByCaller: true,
    });
    assertJsonSize(JSON.stringify(body));
    const links: BitLink[] = [];
    for (const [i, link] of (front.references ?? []).entries()) {
      const line = yaml.lineOf(['references', i, 'file']);
      const referenceId = names.reference(link.file);
      if (referenceId === undefined) return { problems: [{ file, line, code: 'REFERENCE_NOT_FOUND', message: `references[${i}].file '${link.file}' names no reference file of the folder; name it relative to this one` }] };
      if (links.some((l) => l.reference_id === referenceId)) return { problems: [{ file, line, code: 'DUPLICATE_REFERENCE_LINK', message: `references[${i}]: ${link.file} is linked twice; a bit links a reference once` }] };
      links.push({ reference_id: referenceId, display_label: blankToNull(link.label ?? null) });
    }
    return {
      id: front.id,
      title: checkTitle(front.title, 'title'),
      abstract: blankToNull(front.abstract ?? null),
      description: blankToNull(front.description ?? null),
      categories: front.categories ?? [],
      complexity: front.complexity ?? 'medium',
      human_required: front.human_required ?? false,
      assignee,
      assigneeLine: assignee === null ? null : yaml.lineOf(['assignee']),
      expected_duration: expectedDuration,
      body,
      links,
    };
  } catch (error) {
    return { problems: [problemOf(file, error, (e) => lineOfError(e, yaml, header.bodyLine))] };
  }
}
