/** Thematic breaks (thematic-break.ts): markdown, its Slate, and the canonical markdown printed back. */
import type { ConstructFixture } from '../test-support/construct-fixture.js';

export const thematicBreakFixtures: ConstructFixture[] = [
  {
    name: "thematic break",
    markdown: "above\n\n---\n\nbelow\n",
    slate: [
      {
        "type": "p",
        "children": [
          {
            "text": "above"
          }
        ]
      },
      {
        "type": "hr",
        "children": [
          {
            "text": ""
          }
        ]
      },
      {
        "type": "p",
        "children": [
          {
            "text": "below"
          }
        ]
      }
    ],
    canonical: "above\n\n***\n\nbelow\n",
  },
];
