/**
 * The files of a folder as zod shapes (issue 30): a bit's front matter, a reference's, a flow's file and the
 * manifest. Each shape is written once, here: the import checks files against it, and docs/export-format/*.schema.json
 * is generated from it (scripts/export-format.ts; a test keeps them equal). The limits are the tools' own (LIMITS).
 */
import { z } from 'zod';
import { ELEMENT_TYPES } from '../../content/index.js';
import { LIMITS } from '../../limits/index.js';
import { COMPLEXITIES, PRIORITIES } from '../../store/enums.js';
import { FORMAT_NAME, FORMAT_VERSION } from './layout.js';

const id = z.guid({ error: 'must be a UUID, as export wrote it; leave it out for a new record' });
const title = z.string().min(1).max(LIMITS.title);
const categories = z.array(z.string().max(LIMITS.categoryLength)).max(LIMITS.categories);
const fileName = z.string().max(LIMITS.folderPathChars);

/** A node id kept in a file: a UUID, as get_bit prints them (a hand-written element takes a key instead). */
const nodeId = z.guid({ error: 'must be a UUID as export wrote it; a new element or item takes a key instead' });

const item = z
  .object({ id: nodeId.optional(), key: z.string().max(LIMITS.nodeRefLength).optional() })
  .catchall(z.unknown())
  .describe('An item: its id (or key, for a new one) and fields; its text and checked state are on its line in the body.');

/**
 * An element of the body, as update_bit's `elements` entries name one (authoring-interface.md, update_bit rule 6):
 * its id (or a key, for one written by hand), type, props and items. The label, a link-inline's url and an item's
 * text are on the element's line in the body, so a one-word edit is one line of the file.
 */
export const elementEntryShape = z.strictObject({
  id: nodeId.optional(),
  key: z.string().max(LIMITS.nodeRefLength).optional(),
  type: z.enum(ELEMENT_TYPES),
  props: z.record(z.string(), z.unknown()).optional(),
  items: z.array(item).optional(),
});
export type ElementEntryFile = z.infer<typeof elementEntryShape>;

export const bitFrontMatterShape = z
  .strictObject({
    id: id.optional().describe('The bit\'s id; left out, the bit is new and its id comes from the file\'s path.'),
    title,
    abstract: z.string().max(LIMITS.bitAbstract).optional(),
    description: z.string().max(LIMITS.bitDescription).optional(),
    categories: categories.optional(),
    complexity: z.enum(COMPLEXITIES).optional().describe('Default medium.'),
    human_required: z.boolean().optional().describe('Default false.'),
    assignee: z.string().max(400).optional().describe('Who does its step: starter, person:<email or id>, group:<name or id>, context:<trail_context field>. Left out: anyone who may run the trail.'),
    expected_duration: z.string().max(40).optional().describe('How long its step should take, ISO 8601 in weeks, days, hours, minutes or seconds: P2D, PT4H.'),
    elements: z.array(elementEntryShape).optional(),
    references: z
      .array(
        z.strictObject({
          file: fileName.describe('The reference\'s file, relative to this one: ../references/<name>.md.'),
          label: z.string().max(LIMITS.displayLabel).optional().describe('The link\'s display label; left out, the reference\'s title is shown.'),
        }),
      )
      .optional()
      .describe('The bit\'s reference links (link_reference), in display order.'),
  })
  .meta({ title: 'Waymark bit front matter', description: 'The YAML front matter of bits/<name>.md; the body below it is get_bit\'s markdown, connections and citations naming files.' });
export type BitFrontMatter = z.infer<typeof bitFrontMatterShape>;

export const referenceFrontMatterShape = z
  .strictObject({
    id: id.optional(),
    title,
    abstract: z.string().max(LIMITS.referenceAbstract).optional(),
    categories: categories.optional(),
  })
  .meta({ title: 'Waymark reference front matter', description: 'The YAML front matter of references/<name>.md; the body below it is the reference content as markdown.' });
export type ReferenceFrontMatter = z.infer<typeof referenceFrontMatterShape>;

export const referenceJsonShape = referenceFrontMatterShape
  .extend({ content: z.array(z.record(z.string(), z.unknown())).min(1).describe('Slate nodes, as get_reference answers reference_content.') })
  .meta({ title: 'Waymark reference (JSON)', description: 'references/<name>.json: a reference whose content does not come back the same from markdown.' });
export type ReferenceJson = z.infer<typeof referenceJsonShape>;

export const flowFileShape = z
  .strictObject({
    id: id.optional(),
    title,
    description: z.string().max(LIMITS.flowDescription).optional(),
    categories: categories.optional(),
    priority: z.enum(PRIORITIES).optional().describe('Default medium.'),
    start_bit: fileName.describe('The start bit\'s file, relative to this one: ../bits/<name>.md.'),
    trail_context_schema: z.record(z.string(), z.unknown()).optional().describe('As create_flow takes it.'),
  })
  .meta({ title: 'Waymark flow', description: 'flows/<name>.yaml: a flow\'s fields; its graph is the connections of its bits.' });
export type FlowFile = z.infer<typeof flowFileShape>;

export const CONTENTS = ['flow', 'all'] as const;

export const manifestShape = z
  .strictObject({
    format: z.literal(FORMAT_NAME),
    version: z.literal(FORMAT_VERSION),
    contents: z.enum(CONTENTS).describe('flow: one flow and the bits it reaches; all: every bit, flow and reference of a scope or of the account level.'),
  })
  .meta({ title: 'Waymark folder manifest', description: 'waymark.json at the top of the folder.' });
export type Manifest = z.infer<typeof manifestShape>;

/** The JSON Schemas of the format, by file name under docs/export-format/. */
export function formatSchemas(): Record<string, unknown> {
  const schema = (shape: z.ZodType) => z.toJSONSchema(shape, { target: 'draft-2020-12', io: 'input' });
  return {
    'bit.schema.json': schema(bitFrontMatterShape),
    'reference.schema.json': schema(referenceFrontMatterShape),
    'reference-json.schema.json': schema(referenceJsonShape),
    'flow.schema.json': schema(flowFileShape),
    'manifest.schema.json': schema(manifestShape),
  };
}
