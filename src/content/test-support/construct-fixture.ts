import type { ElementEntry } from '../index.js';

/** One construct in markdown, its Slate, and the canonical markdown printed back (constructs/*.fixtures.ts). */
export interface ConstructFixture {
  name: string;
  markdown: string;
  elements?: ElementEntry[];
  slate: unknown[];
  canonical: string;
  minted?: Record<string, string>;
}
