/**
 * What changed between two revisions of a bit or reference, for a person or agent to read: a line diff of the
 * markdown bodies (jsdiff), the fields that changed, and the elements and connections added, removed or changed,
 * each named by its label. Pure: the service reads the two sides (their markdown, elements and connections).
 */
import { structuredPatch } from 'diff';
import type { ConnectionNode, ListedElement } from '../../content/index.js';
import { comparable } from './compare.js';
import type { BitChanges, BodyDiff, ConnectionChange, ElementChange, FieldChange } from './shapes.js';

/** One side of a diff: its fields (a revision's), and its body as markdown with its elements and connections. */
export interface DiffSide {
  fields: Record<string, unknown>;
  markdown: string | null;
  elements: readonly ListedElement[];
  connections: readonly ConnectionNode[];
}

/** A line diff stops being shown line by line past this many edits, or this many characters of diff. */
const MAX_EDITS = 20_000;
const MAX_DIFF_CHARS = 256 * 1024;
const CONTEXT_LINES = 3;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A link shows as its label; a side's links are compared by reference and label. */
function shown(field: string, value: unknown): unknown {
  if (field === 'references' && Array.isArray(value)) return value.map((l: { label?: string; reference_id?: string }) => l.label ?? l.reference_id);
  return value;
}

export function fieldChanges(before: Record<string, unknown>, after: Record<string, unknown>): FieldChange[] {
  const a = comparable(before);
  const b = comparable(after);
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.filter((k) => !same(a[k] ?? null, b[k] ?? null)).map((field) => ({ field, before: shown(field, a[field] ?? null), after: shown(field, b[field] ?? null) }));
}

export function bodyDiff(before: string, after: string): BodyDiff | null {
  if (before === after) return null;
  const patch = structuredPatch('before', 'after', ensureNewline(before), ensureNewline(after), '', '', { context: CONTEXT_LINES, maxEditLength: MAX_EDITS });
  if (!patch) return { unified: '', added_lines: null, removed_lines: null, shown: false };
  let added = 0;
  let removed = 0;
  const out: string[] = [];
  for (const hunk of patch.hunks) {
    out.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
    for (const line of hunk.lines) {
      if (line.startsWith('\\')) continue;
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
      out.push(line);
    }
  }
  const unified = out.join('\n');
  return unified.length > MAX_DIFF_CHARS
    ? { unified: unified.slice(0, MAX_DIFF_CHARS), added_lines: added, removed_lines: removed, shown: false }
    : { unified, added_lines: added, removed_lines: removed, shown: true };
}

const ensureNewline = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);

/** An element's name for a person: its label prop, else its other naming props, else its type. */
function elementLabel(e: ListedElement): string | null {
  for (const key of ['label', 'title', 'name', 'placeholder']) {
    const value = e.props[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return null;
}

function elementRef(e: ListedElement): ElementChange {
  return { element_id: e.id, element_type: e.type, label: elementLabel(e) };
}

function connectionRef(c: ConnectionNode): ConnectionChange {
  return { connection_id: c.id ?? '', target_bit_id: c.target_bit_id, label: c.label };
}

function byId<T>(list: readonly T[], id: (item: T) => string | null): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of list) {
    const key = id(item);
    if (key !== null) map.set(key, item);
  }
  return map;
}

export function changesBetween(before: DiffSide, after: DiffSide): BitChanges {
  const oldElements = byId(before.elements, (e) => e.id);
  const newElements = byId(after.elements, (e) => e.id);
  const oldConnections = byId(before.connections, (c) => c.id);
  const newConnections = byId(after.connections, (c) => c.id);
  return {
    fields: fieldChanges(before.fields, after.fields),
    body: before.markdown === null || after.markdown === null ? null : bodyDiff(before.markdown, after.markdown),
    elements: {
      added: after.elements.filter((e) => !oldElements.has(e.id)).map(elementRef),
      removed: before.elements.filter((e) => !newElements.has(e.id)).map(elementRef),
      changed: after.elements.flatMap((e) => {
        const old = oldElements.get(e.id);
        if (!old) return [];
        const props = [...new Set([...Object.keys(old.props), ...Object.keys(e.props)])].filter((k) => !same(old.props[k], e.props[k]));
        if (!same(old.items, e.items)) props.push('items');
        return props.length > 0 ? [{ ...elementRef(e), changed: props.sort() }] : [];
      }),
    },
    connections: {
      added: after.connections.filter((c) => c.id === null || !oldConnections.has(c.id)).map(connectionRef),
      removed: before.connections.filter((c) => c.id === null || !newConnections.has(c.id)).map(connectionRef),
      changed: after.connections.flatMap((c) => {
        const old = c.id === null ? undefined : oldConnections.get(c.id);
        if (!old) return [];
        const changed = (['target_bit_id', 'label', 'params'] as const).filter((k) => !same(old[k], c[k]));
        return changed.length > 0 ? [{ ...connectionRef(c), changed: [...changed] }] : [];
      }),
    },
  };
}

/** Whether a diff holds no change at all. */
export function isEmpty(changes: BitChanges): boolean {
  return changes.fields.length === 0 && changes.body === null && Object.values(changes.elements).every((l) => l.length === 0) && Object.values(changes.connections).every((l) => l.length === 0);
}
