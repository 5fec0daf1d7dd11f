/**
 * applyElementEdits: update_bit with `elements` and no `bit_body` (rule 5): an id entry edits a stored
 * element's props and items in place, a key entry appends a new element at the end of the body.
 */
import { WaymarkError } from '../errors.js';
import { indexBody } from './body-index.js';
import { validateElementEntries, type ElementEntry } from './entries.js';
import { defaultNewId } from './ids.js';
import type { ConvertResult } from './markdown/convert.js';
import { ElementResolver, standingAlone } from './resolve.js';
import { assertBodySize } from './size.js';
import type { ElementNode, SlateBody } from './slate.js';
import { quote } from '../quote.js';

export function applyElementEdits(body: SlateBody, elements: ElementEntry[], opts: { newId?: () => string } = {}): ConvertResult {
  const entries = validateElementEntries(elements);
  const copy = structuredClone(body);
  const index = indexBody(copy);
  const resolver = new ElementResolver(entries, index, opts.newId ?? defaultNewId);
  for (const [id, entry] of resolver.idEntries()) {
    const found = index.get(id);
    if (!found || found.kind !== 'element') {
      throw new WaymarkError('ELEMENT_NOT_FOUND', `this bit has no element ${quote(id)}; read the bit with get_bit for its element ids`, { element_id: quote(id) });
    }
    resolver.editInPlace(found.node as ElementNode, entry);
  }
  for (const entry of resolver.keyEntries()) {
    const node = resolver.newFromEntry(entry);
    copy.children.push(standingAlone(node));
  }
  assertBodySize(copy);
  return { body: copy, minted: resolver.minted };
}
