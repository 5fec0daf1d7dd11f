/**
 * What the references service answers, as zod schemas: each shape is written once, here, and is both the
 * service's type (z.infer) and the output schema the reference tools declare (operations/references/reference-schemas.ts,
 * get-reference.ts, search-references.ts; authoring-interface.md, "Reference" and "Bit-level reference link").
 */
import { z } from 'zod';
import { LIMITS } from '../../limits/index.js';

export const referenceWrittenShape = z.object({
  reference_id: z.string(),
  last_modified_date_time_utc: z.string(),
});
export type ReferenceWritten = z.infer<typeof referenceWrittenShape>;

export const linkWrittenShape = z.object({
  bit_id: z.string(),
  bit_reference_id: z.string(),
  reference_id: z.string(),
  position: z.number().int().describe('The link\'s zero-based position in the bit\'s list after this call.'),
});
export type LinkWritten = z.infer<typeof linkWrittenShape>;

export const linkRemovedShape = z.object({ bit_id: z.string(), reference_id: z.string() });
export type LinkRemoved = z.infer<typeof linkRemovedShape>;

/** A bit's link as a step shows it (and get_bit, whose own schema predates this one). */
export const referenceLinkShape = z.object({
  bit_reference_id: z.string(),
  reference_id: z.string(),
  /** As set on the link; null when none was given. */
  display_label: z.string().nullable(),
  /** What is shown: the display label, or the reference's title when none (authoring-interface.md, Bit-level reference link). */
  label: z.string(),
  /** Zero-based, dense. */
  position: z.number().int(),
});
export type ReferenceLink = z.infer<typeof referenceLinkShape>;

/** get_reference: every field, the body as Slate nodes. */
export const referenceViewShape = z.object({
  reference_id: z.string(),
  reference_title: z.string(),
  reference_abstract: z.string().nullable(),
  reference_content: z.array(z.record(z.string(), z.unknown())),
  content_format: z.literal('slate'),
  reference_categories: z.array(z.string()),
  scope_id: z.string().nullable(),
  is_active: z.boolean(),
  author_principal_id: z.string(),
  created_date_time_utc: z.string(),
  last_modified_date_time_utc: z.string(),
});
export type ReferenceView = z.infer<typeof referenceViewShape>;

export const referenceHitShape = z.object({
  reference_id: z.string(),
  reference_title: z.string(),
  reference_abstract: z.string().nullable(),
  reference_categories: z.array(z.string()),
  scope_id: z.string().nullable(),
  is_active: z.boolean(),
  snippet: z.string().describe(`An excerpt of the body text's first ${LIMITS.snippetWindowChars} characters with the matched words marked **…**.`),
  score: z.number().describe('Relevance, higher is better; comparable only within one search.'),
});
export type ReferenceHit = z.infer<typeof referenceHitShape>;

/** search_references' answer. */
export const referenceSearchPageShape = z.object({ results: z.array(referenceHitShape), next_cursor: z.string().nullable() });
export type ReferenceSearchPage = z.infer<typeof referenceSearchPageShape>;
