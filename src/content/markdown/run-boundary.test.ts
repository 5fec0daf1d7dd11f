/**
 * Block tokens reach the walker in runs (md.ts, blockStream); an element line reads the item list after it,
 * a top-level block of its own (issue 24, finding 11). The same body must give the same Slate wherever a
 * run ends: here with a run ending at every place, from runs of one token up to the whole body.
 */
import { describe, expect, it } from 'vitest';
import { markdownToBody, type ElementEntry } from '../index.js';
import { LIMITS } from '../../limits/index.js';
import { manyCheckLists } from '../test-support/check-lists.js';
import { idMaker } from '../test-support/ids.js';
import { CONSTRUCTS } from '../constructs/index.js';
import { bodyParsers } from './md.js';

const TARGET = '22222222-2222-4222-8222-222222222222';

/** Element lines with and without items, at the top and nested, beside prose, lists, a quote and a connection. */
const BODY = `Intro paragraph.

[check-list: Tasks](waymark-node:c1)
- [ ] [One](waymark-node:c1a)
- [x] [Two](waymark-node:c1b) *(required)*

[text-area: Notes](waymark-node:t1)
- a plain list right under an element without items

[radio-button: Pick](waymark-node:r1)
- ( ) [Left](waymark-node:r1a)
- ( ) [Right](waymark-node:r1b)

Prose right above
[dropdown: Site](waymark-node:d1)
- [North](waymark-node:d1a)
- [South](waymark-node:d1b)

+ [ ] a task
+ another item

> [check-list: Quoted](waymark-node:c2)
> - [ ] [Q](waymark-node:c2a)

1. an item
   [check-list: Nested](waymark-node:c3)
   - [ ] [N](waymark-node:c3a)

[Go](bit-connection:${TARGET}?when=c1a:checked)

# Heading

[check-list: Last](waymark-node:c4)
- [ ] [L](waymark-node:c4a)
`;

const ELEMENTS: ElementEntry[] = [
  { key: 'c1', type: 'check-list', items: [{ key: 'c1a' }, { key: 'c1b' }] },
  { key: 't1', type: 'text-area' },
  { key: 'r1', type: 'radio-button', items: [{ key: 'r1a' }, { key: 'r1b' }] },
  { key: 'd1', type: 'dropdown', items: [{ key: 'd1a' }, { key: 'd1b' }] },
  { key: 'c2', type: 'check-list', items: [{ key: 'c2a' }] },
  { key: 'c3', type: 'check-list', items: [{ key: 'c3a' }] },
  { key: 'c4', type: 'check-list', items: [{ key: 'c4a' }] },
];

function convert(markdown: string, elements: ElementEntry[], blockRun: number) {
  return markdownToBody(markdown, { elements, newId: idMaker(), blockRun });
}

describe('a run of block tokens may end anywhere', () => {
  it('gives the same Slate with a run ending at every place of a body of element lines and items', () => {
    const count = bodyParsers(CONSTRUCTS).block.parse(BODY, {}).length;
    const whole = convert(BODY, ELEMENTS, Number.POSITIVE_INFINITY);
    // The body holds every element with its items, as written.
    expect(Object.keys(whole.minted)).toHaveLength(ELEMENTS.length + ELEMENTS.reduce((n, e) => n + (e.items?.length ?? 0), 0));
    for (let run = 1; run <= count; run++) {
      expect({ run, ...convert(BODY, ELEMENTS, run) }).toEqual({ run, ...whole });
    }
  });

  it('reads the largest body of check-lists the entries limit allows, at the default run size and at others', () => {
    const { markdown, elements } = manyCheckLists();
    const whole = markdownToBody(markdown, { elements, newId: idMaker() });
    expect(Object.keys(whole.minted)).toHaveLength(LIMITS.entriesAndItemsPerCall);
    expect(convert(markdown, elements, Number.POSITIVE_INFINITY)).toEqual(whole);
    // The body repeats every 25 tokens (an element line's 3, its list's 22): runs of up to three of those
    // end at every place of one.
    for (let run = 1; run <= 75; run++) {
      expect({ run, ...convert(markdown, elements, run) }).toEqual({ run, ...whole });
    }
  });
});
