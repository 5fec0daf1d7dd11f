/** The anchor of a link or an image: its node id in the title, `waymark-node:<id>[ <own title>]`. */
import { nodeScheme } from '../../brand.js';

/** Splits a link title into our anchor (`waymark-node:<ref>`) and the link's own title after one space. */
export function splitAnchorTitle(title: string | null, anchorPrefix: string): { ref: string | null; title?: string } {
  if (title === null || title === '') return { ref: null };
  if (!title.startsWith(anchorPrefix)) return { ref: null, title };
  const space = title.indexOf(' ', anchorPrefix.length);
  const ref = space < 0 ? title.slice(anchorPrefix.length) : title.slice(anchorPrefix.length, space);
  const own = space < 0 ? '' : title.slice(space + 1);
  return own === '' ? { ref } : { ref, title: own };
}

/** The title a link or image is written with: its anchor, then its own title. */
export function anchorTitle(id: string, own: string | undefined): string {
  return own !== undefined && own !== '' ? `${nodeScheme}:${id} ${own}` : `${nodeScheme}:${id}`;
}
