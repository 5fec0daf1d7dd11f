/**
 * The reference and link fields as tool inputs and outputs, shared by the References Library tools so each
 * field has one definition (authoring-interface.md, "Reference" and "Bit-level reference link"; limits
 * from limits/).
 */
import { z } from 'zod';
import { LIMITS } from '../../limits/index.js';
import { categories, categoriesReplaced, recordId, slateNodes } from '../common-schemas.js';

export { lastModifiedIgnored } from '../common-schemas.js';

export const referenceId = recordId();
export { bitId } from '../bits/bit-schemas.js';

export const referenceTitle = z
  .string()
  .max(LIMITS.title)
  .describe('Not blank.');

const abstractValue = z.string().max(LIMITS.referenceAbstract);
export const referenceAbstract = abstractValue.describe('Empty stores null; omitted: derived from the body\'s first sentences.');
export const referenceAbstractOfUpdate = abstractValue.describe('Empty stores null.');

const contentValue = z.union([slateNodes(), z.string()]);

export const referenceContent = contentValue.describe(
  'Slate nodes as in bit bodies, e.g. [{"type":"p","children":[{"text":"…"}]}], or that array as a JSON string; no interactive elements.',
);

/** update_reference's body: the same model, which tools/list already shows once (create_reference). */
export const referenceContentReplaced = contentValue.describe('The whole new body, as in create_reference.');

export const contentFormat = z.literal('slate');

export const referenceCategories = categories;
export const referenceCategoriesReplaced = categoriesReplaced;

export const displayLabel = z
  .string()
  .max(LIMITS.displayLabel)
  .describe('Omitted or empty: the reference title.');

export { linkRemovedShape as linkRemoved, linkWrittenShape as linkWritten, referenceWrittenShape as referenceWritten } from '../../services/references/shapes.js';
