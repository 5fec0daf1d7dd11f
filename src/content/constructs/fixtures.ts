/**
 * Each construct in markdown, its Slate, and the canonical markdown printed back, gathered from the fixture
 * file beside each construct (markdown/constructs.test.ts, markdown/prescan.test.ts).
 */
import type { ConstructFixture } from '../test-support/construct-fixture.js';
import { bitConnectionFixtures } from './bit-connection.fixtures.js';
import { citationFixtures } from './citation.fixtures.js';
import { codeFixtures } from './code.fixtures.js';
import { credentialFixtures } from './credential.fixtures.js';
import { elementLineFixtures } from './element-line.fixtures.js';
import { headingFixtures } from './heading.fixtures.js';
import { inlineElementFixtures } from './inline-element.fixtures.js';
import { linkFixtures } from './link.fixtures.js';
import { listFixtures } from './list.fixtures.js';
import { paragraphFixtures } from './paragraph.fixtures.js';
import { quoteFixtures } from './quote.fixtures.js';
import { tableFixtures } from './table.fixtures.js';
import { thematicBreakFixtures } from './thematic-break.fixtures.js';

export const CONSTRUCT_FIXTURES: ConstructFixture[] = [
  ...paragraphFixtures,
  ...headingFixtures,
  ...listFixtures,
  ...quoteFixtures,
  ...codeFixtures,
  ...thematicBreakFixtures,
  ...tableFixtures,
  ...linkFixtures,
  ...citationFixtures,
  ...credentialFixtures,
  ...elementLineFixtures,
  ...inlineElementFixtures,
  ...bitConnectionFixtures,
];
