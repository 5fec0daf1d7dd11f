/**
 * Body pieces of every element type, for the trail tests: each is the markdown add_bit takes (an element line
 * anchored by a key, its items under it) and its elements[] entry. test/graph-fixtures.ts's addTestBit writes
 * them through add_bit and hands back the ids the server minted for the keys.
 */
export interface ElementEntry {
  key: string;
  type: string;
  props?: Record<string, unknown>;
  items?: Array<{ key: string; [field: string]: unknown }>;
}

export interface BodyPiece {
  markdown: string;
  elements?: ElementEntry[];
}

/** The pieces as one add_bit body: blocks apart by a blank line. */
export function bodyOf(pieces: BodyPiece[]): { markdown: string; elements: ElementEntry[] } {
  return { markdown: pieces.map((piece) => piece.markdown).join('\n\n'), elements: pieces.flatMap((piece) => piece.elements ?? []) };
}

const anchor = (key: string) => `waymark-node:${key}`;

/** An element line with its label (taken out of the props: the line carries it) and the items' lines under it. */
function element(type: string, key: string, defaultLabel: string | null, props: Record<string, unknown>, items?: { lines: string[]; entries: ElementEntry['items'] }): BodyPiece {
  const { label, ...rest } = props;
  const shown = (label as string | undefined) ?? defaultLabel;
  const line = `[${shown === null ? type : `${type}: ${shown}`}](${anchor(key)})`;
  const entry: ElementEntry = { key, type, ...(Object.keys(rest).length > 0 ? { props: rest } : {}), ...(items ? { items: items.entries } : {}) };
  return { markdown: [line, ...(items?.lines ?? [])].join('\n'), elements: [entry] };
}

export const p = (text: string): BodyPiece => ({ markdown: text });

export function textArea(key: string, props: Record<string, unknown> = {}): BodyPiece {
  return element('text-area', key, 'Notes', props);
}
export function datePicker(key: string, props: Record<string, unknown> = {}): BodyPiece {
  return element('date-picker', key, 'When', props);
}
export function dropdown(key: string, options: string[], props: Record<string, unknown> = {}): BodyPiece {
  return element('dropdown', key, 'Pick', props, { lines: options.map((o) => `- [Option ${o}](${anchor(o)})`), entries: options.map((o) => ({ key: o, value: o })) });
}
export function radio(key: string, options: string[], props: Record<string, unknown> = {}): BodyPiece {
  return element('radio-button', key, 'Choose', props, { lines: options.map((o) => `- ( ) [Radio ${o}](${anchor(o)})`), entries: options.map((o) => ({ key: o })) });
}
export function checkList(key: string, items: Array<{ id: string; required?: boolean; checked?: boolean }>): BodyPiece {
  return element('check-list', key, 'Tasks', {}, {
    lines: items.map((i) => `- [${i.checked ? 'x' : ' '}] [Task ${i.id}](${anchor(i.id)})`),
    entries: items.map((i) => ({ key: i.id, ...(i.required ? { required: true } : {}) })),
  });
}
export function searchable(key: string, data: unknown[], props: Record<string, unknown> = {}): BodyPiece {
  return element('searchable-field', key, 'Find', { data, ...props });
}
export function linkBlock(key: string, url: string): BodyPiece {
  return element('link-block', key, null, { url });
}
export function linkInlineParagraph(key: string, url: string): BodyPiece {
  return { markdown: `Read [the guide](${url} "${anchor(key)}") first.`, elements: [{ key, type: 'link-inline', props: { url } }] };
}
export function video(key: string, url: string): BodyPiece {
  return element('video-external', key, null, { url });
}
export function iframe(key: string, url: string): BodyPiece {
  return element('iframe', key, null, { url });
}
