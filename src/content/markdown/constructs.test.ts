/**
 * Each construct, markdown and Slate side by side: parsing the markdown gives exactly the Slate, printing
 * the Slate gives exactly the canonical markdown, and reading the canonical markdown back (with the body as
 * the previous one) gives the same nodes, ids included.
 */
import { describe, expect, it } from 'vitest';
import { bodyToMarkdown, markdownToBody, type BlockNode } from '../index.js';
import { CONSTRUCT_FIXTURES } from '../constructs/fixtures.js';
import { idMaker } from '../test-support/ids.js';

describe('constructs, markdown and Slate side by side', () => {
  for (const c of CONSTRUCT_FIXTURES) {
    it(c.name, () => {
      const { body, minted } = markdownToBody(c.markdown, { elements: c.elements, newId: idMaker() });
      expect(body.children).toEqual(c.slate);
      expect(minted).toEqual(c.minted ?? {});
      expect(bodyToMarkdown({ children: c.slate as BlockNode[] })).toBe(c.canonical);
      const again = markdownToBody(c.canonical, { previous: body, newId: idMaker() });
      expect(again.body).toEqual(body);
      expect(again.minted).toEqual({});
    });
  }
});
