/** Bodies for tests at the entries limit. */
import type { ElementEntry } from '../entries.js';
import { LIMITS } from '../../limits/index.js';

/**
 * Check-lists of four items each under an opening paragraph, as many as LIMITS.entriesAndItemsPerCall allows
 * (40 lists, 200 entries and items): the body issue 24 (finding 11) found refused, a run of block tokens
 * ending between the 11th element line and its items.
 */
export function manyCheckLists(): { markdown: string; elements: ElementEntry[] } {
  const lists = LIMITS.entriesAndItemsPerCall / 5;
  const parts = ['Intro'];
  const elements: ElementEntry[] = [];
  for (let l = 0; l < lists; l++) {
    const keys = [0, 1, 2, 3].map((k) => `l${l}i${k}`);
    parts.push([`[check-list: List ${l}](waymark-node:l${l})`, ...keys.map((k) => `- [ ] [Item ${k}](waymark-node:${k})`)].join('\n'));
    elements.push({ key: `l${l}`, type: 'check-list', items: keys.map((key) => ({ key })) });
  }
  return { markdown: `${parts.join('\n\n')}\n`, elements };
}
